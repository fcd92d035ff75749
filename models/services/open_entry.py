"""The open entry: the manche a table is counting together, each phone counting one hand.

One entry per game, for its next manche: who went out (a seat, or ``blocked``) and, per seat, the
hand as counted (keypad tokens, or a typed total), whether it is marked done, its value (the
core's, ``open_hands.open_hand_value``), and which phone changed it last and when. Each change is
one small write (one hand, or the winner) through the unit of work that bumps the entry's own
``version`` — never the game's revision, so no page kept per revision is invalidated by a tap —
and the live feed hears it in every process (PostgreSQL: a trigger's NOTIFY "<game> entry";
SQLite: ``data_version``) and tells the streams of that game (``feed.EntryChange``).

Two phones changing one hand: the later write wins; what it replaced, when another phone had
written it, is kept with the hand (``replaced``), so that phone is told and may put it back.

Saving records the manche through ``GameService.record_manche`` with the saving phone's
idempotency key and the entry's number: a double tap, two phones at once or a queued save record
it once. The entry then closes (it moves on to the next number, empty). An entry whose number was
recorded meanwhile, or unused for ``LAPSE_SECONDS``, reads as empty.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, replace
from typing import NamedTuple

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core.errors import N_, Conflict, EntryMoved, GameFinished, MissingHand, ValidationError
from ..core.open_hands import BLOCKED, counted_seats, open_hand_value
from ..core.scoring import MancheEntry
from . import keys
from .db import Database, OpenEntry, OpenHand
from .stored import columns_of
from .unit_of_work import unit_of_work

LAPSE_SECONDS = 6 * 3600  # an entry unused this long reads as empty
MAX_SAVES = 5  # the API's save read again when a hand changed while it was saving
MAX_CARDS = 120  # cards in one hand: more than any deck the app knows


class StoredEntry(NamedTuple):
    """The open entry's row: its manche's number, the winner, the seats that count, its version."""

    number: int
    winner: str | None
    expected: str
    version: int
    changed_at: float


class StoredOpenHand(NamedTuple):
    """One hand of the open entry, by seat, with who changed it last and what that replaced."""

    seat: int
    cards: str
    typed: int | None
    done: bool
    value: int
    version: int
    phone: str | None
    name: str | None
    changed_at: float
    replaced_json: str | None


ENTRY_COLUMNS = columns_of(StoredEntry, OpenEntry)
HAND_COLUMNS = columns_of(StoredOpenHand, OpenHand)


def hand_of(row) -> StoredOpenHand:
    hand = StoredOpenHand._make(row)
    return hand._replace(done=bool(hand.done))


@dataclass(frozen=True)
class EntryState:
    """A game's open entry as it stands: ``hands`` by seat (only those touched)."""

    game_id: str
    number: int
    winner: str | None
    expected: tuple[int, ...]
    version: int
    changed_at: float
    hands: tuple[StoredOpenHand, ...] = ()

    def current(self, next_number: int, now: float, dealt) -> EntryState:
        """The entry for manche ``next_number``: empty when it was for another or has lapsed, every
        seat ``dealt`` then counting (no winner chosen yet)."""
        if self.number == next_number and now - self.changed_at <= LAPSE_SECONDS:
            return self
        return replace(self, number=next_number, winner=None, hands=(), expected=tuple(dealt))

    @property
    def winner_seat(self) -> int | None:
        """The seat of who went out (None: a blocked manche, or nobody said yet)."""
        return int(self.winner) if self.winner not in (None, BLOCKED) else None

    def hand(self, seat: int) -> StoredOpenHand | None:
        return next((hand for hand in self.hands if hand.seat == seat), None)

    def missing(self) -> list[int]:
        """The seats whose hands count and are not in yet: neither marked done nor typed (a
        typed total is the hand's last word)."""
        return [
            seat for seat in self.expected if not ((hand := self.hand(seat)) and (hand.done or hand.typed is not None))
        ]


def phone_tag(phone: str | None) -> str | None:
    """What the other phones are told of a phone: a short digest of its id, never the id."""
    return hashlib.sha256(phone.encode()).hexdigest()[:12] if phone else None


def entry_fields(state: EntryState, players: list[str]) -> dict:
    """The open entry as JSON (the API's shape, the stream's ``entry`` event): the winner (by name,
    and by seat for the page's radio buttons) and each hand by player, with its value, who changed
    it last and what that replaced."""
    seat = state.winner_seat
    hands = []
    for hand in state.hands:
        replaced = json.loads(hand.replaced_json) if hand.replaced_json else None
        if replaced:
            replaced["by"] = {"phone": phone_tag(replaced.pop("phone")), "name": replaced.pop("name")}
        hands.append({
            "seat": hand.seat, "player": players[hand.seat], "cards": hand.cards.split(), "typed": hand.typed,
            "done": hand.done, "value": hand.value, "version": hand.version,
            "by": {"phone": phone_tag(hand.phone), "name": hand.name}, "changed_at": hand.changed_at,
            "replaced": replaced,
        })  # fmt: skip
    missing = state.missing()
    return {
        "number": state.number,
        "version": state.version,
        "winner": None if seat is None else players[seat],
        "winner_seat": seat,
        "blocked": state.winner == BLOCKED,
        "expected": [players[seat] for seat in state.expected],
        "missing": [players[seat] for seat in missing],
        "progress": {"done": len(state.expected) - len(missing), "of": len(state.expected)},
        "hands": hands,
    }


class HandChange(NamedTuple):
    """A hand as a phone sends it: its cards (tokens) or typed total, and whether it is done."""

    cards: list
    typed: int | None
    done: bool


class OpenEntries:
    """The open entries of the games on ``database`` (``clock``: time.time, for the tests)."""

    def __init__(self, database: Database, clock=time.time):
        self.db = database
        self.clock = clock

    # --- reading -----------------------------------------------------------------------------------

    def stored(self, game_id: str) -> EntryState | None:
        """The entry as stored (maybe for a manche recorded since), or None: its row and its hands
        in one statement, so of one moment (read apart, a save closing the entry in between would
        leave the row of the manche saved without its hands)."""
        return _entry_of(game_id, self.db.all(ENTRY_AND_HANDS, {"game_id": game_id}))

    def read(self, game) -> EntryState:
        """The open entry of ``game`` (its view) for its next manche."""
        return self._current(game, self.stored(game.id))

    def _current(self, game, stored: EntryState | None) -> EntryState:
        """The entry ``stored`` (or none) as it stands for ``game``'s next manche."""
        if stored is None:
            return EntryState(game.id, game.next_number, None, tuple(_expected(game, None)), 0, self.clock())
        return stored.current(game.next_number, self.clock(), _expected(game, None))

    def versions(self, game_ids) -> dict[str, int]:
        """The version of each of these games' entries (one statement; a game without one: absent)."""
        ids = list(game_ids)
        if not ids:
            return {}
        rows = self.db.all(select(OpenEntry.game_id, OpenEntry.version).where(OpenEntry.game_id.in_(ids)))
        return {game_id: version for game_id, version in rows}

    # --- writing -----------------------------------------------------------------------------------

    def change_hand(self, game, number: int, seat: int, change: HandChange, phone: str, name: str | None):
        """Seat ``seat``'s hand is now ``change``, as phone ``phone`` counted it: the entry as it now
        stands. The later of two changes wins; what it replaced of another phone is kept."""
        _check_seat(game, seat)
        cards = _checked_cards(change.cards)
        value = open_hand_value(game.ruleset, cards, change.typed)

        def write(session, entry: StoredEntry, now: float, version: int) -> StoredEntry:
            found = session.execute(
                select(*HAND_COLUMNS).where(OpenHand.game_id == game.id, OpenHand.seat == seat)
            ).first()
            old = hand_of(found) if found is not None else None
            row = {"cards": " ".join(cards), "typed": change.typed, "done": change.done, "value": value}
            row |= {"version": version, "phone": phone, "name": name, "changed_at": now}
            row["replaced_json"] = _replaced(old, row)
            if old is None:
                session.execute(insert(OpenHand.__table__), [{"game_id": game.id, "seat": seat, **row}])
            else:
                session.execute(
                    update(OpenHand).where(OpenHand.game_id == game.id, OpenHand.seat == seat).values(**row)
                )
            return entry

        return self._write(game, number, write)

    def choose_winner(self, game, number: int, winner: str | None) -> EntryState:
        """Who went out (a seat as text, ``blocked``, or None: not said yet)."""
        if winner == BLOCKED and not game.variant.blocked:
            raise ValidationError(N_("This variant has no blocked rounds."), field="winner")
        if winner not in (None, BLOCKED):
            _check_seat(game, _seat_number(winner))
        return self._write(game, number, lambda _session, entry, _now, _version: entry._replace(winner=winner))

    def _write(self, game, number: int, write) -> EntryState:
        """One change of the entry, in one transaction that bumps its version: ``write(session,
        entry, now, version)`` does it and answers the entry's row as it must now be."""
        refuse_if_finished(game)
        if number != game.next_number:
            raise Conflict(N_("Round %(number)s was saved meanwhile."), field="number", number=number)
        for attempt in range(2):
            try:
                with unit_of_work(self.db) as session:
                    return self._written(session, game, write)
            except IntegrityError:  # two phones opened the entry at once: the other's row is there now
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _written(self, session, game, write) -> EntryState:
        now = self.clock()
        entry = self._opened(session, game, now)
        version = entry.version + 1
        entry = write(session, entry, now, version)
        entry = entry._replace(expected=_text(_expected(game, entry.winner)), version=version, changed_at=now)
        session.execute(update(OpenEntry).where(OpenEntry.game_id == game.id).values(**entry._asdict()))
        hands = session.execute(select(*HAND_COLUMNS).where(OpenHand.game_id == game.id).order_by(OpenHand.seat))
        return _state(game.id, entry, [hand_of(h) for h in hands])

    @staticmethod
    def _opened(session, game, now: float) -> StoredEntry:
        """The entry's row, locked for this write (created, or emptied when it was for a manche
        recorded since or has lapsed)."""
        query = select(*ENTRY_COLUMNS).where(OpenEntry.game_id == game.id).with_for_update()
        row = session.execute(query).first()
        fresh = StoredEntry(game.next_number, None, _text(_expected(game, None)), 0, now)
        if row is None:
            session.execute(insert(OpenEntry.__table__), [{"game_id": game.id, **fresh._asdict()}])
            return fresh
        entry = StoredEntry._make(row)
        if entry.number != game.next_number or now - entry.changed_at > LAPSE_SECONDS:
            session.execute(delete(OpenHand).where(OpenHand.game_id == game.id))
            return fresh._replace(version=entry.version)
        return entry

    # --- saving ------------------------------------------------------------------------------------

    def save(self, games, game, number: int, key: str | None, last_card: str | None = None, sent=None):
        """Record the entry as it stands as manche ``number`` (``games``: the game service), once,
        whoever taps: the API's save of the entry. The game service records it as any manche
        (``record_manche`` with the entry's version: every hand that counts in, the entry
        unchanged since it was read, closed in the same transaction); a hand changed meanwhile:
        read again and saved once more."""
        if key and keys.found(self.db, game.id, key) is not None:  # a retry: answered as the first time
            return games.record_manche(game, MancheEntry(None, {}), number, key)
        for _attempt in range(MAX_SAVES):
            stored = self.stored(game.id)
            if stored is not None and stored.number > game.next_number:
                # the entry moved on since the game was read: a manche was recorded meanwhile, and
                # the game as it now stands says which (``check_next``: saved by another phone)
                game = games.current(game.id)
            refuse_if_finished(game)  # before its hands or its number: the game is over, whatever was sent
            state = self._current(game, stored)
            if state.number == number:
                check_in(game, state.missing())
            entry = manche_of(state, game.players, last_card)
            try:
                return games.record_manche(game, entry, number, key, sent=sent, entry_version=state.version)
            except EntryMoved:
                continue
        raise EntryMoved(N_("The hands changed on another phone meanwhile: check them, then save again."))


def refuse_if_finished(game) -> None:
    """A finished game takes no more rounds, whichever way one is sent (``GameFinished``)."""
    if game.standing.finished:
        raise GameFinished(N_("The game is over: no more rounds can be added."))


def check_counted(session, game, number: int, version: int, absent=()) -> None:
    """Inside the write that records manche ``number`` from a phone that counted with the open
    entry at ``version``: the entry must be that version still (else ``EntryMoved``: a hand changed
    on another phone since this one drew it) and every hand that counts must be in — done, or typed
    — but those of ``absent`` seats, recorded at 0 for now (else ``MissingHand``, naming them and
    carrying their seats)."""
    query = ENTRY_AND_HANDS.with_for_update(of=OpenEntry)
    state = _entry_of(game.id, session.execute(query, {"game_id": game.id}).all())
    if state is None or state.number != number:
        return  # nobody wrote a hand of this manche: this phone counted them all
    if state.version != version:
        raise EntryMoved(N_("The hands changed on another phone meanwhile: check them, then save again."))
    check_in(game, [seat for seat in state.missing() if seat not in absent])


def check_in(game, missing: list[int]) -> None:
    """Every hand that counts is in, else ``MissingHand`` naming the hands ``missing`` and carrying
    their seats (the page offers to save without them)."""
    if missing:
        names = ", ".join(game.players[seat] for seat in missing)
        refused = MissingHand(N_("Still being counted: %(players)s."), field="hands", players=names)
        refused.seats = missing
        raise refused


# The entry's close, which every manche recorded runs: built once, as Core statements on the tables
# (a write builds no SQL, and the session has no objects to keep in step with them).
ENTRY, HANDS = OpenEntry.__table__, OpenHand.__table__
CLOSE = (
    update(ENTRY)
    .where(ENTRY.c.game_id == bindparam("game"), ENTRY.c.number <= bindparam("saved"))
    .values(
        number=bindparam("next"),
        winner=None,
        expected=bindparam("expected"),
        version=ENTRY.c.version + 1,
        changed_at=bindparam("now"),
    )
)
CLOSED_HANDS = delete(HANDS).where(HANDS.c.game_id == bindparam("game"))


def close(session, game, number: int, now: float) -> None:
    """Inside the write that records manche ``number``: the entry moves on to the next one, empty,
    every hand expected again (its version bumped, so every phone on it hears it). Whichever way
    the manche was saved, no phone can bring its hands back into the next one."""
    expected = _text(_expected(game, None))
    params = {"game": game.id, "saved": number, "next": number + 1, "expected": expected, "now": now}
    if session.execute(CLOSE, params).rowcount:
        session.execute(CLOSED_HANDS, {"game": game.id})


def manche_of(state: EntryState, players: list[str], last_card: str | None) -> MancheEntry:
    """The manche the entry holds, as the game service records it: the hands that count."""
    hands, typed = {}, {}
    for seat in state.expected:
        hand = state.hand(seat)
        if hand is None:
            continue
        if hand.typed is not None:
            typed[players[seat]] = hand.typed
        else:
            hands[players[seat]] = hand.cards.split()
    winner = None if state.winner_seat is None else players[state.winner_seat]
    return MancheEntry(winner, hands, typed, state.winner == BLOCKED, last_card or None)


# The entry's row and its hands in one statement, so of one moment (read apart, a save closing the
# entry in between would leave the row of the manche saved without its hands).
ENTRY_AND_HANDS = (
    select(*ENTRY_COLUMNS, *HAND_COLUMNS)
    .select_from(OpenEntry)
    .outerjoin(OpenHand, OpenHand.game_id == OpenEntry.game_id)
    .where(OpenEntry.game_id == bindparam("game_id"))
    .order_by(OpenHand.seat)
)


def _entry_of(game_id: str, rows) -> EntryState | None:
    """The entry ``ENTRY_AND_HANDS`` read (each row: the entry's columns, then a hand's, None when
    it has none), or None."""
    if not rows:
        return None
    cut = len(ENTRY_COLUMNS)
    hands = [hand_of(row[cut:]) for row in rows if row[cut] is not None]
    return _state(game_id, StoredEntry._make(rows[0][:cut]), hands)


def _state(game_id: str, entry: StoredEntry, hands: list) -> EntryState:
    expected = tuple(int(seat) for seat in entry.expected.split(",") if seat)
    return EntryState(game_id, entry.number, entry.winner, expected, entry.version, entry.changed_at, tuple(hands))


def _expected(game, winner: str | None) -> list[int]:
    return counted_seats(game.players, game.teams, set(game.seated), winner)


def _text(seats: list[int]) -> str:
    return ",".join(str(seat) for seat in seats)


def _seat_number(raw) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ValidationError(N_("Say who went out."), field="winner") from None


def _check_seat(game, seat: int) -> None:
    if not 0 <= seat < len(game.players) or game.players[seat] not in game.seated:
        raise ValidationError(N_("No such player at this table."), field="seat")


def _checked_cards(cards) -> list[str]:
    if not isinstance(cards, list) or len(cards) > MAX_CARDS or not all(isinstance(c, str) for c in cards):
        raise ValidationError(N_("The cards are a list of card names."), field="cards")
    return cards


def _replaced(old: StoredOpenHand | None, new: dict) -> str | None:
    """What to keep of the hand a change replaces: another phone's version, when it held something
    else (kept until that phone writes this hand again); the same phone's: what was kept."""
    if old is None:
        return None
    differs = (old.cards, old.typed, old.done) != (new["cards"], new["typed"], new["done"])
    held = bool(old.cards) or old.typed is not None
    if old.phone != new["phone"] and held and differs:
        kept = {"cards": old.cards.split(), "typed": old.typed, "done": old.done, "value": old.value}
        return json.dumps(kept | {"phone": old.phone, "name": old.name}, ensure_ascii=False)
    if old.replaced_json and json.loads(old.replaced_json).get("phone") == new["phone"]:
        return None  # the phone whose version was replaced wrote again: it has settled it
    return old.replaced_json

"""What a write to a game brings, checked and put in the shape it is stored in: a new game's
players and first dealer, a manche's columns and hand rows, the numbers and keys a request names,
what an undo keeps. Used by the game service (``models/services/games.py``); no transaction here except
the rows an undo keeps, written inside the service's."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import NamedTuple

from sqlalchemy import delete, insert
from sqlmodel import Session

from ..core import scoring
from ..core.cards import format_cards
from ..core.errors import (
    N_,
    AlreadyRecorded,
    Conflict,
    DomainError,
    EditCollision,
    GameFinished,
    NotFound,
    ValidationError,
)
from ..core.names import InvalidName, clean_name
from ..core.scoring import MancheEntry, score_entry
from ..core.seating import check_count
from ..core.text import Owner
from ..core.variant import MAX_MANCHES, Ruleset
from .db import Game, Player, UndoRecord, utcnow
from .game_view import GameRows, GameView
from .stored import AS_SENT, StoredHand, StoredManche, StoredPlayer, parts_json

MAX_NAME = 40
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,128}")


@dataclass(frozen=True)
class NewGame:
    """A new game checked and ready to be written: its row, its players (by seat), each player's
    team, its rules, its edit token."""

    row: dict
    players: list
    side_of: dict
    ruleset: Ruleset
    token: str
    roster: dict = field(default_factory=dict)  # player -> scoring.Seat (an imported game)
    order: tuple | None = None  # the seats in table order (an imported game); None: in seat order

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def teams(self) -> dict | None:
        """The teams as a stored game reads them back: each team's players by seat."""
        if not self.side_of:
            return None
        teams: dict = {}
        for name in self.players:
            teams.setdefault(self.side_of[name], []).append(name)
        return teams

    def rows(self, **changes) -> GameRows:
        """The rows of the game as they will be stored (with ``changes`` to its row)."""
        row = {**self.row, **changes}
        seat = self.roster.get
        players = tuple(
            StoredPlayer(name, self.side_of.get(name), *seat_columns(seat(name, scoring.SEAT)), self.place(index))
            for index, name in enumerate(self.players)
        )
        return GameRows({k: v for k, v in row.items() if k != "edit_token_hash"}, players, (), {})

    def place(self, seat: int) -> int:
        """Where the player at ``seat`` sits: their position in the table order."""
        return self.order.index(seat) if self.order is not None else seat


def seat_columns(seat: scoring.Seat) -> tuple:
    return seat.joined, seat.left, seat.start


# --- checks of a new game -------------------------------------------------------------------------


def clean_players(names, ruleset: Ruleset, roster: dict | None = None) -> list[str]:
    """The players' names, each through the one rule for names (``names.clean_name``); two names
    that differ only by case are refused. The variant's number of players counts those at the
    table when the first manche is dealt (``roster``: an imported game where some joined later)."""
    variant = ruleset.variant
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValidationError(N_("Players must be a list of names."), field="players")
    players = []
    for index, name in enumerate(names):
        try:
            players.append(clean_name(name, MAX_NAME, field=f"players.{index}"))
        except InvalidName as e:
            if e.reason != "empty":
                raise
            raise ValidationError(
                N_("Player %(seat)s has no name."), field=f"players.{index}", seat=index + 1
            ) from None
    at_start = len(scoring.seated(players, roster, 1)) if roster else len(players)
    check_count(at_start, variant.min_players, variant.max_players)
    folded = [p.casefold() for p in players]
    for index, name in enumerate(folded):
        if name in folded[:index]:
            raise ValidationError(
                N_("Two players are called “%(name)s”: tell them apart."), field=f"players.{index}", name=players[index]
            )
    return players


def choose_first_dealer(first_dealer, players: int) -> int:
    """The first dealer's seat: an int among the seats, or None for a random one (a string, even
    of digits, is refused: the web form converts its text, the API takes JSON numbers)."""
    if first_dealer is None:
        return random.randrange(players)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
        raise ValidationError(N_("Choose who deals first among the players."), field="first_dealer")
    return first_dealer


def stored_manche(players: list, score: scoring.MancheScore, sent: Mapping = MappingProxyType({})) -> tuple:
    """What is stored of a scored manche: its parts (``stored.MANCHE_PARTS``: those the core's
    score gives — the winner's seat, blocked, the last card — then those stored as ``sent``) and
    one ``StoredHand`` per hand entered, in seat order (its cards as canonical text, or None)."""
    seats = {name: seat for seat, name in enumerate(players)}
    manche = {
        "winner_seat": seats[score.winner] if score.winner else None,
        "blocked": score.blocked,
        "last_card": format_cards([score.last_card]) if score.last_card else None,
        **{part.name: sent.get(part.name) for part in AS_SENT},
    }
    hands = []
    for name, value in score.values.items():
        cards = score.hands.get(name)
        text = format_cards(cards) if cards is not None else None
        hands.append(StoredHand(seats[name], text, score.typed.get(name), value))
    return manche, sorted(hands)


def hand_rows(manche_id: int, hands: list[StoredHand]) -> list[dict]:
    return [{"manche_id": manche_id, **StoredHand._make(hand)._asdict()} for hand in hands]


def stored_row(game: GameView, number: int) -> StoredManche:
    """Manche ``number`` as stored; ``not_found`` if there is none."""
    stored = game.rows.manche(number)
    if stored is None:
        raise NotFound(N_("Round %(number)s does not exist."), field="number", number=number)
    return stored


def existing_number(value) -> int:
    """A manche number from a URL: outside the possible range it simply does not exist."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
        raise NotFound(N_("Round %(number)s does not exist."), field="number", number=value)
    return value


def precondition(value) -> int:
    """The ``number`` a new manche is expected to get: an int (bool excluded), a string is refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
        raise ValidationError(N_("The round number is a whole number."), field="number")
    return value


@dataclass(frozen=True)
class PlannedManche:
    """The next manche of a game as read, checked and scored: its number, what is stored of it
    (``stored_manche``), and when the game ended if it ends with it (else None); its points by side
    and the totals after it (which decide the end)."""

    number: int
    columns: dict
    hands: list
    finished_at: object
    game_columns: dict  # what the revision's bump sets too: the end, only when it moves (the list's
    # index holds it, and setting it unchanged would write that index's page again)
    points: dict
    totals: dict


class Save(NamedTuple):
    """How a manche is saved: the number the phone says it records (None: the next, whatever it
    is), its idempotency key, its parts as sent (``stored.MANCHE_PARTS``), the open entry's version
    it counted with and the seats it saves without (None, (): it counted alone)."""

    number: int | None
    key: str | None
    sent: dict
    entry_version: int | None
    absent: tuple


def with_absent(entry: MancheEntry, absent, game: GameView) -> MancheEntry:
    """``entry`` with the hands of the ``absent`` seats (phones away) recorded at 0 for now: their
    phones are offered the correction when they come back."""
    if not absent:
        return entry
    names = [game.players[seat] for seat in absent if 0 <= seat < len(game.players)]
    hands = {name: cards for name, cards in entry.hands.items() if name not in names}
    typed = {**entry.typed, **dict.fromkeys(names, 0)}
    return replace(entry, hands=hands, typed=typed)


def check_next(current: GameView, number) -> None:
    """``number``, the manche a phone or a client says it records, must be the next one: a manche
    recorded meanwhile by another phone is ``AlreadyRecorded`` (carrying it, as recorded, and who
    saved it), a number beyond the next a ``conflict``."""
    expected = current.next_number
    if precondition(number) == expected:
        return
    recorded = current.rows.manche(number)
    if recorded is None:
        raise Conflict(
            N_("Round %(number)s is not the next one: the next one is %(next)s."),
            field="number",
            number=number,
            next=expected,
        )
    theirs = next(m for m in current.manches + current.after_end if m.number == number)
    by = recorded.saved_by
    message = (
        N_("Round %(number)s was saved on %(by)s phone.") if by else N_("Round %(number)s was saved on another phone.")
    )
    params = {"by": Owner(by)} if by else {}
    raise AlreadyRecorded(
        message,
        field="number",
        number=number,
        theirs=theirs,
        version=current.rows.manche_version(number),
        saved_by=by,
        **params,
    )


def plan_manche(current: GameView, entry: MancheEntry, save: Save, now) -> PlannedManche:
    """The manche ``entry`` as the next one of ``current``, saved as ``save`` says (its number,
    when given, must be the next: ``check_next``; its parts sent; the hands of its absent seats at
    0 for now: ``with_absent``), scored by the core; refused on a finished game or past the most
    manches a game holds."""
    number, sent = save.number, save.sent
    entry = with_absent(entry, save.absent, current)
    expected = current.next_number
    if current.standing.finished:
        raise GameFinished(N_("The game is over: no more rounds can be added."))
    if number is not None:
        check_next(current, number)
    if expected > MAX_MANCHES:
        raise ValidationError(N_("A game has at most %(max)s rounds."), max=MAX_MANCHES)
    score = score_entry(current.ruleset, current.seated, current.teams, entry)
    columns, hands = stored_manche(current.players, score, sent)
    totals = {side: current.totals[side] + score.points.get(side, 0) for side in current.sides}
    finished_at = (current.finished_at or now) if scoring.is_over(current.ruleset, totals, expected) else None
    moved = {"finished_at": finished_at} if finished_at != current.finished_at else {}
    return PlannedManche(expected, columns, hands, finished_at, moved, score.points, totals)


def scored_in_file(ruleset: Ruleset, seated: list, teams, entry: MancheEntry, index: int) -> scoring.MancheScore:
    """One manche of an imported file scored, a fault named by where it sits in the file."""
    try:
        return score_entry(ruleset, seated, teams, entry)
    except DomainError as e:
        e.field = f"game.manches.{index}.{e.field}" if e.field else f"game.manches.{index}"
        raise


def checked_key(key) -> str | None:
    if key is not None and (not isinstance(key, str) or not KEY_PATTERN.fullmatch(key)):
        raise ValidationError(N_("The Idempotency-Key is 1 to 128 visible ASCII characters."), field="Idempotency-Key")
    return key


def check_no_change_after(game: GameView, number: int) -> None:
    """Refuse to take manche ``number`` away when a player sat down or left after it."""
    for name, seat in game.roster.items():
        if seat.joined >= number or (seat.left is not None and seat.left >= number):
            raise Conflict(
                N_("%(player)s joined or left the table after round %(number)s: this round can no longer be deleted."),
                field="number",
                player=name,
                number=number,
            )


def check_version(current: GameView, number: int, version: str | None) -> None:
    """A correction made from a form that read manche ``number`` at ``version`` (None: not said):
    another phone's correction since is an ``EditCollision``, carrying the manche as it now stands."""
    now = current.rows.manche_version(number)
    if version is not None and version != now:
        theirs = next(m for m in current.manches + current.after_end if m.number == number)
        raise EditCollision(
            N_("Round %(number)s was corrected on another phone while you were correcting it."),
            field="number",
            number=number,
            theirs=theirs,
            version=now,
        )


def check_end_kept(current: GameView, view: GameView) -> None:
    """A correction that would end the game before manches already played is refused, naming them
    (they would have been played after the end)."""
    if len(view.after_end) > len(current.after_end):
        raise GameFinished(
            N_(
                "With this change the game ends after round %(end)s, and these rounds would come after "
                "the end: %(later)s. Delete them first (from the last one), then make this change."
            ),
            field="number",
            end=len(view.manches),
            later=", ".join(str(m.number) for m in view.after_end),
        )


def undo_kept(game: GameView, stored: StoredManche) -> dict:
    """What an edit or a deletion of manche ``stored`` keeps for its "Undo": the manche as it was."""
    return {**parts_json(stored), "hands": [list(hand) for hand in game.rows.hands.get(stored.id, ())]}


def keep_undo(session: Session, game: GameView, kind: str, number: int, kept: dict) -> None:
    """Keep what a write to ``game`` replaces, for its "Undo": the manche an edit or a deletion
    replaced, the name of the player who joined or left at seat ``number`` (one record per game,
    valid at the revision this write makes)."""
    session.execute(delete(UndoRecord).where(UndoRecord.game_id == game.id))
    session.execute(
        insert(UndoRecord.__table__),
        [
            {
                "game_id": game.id,
                "revision": game.revision + 1,
                "kind": kind,
                "number": number,
                "manche_json": json.dumps(kept),
                "created_at": utcnow(),
            }
        ],
    )


def player_rows(new: NewGame) -> list[dict]:
    """The rows of a new game's players, by seat."""
    return [
        {
            "game_id": new.id,
            "seat": seat,
            "name": name,
            "team": new.side_of.get(name),
            "place": new.place(seat),
            **dict(
                zip(
                    ("joined_after", "left_after", "start_total"),
                    seat_columns(new.roster.get(name, scoring.SEAT)),
                    strict=True,
                )
            ),
        }
        for seat, name in enumerate(new.players)
    ]


def write_new_game(session: Session, new: NewGame, **changes) -> None:
    """Insert a new game's row (with ``changes``) and its players: two statements."""
    session.execute(insert(Game.__table__), [{**new.row, **changes}])
    session.execute(insert(Player.__table__), player_rows(new))

"""The read model of a game: how a game is shown, from what is stored and the core's numbers.

What is stored is what was entered (``GameRows``: the game's row, its players by seat, its
manches, each hand's cards or typed total and value). Everything derived — each manche's points
and dealer, the totals after each manche, the standing, who deals next — is computed by the pure
core (``scoring.play_through``) when the view is built; nothing derived is stored. Reading costs
three statements whatever the number of games and manches (``load_rows``), and a write builds
the new view from the rows it has just written, without reading them back (``GameRows.with_*``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from sqlalchemy import bindparam, select
from sqlmodel import Session

from ..core import game_end, scoring, seating
from ..core.cards import parse_cards
from ..core.variant import Ruleset
from .db import Game, Hand, Manche, Player
from .game_json import rules_fields
from .stored import (
    HAND_COLUMNS,
    MANCHE_COLUMNS,
    PLAYER_COLUMNS,
    StoredHand,
    StoredManche,
    StoredPlayer,
    stored_manche_of,
    version_of,
)

# The columns of a game's row that its view needs (no token hash).
GAME_COLUMNS = (
    "id", "share_id", "variant", "options_json", "mode", "table_id", "target", "rounds", "first_dealer",
    "revision", "reshaped", "created_at", "finished_at", "rules_json",
)  # fmt: skip


def hands_weight(hand_lists) -> tuple[int, int]:
    """(how many hands, how many characters their cards take) in these lists of hands."""
    hands = characters = 0
    for held in hand_lists:
        hands += len(held)
        characters += sum(len(hand.cards) for hand in held if hand.cards)
    return hands, characters


@dataclass(frozen=True)
class GameRows:
    """A game as stored: its row (``GAME_COLUMNS``), its players by seat (``StoredPlayer``), its
    manches in order (``StoredManche``), their hands by manche id in seat order (``StoredHand``)."""

    game: dict
    players: tuple[StoredPlayer, ...]
    manches: tuple[StoredManche, ...]
    hands: dict[int, tuple[StoredHand, ...]]
    carried_weight: tuple[int, int] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def weight(self) -> tuple[int, int]:
        """(how many hands, how many characters their cards take as stored): what the memo of
        views weighs (``latest.view_bytes``). Worked out once for rows read whole; rows made from
        other rows by a write carry it from theirs (``carried_weight``), at the cost of the hands
        changed."""
        return self.carried_weight or hands_weight(self.hands.values())

    def _weighed(self, rows: GameRows, added=(), removed=()) -> GameRows:
        """``rows`` (made from these, with ``added`` and without ``removed`` hands), carrying
        their weight from these rows' weight."""
        plus, minus = hands_weight(added), hands_weight(removed)
        weight = (self.weight[0] + plus[0] - minus[0], self.weight[1] + plus[1] - minus[1])
        return replace(rows, carried_weight=weight)

    def with_manche(self, manche: StoredManche, hands: list) -> GameRows:
        """These rows with one manche added or replaced (the same number): a manche added after
        the last one costs what it holds, not what the game holds."""
        hands = tuple(StoredHand._make(hand) for hand in hands)
        if not self.manches or manche.number > self.manches[-1].number:
            manches, removed = self.manches + (manche,), ()
        else:
            kept = tuple(m for m in self.manches if m.number != manche.number)
            removed = [self.hands.get(m.id, ()) for m in self.manches if m.number == manche.number]
            manches = tuple(sorted(kept + (manche,), key=lambda m: m.number))
        rows = replace(self, manches=manches, hands={**self.hands, manche.id: hands})
        return self._weighed(rows, [hands], removed)

    def with_manches(self, game: dict, manches: tuple, hands: dict) -> GameRows:
        """These rows with the game's row as it now stands and ``manches`` (with their ``hands``
        by manche id) added after the last one."""
        rows = GameRows(game, self.players, self.manches + manches, {**self.hands, **hands})
        return self._weighed(rows, hands.values())

    def without_manche(self, number: int) -> GameRows:
        gone = self.manche(number)
        hands = {k: v for k, v in self.hands.items() if gone is None or k != gone.id}
        rows = replace(self, manches=tuple(m for m in self.manches if m.number != number), hands=hands)
        return self._weighed(rows, removed=[self.hands.get(gone.id, ())] if gone else ())

    def manche(self, number: int) -> StoredManche | None:
        """Manche ``number`` as stored, or None."""
        return next((m for m in self.manches if m.number == number), None)

    def manche_version(self, number: int) -> str | None:
        """A short digest of manche ``number`` as stored (who went out, the last card, each hand):
        it changes when that manche does, and only then. An edit form carries it, so that two
        phones correcting the same manche find out."""
        found = self.manche(number)
        return None if found is None else self._version(found)

    def manche_versions(self) -> dict[int, str]:
        """Every manche's ``manche_version`` by its number, in one pass (the offline copy's)."""
        return {m.number: self._version(m) for m in self.manches}

    def _version(self, manche: StoredManche) -> str:
        stored = version_of(manche, self.hands.get(manche.id, ()))
        return hashlib.sha256(repr(stored).encode()).hexdigest()[:16]

    def with_game(self, **columns) -> GameRows:
        return self._weighed(replace(self, game={**self.game, **columns}))

    def with_player(self, seat: int, row: StoredPlayer) -> GameRows:
        """These rows with the player at ``seat`` added (the next seat) or replaced."""
        players = list(self.players)
        if seat == len(players):
            players.append(row)
        else:
            players[seat] = row
        return replace(self, players=tuple(players))

    def without_player(self, seat: int) -> GameRows:
        """These rows without the last player (a join undone: nobody else had sat there)."""
        return replace(self, players=self.players[:seat])

    def in_order(self, order) -> GameRows:
        """These rows with each player's place their position in ``order`` (the seats in table order)."""
        place = {seat: index for index, seat in enumerate(order)}
        players = tuple(row._replace(place=place[seat]) for seat, row in enumerate(self.players))
        return replace(self, players=players)

    @property
    def order(self) -> tuple | None:
        """The seats in table order (by place, then by seat); None where it is the seats' own order."""
        order = tuple(sorted(range(len(self.players)), key=lambda seat: (self.players[seat].place, seat)))
        return None if order == tuple(range(len(order))) else order


@dataclass(frozen=True)
class HandView:
    player: str
    cards: tuple | None  # the cards, when entered as cards
    typed: int | None
    value: int


@dataclass(frozen=True)
class MancheView:
    """A manche as shown: as stored (``stored``: its number, parts and who saved it), who went
    out by name, its hands by player, each side's points, its dealer."""

    stored: StoredManche
    winner: str | None
    hands: dict  # player -> HandView (only the hands entered)
    points: dict  # side -> points
    dealer: str

    @property
    def number(self) -> int:
        return self.stored.number

    @property
    def blocked(self) -> bool:
        return bool(self.stored.blocked)

    @property
    def last_card(self) -> str | None:
        return self.stored.last_card


@dataclass(frozen=True)
class GameView:
    id: str
    share_id: str
    ruleset: Ruleset
    players: list
    teams: dict | None
    first_dealer: int
    manches: list  # the manches that count
    totals: dict
    standing: scoring.Standing
    progression: list  # totals after each manche: [{side: total}, ...]
    revision: int
    created_at: object
    finished_at: object
    dealer: int  # seat of the next manche's dealer
    rows: GameRows = field(repr=False, compare=False)
    custom_teams: bool = False  # teams named by the players (not the default pairing)
    rules: dict | None = None  # the house-rules document the game was created with
    after_end: list = field(default_factory=list)  # manches stored after the end: shown, never counted
    roster: dict = field(default_factory=dict)  # player -> scoring.Seat, for those who joined or left
    order: tuple | None = None  # the seats in table order (None: in seat order)
    progress: scoring.Progress | None = field(default=None, repr=False, compare=False)  # what play_through found

    @property
    def goes_on(self) -> bool:
        """Whether manches added after the last one are played on from this view's progress
        (``extend_view``; their points and the totals are the core's, nothing else moves): nobody
        joined or left (a newcomer's start is placed by a full pass), no manche after the end."""
        return not (self.roster or self.after_end or self.progress is None)

    @property
    def seated(self) -> list:
        """The players dealt in the next manche, in table order."""
        return scoring.seated(self.players, self.roster, self.next_number, self.order)

    def seated_at(self, number: int) -> list:
        """The players dealt in manche ``number``, in table order."""
        return scoring.seated(self.players, self.roster, number, self.order)

    @property
    def table_seats(self) -> tuple:
        """Every seat, those left empty too, in table order (the way play goes round)."""
        return scoring.ring(len(self.players), self.order)

    @property
    def table_order(self) -> list:
        """Every player, those who left too, in table order."""
        return [self.players[seat] for seat in self.table_seats]

    def sits_after(self, name: str) -> str | None:
        """The player at the table just before ``name`` in table order (the one they play after)."""
        seated = self.seated
        if name not in seated or len(seated) < 2:
            return None
        return seated[seated.index(name) - 1]

    @property
    def table_full(self) -> bool:
        """Whether nobody more can sit down (``seating.is_full``)."""
        return seating.is_full(self.variant, self.seated)

    @property
    def gone(self) -> list:
        """The players who left the table (their totals stay shown)."""
        return [name for name in self.players if name not in self.seated]

    @property
    def variant(self):
        return self.ruleset.variant

    @property
    def sides(self) -> list:
        return scoring.side_names(self.players, self.teams)

    @property
    def status(self) -> str:
        return "finished" if self.standing.finished else "playing"

    @property
    def finished(self) -> bool:
        return self.standing.finished

    @property
    def next_number(self) -> int:
        return len(self.manches) + len(self.after_end) + 1

    @property
    def dealer_name(self) -> str:
        return self.players[self.dealer]

    @property
    def starter_name(self) -> str:
        """The player on the dealer's left (next clockwise) starts."""
        return scoring.starter(self.players, self.roster, self.next_number, self.dealer, self.order)

    @property
    def cards_to_deal(self) -> int:
        return self.variant.deal.cards_for(len(self.seated), self.ruleset.deck.size)

    @cached_property
    def side_of(self) -> dict:
        """Player -> the side they score for (their team's name, or their own)."""
        return scoring.sides_of(self.players, self.teams)

    def final_stats(self) -> dict:
        """Each side's numbers for the end of the game (``game_end.side_stats``)."""
        side_of = self.side_of
        return game_end.side_stats(
            self.ruleset, self.sides, [(side_of[m.winner] if m.winner else None, m.points) for m in self.manches]
        )

    @property
    def crossed(self) -> list:
        """The sides whose total reached the target."""
        return game_end.crossed_target(self.ruleset, self.totals)

    def settings(self) -> dict:
        """What a new game needs to be played again with the same rules and players."""
        return {
            **rules_fields(self),
            "players": list(self.seated),  # those still at the table
            "teams": self.teams if self.teams and self.custom_teams else None,
        }


def load_rows(session: Session, games: list[dict]) -> list[GameRows]:
    """The rows of ``games`` (each a dict of ``GAME_COLUMNS``): three statements whatever the
    number of games and manches (plain rows, no ORM objects: this runs on every page and write)."""
    ids = [game["id"] for game in games]
    if not ids:
        return []
    players_of: dict = {}
    for game_id, *player in session.execute(
        select(Player.game_id, *PLAYER_COLUMNS).where(Player.game_id.in_(ids)).order_by(Player.game_id, Player.seat)
    ):
        players_of.setdefault(game_id, []).append(StoredPlayer._make(player))
    manches_of: dict = {}
    for game_id, *manche in session.execute(
        select(Manche.game_id, *MANCHE_COLUMNS).where(Manche.game_id.in_(ids)).order_by(Manche.game_id, Manche.number)
    ):
        manches_of.setdefault(game_id, []).append(stored_manche_of(manche))
    hands_of: dict = {}
    for manche_id, *hand in session.execute(
        select(Hand.manche_id, *HAND_COLUMNS)
        .join(Manche, Hand.manche_id == Manche.id)
        .where(Manche.game_id.in_(ids))
        .order_by(Hand.manche_id, Hand.seat)
    ):
        hands_of.setdefault(manche_id, []).append(StoredHand._make(hand))
    out = []
    for game in games:
        manches = tuple(manches_of.get(game["id"], ()))
        hands = {m.id: tuple(hands_of.get(m.id, ())) for m in manches}
        out.append(GameRows(dict(game), tuple(players_of.get(game["id"], ())), manches, hands))
    return out


GAME_ROWS = select(*[getattr(Game, name) for name in GAME_COLUMNS])


def game_rows(session: Session, condition) -> list[dict]:
    """The game rows (``GAME_COLUMNS``) that ``condition`` selects."""
    return [dict(zip(GAME_COLUMNS, row, strict=True)) for row in session.execute(GAME_ROWS.where(condition))]


GAME_BY_ID = GAME_ROWS.where(Game.id == bindparam("game_id"))  # built once: every write that reads its game asks


def game_row(session: Session, game_id: str) -> dict | None:
    """The row (``GAME_COLUMNS``) of the game ``game_id``, or None."""
    row = session.execute(GAME_BY_ID, {"game_id": game_id}).first()
    return None if row is None else dict(zip(GAME_COLUMNS, row, strict=True))


def _shown(rows: GameRows, players: list, manches) -> tuple[list, list]:
    """The results ``play_through`` takes and what each manche shows, for ``manches`` (rows)."""
    results, shown = [], []
    for manche in manches:
        hands = {}
        for hand in rows.hands.get(manche.id, ()):
            name = players[hand.seat]
            cards = stored_cards(hand.cards) if hand.cards is not None else None
            hands[name] = HandView(name, cards, hand.typed, hand.value)
        winner = players[manche.winner_seat] if manche.winner_seat is not None else None
        results.append((winner, {name: hand.value for name, hand in hands.items()}))
        shown.append((manche, winner, hands))
    return results, shown


def _manche_views(players: list, shown: list, progress: scoring.Progress, first: int) -> list:
    """The views of the manches ``shown``, the ``first``-th of the game (from 0) onwards."""
    return [
        MancheView(manche, winner, hands, points, players[seat])
        for (manche, winner, hands), points, seat in zip(
            shown, progress.points[first:], progress.dealers[first:], strict=True
        )
    ]


def build_view(rows: GameRows, ruleset: Ruleset) -> GameView:
    """A game's view from its rows and its rules (``scoring.play_through`` derives every number)."""
    game = rows.game
    players = [row.name for row in rows.players]
    teams: dict | None = None
    if any(row.team for row in rows.players):
        teams = {}
        for row in rows.players:
            teams.setdefault(row.team, []).append(row.name)
    roster = {
        row.name: scoring.Seat(row.joined_after, row.left_after, row.start_total)
        for row in rows.players
        if row.joined_after or row.left_after is not None
    }
    order = rows.order
    results, shown = _shown(rows, players, rows.manches)
    progress = scoring.play_through(ruleset, players, teams, game["first_dealer"], results, roster, order=order)
    manches = _manche_views(players, shown, progress, 0)
    return GameView(
        id=game["id"],
        share_id=game["share_id"],
        ruleset=ruleset,
        players=players,
        teams=teams,
        first_dealer=game["first_dealer"],
        created_at=game["created_at"],
        rows=rows,
        custom_teams=bool(teams) and teams != scoring.default_teams(players),
        rules=json.loads(game["rules_json"]) if game["rules_json"] else None,
        roster=roster,
        order=order,
        **_played(progress, manches, game),
    )


def _played(progress: scoring.Progress, manches: list, game: dict) -> dict:
    """What a view takes from ``play_through`` (every manche's view given) and from the game's
    row as it now stands."""
    return {
        "manches": manches[: progress.counted],
        "after_end": manches[progress.counted :],
        "totals": progress.totals,
        "standing": progress.standing,
        "progression": progress.progression,
        "dealer": progress.next_dealer,
        "progress": progress,
        "revision": game["revision"],
        "finished_at": game["finished_at"],
    }


def extend_view(view: GameView, rows: GameRows) -> GameView:
    """The view of ``rows``: ``view``'s rows with manches added after its last one (a write just
    made, or the manches another process added since) and the game's row as it now stands. Built
    by going on from ``view``'s progress, its cost is that of the manches added, not of the game;
    where going on does not hold (somebody joined or left, a manche after the end, other manches
    before), it is built whole."""
    before = view.rows.manches
    if not view.goes_on or rows.manches[: len(before)] != before:
        return build_view(rows, view.ruleset)
    players = view.players
    results, shown = _shown(rows, players, rows.manches[len(before) :])
    progress = scoring.play_through(
        view.ruleset, players, view.teams, view.first_dealer, results, since=view.progress, order=view.order
    )
    manches = view.manches + _manche_views(players, shown, progress, len(before))
    return replace(view, rows=rows, **_played(progress, manches, rows.game))


@lru_cache(maxsize=4096)
def stored_cards(text: str) -> tuple:
    """The cards of a stored hand (canonical text, parsed once per worker)."""
    return tuple(parse_cards(text))

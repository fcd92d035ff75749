"""Read-only queries across games: the list of games, a player's record, the names to suggest,
the share view's state.

Every page here costs a constant number of SQL statements whatever the number of games: the
games, their players, their manches and their hands are each read in one statement, then each
game's points, totals and standing are computed by the pure scoring module from the stored
hand values (the same derivation as ``GameService``: nothing derived is stored).

Across games, a reader sees only the games of a ``Scope``: a browser's own games (those it holds
rights to or opened), or every game for the administrator (issue 12).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlmodel import Session

from . import scoring
from .cards import format_cards
from .db import Database, Game, Manche, Player
from .game_view import GAME_COLUMNS, GameView
from .ids import checked_id

GAMES_PER_PAGE = 200
CHART_MANCHES = 40  # a player's points chart shows their last manches
SUGGESTED_NAMES = 30


@dataclass(frozen=True)
class Scope:
    """The games a reader may see across games: the ones named by id, or every game."""

    ids: tuple[str, ...] = ()
    everything: bool = False

    @property
    def empty(self) -> bool:
        return not self.everything and not self.ids

    def restrict(self, query, game_id_column=Game.id):
        """``query`` kept to the games of the scope."""
        return query if self.everything else query.where(game_id_column.in_(self.ids))


EVERY_GAME = Scope(everything=True)


# --- the game page -------------------------------------------------------------------------------


def page_state(database: Database, game_id: str) -> tuple[int, int] | None:
    """A game's revision and the number of its last manche (0 before the first) in one small
    statement — what the game page's cache key needs — or None when there is no such game."""
    last = select(func.coalesce(func.max(Manche.number), 0)).where(Manche.game_id == Game.id).scalar_subquery()
    with Session(database.reader) as session:
        row = session.exec(select(Game.revision, last).where(Game.id == checked_id(game_id))).first()
    return None if row is None else (row[0], row[1])


# --- the share view ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SharedState:
    """What the shared view's conditional GET needs, read in one small statement."""

    game_id: str
    revision: int
    finished: bool


def shared_state(database: Database, share_id: str) -> SharedState | None:
    """The game behind a share id, its revision (the ETag) and whether it is over, or None."""
    with Session(database.reader) as session:
        row = session.exec(select(Game.id, Game.revision, Game.finished_at).where(Game.share_id == share_id)).first()
    if row is None:
        return None
    return SharedState(row[0], row[1], row[2] is not None)


# --- games computed in bulk ----------------------------------------------------------------------


def _names_matching(session: Session, scope: Scope, name: str) -> list[str]:
    """The spellings of a player's name in the scope's games (case and spacing aside: "chloé"
    finds "Chloé")."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return []
    names = session.exec(scope.restrict(select(Player.name).distinct(), Player.game_id)).scalars().all()
    return [n for n in names if n.casefold() == wanted]


def _records(session: Session, views, games_query) -> list[GameView]:
    """The games ``games_query`` selects, each with its manches and standing: four statements
    (``views``: the game service's, which builds views of game rows)."""
    games = session.exec(games_query).scalars().all()
    return views(session, [{column: getattr(game, column) for column in GAME_COLUMNS} for game in games])


# --- the list of games ---------------------------------------------------------------------------


def game_list(database: Database, views, scope: Scope, player: str | None = None, limit: int = GAMES_PER_PAGE):
    """The scope's games in progress first, then finished ones, newest first in each; only
    ``player``'s games when a name is given (any spelling of it). Returns (games, whether more
    were left out)."""
    if scope.empty:
        return [], False
    with Session(database.reader) as session:
        query = scope.restrict(select(Game))
        if player:
            names = _names_matching(session, scope, player)
            if not names:
                return [], False
            query = query.where(Game.id.in_(select(Player.game_id).where(Player.name.in_(names))))
        query = query.order_by(Game.finished_at.is_not(None), Game.created_at.desc(), Game.id).limit(limit + 1)
        records = _records(session, views, query)
    return records[:limit], len(records) > limit


def player_names(database: Database, scope: Scope, limit: int = SUGGESTED_NAMES) -> list[str]:
    """The names in the scope's games, most used first: suggestions for a new game or a filter."""
    if scope.empty:
        return []
    count = func.count()
    query = scope.restrict(select(Player.name, count), Player.game_id).group_by(Player.name)
    with Session(database.reader) as session:
        rows = session.exec(query.order_by(count.desc(), Player.name).limit(limit)).all()
    return [name for name, _ in rows]


# --- a player's record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MancheResult:
    """One manche of a player: the points their side scored in it, and where it was played."""

    game_id: str
    variant: object
    played_at: datetime
    number: int
    points: int
    lower_is_better: bool

    @property
    def merit(self) -> int:
        """Higher is better whatever the game's mode (penalty points count against)."""
        return -self.points if self.lower_is_better else self.points


@dataclass(frozen=True)
class CardCost:
    rank: str
    count: int  # how many times it was left in the player's hand
    points: int  # what it cost, under each game's own table


@dataclass
class PlayerRecord:
    name: str  # as most recently spelt
    games: list = field(default_factory=list)  # GameView, newest first
    won: int = 0
    finished: int = 0
    manches: list = field(default_factory=list)  # MancheResult, oldest first
    cards: list = field(default_factory=list)  # CardCost, costliest first

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def average(self) -> float | None:
        """Average points per manche (their side's points; a team's when they play in one)."""
        if not self.manches:
            return None
        return round(sum(m.points for m in self.manches) / len(self.manches), 1)

    @property
    def best(self) -> MancheResult | None:
        """The best manche: fewest penalty points, or most points where points are won (first on a tie)."""
        return max(self.manches, key=lambda m: m.merit, default=None)

    @property
    def worst(self) -> MancheResult | None:
        return min(self.manches, key=lambda m: m.merit, default=None)


def player_record(database: Database, views, scope: Scope, name: str) -> PlayerRecord | None:
    """A player's games, wins, manches and the cards left in their hands, across the scope's
    games (matching their name case aside), or None when nobody of that name played in them."""
    if scope.empty:
        return None
    with Session(database.reader) as session:
        names = _names_matching(session, scope, name)
        if not names:
            return None
        query = (
            scope.restrict(select(Game))
            .where(Game.id.in_(select(Player.game_id).where(Player.name.in_(names))))
            .order_by(Game.created_at.desc(), Game.id)
        )
        games = _records(session, views, query)
    record = PlayerRecord(name=next(p for p in games[0].players if p in names), games=games)
    costs: dict = {}
    for game in reversed(games):
        me = next(p for p in game.players if p in names)
        side = game.side_of[me]
        if game.finished:
            record.finished += 1
            record.won += int(side in game.standing.winners)
        low = scoring.lower_is_better(game.ruleset)
        for m in game.manches:
            record.manches.append(MancheResult(game.id, game.variant, game.created_at, m.number, m.points[side], low))
            hand = m.hands.get(me)
            if hand is None or not hand.cards:
                continue
            for card, points in scoring.hand_breakdown(hand.cards, game.ruleset.table):
                count, total = costs.get(card.rank, (0, 0))
                costs[card.rank] = (count + 1, total + points)
    record.cards = sorted(
        (CardCost(rank, count, points) for rank, (count, points) in costs.items()),
        key=lambda c: (-c.points, -c.count, c.rank),
    )
    return record


# --- the score sheet as rows (CSV) ---------------------------------------------------------------


def score_sheet(game: GameView, labels: dict) -> list[list]:
    """The game as a table, one row per manche: each player's cards left and hand value, then
    each side's points; a last row of totals. ``labels`` gives the words ("manche", "cards",
    "hand", "points", "total") in the reader's language."""
    header = [labels["manche"]]
    for name in game.players:
        header += [f"{name} — {labels['cards']}", f"{name} — {labels['hand']}"]
    header += [f"{side} — {labels['points']}" for side in game.sides]
    rows = [header]
    for m in game.manches:
        row = [m.number]
        for name in game.players:
            hand = m.hands.get(name)
            if hand is None:
                row += ["", ""]
            else:
                row += [format_cards(hand.cards) if hand.cards is not None else "", hand.value]
        row += [m.points.get(side, 0) for side in game.sides]
        rows.append(row)
    rows.append([labels["total"]] + ["", ""] * len(game.players) + [game.totals[side] for side in game.sides])
    return rows

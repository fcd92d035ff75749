"""Read-only queries across games: the list of games, a player's record, the names to suggest,
the share view's state.

Every page here costs a constant number of SQL statements whatever the number of games, and a
bounded amount of work: the list of games is ordered, counted and paged in SQL; a
game's points, totals and standing are computed by the pure scoring module from the stored hand
values (the same derivation as ``GameService``: nothing derived is stored) once per revision of
the game and kept, summed up, in a per-process memo (``Summaries``, one per app) that every request checks
against the revisions it has just read. A player's page adds those summaries up.

Across games, a reader sees only the games of a ``Scope``: a browser's own games (those it holds
rights to or opened), or every game for the administrator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import bindparam, func, or_, select, true
from sqlalchemy.engine import Connection

from ..core import scoring
from ..core.cards import format_cards
from .db import Database, Game, Player, PlayGroup
from .game_view import GAME_COLUMNS, GameView, game_rows
from .lru import LRU

GAMES_PER_PAGE = 20
PLAYER_GAMES = 20  # the games a player's page lists (the list of games, filtered by them, has the rest)
CHART_MANCHES = 40  # a player's points chart shows their last manches
SUGGESTED_NAMES = 30


@dataclass(frozen=True)
class Scope:
    """The games a reader may see across games: the ones named by id and those of the groups
    named (the reader is a member), or every game."""

    ids: tuple[str, ...] = ()
    everything: bool = False
    groups: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.everything and not self.ids and not self.groups

    def restrict(self, query, game_id_column=Game.id):
        """``query`` kept to the games of the scope."""
        if self.everything:
            return query
        if not self.groups:
            return query.where(game_id_column.in_(self.ids))
        if game_id_column is Game.id:
            in_groups = Game.group_id.in_(self.groups)
        else:
            in_groups = game_id_column.in_(select(Game.id).where(Game.group_id.in_(self.groups)))
        return query.where(or_(game_id_column.in_(self.ids), in_groups))


EVERY_GAME = Scope(everything=True)


# --- pages across games ----------------------------------------------------------------------------


def revisions(database: Database, game_ids) -> dict[str, int]:
    """The revision of each of these games (those that exist), in one statement."""
    ids = list(game_ids)
    if not ids:
        return {}
    with database.reader.connect() as connection:  # plain rows: no ORM session
        return dict(connection.execute(select(Game.id, Game.revision).where(Game.id.in_(ids))).all())


def _state(games, groups) -> object:
    """The count and revisions of ``games``, and the revisions of the groups ``groups`` selects."""
    return select(
        func.count().label("games"),
        func.coalesce(func.sum(Game.revision), 0).label("revisions"),
        select(func.coalesce(func.sum(PlayGroup.revision), 0)).where(groups).scalar_subquery().label("groups"),
    ).where(games)


EVERY_STATE = _state(Game.group_id.is_(None), true())  # every game: those of no group, and every group


def scope_state(database: Database, scope: Scope) -> tuple[int, int, int]:
    """How many games the scope names one by one (for the administrator: every game of no group)
    and the sum of their revisions, and the sum of the revisions of its groups (every group), in
    one small statement: every change to a game raises its revision, and its group's too (a game
    added to a group, changed, taken out or deleted: the database's triggers), so the triple moves
    whenever any game of the scope does and a page across them kept under it is never stale. No
    game of a group is read: the statement costs the same for a group of 5 games or of 5,000.
    Nothing is shared by all games (one row every write bumped would serialise every game's writes)."""
    if scope.empty:
        return (0, 0, 0)
    if scope.everything:
        row = database.first(EVERY_STATE)
    else:
        row = database.first(_state(Game.id.in_(scope.ids), PlayGroup.id.in_(scope.groups)))
    return (row.games, int(row.revisions), int(row.groups))


# --- the share view ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SharedState:
    """What the shared view's conditional GET needs, read in one small statement."""

    game_id: str
    revision: int
    finished: bool


SHARED_STATE = select(Game.id, Game.revision, Game.finished_at.is_not(None).label("finished")).where(
    Game.share_id == bindparam("share_id")
)


def shared_state(database: Database, share_id: str) -> SharedState | None:
    """The game behind a share id, its revision (the ETag) and whether it is over, or None."""
    row = database.first(SHARED_STATE, {"share_id": share_id})
    if row is None:
        return None
    return SharedState(row.id, row.revision, row.finished)


# --- games summed up once per revision -------------------------------------------------------------


@dataclass(frozen=True)
class PlayerPart:
    """What one player's record takes from one game: their side's points in each manche
    ``(number, points)``, and what the cards left in their hands cost, by rank ``{rank: (count,
    points)}``."""

    side: str
    manches: tuple
    total: int  # the sum of those points
    costs: dict
    best: tuple | None  # (merit, number, points): the first of the game's best manches
    worst: tuple | None


@dataclass(frozen=True)
class GameSummary:
    """A game as the lists and the player pages show it, computed once from its view per revision
    (the attributes the templates read on a ``GameView``: id, variant, created_at, players, teams,
    standing, finished, next_number, seated), with each player's part."""

    id: str
    revision: int
    variant: object
    created_at: datetime
    players: list
    teams: dict | None
    standing: object
    manche_count: int
    next_number: int
    lower_is_better: bool
    parts: dict  # player -> PlayerPart
    seated: list = field(default_factory=list)  # those still at the table, in its order

    @property
    def finished(self) -> bool:
        return self.standing.finished

    @classmethod
    def of(cls, game: GameView) -> GameSummary:
        low = scoring.lower_is_better(game.ruleset)
        parts = {}
        for me in game.players:
            side = game.side_of[me]
            # A newcomer's side is absent from the manches before they sat down (and a leaver's
            # from those after): only the manches they were dealt in are theirs.
            manches = tuple((m.number, m.points[side]) for m in game.manches if side in m.points)
            costs: dict = {}
            for m in game.manches:
                hand = m.hands.get(me)
                if hand is None or not hand.cards:
                    continue
                for card, points in scoring.hand_breakdown(hand.cards, game.ruleset.table):
                    count, total = costs.get(card.rank, (0, 0))
                    costs[card.rank] = (count + 1, total + points)
            ranked = [(-p if low else p, n, p) for n, p in manches]
            best = max(ranked, key=lambda r: r[0], default=None)  # the first on a tie, as played
            worst = min(ranked, key=lambda r: r[0], default=None)
            parts[me] = PlayerPart(side, manches, sum(p for _, p in manches), costs, best, worst)
        return cls(game.id, game.revision, game.variant, game.created_at, list(game.players), game.teams,
                   game.standing, len(game.manches), game.next_number, low, parts, list(game.seated))  # fmt: skip


SUMMARIES_BYTES = 16 * 1024 * 1024  # per process, as estimated by summary_bytes


def summary_bytes(summary: GameSummary) -> int:
    """An upper estimate of the memory a summary holds: measured with tracemalloc, 6 KB for 2
    players and 10 manches, 20 KB for 4 and 50, 530 KB for 8 and 990 (estimated 6, 24 and 796 KB)."""
    return 4096 + 100 * sum(len(part.manches) for part in summary.parts.values())


class Summaries:
    """Game summaries by (game id, revision), the most recently used ``size`` of them and at most
    ``max_bytes``, per process (the app keeps one: ``app.extensions["summaries"]``). The revision
    is read from the database by every request that asks, so an entry is never stale: a write
    bumps the revision and the next request computes the game again, whichever worker it lands
    on. ``views`` reads games' views from their rows (``GameService.views``)."""

    def __init__(self, database: Database, views, size: int = 20_000, max_bytes: int = SUMMARIES_BYTES):
        self.db = database
        self.views = views
        self.entries = LRU(size, max_bytes, summary_bytes)

    def of(self, rows) -> list[GameSummary]:
        """The summaries of the games ``rows`` names as ``(id, revision)`` (see ``get``)."""
        with self.db.snapshot() as session:  # plain rows: no ORM session
            return self.get(session, list(rows))

    def get(self, session: Connection, rows: list) -> list[GameSummary]:
        """The summaries of the games ``rows`` names, in that order: each row is ``(id, revision)``
        (the games not known at that revision are then read in bulk: four statements) or the
        game's row as a dict of ``GAME_COLUMNS`` (three statements for the ones not known). A game
        written since its row was read is summed up as it now stands; one deleted is left out."""
        keys = [(row["id"], row["revision"]) if isinstance(row, dict) else tuple(row) for row in rows]
        known = {key: self.entries.get(key) for key in keys}
        missing = [row for row, key in zip(rows, keys, strict=True) if known[key] is None]
        if missing:
            if isinstance(missing[0], dict):
                games = self.views(session, missing)
            else:
                games = self.views(session, game_rows(session, Game.id.in_([game_id for game_id, _ in missing])))
            asked = {game_id: (game_id, revision) for game_id, revision in keys}
            for game in games:
                known[asked[game.id]] = self.entries.put((game.id, game.revision), GameSummary.of(game))
        return [summary for summary in (known.get(key) for key in keys) if summary is not None]


def _names_matching(session: Connection, scope: Scope, name: str) -> list[str]:
    """The spellings of a player's name in the scope's games (case and spacing aside: "chloé"
    finds "Chloé")."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return []
    names = session.execute(scope.restrict(select(Player.name).distinct(), Player.game_id)).scalars().all()
    return [n for n in names if n.casefold() == wanted]


def _of_player(query, names: list[str]):
    return query.where(Game.id.in_(select(Player.game_id).where(Player.name.in_(names))))


# --- the list of games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameListPage:
    """A page of a list of games, as SQL found it: the games of the page as ``(id, revision)``,
    in order (what the page depends on), whether a next page exists, how many games in all."""

    rows: tuple
    page: int
    more: bool
    total: int


def list_page(
    database: Database, scope: Scope, player: str | None = None, page: int = 1, size: int = GAMES_PER_PAGE
) -> GameListPage:
    """A page of the scope's games: in progress first, then finished ones, newest first in each;
    only ``player``'s games when a name is given (any spelling of it). Ordered, counted and paged
    in SQL: three small statements whatever the number of games."""
    if scope.empty:
        return GameListPage((), page, False, 0)
    with database.snapshot() as session:  # plain rows: no ORM session
        query = scope.restrict(select(Game.id, Game.revision))
        counted = scope.restrict(select(func.count()).select_from(Game))
        if player:
            names = _names_matching(session, scope, player)
            if not names:
                return GameListPage((), page, False, 0)
            query, counted = _of_player(query, names), _of_player(counted, names)
        query = query.order_by(Game.finished_at.is_not(None), Game.created_at.desc(), Game.id)
        rows = tuple(tuple(row) for row in session.execute(query.limit(size + 1).offset((page - 1) * size)))
        total = session.execute(counted).scalar_one() if rows or page > 1 else 0
    return GameListPage(rows[:size], page, len(rows) > size, total)


def game_list(summaries: Summaries, scope: Scope, size: int = GAMES_PER_PAGE) -> list[GameSummary]:
    """The first page of the scope's games, summed up (the home page's games in progress)."""
    return summaries.of(list_page(summaries.db, scope, size=size).rows)


def player_names(database: Database, scope: Scope, limit: int = SUGGESTED_NAMES) -> list[str]:
    """The names in the scope's games, most used first: suggestions for a new game or a filter."""
    if scope.empty:
        return []
    count = func.count()
    query = scope.restrict(select(Player.name, count), Player.game_id).group_by(Player.name)
    with database.reader.connect() as session:  # plain rows: no ORM session
        rows = session.execute(query.order_by(count.desc(), Player.name).limit(limit)).all()
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
    games: list = field(default_factory=list)  # GameSummary, the most recent PLAYER_GAMES, newest first
    played: int = 0
    won: int = 0
    finished: int = 0
    manche_count: int = 0
    points: int = 0  # their side's points over every manche
    best: MancheResult | None = None  # fewest penalty points, or most points where points are won (first on a tie)
    worst: MancheResult | None = None
    recent: list = field(default_factory=list)  # MancheResult, the last CHART_MANCHES, oldest first
    cards: list = field(default_factory=list)  # CardCost, costliest first

    @property
    def average(self) -> float | None:
        """Average points per manche (their side's points; a team's when they play in one)."""
        if not self.manche_count:
            return None
        return round(self.points / self.manche_count, 1)


def _result(game: GameSummary, picked: tuple) -> MancheResult:
    _merit, number, points = picked
    return MancheResult(game.id, game.variant, game.created_at, number, points, game.lower_is_better)


def player_spellings(database: Database, scope: Scope, name: str) -> tuple[str, ...]:
    """The spellings of a player's name in the scope's games (none: nobody of that name played in
    them). One statement."""
    if scope.empty:
        return ()
    with database.reader.connect() as session:  # plain rows: no ORM session
        return tuple(_names_matching(session, scope, name))


def player_record(summaries: Summaries, scope: Scope, names: tuple) -> PlayerRecord:
    """A player's games, wins, manches and the cards left in their hands, across the scope's games
    (any of the spellings ``names``): their games' rows are read by one statement, each game is
    summed up once per revision (``summaries``; three statements for those not known yet), and the
    record adds the summaries up."""
    columns = [getattr(Game, name) for name in GAME_COLUMNS]
    with summaries.db.snapshot() as session:  # plain rows: no ORM session
        query = _of_player(scope.restrict(select(*columns)), list(names)).order_by(Game.created_at.desc(), Game.id)
        rows = [dict(zip(GAME_COLUMNS, row, strict=True)) for row in session.execute(query)]
        games = summaries.get(session, rows)
    record = PlayerRecord(name=next(p for p in games[0].players if p in names), games=games[:PLAYER_GAMES])
    record.played = len(games)
    costs: dict = {}
    best = worst = None
    for game in reversed(games):  # oldest first: the first of equal manches is kept
        me = next(p for p in game.players if p in names)
        part = game.parts[me]
        if game.finished:
            record.finished += 1
            record.won += int(part.side in game.standing.winners)
        record.manche_count += len(part.manches)
        record.points += part.total
        if part.best and (best is None or part.best[0] > best[1][0]):
            best = (game, part.best)
        if part.worst and (worst is None or part.worst[0] < worst[1][0]):
            worst = (game, part.worst)
        for rank, (count, points) in part.costs.items():
            had_count, had_points = costs.get(rank, (0, 0))
            costs[rank] = (had_count + count, had_points + points)
    record.best = _result(*best) if best else None
    record.worst = _result(*worst) if worst else None
    recent: list = []
    for game in games:  # newest first, until the chart is full
        me = next(p for p in game.players if p in names)
        manches = game.parts[me].manches
        take = manches[-(CHART_MANCHES - len(recent)) :] if len(recent) < CHART_MANCHES else ()
        recent = [_result(game, (0, n, p)) for n, p in take] + recent
        if len(recent) >= CHART_MANCHES:
            break
    record.recent = recent
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

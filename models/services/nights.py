"""Club nights (« une soirée de club »): several tables of one group at once, round after round.

A night belongs to a group; each of its tables is a normal game of the group (its members record
it, it counts in the standings once finished), tagged with the night, the round and the table
(``Game.night_id``, ``night_round``, ``night_table``: migration 0014). Every round is started in
one unit of work — the night (or its round number, moved on) and all its tables' games — and a
retry starts nothing twice: a night is found again by its form's nonce (``start_key``), a round
by its number (the round moves on only from the one before it; a unique index holds one game per
table of a round).

A turn's byes (the players present who sit out it) are written with its games (``night_bye``); a
player who left is a row of ``night_gone`` (deleted when they come back); the night's ranking
method is its ``ranked_by``. Those writes of the night itself bump its ``revision``, which its
streams look at (migration 0021).

The ranking and the seatings are the core's (``models/core/club_night.py``); a night's page reads
the night and its games in one statement, its byes and leavers in another, and their summaries
through the app's ``history.Summaries`` (a constant number of statements whatever the number of tables).
The night's ranking — the one its podium, sheet and CSV show — is ``NightService.ranking``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, false, select, true, union_all, update
from sqlalchemy.exc import IntegrityError

from ..core import championship, club_night, scoring, standings
from ..core.errors import N_, Conflict, NotFound, UnknownPlayer, ValidationError
from ..core.variant import resolve
from . import history
from .db import ClubNight, Database, Game, NightBye, NightGone, Player, PlayGroup, utcnow
from .game_input import write_new_game
from .games import GameService
from .groups import checked_name, merges_of
from .ids import checked_id, new_id
from .stored import columns_of
from .unit_of_work import unit_of_work

NIGHT_NAME_REFUSED = N_("Give the night a name (at most 60 characters).")  # as long as a group's
MAX_KEY = 64


class StoredNight(NamedTuple):
    id: str
    group_id: str
    name: str
    variant: str
    target: int | None
    rounds: int | None
    round: int
    created_at: datetime
    ended_at: datetime | None  # « Terminer la soirée »: the ranking is final, no turn starts
    ranked_by: str  # one of club_night.RANKINGS
    revision: int  # the night's own changes: a player leaving or back, the ranking chosen


class NightTable(NamedTuple):
    """A table of a round: its game, as ``(id, revision)`` reads it, its round and its number."""

    game_id: str
    revision: int
    round: int
    table: int


class NightState(NamedTuple):
    night: StoredNight
    tables: tuple  # NightTable, by round then table
    byes: tuple = ()  # (turn, name) of each player present who sat a turn out
    gone: tuple = ()  # the names of the players who left the night

    @property
    def look(self) -> tuple:
        """What the night's streams look at between changes: its moment and its own revision."""
        return (self.moment, self.night.revision)

    @property
    def current(self) -> tuple:
        """The tables of the round being played."""
        return tuple(t for t in self.tables if t.round == self.night.round)

    @property
    def moment(self) -> str:
        """Where the night stands for its streams: its turn, and whether it has ended ("3", "3-ended")."""
        return moment(self.night.round, self.night.ended_at)

    @property
    def stamp(self) -> str:
        """What the night's live part shows depends on: its round and its games' revisions."""
        text = f"{self.night.round}:{self.night.revision}:" + ",".join(f"{t.game_id}.{t.revision}" for t in self.tables)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def moment(turn: int, ended_at) -> str:
    return f"{turn}-ended" if ended_at is not None else str(turn)


NIGHT_COLUMNS = columns_of(StoredNight, ClubNight)
TABLE_COLUMNS = (Game.id, Game.revision, Game.night_round, Game.night_table)
MAX_NAME = 40  # a player's name, as a game's


class _Started(Exception):
    """The round was started already (a retry, or another phone first)."""


def checked_key(key) -> str:
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
        raise ValidationError(N_("This form is out of date: open it again."), field="form")
    return key


class NightService:
    def __init__(self, database: Database, games: GameService):
        self.db = database
        self.games = games

    # --- questions ---------------------------------------------------------------------------

    def state(self, night_id: str) -> NightState:
        """The night and its tables' games, in one statement; a night that does not exist is not found."""
        query = (
            select(*NIGHT_COLUMNS, *TABLE_COLUMNS)
            .outerjoin(Game, Game.night_id == ClubNight.id)
            .where(ClubNight.id == checked_id(night_id))
            .order_by(Game.night_round, Game.night_table)
        )
        with self.db.snapshot() as connection:
            rows = connection.execute(query).all()
            if not rows:
                raise NotFound(N_("No club night with this id."), field="id")
            out = connection.execute(outs_of(rows[0].id)).all()
        width = len(NIGHT_COLUMNS)
        night = StoredNight._make(rows[0][:width])
        tables = tuple(NightTable._make(row[width:]) for row in rows if row[width] is not None)
        byes = tuple((row.round, row.name) for row in out if not row.gone)
        return NightState(night, tables, byes, tuple(row.name for row in out if row.gone))

    def look_of(self, night_id: str) -> tuple | None:
        """The night's ``NightState.look`` (a stream's look between two changes): one statement."""
        query = select(ClubNight.round, ClubNight.ended_at, ClubNight.revision)
        row = self.db.first(query.where(ClubNight.id == checked_id(night_id)))
        return None if row is None else (moment(row.round, row.ended_at), row.revision)

    def nights(self, group_id: str) -> list[StoredNight]:
        """The group's nights, newest first: one statement."""
        query = select(*NIGHT_COLUMNS).where(ClubNight.group_id == checked_id(group_id))
        return [StoredNight._make(row) for row in self.db.all(query.order_by(ClubNight.created_at.desc()))]

    def ended(self, group_id: str) -> list[NightState]:
        """The group's ended nights, their tables' games, byes and leavers, oldest first: two
        statements, read in one snapshot."""
        ended = ClubNight.group_id == checked_id(group_id), ClubNight.ended_at.is_not(None)
        query = (
            select(*NIGHT_COLUMNS, *TABLE_COLUMNS)
            .outerjoin(Game, Game.night_id == ClubNight.id)
            .where(*ended)
            .order_by(ClubNight.created_at, ClubNight.id, Game.night_round, Game.night_table)
        )
        of_ended = select(ClubNight.id).where(*ended)
        byes = select(NightBye.night_id, NightBye.round, NightBye.name, false().label("gone"))
        gone = select(NightGone.night_id, NightGone.round, NightGone.name, true().label("gone"))
        outs = union_all(byes.where(NightBye.night_id.in_(of_ended)), gone.where(NightGone.night_id.in_(of_ended)))
        with self.db.snapshot() as connection:
            rows, out = connection.execute(query).all(), connection.execute(outs).all()
        width = len(NIGHT_COLUMNS)
        found: dict = {}
        for row in rows:
            night, tables = found.setdefault(row[0], (StoredNight._make(row[:width]), []))
            if row[width] is not None:
                tables.append(NightTable._make(row[width:]))
        return [
            NightState(
                night,
                tuple(tables),
                tuple((o.round, o.name) for o in out if o.night_id == night.id and not o.gone),
                tuple(o.name for o in out if o.night_id == night.id and o.gone),
            )
            for night, tables in found.values()
        ]

    def season(self, summaries: history.Summaries, group_id: str, aliases=()) -> list[championship.NightPlaces]:
        """The group's ended nights as its championship reads them: each player's place in each,
        from the night's own ranking (the one its podium shows), the group's merges applied.
        A constant number of statements whatever the number of nights."""
        states = self.ended(group_id)
        summed = {s.id: s for s in summaries.of([(t.game_id, t.revision) for st in states for t in st.tables])}
        merges = merges_of(aliases)
        nights = []
        for state in states:
            placed = self.ranking(state, summed, aliases, self.lower_is_better(state.night))
            who = {line.name: standings.counted_as(merges, standings.person(line.name)) for line in placed}
            nights.append(
                championship.NightPlaces(
                    state.night.id,
                    state.night.name,
                    state.night.created_at,
                    {who[line.name]: line.place for line in placed},
                    {who[line.name]: line.name for line in placed},
                    state.night.variant,
                )
            )
        return nights

    def summaries(self, summaries: history.Summaries, state: NightState) -> dict:
        """The night's games summed up, by id (``summaries``: once per game and revision)."""
        rows = [(t.game_id, t.revision) for t in state.tables]
        return {s.id: s for s in summaries.of(rows)}

    def limits(self, variant) -> tuple[int, int]:
        """How many players a table of ``variant`` seats: (fewest, most)."""
        found, _ = self.games.registry.for_new_game(variant)
        return found.min_players, found.max_players

    def lower_is_better(self, night: StoredNight) -> bool:
        """Whether the night's points count against: the rules its games are started with (its
        variant in its default mode, through the registry, as ``_prepared`` starts them)."""
        registry = self.games.registry
        found, _ = registry.for_new_game(night.variant)
        return scoring.lower_is_better(resolve(registry.tables, found, None, None, None, night.target, night.rounds))

    @staticmethod
    def ranking(state: NightState, summaries: dict, aliases, lower_is_better: bool) -> list[club_night.Placed]:
        """The night's ranking across its tables, by its method, with its byes and leavers, the
        group's merges (``aliases``) applied: what its page, podium, sheet and CSV show (once
        the night has ended, its final places)."""
        spell = speller(state, summaries, aliases)
        return club_night.ranking(
            table_results(state, summaries, aliases),
            lower_is_better,
            state.night.ranked_by,
            byes=[(turn, spell(name)) for turn, name in state.byes],
            gone=[spell(name) for name in state.gone],
        )

    # --- writes ------------------------------------------------------------------------------

    def _prepared(self, variant, target, rounds, seating, byes=()) -> list:
        low, high = self.limits(variant)
        tables = club_night.checked_seating(seating, low, high, byes)
        return [
            self.games.prepare_game(variant, names, None, None, None, None, target, rounds, None) for names in tables
        ]

    def start(self, group_id: str, name, variant, target, rounds, seating, key, byes=()) -> tuple[str, list]:
        """A new night of the group (the caller is a member) and its first round's games, one a
        table of ``seating`` (lists of names), ``byes`` the players present who sit it out: returns
        the night's id and each new game's ``(id, edit token)``. A retry with the same ``key``
        answers the night it made, and no game."""
        group_id, key, name = checked_id(group_id), checked_key(key), checked_name(name, refused=NIGHT_NAME_REFUSED)
        found = self._night_by_key(group_id, key)
        if found is not None:
            return found, []
        byes = checked_byes(byes)
        news = self._prepared(variant, target, rounds, seating, byes)
        first = news[0].row
        night = ClubNight(
            id=new_id(), group_id=group_id, name=name, variant=first["variant"], target=first["target"],
            rounds=first["rounds"], round=1, start_key=key,
        )  # fmt: skip
        try:
            with unit_of_work(self.db) as session:
                session.add(night)
                session.flush()
                self._write_round(session, night.id, group_id, 1, news, byes)
        except IntegrityError:  # the same form, sent twice at once: the other one made it
            found = self._night_by_key(group_id, key)
            if found is None:
                raise
            return found, []
        return night.id, [(new.id, new.token) for new in news]

    def _night_by_key(self, group_id: str, key: str) -> str | None:
        query = select(ClubNight.id).where(ClubNight.group_id == group_id, ClubNight.start_key == key)
        row = self.db.first(query)
        return None if row is None else row.id

    def next_round(self, night: StoredNight, number, seating, byes=()) -> list:
        """Round ``number`` of the night (the one after the round being played), one game a table
        of ``seating``, ``byes`` the players present who sit it out (none of them a player who left
        the night, asked inside the write): each new game's ``(id, edit token)``; none when that
        round was started already (a retry, or another phone first)."""
        if not isinstance(number, int) or number > night.round + 1 or number < 1:
            raise ValidationError(N_("This turn cannot be started now."), field="round")
        if number <= night.round:
            return []
        byes = checked_byes(byes)
        news = self._prepared(night.variant, night.target, night.rounds, seating, byes)
        try:
            with unit_of_work(self.db) as session:
                moved = session.execute(
                    update(ClubNight)
                    .where(ClubNight.id == night.id, ClubNight.round == number - 1, ClubNight.ended_at.is_(None))
                    .values(round=number)
                )
                if moved.rowcount != 1:
                    self._not_ended(session, night.id)
                    raise _Started
                left = session.execute(select(NightGone.name).where(NightGone.night_id == night.id)).scalars()
                club_night.check_not_gone([*(name for new in news for name in new.players), *byes], list(left))
                self._write_round(session, night.id, night.group_id, number, news, byes)
        except (_Started, IntegrityError):
            return []
        return [(new.id, new.token) for new in news]

    def end(self, night_id: str, ended: bool = True) -> None:
        """The night ended now (« Terminer la soirée »), or going on again (its undo), and its
        group's revision moved (its page shows the championship) in the same transaction; ending an
        ended night (a retry, or another phone first) changes nothing."""
        with unit_of_work(self.db) as session:
            query = update(ClubNight).where(ClubNight.id == checked_id(night_id))
            if ended:
                done = session.execute(query.where(ClubNight.ended_at.is_(None)).values(ended_at=utcnow()))
            else:
                done = session.execute(query.where(ClubNight.ended_at.is_not(None)).values(ended_at=None))
            if done.rowcount == 1:  # the group's championship moves: its page is drawn again
                of_night = select(ClubNight.group_id).where(ClubNight.id == night_id).scalar_subquery()
                session.execute(
                    update(PlayGroup).where(PlayGroup.id == of_night).values(revision=PlayGroup.revision + 1)
                )

    def leave(self, night_id: str, name, gone: bool = True) -> str:
        """``name`` left the night (seated in no later turn), or came back (``gone`` False, the
        undo): one unit of work, which finds them among the night's players (a table or a bye),
        else refuses; marking twice changes nothing. Returns the name as the night spells it."""
        night_id = checked_id(night_id)
        key = standings.person(name) if isinstance(name, str) and name.strip() else ""
        with unit_of_work(self.db) as session:
            turn = session.execute(select(ClubNight.round).where(ClubNight.id == night_id)).scalar()
            if turn is None:
                raise NotFound(N_("No club night with this id."), field="id")
            played = session.execute(players_of(night_id)).scalars().all()
            spelled_as = next((n for n in reversed(played) if standings.person(n) == key), None)
            if spelled_as is None:
                raise UnknownPlayer(
                    N_("“%(player)s” is not playing in this night."), field="name", player=str(name or "")[:MAX_NAME]
                )
            marked = select(NightGone.person).where(NightGone.night_id == night_id, NightGone.person == key)
            was_gone = session.execute(marked).first() is not None
            if gone and not was_gone:
                session.add(NightGone(night_id=night_id, person=key, name=spelled_as, round=turn))
            elif not gone and was_gone:
                session.execute(delete(NightGone).where(NightGone.night_id == night_id, NightGone.person == key))
            if gone != was_gone:
                session.execute(self._bumped(night_id))
        return spelled_as

    def rank_by(self, night_id: str, method) -> None:
        """The night ranked by ``method`` (one of ``club_night.RANKINGS``): one unit of work."""
        method = club_night.checked_ranking(method)
        with unit_of_work(self.db) as session:
            night_id = checked_id(night_id)
            session.execute(self._bumped(night_id).where(ClubNight.ranked_by != method).values(ranked_by=method))
            if session.execute(select(ClubNight.id).where(ClubNight.id == night_id)).first() is None:
                raise NotFound(N_("No club night with this id."), field="id")

    @staticmethod
    def _bumped(night_id: str):
        return update(ClubNight).where(ClubNight.id == night_id).values(revision=ClubNight.revision + 1)

    @staticmethod
    def _not_ended(session, night_id: str) -> None:
        """Refused, with words, when the night has ended (asked inside the write that would start a turn)."""
        ended = session.execute(select(ClubNight.ended_at).where(ClubNight.id == night_id)).scalar()
        if ended is not None:
            raise Conflict(N_("This night is over: reopen it to start another turn."))

    @staticmethod
    def _write_round(session, night_id: str, group_id: str, number: int, news: list, byes=()) -> None:
        for table, new in enumerate(news, start=1):
            write_new_game(session, new, group_id=group_id, night_id=night_id, night_round=number, night_table=table)
        session.add_all(NightBye(night_id=night_id, round=number, name=name) for name in byes)


def checked_byes(byes) -> list[str]:
    """The players sitting a turn out as sent: names, each person once, none blank or too long."""
    if not isinstance(byes, (list, tuple)) or not all(isinstance(name, str) for name in byes):
        raise ValidationError(N_("Send the players sitting out as a list of names."), field="byes")
    names, seen = [], set()
    for raw in byes:
        name = " ".join(raw.split())
        if not name or len(name) > MAX_NAME:
            raise ValidationError(N_("Name each player sitting out (at most 40 characters)."), field="byes")
        if standings.person(name) not in seen:
            seen.add(standings.person(name))
            names.append(name)
    return names


def outs_of(night_id: str):
    """The night's byes and leavers, in one statement: turn, name, and whether they left."""
    byes = select(NightBye.round, NightBye.name, false().label("gone")).where(NightBye.night_id == night_id)
    gone = select(NightGone.round, NightGone.name, true().label("gone")).where(NightGone.night_id == night_id)
    return union_all(byes, gone)


def players_of(night_id: str):
    """Every name the night seated or had sit out, by turn: one statement."""
    seated = select(Player.name, Game.night_round.label("turn")).join(Game, Game.id == Player.game_id)
    seated = seated.where(Game.night_id == night_id)
    sat_out = select(NightBye.name, NightBye.round.label("turn")).where(NightBye.night_id == night_id)
    both = union_all(seated, sat_out).subquery()
    return select(both.c.name).order_by(both.c.turn)


def table_results(state: NightState, summaries: dict, aliases=()) -> list[club_night.TableResult]:
    """Each table of the night as the ranking reads it: each player's total (their side's) and,
    once the game is over, its winners. A spelling the group's owner merged into another
    (``aliases``, the group's ``StoredAlias`` rows) counts as that person, every spelling of one
    person shown as the latest the night played (``spelled``)."""
    spelling = spelled(state, summaries, aliases)
    results = []
    for table in state.tables:
        summary = summaries.get(table.game_id)
        if summary is None:
            continue
        total_of = {side: total for _, side, total in summary.standing.ranking}
        totals: dict = {}
        for name in summary.players:
            totals[spelling[name]] = totals.get(spelling[name], 0) + total_of.get(summary.parts[name].side, 0)
        winners = {spelling[name] for name in summary.players if summary.parts[name].side in summary.standing.winners}
        results.append(club_night.TableResult(table.round, table.table, totals, frozenset(winners), summary.finished))
    return results


def spelled(state: NightState, summaries: dict, aliases=()) -> dict:
    """Each name played in the night → the spelling its person is shown by: the latest (by turn,
    then table) of the names counted as one person once the owner's merges are followed."""
    merges = merges_of(aliases)
    names = [name for t in state.tables if t.game_id in summaries for name in summaries[t.game_id].players]
    latest = {standings.counted_as(merges, standings.person(name)): name for name in names}
    return {name: latest[standings.counted_as(merges, standings.person(name))] for name in names}


def speller(state: NightState, summaries: dict, aliases=()):
    """A name (a table's, a bye's, a leaver's) → the spelling its person is shown by in the night
    (``spelled``); a name no table played is its own spelling, unless a merge makes it one of them."""
    merges = merges_of(aliases)
    known = spelled(state, summaries, aliases)
    by_person = {standings.counted_as(merges, standings.person(name)): shown for name, shown in known.items()}

    def spell(name: str) -> str:
        return known.get(name) or by_person.get(standings.counted_as(merges, standings.person(name)), name)

    return spell

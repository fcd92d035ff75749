"""Persistence: SQLModel tables, the engine, sessions.

SQLite (one file under ``instance/``, WAL, synchronous FULL, foreign keys on) by default;
PostgreSQL when ``DATABASE_URL`` says so; on both a write waits at most ``LOCK_TIMEOUT`` for a
lock (``is_busy`` tells that error from others). The schema is managed by Alembic (``migrations/``).
Stored: what was entered (players, each hand's cards or typed total and its value). Manche
points, totals, ranking and dealer are derived from them on reading.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import Index, event, false, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Column, Field, SQLModel, Text, UniqueConstraint, create_engine

from .faults import is_busy


def token_hash(token: str) -> str:
    """What is stored of an edit or invite token: its SHA-256 (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    __tablename__ = "game"
    # The list of games' order (in progress first, newest first): its first page is read from
    # this index, never sorted (migration 0005).
    __table_args__ = (
        Index("ix_game_listed", text("(finished_at IS NOT NULL)"), text("created_at DESC"), "id"),
        # one game per table of a club night's round (migration 0014)
        Index("ix_game_night", "night_id", "night_round", "night_table", unique=True),
    )

    id: str = Field(primary_key=True, max_length=32)
    variant: str = Field(max_length=64)
    options_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    mode: str = Field(max_length=16)
    table_id: str = Field(max_length=64)
    target: int | None = None
    rounds: int | None = None
    first_dealer: int = 0
    edit_token_hash: str = Field(max_length=64)
    share_id: str = Field(max_length=32, unique=True)
    revision: int = 0
    # Bumped with the revision by every change but a manche added (an edit, a deletion, an undo, a
    # player joining or leaving): a write that kept the game's view and finds it unchanged here
    # reads only the manches added since (migration 0005).
    reshaped: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    # The rules of a game played with house rules: the house variant's document when the game was
    # created (the house variant may be edited or deleted later; the game keeps these).
    rules_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # The group (« tablée ») the game was played in, if any: its members see and record it (0010).
    group_id: str | None = Field(default=None, max_length=32, index=True)
    # The club night, round and table the game was played at, if any (0014).
    night_id: str | None = Field(default=None, max_length=32)
    night_round: int | None = None
    night_table: int | None = None
    # The group a game was taken out of, while the notice that follows may put it back (0019).
    taken_from: str | None = Field(default=None, max_length=32)


class Player(SQLModel, table=True):
    __tablename__ = "player"
    # ix_player_name: the names suggested and a player's games are found through it (migration 0005).
    # A game's players are found through the unique constraint's index (game_id first: 0009).
    __table_args__ = (UniqueConstraint("game_id", "seat"), Index("ix_player_name", "name"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=32, ondelete="CASCADE")
    seat: int
    name: str = Field(max_length=40)
    team: str | None = Field(default=None, max_length=90)
    # A player who sat down mid-game: the number of manches played before (0: from the start) and
    # the total the group chose for them; one who left: the number played when they left.
    joined_after: int = 0
    start_total: int = 0
    left_after: int | None = None
    # Where they sit: their place around the table, the way play goes; the table order
    # is the players by place. A seat never changes (hands and winners are stored by seat); the
    # places after a newcomer's move up by one when they sit down between two players.
    place: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class Manche(SQLModel, table=True):
    __tablename__ = "manche"
    # A game's manches are found through the unique constraint's index (game_id first): no index of
    # game_id alone, one page fewer to write for every manche recorded (migration 0009).
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=32, ondelete="CASCADE")
    number: int
    winner_seat: int | None = None
    blocked: bool = False
    last_card: str | None = Field(default=None, max_length=8)
    saved_by: str | None = Field(default=None, max_length=40)  # the name of the phone that saved it (0016)
    created_at: datetime = Field(default_factory=utcnow)


class Hand(SQLModel, table=True):
    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("manche_id", "seat"),)  # its index finds a manche's hands (0009)

    id: int | None = Field(default=None, primary_key=True)
    manche_id: int = Field(foreign_key="manche.id", ondelete="CASCADE")
    seat: int
    cards: str | None = Field(default=None, sa_column=Column(Text, nullable=True))  # canonical text, or None
    typed: int | None = None  # a total typed instead of cards
    value: int = 0  # the hand's value under the game's table


class Invite(SQLModel, table=True):
    """A scorekeeper's invite: its token (stored hashed) gives edit rights until revoked."""

    __tablename__ = "invite"

    id: str = Field(primary_key=True, max_length=32)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=32, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None
    last_used_at: datetime | None = None  # the last write made with it (updated at most once a minute)


class HouseVariant(SQLModel, table=True):
    """A variant written by a group ("house rules"): a validated variant document, editable by
    the holder of its edit token (stored hashed)."""

    __tablename__ = "house_variant"

    id: str = Field(primary_key=True, max_length=32)
    document_json: str = Field(sa_column=Column(Text, nullable=False))
    edit_token_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Presence(SQLModel, table=True):
    """A phone entering (or correcting) a manche right now, for the other phones of the table
    (« Chloé saisit la manche 7… »): refreshed by the entry page every few seconds, gone when it
    saves or leaves, and ignored once ``seen`` is older than ``PRESENCE_SECONDS``. Ephemeral: not
    part of a game's history, of its file or of a backup (migration 0006)."""

    __tablename__ = "presence"

    game_id: str = Field(primary_key=True, foreign_key="game.id", max_length=32, ondelete="CASCADE")
    phone: str = Field(primary_key=True, max_length=32)  # the phone's own random id (its session)
    name: str | None = Field(default=None, max_length=40)  # the name the phone gave, if any
    number: int  # the manche it is entering or correcting
    editing: bool = False  # correcting a recorded manche (else entering the next one)
    owner: bool = Field(default=False, sa_column_kwargs={"server_default": false()})  # the game's owner's phone
    seen: float  # time.time() of its last sign of life


class OpenEntry(SQLModel, table=True):
    """The manche a table is counting together, one phone per hand: the number it is for, who went
    out (a seat, or "blocked"), the seats whose hands count, and a version bumped by every change
    (its own, not the game's revision: a tap invalidates no page). One row per game, kept across
    manches so that its version only grows; read as empty once its number is recorded or after
    ``open_entry.LAPSE_SECONDS`` unused. Ephemeral, like ``presence`` (migration 0013)."""

    __tablename__ = "open_entry"

    game_id: str = Field(primary_key=True, foreign_key="game.id", max_length=32, ondelete="CASCADE")
    number: int
    winner: str | None = Field(default=None, max_length=8)
    expected: str = Field(default="", max_length=200)  # the seats whose hands count, "1,2,4"
    version: int = 0
    changed_at: float = 0.0  # time.time() of its last change


class OpenHand(SQLModel, table=True):
    """One hand of the open entry: its cards (keypad tokens, space-separated) or a typed total, its
    value (the core's), whether it is marked done, which phone changed it last and when, and what
    that change replaced when it was another phone's (JSON), so that phone can put it back."""

    __tablename__ = "open_hand"

    game_id: str = Field(primary_key=True, foreign_key="open_entry.game_id", max_length=32, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    cards: str = Field(default="", sa_column=Column(Text, nullable=False))
    typed: int | None = None
    done: bool = False
    value: int = 0
    version: int = 0
    phone: str | None = Field(default=None, max_length=32)
    name: str | None = Field(default=None, max_length=40)
    changed_at: float = 0.0
    replaced_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class IdempotencyRecord(SQLModel, table=True):
    """The first answer to a write, kept so that a retry (same key) returns it instead of writing
    twice: the number of the manche it recorded, and, once that manche was taken away (deleted, or
    its saving undone), the game's revision that write made — a retry is then told so, never
    recorded again; the undo of that deletion clears it. Kept ``models/services/keys.KEPT_DAYS``
    (migration 0006)."""

    __tablename__ = "idempotency"
    __table_args__ = (UniqueConstraint("game_id", "key"),)  # its index finds a game's keys (0009)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=32, ondelete="CASCADE")
    key: str = Field(max_length=128)
    manche_number: int
    gone_revision: int | None = None
    created_at: datetime = Field(default_factory=utcnow, index=True)


class UndoRecord(SQLModel, table=True):
    """What an edit or a deletion of a manche replaced, kept so that its "Undo" can put it back:
    the manche as it was (its columns and hands, JSON), valid only while the game is still at the
    ``revision`` that write made. One per game: each such write replaces the previous one. A
    player joining or leaving keeps one too (``number`` their seat, the JSON their name)."""

    __tablename__ = "undo_record"

    game_id: str = Field(primary_key=True, foreign_key="game.id", max_length=32, ondelete="CASCADE")
    revision: int
    kind: str = Field(max_length=16)  # "edited", "deleted", "joined" or "left"
    number: int
    manche_json: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class PlayGroup(SQLModel, table=True):
    """A group of people who play together (« une tablée »): its games are seen and recorded by
    every member phone. Phones join by an invite (``GroupInvite``); ``watch_id`` opens a read-only
    page. ``revision`` moves with every change of its members, invites or merges (the service bumps
    it) and of its games (the database does: migration 0015's triggers on ``game``)."""

    __tablename__ = "play_group"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=60)
    watch_id: str = Field(max_length=32, unique=True)
    revision: int = 0
    created_at: datetime = Field(default_factory=utcnow)


LIVE_OWNER = "owner AND removed_at IS NULL"


class GroupMember(SQLModel, table=True):
    """A phone in a group: its own token (stored hashed, kept in the phone's session or sent as
    the API's bearer token) gives it a scorekeeper's rights on the group's games until the owner
    removes it (``removed_at``). One member is the owner (migration 0010), at most one said by a
    unique index on the group of its live owner (migration 0018); ``invite_id`` is the link it
    joined through (migration 0017)."""

    __tablename__ = "group_member"
    __table_args__ = (
        Index("ix_group_member_one_owner", "group_id", unique=True, sqlite_where=text(LIVE_OWNER),
              postgresql_where=text(LIVE_OWNER)),
    )  # fmt: skip

    id: str = Field(primary_key=True, max_length=32)
    group_id: str = Field(foreign_key="play_group.id", index=True, max_length=32, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True)
    name: str | None = Field(default=None, max_length=40)  # what the phone calls itself
    owner: bool = False
    joined_at: datetime = Field(default_factory=utcnow)
    removed_at: datetime | None = None
    invite_id: str | None = Field(default=None, index=True, max_length=32)
    seen_at: datetime | None = None  # the day it last opened the group's page (migration 0023)


class GroupInvite(SQLModel, table=True):
    """A link that lets a phone join a group: its token (stored hashed) works until the owner
    revokes it (migration 0010), ``max_uses`` phones have joined through it, or a phone that joined
    through it is removed (migration 0017), or from ``expires_at`` on (migration 0023)."""

    __tablename__ = "group_invite"

    id: str = Field(primary_key=True, max_length=32)
    group_id: str = Field(foreign_key="play_group.id", index=True, max_length=32, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None
    max_uses: int | None = None
    expires_at: datetime | None = None  # it opens nothing from this moment on (migration 0023)


class GroupAlias(SQLModel, table=True):
    """Two spellings of one person in a group, merged by its owner: ``person`` (a spelling's
    person, as ``standings.person`` reads it) counts as ``counted_as`` in the group's standings. The
    games keep their names; undoing the merge deletes the row (migration 0012)."""

    __tablename__ = "group_alias"
    __table_args__ = (UniqueConstraint("group_id", "person"),)  # its index finds a group's merges

    id: str = Field(primary_key=True, max_length=32)
    group_id: str = Field(foreign_key="play_group.id", max_length=32, ondelete="CASCADE")
    person: str = Field(max_length=80)  # a name of 40 characters may spread when decomposed
    counted_as: str = Field(max_length=80)
    created_at: datetime = Field(default_factory=utcnow)


class ClubNight(SQLModel, table=True):
    """A club night of a group (« une soirée de club »): several tables at once, round after round,
    each table a game of the group (``Game.night_id``, ``night_round``, ``night_table``). ``round``
    is the round being played; ``start_key`` the form's nonce that made it, so that a retry makes
    no second night (migration 0014)."""

    __tablename__ = "club_night"
    __table_args__ = (UniqueConstraint("group_id", "start_key"),)  # its index finds a group's nights

    id: str = Field(primary_key=True, max_length=32)
    group_id: str = Field(foreign_key="play_group.id", max_length=32, ondelete="CASCADE")
    name: str = Field(max_length=60)
    variant: str = Field(max_length=64)
    target: int | None = None
    rounds: int | None = None
    round: int = 1
    start_key: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    ended_at: datetime | None = None  # « Terminer la soirée »: no turn starts after it (migration 0020)
    # How the night is ranked (``club_night.RANKINGS``), and a count of the night's own changes (a
    # player leaving or back, the ranking chosen) that its streams look at (migration 0021).
    ranked_by: str = Field(default="total", max_length=20)
    revision: int = 0


class NightBye(SQLModel, table=True):
    """A player present who sits out a turn of a club night (« exempt »): written with the turn's
    games (migration 0021)."""

    __tablename__ = "night_bye"

    night_id: str = Field(foreign_key="club_night.id", max_length=32, ondelete="CASCADE", primary_key=True)
    round: int = Field(primary_key=True)
    name: str = Field(max_length=40, primary_key=True)


class NightGone(SQLModel, table=True):
    """A player who left a club night (the organiser's mark, undone by deleting the row): seated in
    no later turn. ``person`` as ``standings.person`` reads the name; ``round`` the turn being
    played when they left (migration 0021)."""

    __tablename__ = "night_gone"

    night_id: str = Field(foreign_key="club_night.id", max_length=32, ondelete="CASCADE", primary_key=True)
    person: str = Field(max_length=80, primary_key=True)
    name: str = Field(max_length=40)
    round: int


# How long a write waits for a lock another write holds before giving up (seconds): SQLite's busy
# timeout, PostgreSQL's lock_timeout. A request that cannot have it in time answers 503 with
# Retry-After (views/errors.py) and has written nothing; it never hangs for long, nor answers 500.
LOCK_TIMEOUT = 5.0

# The connections a process holds, whatever its load (PostgreSQL's budget: at most 6 a process).
# Writes and reads each have a small pool of their own and no overflow; the live table's
# subscription holds one more (models/services/notifications.py). A request waits at most
# POOL_TIMEOUT for a connection — a phone's patience: a busy server queues rather than refuses
# (waiting, a request holds its socket and nothing else; 3 s refused 21 requests of 36 busy
# clients in 30 s, bench/README.md "a busy server queues") — then answers 503 with
# Retry-After; a connection idle in the pool is replaced after POOL_RECYCLE seconds, so one cut
# by the server or a firewall is not reused.
WRITER_POOL = 3
READER_POOL = 2
LISTEN_CONNECTIONS = 1
CONNECTIONS_PER_PROCESS = WRITER_POOL + READER_POOL + LISTEN_CONNECTIONS
POOL_TIMEOUT = 10.0
POOL_RECYCLE = 300


def _sqlite_pragmas(lock_timeout: float):
    def set_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(lock_timeout * 1000)}")
        cursor.close()

    return set_pragmas


def _pg_lock_timeout(lock_timeout: float):
    def set_lock_timeout(dbapi_connection, _record):
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True  # a session setting, outside any transaction
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {max(1, int(lock_timeout * 1000))}")
        dbapi_connection.autocommit = autocommit

    return set_lock_timeout


WRITE_LOCK_POLL = 0.002  # seconds between two tries for SQLite's write lock


def _sqlite_begins_immediate(engine: Engine, lock_timeout: float) -> None:
    """The write engine's transactions on SQLite begin with ``BEGIN IMMEDIATE``, as SQLAlchemy's
    pysqlite documentation shows: the driver's own BEGIN is turned off at connect, and the
    ``begin`` event emits ours. A write takes the database's one write lock first instead of
    failing when a reading transaction would have to become a writing one.

    The wait for that lock is a loop here, not SQLite's busy handler: the handler sleeps inside
    the C call, which under gevent stops every request of the worker (the one holding the lock in
    this process included). ``time.sleep`` pauses this request alone; after ``lock_timeout``
    seconds the busy error goes up (503 with Retry-After)."""

    @event.listens_for(engine, "connect")
    def _no_driver_begin(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA busy_timeout=0")

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection):
        deadline = time.monotonic() + lock_timeout
        while True:
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except OperationalError as error:
                if not is_busy(error) or time.monotonic() > deadline:
                    raise
            time.sleep(WRITE_LOCK_POLL)


def database_url(url: str) -> str:
    """``url`` with the driver the app uses (``postgres://`` and ``postgresql://`` mean psycopg 3)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str, lock_timeout: float = LOCK_TIMEOUT, pool_size: int = WRITER_POOL, **kwargs) -> Engine:
    """An engine for ``url`` with a pool of ``pool_size`` connections and no overflow; SQLite gets
    WAL, synchronous FULL, foreign keys and a busy timeout, PostgreSQL a lock timeout
    (``lock_timeout`` seconds both) and connections pinged before use."""
    url = database_url(url)
    kwargs = {"pool_size": pool_size, "max_overflow": 0, "pool_timeout": POOL_TIMEOUT, **kwargs}
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": lock_timeout})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas(lock_timeout))
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    kwargs.setdefault("pool_recycle", POOL_RECYCLE)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _pg_lock_timeout(lock_timeout))
    return engine


class Database:
    """The engines of one database: ``writer`` for the writes (each one transaction:
    ``models/services/unit_of_work.py``), ``reader`` for the reads. A small read is one statement
    (``first``, ``all``: a Core ``select()``, compiled once and kept in SQLAlchemy's own cache); a
    read of several statements that must agree is one ``snapshot``."""

    def __init__(self, url: str, lock_timeout: float = LOCK_TIMEOUT, **kwargs):
        self.url = url
        self.lock_timeout = lock_timeout
        self.writer = make_engine(url, lock_timeout, WRITER_POOL, **kwargs)
        self.is_sqlite = self.writer.dialect.name == "sqlite"
        if self.is_sqlite:
            _sqlite_begins_immediate(self.writer, lock_timeout)
            self.reader = make_engine(url, lock_timeout, READER_POOL, **kwargs)
        else:
            self.reader = make_engine(url, lock_timeout, READER_POOL, isolation_level="AUTOCOMMIT", **kwargs)

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A connection for a read of several statements that must agree — a game's row, players,
        manches and hands — all seeing the database as it was at the first: one transaction,
        ``REPEATABLE READ`` on PostgreSQL (whose reads otherwise see each what was committed when
        it started), a read transaction on SQLite. A write committing meanwhile is seen by the
        next read, never by half of this one."""
        with self.reader.connect() as connection:
            if self.is_sqlite:  # its driver begins no transaction before a SELECT: this one does
                connection.exec_driver_sql("BEGIN")
            else:  # the reader's connections autocommit there: this one takes one snapshot
                connection.execution_options(isolation_level="REPEATABLE READ")
            yield connection

    def first(self, statement, params=None):
        """The first row of a small read (a Core ``select()``), or None."""
        with self.reader.connect() as connection:
            return connection.execute(statement, params or {}).first()

    def all(self, statement, params=None) -> list:
        """Every row of a small read (a Core ``select()``): one statement, one consistent state."""
        with self.reader.connect() as connection:
            return connection.execute(statement, params or {}).all()

    @property
    def engines(self) -> list[Engine]:
        return [self.reader, self.writer]

    def dispose(self) -> None:
        for engine in self.engines:
            engine.dispose()


metadata = SQLModel.metadata

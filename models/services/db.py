"""Persistence: SQLModel tables, the engine, sessions.

SQLite (one file under ``instance/``, WAL, synchronous FULL, foreign keys on) by default;
PostgreSQL when ``DATABASE_URL`` says so; on both a write waits at most ``LOCK_TIMEOUT`` for a
lock (``is_busy`` tells that error from others). The schema is managed by Alembic (``migrations/``).
Stored: what was entered (players, each hand's cards or typed total and its value). Manche
points, totals, ranking and dealer are derived from them on reading.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from datetime import UTC, datetime

from sqlalchemy import Index, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Column, Field, SQLModel, Text, UniqueConstraint, create_engine


def token_hash(token: str) -> str:
    """What is stored of an edit or invite token: its SHA-256 (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    __tablename__ = "game"
    # The list of games' order (in progress first, newest first): its first page is read from
    # this index, never sorted (issue 17, migration 0005).
    __table_args__ = (Index("ix_game_listed", text("(finished_at IS NOT NULL)"), text("created_at DESC"), "id"),)

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
    # reads only the manches added since (issue 17, migration 0005).
    reshaped: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    # The rules of a game played with house rules: the house variant's document when the game was
    # created (the house variant may be edited or deleted later; the game keeps these).
    rules_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


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
    # Where they sit (issue 28): their place around the table, the way play goes; the table order
    # is the players by place. A seat never changes (hands and winners are stored by seat); the
    # places after a newcomer's move up by one when they sit down between two players.
    place: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class Manche(SQLModel, table=True):
    __tablename__ = "manche"
    # A game's manches are found through the unique constraint's index (game_id first): no index of
    # game_id alone, one page fewer to write for every manche recorded (issue 29, migration 0009).
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=32, ondelete="CASCADE")
    number: int
    winner_seat: int | None = None
    blocked: bool = False
    last_card: str | None = Field(default=None, max_length=8)
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
    part of a game's history, of its file or of a backup (issue 24, migration 0006)."""

    __tablename__ = "presence"

    game_id: str = Field(primary_key=True, foreign_key="game.id", max_length=32, ondelete="CASCADE")
    phone: str = Field(primary_key=True, max_length=32)  # the phone's own random id (its session)
    name: str | None = Field(default=None, max_length=40)  # the name the phone gave, if any
    number: int  # the manche it is entering or correcting
    editing: bool = False  # correcting a recorded manche (else entering the next one)
    seen: float  # time.time() of its last sign of life


class IdempotencyRecord(SQLModel, table=True):
    """The first answer to a write, kept so that a retry (same key) returns it instead of writing
    twice: the number of the manche it recorded, and, once that manche was taken away (deleted, or
    its saving undone), the game's revision that write made — a retry is then told so, never
    recorded again; the undo of that deletion clears it. Kept ``models/services/keys.KEPT_DAYS``
    (issue 27, migration 0006)."""

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


# How long a write waits for a lock another write holds before giving up (seconds): SQLite's busy
# timeout, PostgreSQL's lock_timeout. A request that cannot have it in time answers 503 with
# Retry-After (views/errors.py) and has written nothing; it never hangs for long, nor answers 500.
LOCK_TIMEOUT = 5.0
# The errors that mean "the lock could not be had in time, try again": SQLite's SQLITE_BUSY and
# SQLITE_LOCKED ("database is locked"); PostgreSQL's lock_not_available (lock_timeout),
# serialization_failure and deadlock_detected.
SQLITE_BUSY_CODES = (5, 6)
PG_BUSY_SQLSTATES = ("55P03", "40001", "40P01")


def is_busy(error: BaseException) -> bool:
    """Whether a database error says the database was busy (a lock not had in time), not broken."""
    cause = getattr(error, "orig", None) or error
    if getattr(cause, "sqlstate", None) in PG_BUSY_SQLSTATES:
        return True
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in SQLITE_BUSY_CODES  # extended codes (SQLITE_BUSY_SNAPSHOT …) included
    return isinstance(cause, sqlite3.OperationalError) and "database is locked" in str(cause)


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


def make_engine(url: str, lock_timeout: float = LOCK_TIMEOUT, **kwargs) -> Engine:
    """An engine for ``url``; SQLite gets WAL, synchronous FULL, foreign keys and a busy timeout,
    PostgreSQL a lock timeout (``lock_timeout`` seconds both)."""
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://") :]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": lock_timeout})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas(lock_timeout))
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _pg_lock_timeout(lock_timeout))
    return engine


WRITE_LOCK_POLL = 0.0005  # seconds between two tries for SQLite's write lock (issue 29)


def _sqlite_immediate(engine: Engine, lock_timeout: float) -> None:
    """Writes on SQLite start with BEGIN IMMEDIATE, which takes the database's one write lock
    first: they wait for it instead of failing when a reading transaction would have to become
    a writing one.

    The waiting is ours, not SQLite's (issue 29): SQLite's busy handler sleeps inside the C call
    (1, 2, 5, 10 … 100 ms), which stops a whole gevent worker — every request it holds — and
    wakes long after the lock was let go; under two workers writing to the same file, one of
    them kept sleeping while the other took the lock again and again. Here the writer's
    connections have no busy timeout and BEGIN IMMEDIATE is tried again every
    ``WRITE_LOCK_POLL`` seconds with ``time.sleep``, which gevent's worker turns into a pause of
    this request only; after ``lock_timeout`` seconds the busy error goes up (503 with
    Retry-After, views/errors.py)."""

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA busy_timeout=0")

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection):
        begin_immediate(lambda: connection.exec_driver_sql("BEGIN IMMEDIATE"), lock_timeout)


def begin_immediate(begin, lock_timeout: float) -> None:
    """``begin()`` (which runs SQLite's BEGIN IMMEDIATE) until it has the write lock, tried again
    every ``WRITE_LOCK_POLL`` seconds while the database is busy, at most ``lock_timeout`` seconds."""
    deadline = time.monotonic() + lock_timeout
    while True:
        try:
            begin()
            return
        except (OperationalError, sqlite3.OperationalError) as error:  # SQLAlchemy's, or the driver's own
            if not is_busy(error) or time.monotonic() > deadline:
                raise
        time.sleep(WRITE_LOCK_POLL)


LOOKUP_POOL = 2  # connections held per process for lookups (a lookup holds one for microseconds)
WRITERS_HELD = 4  # connections held per process for SQLite's writes (a write waiting for the lock holds one)


def announce(engine: Engine, cursor, sql: str, params, many: bool = False) -> None:
    """Hand a statement about to run on a DBAPI cursor to ``engine``'s ``before_cursor_execute``
    listeners, as SQLAlchemy hands them its own (the tests that count statements listen there)."""
    for listener in engine.dispatch.before_cursor_execute:
        listener(None, cursor, sql, params, None, many)


class Held:
    """Connections of ``engine`` held checked out between two uses, ``size`` at most: going
    through the pool — its checkout, its return and the rollback it resets a connection with —
    cost more than a short statement (issue 29: 18 µs of a stored page's 170 on SQLite; 75 µs of
    a manche's write). ``take`` gives a held one, else one from the pool; ``give_back`` holds it
    again (a connection found broken is closed instead, never given back)."""

    def __init__(self, engine: Engine, size: int):
        self.engine = engine
        self.size = size
        self.connections: list = []

    def take(self):
        try:
            return self.connections.pop()
        except IndexError:
            return self.engine.raw_connection()

    def give_back(self, connection) -> None:
        if len(self.connections) < self.size:
            self.connections.append(connection)
        else:
            connection.close()

    def let_go(self) -> None:
        """Every held connection back to the pool."""
        while self.connections:
            try:
                self.connections.pop().close()
            except IndexError:
                break


class Database:
    """The engines of one database: ``reader`` for pages, ``writer`` for the service's writes,
    ``lookups`` for the one-row statements asked before a cached page is served or a write is
    planned (``lookup``)."""

    def __init__(self, url: str, lock_timeout: float = LOCK_TIMEOUT, **kwargs):
        self.url = url
        self.lock_timeout = lock_timeout
        self.compiled: dict = {}  # statements compiled for this database (models/services/transaction.py)
        self.writer = make_engine(url, lock_timeout, **kwargs)
        self.is_sqlite = self.writer.dialect.name == "sqlite"
        if self.is_sqlite:
            _sqlite_immediate(self.writer, lock_timeout)
            self.reader = make_engine(url, lock_timeout, **kwargs)
        else:
            # Reads in autocommit: no BEGIN and ROLLBACK around them, two round trips of three
            # (each statement sees the data committed when it starts, as in READ COMMITTED).
            self.reader = make_engine(
                url, lock_timeout, isolation_level="AUTOCOMMIT", pool_reset_on_return=None, **kwargs
            )
        # Issue 17: a lookup is one indexed statement; through the ORM or a Core connection it
        # cost 140 µs on SQLite and 400–800 µs on PostgreSQL (a ping, the statement, a rollback:
        # three round trips), on a pooled DBAPI connection in autocommit 8 µs and 98 µs.
        self.lookups = make_engine(
            url,
            lock_timeout,
            isolation_level="AUTOCOMMIT",
            pool_reset_on_return=None,
            pool_pre_ping=False,
            pool_size=LOOKUP_POOL,
            **kwargs,
        )
        self.placeholder = "?" if self.is_sqlite else "%s"
        self.held_lookups = Held(self.lookups, LOOKUP_POOL)
        # A write's connection (models/services/transaction.py) is held too on SQLite; on
        # PostgreSQL it comes from the pool, which pings it first (a server restart drops them).
        self.held_writers = Held(self.writer, WRITERS_HELD if self.is_sqlite else 0)

    def lookup(self, sql: str, *params):
        """The first row of a small read-only statement (``?`` for each parameter), or None. No
        transaction, no statement compiled, no ping: when a connection is found dropped (the
        server restarted, an idle connection cut), every connection kept for lookups is let go
        and the statement asked once more on a new one. Errors are SQLAlchemy's, as elsewhere."""
        return self._ask(sql, params, lambda cursor: cursor.fetchone())

    def lookup_all(self, sql: str, *params) -> list:
        """Every row of a small read-only statement, asked as ``lookup`` asks (one statement: what
        it reads is one consistent state of the database)."""
        return self._ask(sql, params, lambda cursor: cursor.fetchall())

    def _ask(self, sql: str, params: tuple, fetch):
        if self.placeholder != "?":
            sql = sql.replace("?", self.placeholder)
        dbapi = self.lookups.dialect.loaded_dbapi
        for attempt in (1, 2):
            connection = self.held_lookups.take()
            kept = True
            try:
                cursor = connection.cursor()
                announce(self.lookups, cursor, sql, params)  # those who count statements see lookups too
                cursor.execute(sql, params)
                rows = fetch(cursor)
                cursor.close()
                return rows
            except dbapi.Error as error:
                dropped = self.lookups.dialect.is_disconnect(error, connection.dbapi_connection, None)
                if dropped:
                    kept = False
                    connection.invalidate()
                    self.held_lookups.let_go()  # the others were opened before the drop too
                    self.lookups.dispose()
                if attempt == 2 or not dropped:
                    raise DBAPIError.instance(
                        sql, params, error, dbapi.Error, connection_invalidated=dropped
                    ) from error
            finally:
                if kept:
                    self.held_lookups.give_back(connection)
                else:
                    connection.close()

    is_busy = staticmethod(is_busy)  # for the web layer, which never imports this module

    @property
    def engines(self) -> list[Engine]:
        return [self.reader, self.writer, self.lookups]

    def dispose(self) -> None:
        self.held_lookups.let_go()
        self.held_writers.let_go()
        for engine in self.engines:
            engine.dispose()


metadata = SQLModel.metadata

"""Persistence: SQLModel tables, the engine, sessions.

SQLite (one file under ``instance/``, WAL, synchronous FULL, foreign keys on) by default;
PostgreSQL when ``DATABASE_URL`` says so. The schema is managed by Alembic (``migrations/``).
Stored: what was entered (players, each hand's cards or typed total and its value). Manche
points, totals, ranking and dealer are derived from them on reading.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Column, Field, SQLModel, Text, UniqueConstraint, create_engine


def token_hash(token: str) -> str:
    """What is stored of an edit or invite token: its SHA-256 (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    __tablename__ = "game"

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
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    # The rules of a game played with house rules: the house variant's document when the game was
    # created (the house variant may be edited or deleted later; the game keeps these).
    rules_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class Player(SQLModel, table=True):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=32, ondelete="CASCADE")
    seat: int
    name: str = Field(max_length=40)
    team: str | None = Field(default=None, max_length=90)


class Manche(SQLModel, table=True):
    __tablename__ = "manche"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=32, ondelete="CASCADE")
    number: int
    winner_seat: int | None = None
    blocked: bool = False
    last_card: str | None = Field(default=None, max_length=8)
    created_at: datetime = Field(default_factory=utcnow)


class Hand(SQLModel, table=True):
    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("manche_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    manche_id: int = Field(foreign_key="manche.id", index=True, ondelete="CASCADE")
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


class HouseVariant(SQLModel, table=True):
    """A variant written by a group ("house rules"): a validated variant document, editable by
    the holder of its edit token (stored hashed)."""

    __tablename__ = "house_variant"

    id: str = Field(primary_key=True, max_length=32)
    document_json: str = Field(sa_column=Column(Text, nullable=False))
    edit_token_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class IdempotencyRecord(SQLModel, table=True):
    """The first answer to a write, kept so that a retry (same key) returns it instead of writing twice."""

    __tablename__ = "idempotency"
    __table_args__ = (UniqueConstraint("game_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=32, ondelete="CASCADE")
    key: str = Field(max_length=128)
    manche_number: int
    created_at: datetime = Field(default_factory=utcnow)


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str, **kwargs) -> Engine:
    """An engine for ``url``; SQLite gets WAL, synchronous FULL, foreign keys and a busy timeout."""
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://") :]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": 10})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(url, **kwargs)


def _sqlite_immediate(engine: Engine) -> None:
    """Writes on SQLite start with BEGIN IMMEDIATE: they queue on the busy timeout instead of
    failing when a reading transaction would have to become a writing one."""

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection, _record):
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class Database:
    """The engines of one database: ``reader`` for pages, ``writer`` for the service's writes."""

    def __init__(self, url: str, **kwargs):
        self.url = url
        self.reader = make_engine(url, **kwargs)
        self.is_sqlite = self.reader.dialect.name == "sqlite"
        if self.is_sqlite:
            self.writer = make_engine(url, **kwargs)
            _sqlite_immediate(self.writer)
        else:
            self.writer = self.reader

    def dispose(self) -> None:
        self.reader.dispose()
        if self.writer is not self.reader:
            self.writer.dispose()


metadata = SQLModel.metadata


MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def migrate(database: Database, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with Alembic (the run command does this at start)."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    with database.writer.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

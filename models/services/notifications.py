"""How a process hears that games changed, whichever process or server changed them.

One subscription per process (the change feed owns it, in one background thread — a greenlet
under gevent):

- **PostgreSQL**: one connection that ``LISTEN``s on ``CHANNEL``. A trigger on ``game`` sends
  ``"<game id> <revision>"`` when a revision moves, one on ``presence`` sends ``"<game id>
  presence"`` (migration 0006); NOTIFY is delivered when the writing transaction commits, and
  only then. After a reconnection everything watched is looked at again (notifications sent
  while the connection was down are lost).
- **SQLite** (one machine): ``PRAGMA data_version`` on a connection of its own, asked every
  ``SQLITE_INTERVAL`` seconds, moves whenever another connection — of this process or another —
  commits; then two statements on that connection read a mark of each watched game (its
  revision, its open entry's version, its phones entering) and the games whose mark moved are
  named, as PostgreSQL's notifications name them. Reading every watched game's revision,
  presence and entry in three statements through SQLAlchemy instead cost 52 ms of CPU a look at
  2,000 games, ten looks a second in every worker process under load (bench/README.md).

Either way ``heard(game_ids)`` is called with the games named, or None for "look at every game
watched" (first of all once connected: whatever changed before); ``tick()`` is called at least
once a second (to forget phones gone silent). ``run`` returns when ``stop`` is set and raises
whatever goes wrong: the change feed logs it, waits and runs it again (``feed.ChangeFeed``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects import sqlite

from .db import Database, Game, OpenEntry, Presence

CHANNEL = "carte_changes"  # migration 0006's triggers notify on it
SQLITE_INTERVAL = 0.1  # a new revision is noticed within this
PG_WAIT = 1.0  # how long a wait for notifications lasts before tick() and the stop flag are seen


def subscription(database: Database, watched: Callable[[], Iterable[str]] = tuple):
    """The way this database tells of changes (``watched``: the games this process watches now)."""
    return SqliteWatcher(database, watched) if database.is_sqlite else PgListener(database)


def _marks_statements() -> tuple[str, str]:
    """What moves when a phone must hear of a game, for the watched games (given as one JSON list:
    one parameter, whatever their number): each game's revision and its open entry's version;
    the phones entering each (how many, their signs of life summed)."""
    watched = func.json_each(bindparam("ids")).table_valued("value")
    games = (
        select(Game.id, Game.revision, OpenEntry.version)
        .select_from(watched.join(Game, Game.id == watched.c.value))
        .outerjoin(OpenEntry, OpenEntry.game_id == Game.id)
    )
    entering = (
        select(Presence.game_id, func.count(), func.total(Presence.seen))
        .where(Presence.game_id.in_(select(watched.c.value)))
        .group_by(Presence.game_id)
    )
    return str(games.compile(dialect=sqlite.dialect())), str(entering.compile(dialect=sqlite.dialect()))


GAME_MARKS, ENTERING_MARKS = _marks_statements()


class SqliteWatcher:
    def __init__(self, database: Database, watched: Callable[[], Iterable[str]] = tuple):
        self.path = database.writer.url.database
        self.watched = watched

    def marks(self, connection) -> dict[str, tuple]:
        """Each watched game's mark (two statements on the watcher's own connection)."""
        ids = (json.dumps(list(self.watched())),)
        entering = {row[0]: row[1:] for row in connection.execute(ENTERING_MARKS, ids)}
        return {row[0]: (*row[1:], entering.get(row[0])) for row in connection.execute(GAME_MARKS, ids)}

    def run(self, heard, tick, stop: threading.Event) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            marks = self.marks(connection)
            heard(None)  # anything written before this connection looked
            while not stop.wait(SQLITE_INTERVAL):
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version != seen:
                    seen = version
                    now = self.marks(connection)
                    moved = [game_id for game_id, mark in now.items() if marks.get(game_id) != mark]
                    marks = now
                    if moved:
                        heard(moved)
                tick()
        finally:
            connection.close()


class PgListener:
    def __init__(self, database: Database):
        url = database.writer.url
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)

    def run(self, heard, tick, stop: threading.Event) -> None:
        import psycopg

        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            heard(None)  # anything sent while this connection did not listen
            self._listen(connection, heard, tick, stop)

    @staticmethod
    def _listen(connection, heard, tick, stop: threading.Event) -> None:
        ticked = time.monotonic()
        while not stop.is_set():
            games = {n.payload.split(" ", 1)[0] for n in connection.notifies(timeout=PG_WAIT, stop_after=1)}
            if games:  # what else arrived with it is taken at once
                games |= {n.payload.split(" ", 1)[0] for n in connection.notifies(timeout=0.001)}
                heard(games)
            if time.monotonic() - ticked >= PG_WAIT:
                ticked = time.monotonic()
                tick()

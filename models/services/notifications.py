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
  commits; then the watched games are looked at (one small statement).

Either way ``heard(game_ids)`` is called with the games named, or None for "look at every game
watched" (first of all once connected: whatever changed before); ``tick()`` is called at least
once a second (to forget phones gone silent). ``run`` returns when ``stop`` is set and raises
whatever goes wrong: the change feed logs it, waits and runs it again (``feed.ChangeFeed``).
"""

from __future__ import annotations

import sqlite3
import threading
import time

from .db import Database

CHANNEL = "carte_changes"  # migration 0006's triggers notify on it
SQLITE_INTERVAL = 0.1  # a new revision is noticed within this
PG_WAIT = 1.0  # how long a wait for notifications lasts before tick() and the stop flag are seen


def subscription(database: Database):
    """The way this database tells of changes."""
    return SqliteWatcher(database) if database.is_sqlite else PgListener(database)


class SqliteWatcher:
    def __init__(self, database: Database):
        self.path = database.writer.url.database

    def run(self, heard, tick, stop: threading.Event) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            heard(None)  # anything written before this connection looked
            while not stop.wait(SQLITE_INTERVAL):
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version != seen:
                    seen = version
                    heard(None)
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

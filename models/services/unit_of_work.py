"""One write, one transaction: the unit of work every write of the services goes through.

``with unit_of_work(database) as session:`` opens a SQLAlchemy ``Session`` on the write engine
and begins its one transaction (on SQLite with ``BEGIN IMMEDIATE``: the write waits for the
database's write lock first, at most the busy timeout); the service runs its statements on it —
Core statements or ORM objects alike; the block's end commits, an error rolls everything back
and goes up. Nothing is written unless all of it is.

After the commit the change announces itself: every write bumps its game's revision, and the
live feed hears it from the database (PostgreSQL's ``NOTIFY`` triggers fire at commit; SQLite's
``data_version`` moves), in every process alike (``models/services/notifications.py``).

A write whose connection fails before its commit has written nothing: the request answers 503
(``faults.is_unavailable``) and its retry, with the same idempotency key, writes it once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session

from .db import Database


@contextmanager
def unit_of_work(database: Database) -> Iterator[Session]:
    """One write transaction on ``database``: committed when the block ends, else rolled back.
    Objects read or added stay usable after the commit (nothing is expired)."""
    with Session(database.writer, expire_on_commit=False) as session, session.begin():
        yield session

"""One user action, one transaction: the unit of work every write of the services goes through.

``with unit_of_work(database) as session:`` opens a SQLAlchemy ``Session`` on the write engine
and begins its one transaction (on SQLite with ``BEGIN IMMEDIATE``: the write waits for the
database's write lock first, at most the busy timeout); the service runs its statements on it —
Core statements or ORM objects alike; the block's end commits, an error rolls everything back
and goes up. Nothing is written unless all of it is.

What a request has to write besides its action — an invite's last use noted, the phone that
saved no longer entering — rides along (``along``): it is written inside the request's next unit
of work, in its transaction, never in one of its own; a request that writes nothing else, or
whose write fails, writes none of it (``let_go`` at its end). The riders are the request's own
(a context variable: a thread's, or a greenlet's under gevent).

After the commit the change announces itself: every write bumps its game's revision, and the
live feed hears it from the database (PostgreSQL's ``NOTIFY`` triggers fire at commit; SQLite's
``data_version`` moves), in every process alike (``models/services/notifications.py``).

A write whose connection fails before its commit has written nothing: the request answers 503
(``faults.is_unavailable``) and its retry, with the same idempotency key, writes it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sqlmodel import Session

from .db import Database

_RIDERS: ContextVar[tuple] = ContextVar("carte_riders", default=())


def along(write: Callable[[Session], object]) -> None:
    """``write(session)`` is made inside this request's next unit of work, or not at all."""
    _RIDERS.set((*_RIDERS.get(), write))


def let_go() -> None:
    """The request is over: what rode along and found no unit of work is not written."""
    _RIDERS.set(())


@contextmanager
def unit_of_work(database: Database) -> Iterator[Session]:
    """One write transaction on ``database``: committed when the block ends, else rolled back,
    with what rode along (``along``) written first. Objects read or added stay usable after the
    commit (nothing is expired)."""
    riders = _RIDERS.get()
    _RIDERS.set(())
    with Session(database.writer, expire_on_commit=False) as session, session.begin():
        for write in riders:
            write(session)
        yield session

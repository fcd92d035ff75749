"""What a database error means for the request that met it: the database was busy (a lock not
had in time: try again) or out of reach (refused, cut, too many clients, no pooled connection
free in time), or neither (a bug). The web layer answers the first two with a 503 and
Retry-After (``views/errors.py``); the SQLite write lock is asked again while busy (``db.py``)."""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# The errors that mean "the lock could not be had in time, try again": SQLite's SQLITE_BUSY and
# SQLITE_LOCKED ("database is locked"); PostgreSQL's lock_not_available (lock_timeout),
# serialization_failure and deadlock_detected.
SQLITE_BUSY_CODES = (5, 6)
PG_BUSY_SQLSTATES = ("55P03", "40001", "40P01")
# The errors that mean "the database cannot be reached right now": PostgreSQL's connection
# exceptions (08…), insufficient resources ("too many clients", 53…) and operator intervention
# (a backend terminated, the server shutting down, 57P…); SQLite's file that cannot be opened
# (SQLITE_CANTOPEN) or read (SQLITE_IOERR).
PG_UNAVAILABLE_SQLSTATES = ("08", "53", "57P")
SQLITE_UNAVAILABLE_CODES = (10, 14)


def is_busy(error: BaseException) -> bool:
    """Whether a database error says the database was busy (a lock not had in time), not broken."""
    cause = getattr(error, "orig", None) or error
    if getattr(cause, "sqlstate", None) in PG_BUSY_SQLSTATES:
        return True
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in SQLITE_BUSY_CODES  # extended codes (SQLITE_BUSY_SNAPSHOT …) included
    return isinstance(cause, sqlite3.OperationalError) and "database is locked" in str(cause)


def is_unavailable(error: BaseException) -> bool:
    """Whether an error says the database could not be reached (refused, cut, too many clients,
    no pooled connection free in time): the request did nothing and may be tried again."""
    if isinstance(error, PoolTimeout):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated:
        return True
    cause = error.orig
    state = getattr(cause, "sqlstate", None)
    if state:
        return state.startswith(PG_UNAVAILABLE_SQLSTATES)
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in SQLITE_UNAVAILABLE_CODES
    # psycopg's errors without a state come from the connection itself (refused, closed).
    return isinstance(error, OperationalError | InterfaceError) and type(cause).__module__.startswith("psycopg")

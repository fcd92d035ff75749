"""A write's one short transaction, on the DBAPI connection itself (issue 29).

Recording a manche is three statements in one transaction (the revision compared and bumped,
the manche, its hands). Measured in-process on SQLite, SQLAlchemy's own steps around them — a
``Connection`` and its transaction objects, the compiled-statement cache looked up, the
parameters processed, a result object — cost three times the statements themselves (about
200 µs of a write's 1,250, the statements 50). Here the same Core statements (they stay
written once, with SQLAlchemy: ``models/services/undo.py``, ``keys.py``, ``games.py``) are
compiled once per database and set of parameters, and executed as they are on a pooled DBAPI
connection:

- ``transaction(database)`` takes a connection held for writes (``Database.held_writers``: on
  SQLite one held from the last write; on PostgreSQL one from the pool, pinged first), begins — on SQLite with ``BEGIN IMMEDIATE``, waited for as every
  write waits (``db.begin_immediate``) — and commits when the block ends, or rolls back.
- ``Transaction.execute(statement, params)`` runs a statement with one set of parameters (a dict,
  or a list of one) or many (``executemany``), its parameters converted by their columns' types
  as SQLAlchemy converts them, and answers its ``rowcount`` and ``scalar_one()``.
- ``SharedCommits(database).run(work)``: on SQLite, the manche writes waiting in one process at
  one moment share one such transaction, each in a savepoint of its own (a group commit: one
  ``COMMIT``, one fsync, for several); alone, a write is a transaction of its own.
- The listeners of the writer's ``before_cursor_execute`` see every statement (the tests that
  count statements count these too), and a driver's error becomes SQLAlchemy's own
  (``IntegrityError``, ``OperationalError``: the error pages and ``is_busy`` know them).
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.dml import Insert

from .db import Database, announce, begin_immediate


@dataclass(frozen=True)
class Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters, in the order a positional driver takes them
    processors: tuple  # (name, converter) for the parameters whose type converts them
    values: dict  # the parameters the statement gives itself (``Game.revision + 1``'s 1)


@dataclass(frozen=True)
class Done:
    rowcount: int
    row: tuple | None

    def scalar_one(self):
        if self.row is None:
            raise LookupError("the statement returned no row")
        return self.row[0]


def compiled(database: Database, statement, keys: tuple[str, ...]) -> Compiled:
    """``statement`` compiled for ``database`` with the parameters ``keys``, once."""
    made = database.compiled.get((statement, keys))
    if made is None:
        dialect = database.writer.dialect
        options = {"column_keys": list(keys)} if isinstance(statement, Insert) else {}
        done = statement.compile(dialect=dialect, **options)
        if done.insert_prefetch or done.update_prefetch:  # defaults computed in Python: not here
            raise ValueError(f"columns with Python-side defaults must be given: {statement}")
        names = tuple(done.positiontup or ()) if dialect.positional else ()
        processors, values = [], {}
        for name, bind in done.binds.items():
            convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if convert is not None:
                processors.append((name, convert))
            if name not in keys and bind.callable is None and bind.value is not None:
                values[name] = bind.value
        made = Compiled(done.string, names, tuple(processors), values)
        database.compiled[(statement, keys)] = made
    return made


class Transaction:
    def __init__(self, database: Database, connection):
        self.database = database
        self.connection = connection

    def execute(self, statement, params=None) -> Done:
        rows = params if isinstance(params, list) else [params or {}]
        many = len(rows) > 1
        made = compiled(self.database, statement, tuple(sorted(rows[0])))
        converted = []
        for row in rows:
            row = {**made.values, **row}
            for name, convert in made.processors:
                if name in row:
                    row[name] = convert(row[name])
            converted.append(tuple(row[name] for name in made.names) if made.names else row)
        cursor = self.connection.cursor()
        try:
            with DriverErrors(self.database, made.sql, converted):
                announce(self.database.writer, cursor, made.sql, converted if many else converted[0], many)
                if many:
                    cursor.executemany(made.sql, converted)
                    return Done(cursor.rowcount, None)
                cursor.execute(made.sql, converted[0])
                return Done(cursor.rowcount, cursor.fetchone() if cursor.description else None)
        finally:
            cursor.close()


class DriverErrors:
    """Within it, the driver's errors become SQLAlchemy's own (``IntegrityError``,
    ``OperationalError``…), as a statement run by SQLAlchemy raises them: the error pages and
    ``is_busy`` know those."""

    def __init__(self, database: Database, sql: str, params=()):
        self.database, self.sql, self.params = database, sql, params

    def __enter__(self):
        return self

    def __exit__(self, kind, error, _traceback):
        dbapi_error = self.database.writer.dialect.loaded_dbapi.Error
        if isinstance(error, dbapi_error):
            raise DBAPIError.instance(self.sql, self.params, error, dbapi_error) from error
        return False


@contextmanager
def transaction(database: Database):
    """One write transaction (see the module's text): commits when the block ends, else rolls back."""
    connection = database.held_writers.take()
    usable = True
    try:
        if database.is_sqlite:
            with DriverErrors(database, "BEGIN IMMEDIATE"):  # the driver's "busy" asked again as it is
                begin_immediate(lambda: _begin(database, connection), database.lock_timeout)
        yield Transaction(database, connection)
        with DriverErrors(database, "COMMIT"):
            connection.commit()
    except BaseException:
        try:
            connection.rollback()
        except Exception:  # the connection is gone: it is let go below, the first error goes up
            usable = False
            connection.invalidate()
        raise
    finally:
        if usable:
            database.held_writers.give_back(connection)
        else:
            connection.close()


def _begin(database: Database, connection) -> None:
    _say(database, connection, "BEGIN IMMEDIATE")


def _say(database: Database, connection, sql: str) -> None:
    """A statement without parameters on the write's connection, announced as every statement is."""
    cursor = connection.cursor()
    try:
        announce(database.writer, cursor, sql, ())
        cursor.execute(sql)
    finally:
        cursor.close()


class SharedCommits:
    """SQLite (issue 29): the manche writes waiting in this process at one moment share one
    transaction — one ``BEGIN IMMEDIATE`` and one ``COMMIT`` (its fsync) for all of them — as a
    database's group commit does. Each write keeps its statements inside a savepoint of its own: one
    that fails (once caught up, its game over or its key found; a row the database refuses) is
    taken back alone and raises in its own request. Every write of the transaction is answered once
    it committed, never before; if the database refuses the commit, each raises its error. A write
    alone is a transaction of its own, as before (no savepoint). The caller keeps two writes of one
    game out of one transaction (``GameService`` lets them take turns: ``latest.LatestViews.turn``).
    PostgreSQL locks rows, not the database: there each write keeps a transaction of its own.

    A request stopped while it waits (a worker told to stop, a timeout) takes its write out of the
    queue: it is not made. One stopped while it leads a transaction rolls it back; the others wait
    for the next one. A write that waited ``lock_timeout`` for the lock is refused as busy; those
    that came later wait on.

    Measured (bench/README.md, 2026-11-27, fifth session): two workers writing to 8 games, 5–8
    writes a transaction mostly, 0.66–0.75× the bare INSERT against 0.48–0.54× with a transaction
    each."""

    def __init__(self, database: Database):
        self.database = database
        self.turn = threading.Condition()
        self.waiting: list[_Shared] = []
        self.leading = False

    def run(self, work):
        """``work(transaction)`` inside a transaction (shared with the writes waiting beside it, on
        SQLite); its answer once that transaction committed, or its error."""
        if not self.database.is_sqlite:
            with transaction(self.database) as session:
                return work(session)
        shared = _Shared(work)
        with self.turn:
            self.waiting.append(shared)
            try:
                while self.leading and not shared.finished:
                    self.turn.wait()
            except BaseException:  # stopped while it waited: its write is not made
                self._withdraw(shared)
                raise
            if shared.finished:
                return shared.answer()
            self.leading = True
        try:
            time.sleep(0)  # the requests ready in this process first reach their write and wait beside it
            self._lead(shared)
        except BaseException:  # stopped while it led: its write is not made (the others wait on)
            with self.turn:
                self._withdraw(shared)
            raise
        finally:
            with self.turn:
                self.leading = False
                self.turn.notify_all()
        return shared.answer()

    def _withdraw(self, shared: _Shared) -> None:
        if shared in self.waiting:
            self.waiting.remove(shared)

    def _lead(self, own: _Shared) -> None:
        """Begin, take every write waiting (those that came while the lock was waited for too),
        run each, commit; each one finished, with its answer or its error."""
        batch: list[_Shared] = []
        try:
            with transaction(self.database) as session:
                with self.turn:
                    batch, self.waiting = self.waiting, []
                if len(batch) == 1:  # alone: its error rolls the transaction back, as any write's
                    batch[0].run(session)
                    if batch[0].error is not None:
                        raise batch[0].error
                else:
                    for shared in batch:
                        shared.run_saved(session)
        except Exception as error:  # the database's: rolled back (or never begun), nothing kept
            if not batch:  # never begun: the lock not got in time
                batch = self._waited_out(own)
            for shared in batch:
                shared.fail(error)
        except BaseException:  # this request stopped: rolled back; the others wait for the next one
            with self.turn:
                self.waiting[:0] = [shared.again() for shared in batch if shared is not own]
            raise
        for shared in batch:
            shared.finished = True

    def _waited_out(self, own: _Shared) -> list:
        """The writes that waited for the lock as long as one may: this one, and any that came as
        early (they are answered busy); those that came later wait on."""
        now = time.monotonic()
        with self.turn:
            out = [s for s in self.waiting if s is own or now - s.since >= self.database.lock_timeout]
            self.waiting = [s for s in self.waiting if s not in out]
        return out


class _Shared:
    """One write waiting in ``SharedCommits``: its work, then its answer or its error."""

    def __init__(self, work):
        self.work = work
        self.since = time.monotonic()
        self.result = None
        self.error: BaseException | None = None
        self.finished = False

    def run(self, session: Transaction) -> None:
        try:
            self.result = self.work(session)
        except Exception as error:  # noqa: BLE001 — raised again in the request it belongs to
            self.error = error

    def run_saved(self, session: Transaction) -> None:
        self._savepoint(session, "SAVEPOINT carte_write")
        self.run(session)
        if self.error is not None:
            self._savepoint(session, "ROLLBACK TO carte_write")
        self._savepoint(session, "RELEASE carte_write")

    @staticmethod
    def _savepoint(session: Transaction, sql: str) -> None:
        with DriverErrors(session.database, sql):
            _say(session.database, session.connection, sql)

    def again(self) -> _Shared:
        """Back to waiting, as if never run (its transaction was rolled back)."""
        self.result, self.error = None, None
        return self

    def fail(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error
            self.result = None

    def answer(self):
        if self.error is not None:
            raise self.error
        return self.result

"""A write's one short transaction, on the DBAPI connection itself (issue 29).

Recording a manche is three statements in one transaction (the revision compared and bumped,
the manche, its hands). Measured in-process on SQLite, SQLAlchemy's own steps around them — a
``Connection`` and its transaction objects, the compiled-statement cache looked up, the
parameters processed, a result object — cost three times the statements themselves (about
200 µs of a write's 1,250, the statements 50). Here the same Core statements (they stay
written once, with SQLAlchemy: ``models/services/undo.py``, ``keys.py``, ``games.py``) are
compiled once per database and set of parameters, and executed as they are on a pooled DBAPI
connection:

- ``transaction(database)`` takes a connection from the writer's pool (pinged first on
  PostgreSQL, as the pool does), begins — on SQLite with ``BEGIN IMMEDIATE``, waited for as every
  write waits (``db.begin_immediate``) — and commits when the block ends, or rolls back.
- ``Transaction.execute(statement, params)`` runs a statement with one set of parameters (a dict,
  or a list of one) or many (``executemany``), its parameters converted by their columns' types
  as SQLAlchemy converts them, and answers its ``rowcount`` and ``scalar_one()``.
- The listeners of the writer's ``before_cursor_execute`` see every statement (the tests that
  count statements count these too), and a driver's error becomes SQLAlchemy's own
  (``IntegrityError``, ``OperationalError``: the error pages and ``is_busy`` know them).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.dml import Insert

from .db import Database, begin_immediate


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
            for listener in self.database.writer.dispatch.before_cursor_execute:
                listener(None, cursor, made.sql, converted if many else converted[0], None, many)
            if many:
                cursor.executemany(made.sql, converted)
                return Done(cursor.rowcount, None)
            cursor.execute(made.sql, converted[0])
            return Done(cursor.rowcount, cursor.fetchone() if cursor.description else None)
        except self.database.writer.dialect.loaded_dbapi.Error as error:
            raise as_sqlalchemy(made.sql, converted, error, self.database) from error
        finally:
            cursor.close()


def as_sqlalchemy(sql: str, params, error: Exception, database: Database) -> DBAPIError:
    return DBAPIError.instance(sql, params, error, database.writer.dialect.loaded_dbapi.Error)


@contextmanager
def transaction(database: Database):
    """One write transaction (see the module's text): commits when the block ends, else rolls back."""
    connection = database.writer.raw_connection()
    try:
        if database.is_sqlite:
            try:  # the driver's "busy" asked again and again as it is: made SQLAlchemy's error once, if at all
                begin_immediate(lambda: _begin(database, connection), database.lock_timeout)
            except database.writer.dialect.loaded_dbapi.Error as error:
                raise as_sqlalchemy("BEGIN IMMEDIATE", (), error, database) from error
        yield Transaction(database, connection)
        try:
            connection.commit()
        except database.writer.dialect.loaded_dbapi.Error as error:
            raise as_sqlalchemy("COMMIT", (), error, database) from error
    except BaseException:
        try:
            connection.rollback()
        except Exception:  # the connection is gone: it is let go below, the first error goes up
            connection.invalidate()
        raise
    finally:
        connection.close()


def _begin(database: Database, connection) -> None:
    cursor = connection.cursor()
    try:
        for listener in database.writer.dispatch.before_cursor_execute:
            listener(None, cursor, "BEGIN IMMEDIATE", (), None, False)
        cursor.execute("BEGIN IMMEDIATE")
    finally:
        cursor.close()

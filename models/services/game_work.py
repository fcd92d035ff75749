"""The unit of work of a game: every write of a game — a manche recorded, corrected or deleted,
an undo, a player joining or leaving — is a ``Change`` planned against the game as read, and
``run`` makes it in one transaction that owns what every such write needs:

- the revision, compared and bumped in one statement (``UPDATE … WHERE revision = ?``): another
  write went through since the game was read, and the whole unit runs again from the game read
  anew (the plan is checked again: an undo of a revision since passed is then refused);
- the idempotency key, kept with the change (a retry is answered by ``replay``, never written
  twice; two requests with one key at the same moment: the second finds the first's);
- the undo record, what the change replaced (``game_input.keep_undo``), for its "Undo";
- what rode along with the request (``unit_of_work.along``: an invite's use, the phone's presence).

Nothing else writes a game's rows; the game service (``games.py``) plans, this module writes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from sqlalchemy import bindparam, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Update
from sqlmodel import Session

from ..core.errors import N_, Conflict, NotFound
from . import keys
from .db import Database, Game, utcnow
from .game_input import keep_undo
from .ids import checked_id
from .unit_of_work import unit_of_work

MAX_ATTEMPTS = 100  # each attempt again means another write to the same game went through


class Stale(Exception):
    """The game changed since it was read: read it again and plan again."""


class Change(NamedTuple):
    """A write of a game, planned against the game as read.

    ``write(session)`` makes its statements (the revision already bumped) and answers what
    ``done`` needs; ``done(written)`` is the answer once committed. ``columns``: what the bump
    sets too (the game's end, when it moves); ``appended``: only a manche added after the last
    (the count of reshapes stays: ``Game.reshaped``); ``number``: the manche its key is kept for;
    ``undo``: ``(kind, number, what it replaced)`` for its "Undo", or None."""

    write: Callable[[Session], object]
    done: Callable[[object], object]
    columns: dict = {}
    appended: bool = False
    number: int | None = None
    undo: tuple | None = None


def run(database: Database, current, plan, key: str | None, replay, reload):
    """Make ``plan(current)``'s change in one transaction (``current``: the game as read;
    ``reload(game_id)``: the game read again). A retry of ``key`` is answered by
    ``replay(game, kept_key)``; ``key`` is kept with the change otherwise."""
    for _attempt in range(MAX_ATTEMPTS):
        if key and (kept := keys.found(database, current.id, key)) is not None:
            return replay(current, kept)
        change = plan(current)
        try:
            with unit_of_work(database) as session:
                bump(session, current.id, current.revision, change.appended, **change.columns)
                written = change.write(session)
                if change.undo is not None:
                    keep_undo(session, current, *change.undo)
                if key:
                    keys.keep(session, current.id, key, change.number)
        except Stale:
            current = reload(current.id)
            continue
        except IntegrityError:  # the same key at the same moment: the other request kept it
            if key and (kept := keys.found(database, current.id, key)) is not None:
                return replay(reload(current.id), kept)
            raise Conflict(N_("Another phone changed this game at the same moment; it is shown now.")) from None
        return change.done(written)
    raise Conflict(N_("Another phone changed this game at the same moment; it is shown now."))


@functools.cache
def _bump_statement(compared: bool, reshaped: bool, columns: tuple) -> Update:
    """The revision bump, built once per shape (the columns it also sets): a write builds no SQL.
    A Core statement on the table: the unit of work holds no game object to keep in step."""
    game = Game.__table__
    query = update(game).where(game.c.id == bindparam("game_id"))
    if compared:
        query = query.where(game.c.revision == bindparam("read_revision"))
    values = {name: bindparam("new_" + name) for name in columns}
    if reshaped:
        values["reshaped"] = game.c.reshaped + 1
    return query.values(revision=game.c.revision + 1, **values)


def bump(session: Session, game_id: str, revision: int | None = None, appended: bool = False, **columns) -> None:
    """Bump the game's revision (the shared view's ETag) in one statement; with ``revision``,
    only if it is still the one read (else ``Stale``), and its count of reshapes too unless the
    write only ``appended`` a manche. Without ``revision``: a change beside its manches (an invite)."""
    if revision is not None:
        columns["updated_at"] = utcnow()
    params = {"game_id": checked_id(game_id), "read_revision": revision}
    params.update({"new_" + name: value for name, value in columns.items()})
    reshaped = revision is not None and not appended
    statement = _bump_statement(revision is not None, reshaped, tuple(sorted(columns)))
    if session.execute(statement, params).rowcount != 1:
        if revision is None:
            raise NotFound(N_("No game with this id."), field="id")
        raise Stale

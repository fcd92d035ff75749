"""Idempotency keys: a retried write never counts twice, whatever happened in
between.

A manche recorded with a key (the API's ``Idempotency-Key``, the form's ``form:<nonce>``, the
undo's ``undo:<revision>``) keeps that key, with its number, for ``KEPT_DAYS``. A retry answers
the manche it recorded, as it stands now (edited since: as edited). If that manche was taken away
since — deleted, or its saving undone — the key is not deleted with it: it is marked with the
revision the deletion made (``gone_revision``), and a retry is a ``conflict`` that says so, never
a new manche, even if another manche now has that number. Undoing the deletion puts the manche
back and clears the mark (only the marks that deletion made): a retry then answers it again.

Keys older than ``KEPT_DAYS`` are let go by the writes themselves, at most once an hour per
process (one statement on the keys' date index).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from typing import NamedTuple

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from ..core.errors import N_, Conflict
from .db import Database, IdempotencyRecord, utcnow

log = logging.getLogger(__name__)

KEPT_DAYS = 30
PURGE_SECONDS = 3600.0

NEW_KEY = insert(IdempotencyRecord.__table__)
FOUND = select(IdempotencyRecord.manche_number, IdempotencyRecord.gone_revision).where(
    IdempotencyRecord.game_id == bindparam("game_id"), IdempotencyRecord.key == bindparam("key")
)
GONE = (
    update(IdempotencyRecord)
    .where(
        IdempotencyRecord.game_id == bindparam("of_game"),
        IdempotencyRecord.manche_number == bindparam("number"),
        IdempotencyRecord.gone_revision.is_(None),
    )
    .values(gone_revision=bindparam("revision"))
)
BACK = (
    update(IdempotencyRecord)
    .where(IdempotencyRecord.game_id == bindparam("of_game"), IdempotencyRecord.gone_revision == bindparam("made"))
    .values(gone_revision=None)
)


class KeptKey(NamedTuple):
    """What a key recorded: its manche's number, and the revision that took it away (or None)."""

    manche_number: int
    gone_revision: int | None


def found(database: Database, game_id: str, key: str) -> KeptKey | None:
    """What ``key`` recorded in this game, or None."""
    row = database.first(FOUND, {"game_id": game_id, "key": key})
    return KeptKey._make(row) if row is not None else None


def keep(connection: Connection, game_id: str, key: str, number: int) -> None:
    """Record ``key`` for manche ``number``, in the write's own transaction."""
    connection.execute(NEW_KEY, [{"game_id": game_id, "key": key, "manche_number": number, "created_at": utcnow()}])


def mark_gone(connection: Connection, game_id: str, number: int, revision: int) -> None:
    """Manche ``number`` is taken away by the write that brings the game to ``revision``."""
    connection.execute(GONE, {"of_game": game_id, "number": number, "revision": revision})


def bring_back(connection: Connection, game_id: str, revision: int) -> None:
    """The deletion that brought the game to ``revision`` is undone: its manche's keys stand again."""
    connection.execute(BACK, {"of_game": game_id, "made": revision})


def check_not_gone(record: KeptKey) -> int:
    """The number of the manche a key recorded; a ``conflict`` if it was taken away since."""
    number = record.manche_number
    if record.gone_revision is not None:
        raise Conflict(
            N_(
                "Round %(number)s was saved from this very entry, then deleted: it is not saved a second "
                "time. If it should count, enter it again."
            ),
            field="number",
            number=number,
        )
    return number


class Purge:
    """Keys older than ``KEPT_DAYS`` let go, at most once every ``PURGE_SECONDS`` per process."""

    def __init__(self, every: float = PURGE_SECONDS):
        self.every = every
        self.last = float("-inf")
        self.lock = threading.Lock()

    def due(self) -> bool:
        with self.lock:
            now = time.monotonic()
            if now - self.last < self.every:
                return False
            self.last = now
            return True

    @staticmethod
    def run(connection: Connection, now=None) -> int:
        """Delete the keys older than KEPT_DAYS (one statement, on their date's index); how many went."""
        cutoff = (now or utcnow()) - timedelta(days=KEPT_DAYS)
        return connection.execute(delete(IdempotencyRecord).where(IdempotencyRecord.created_at < cutoff)).rowcount

    def maybe(self, connection: Connection) -> None:
        """Purge, inside the write that records a manche, if an hour went by in this process."""
        if self.due():
            self.run(connection)

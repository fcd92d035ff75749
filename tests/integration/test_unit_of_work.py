"""One write, one transaction (``models/services/unit_of_work.py``): committed when the block
ends, rolled back whole on any error; values stored as the ORM stores them; on SQLite begun with
``BEGIN IMMEDIATE`` and waiting SQLite's own busy timeout for the lock, then busy; a retried key
counts once, even when the retries come at the same moment."""

from __future__ import annotations

import sqlite3
import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from models.core.errors import NotFound
from models.services.db import Database, Game, Manche
from models.services.faults import is_busy
from models.services.games import MancheEntry
from models.services.undo import NEW_MANCHE
from models.services.unit_of_work import unit_of_work
from tests.conftest import USE_PG

THREE = ["Ana", "Bob", "Chloé"]
WHEN = datetime(2026, 11, 25, 8, 30, 15, 250, tzinfo=UTC)
# Classique (SPEC §2): Ana goes out, Bob keeps 3♣ and K♦ (3 + 10 = 13), Chloé 8♥ (50).
ANA_OUT = MancheEntry("Ana", {"Bob": ["3C", "KD"], "Chloé": ["8H"]})


def manche_row(game_id: str, number: int, when: datetime = WHEN) -> dict:
    return {"game_id": game_id, "number": number, "winner_seat": 0, "blocked": True, "last_card": None,
            "created_at": when}  # fmt: skip


def stored_numbers(database: Database, game_id: str) -> list[int]:
    return list(database.all(select(Manche.number).where(Manche.game_id == game_id).order_by(Manche.number)))


def numbers(database: Database, game_id: str) -> list[int]:
    return [row.number for row in stored_numbers(database, game_id)]


def test_a_write_is_committed_when_its_block_ends(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    with unit_of_work(games.db) as session:
        session.execute(NEW_MANCHE, [manche_row(game.id, 1)])
        assert numbers(games.db, game.id) == []  # not before its commit
    assert numbers(games.db, game.id) == [1]


def test_a_failed_statement_leaves_nothing_of_the_transaction(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    with pytest.raises(IntegrityError):  # SQLAlchemy's error, which the service and the error pages know
        with unit_of_work(games.db) as session:
            assert session.execute(NEW_MANCHE, [manche_row(game.id, 1)]).scalar_one() > 0
            session.execute(NEW_MANCHE, [manche_row(game.id, 1)])  # manche 1 again: (game_id, number) is unique
    assert numbers(games.db, game.id) == []


def test_an_error_of_the_service_rolls_the_whole_write_back(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    with pytest.raises(NotFound):
        with unit_of_work(games.db) as session:
            session.execute(NEW_MANCHE, [manche_row(game.id, 1)])
            raise NotFound("refused after its first statement")
    assert numbers(games.db, game.id) == []


def test_values_are_stored_as_the_orm_stores_them(games):
    """The same manche added as an ORM object and inserted as a Core statement is stored the same
    (a date, a boolean), and reads back as it was written."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    with unit_of_work(games.db) as session:
        session.add(Manche(**manche_row(game.id, 1)))
    with unit_of_work(games.db) as session:
        session.execute(NEW_MANCHE, [manche_row(game.id, 2)])
    with Session(games.db.reader) as session:
        first, second = session.execute(
            select(Manche.created_at, Manche.blocked).where(Manche.game_id == game.id).order_by(Manche.number)
        ).all()
        assert first == second and first.blocked is True
        assert first.created_at.replace(tzinfo=UTC) == WHEN
        assert session.get(Game, game.id) is not None


def test_recording_a_manche_is_one_transaction(games):
    """One BEGIN (on SQLite ``BEGIN IMMEDIATE``, the write lock first) and one COMMIT, whatever the
    statements between them; no savepoint."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    games.purge.due()  # the hourly purge of old keys (a write of its own) is not this one
    seen: list[str] = []
    commits: list[int] = []

    def statement(_conn, _cursor, sql, *_args):
        seen.append(sql)

    event.listen(games.db.writer, "before_cursor_execute", statement)
    event.listen(games.db.writer, "commit", lambda _conn: commits.append(1))
    try:
        games.record_manche(game.id, ANA_OUT, key="k-1")
    finally:
        event.remove(games.db.writer, "before_cursor_execute", statement)
    assert len(commits) == 1
    assert seen.count("BEGIN IMMEDIATE") == (0 if USE_PG else 1)
    assert not any("SAVEPOINT" in sql for sql in seen)
    assert numbers(games.db, game.id) == [1]


@pytest.mark.skipif(USE_PG, reason="SQLite's busy timeout (PostgreSQL's lock_timeout is tested by test_import)")
def test_sqlite_waits_the_lock_timeout_for_the_write_lock_then_says_busy(games):
    """A write waits up to the lock timeout for the write lock, which ``BEGIN IMMEDIATE`` takes
    first — by trying again with ``time.sleep``, never in SQLite's busy handler, whose sleep inside
    the C call would stop every request of a gevent worker (the write engine's connections have no
    busy timeout); past it the error is the busy one (503)."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    with games.db.writer.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 0
    database = Database(games.db.url, lock_timeout=0.3)
    held = sqlite3.connect(database.url.removeprefix("sqlite:///"), isolation_level=None)
    held.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError) as raised:
            with unit_of_work(database) as session:
                session.execute(NEW_MANCHE, [manche_row(game.id, 1)])
        waited = time.monotonic() - started
    finally:
        held.rollback()
        held.close()
        database.dispose()
    assert is_busy(raised.value)
    assert 0.25 <= waited < 3
    assert numbers(games.db, game.id) == []


def test_the_same_key_sent_at_the_same_moment_records_one_manche(games):
    """Four retries of one entry arriving together (a phone's queue, a proxy's retry): one manche,
    every answer naming it."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    answers: list = []
    start = threading.Barrier(4)

    def send():
        start.wait(10)
        try:
            answers.append(games.record_manche(game.id, ANA_OUT, key="same-entry").number)
        except Exception as error:  # noqa: BLE001 — the test looks at it
            answers.append(error)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert answers == [1, 1, 1, 1], answers
    assert numbers(games.db, game.id) == [1]


def test_writes_of_eight_games_at_once_are_each_stored_once(games):
    """Eight games written to by sixteen threads at once: every manche answered is stored, once."""
    created = [games.create_game("classique", THREE, first_dealer=0)[0] for _ in range(8)]
    errors: list = []

    def play(game, round_):
        try:
            for number in range(1, 4):
                games.record_manche(game.id, ANA_OUT, key=f"{round_}-{number}")
        except Exception as error:  # noqa: BLE001 — the test looks at it
            errors.append(error)

    threads = [threading.Thread(target=play, args=(game, r)) for game in created for r in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    for game in created:
        assert numbers(games.db, game.id) == [1, 2, 3, 4, 5, 6]
    total = games.db.first(select(func.count()).select_from(Manche))[0]
    assert total == 48

"""Manche writes waiting together share one transaction on SQLite (``SharedCommits``, issue 29):
each is stored and answered only once that transaction committed; one that fails is taken back
alone; when the transaction does not commit, none of them is kept and each says so.

To make writes wait together, the test holds SQLite's write lock from a connection of its own
(``BEGIN IMMEDIATE``), starts the writes in threads, waits until all of them wait for that lock,
and lets it go. PostgreSQL locks rows, not the database: there each write keeps a transaction of
its own, and these tests do not apply."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError, OperationalError

from models.services.db import Database, is_busy
from models.services.games import MancheEntry
from models.services.transaction import SharedCommits
from models.services.undo import NEW_MANCHE
from tests.conftest import USE_PG

pytestmark = pytest.mark.skipif(
    USE_PG, reason="PostgreSQL keeps a transaction per write (it locks rows, not the database)"
)

THREE = ["Ana", "Bob", "Chloé"]
WHEN = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


class HeldLock:
    """SQLite's write lock, held by a connection of the test's own until ``release``."""

    def __init__(self, database: Database):
        path = database.url.removeprefix("sqlite:///")
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.connection.execute("BEGIN IMMEDIATE")

    def release(self, keep: bool = False) -> None:
        self.connection.execute("COMMIT" if keep else "ROLLBACK")
        self.connection.close()


def until(condition, timeout: float = 10.0) -> None:
    """Wait for ``condition()`` to hold (checked every millisecond), at most ``timeout`` seconds."""
    stop = threading.Event()
    for _ in range(int(timeout * 1000)):
        if condition():
            return
        stop.wait(0.001)
    raise AssertionError("the writes never all waited for the lock")


def in_threads(calls: list) -> tuple[list, list]:
    """Each call started in a thread of its own: the threads, and the list their answers (or the
    errors they raised) fill, in order."""
    answers: list = [None] * len(calls)

    def run(index, call):
        try:
            answers[index] = call()
        except BaseException as error:  # noqa: BLE001 — the test looks at it
            answers[index] = error

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    return threads, answers


def together(commits: SharedCommits, calls: list, meanwhile=None) -> list:
    """``calls`` started while the write lock is held; the lock let go once every one of them waits
    (after ``meanwhile(connection)``, committed, when given: another process's write)."""
    held = HeldLock(commits.database)
    try:
        threads, answers = in_threads(calls)
        until(lambda: len(commits.waiting) == len(calls))
        if meanwhile:
            meanwhile(held.connection)
    finally:
        held.release(keep=meanwhile is not None)
    for thread in threads:
        thread.join(30)
    return answers


class Statements:
    """The statements the writes' engine is handed while it is open."""

    def __init__(self, database):
        self.database, self.seen = database, []

    def __enter__(self):
        event.listen(self.database.writer, "before_cursor_execute", self._seen)
        return self

    def _seen(self, _conn, _cursor, statement, *_args):
        self.seen.append(statement)

    def __exit__(self, *exc):
        event.remove(self.database.writer, "before_cursor_execute", self._seen)


# Classique (SPEC §2, the table « 8 et Joker : 50 points », « Roi ou Dame : 10 points », the rest at
# face value): Ana goes out, Bob keeps 3♣ and K♦ (3 + 10 = 13), Chloé 8♥ (50).
ANA_OUT = MancheEntry("Ana", {"Bob": ["3C", "KD"], "Chloé": ["8H"]})


def test_manches_recorded_together_share_one_transaction_and_are_all_stored(games):
    created = [games.create_game("classique", THREE, first_dealer=0)[0] for _ in range(4)]
    games.purge.maybe(games.db)  # its hourly write done now, not while the test holds the lock
    with Statements(games.db) as statements:
        answers = together(games.commits, [lambda g=g: games.record_manche(g.id, ANA_OUT) for g in created])
    for answer in answers:
        assert not isinstance(answer, BaseException), answer
        assert answer.number == 1
        assert answer.points == {"Ana": 0, "Bob": 13, "Chloé": 50}
        assert answer.totals == {"Ana": 0, "Bob": 13, "Chloé": 50}
    # one transaction for the four: each write in a savepoint of its own
    assert sum(s == "SAVEPOINT carte_write" for s in statements.seen) == 4
    for game in created:
        stored = games.get(game.id)
        assert [m.number for m in stored.manches] == [1]
        assert stored.totals == {"Ana": 0, "Bob": 13, "Chloé": 50}
        assert stored.revision == game.revision + 1


def test_a_write_whose_game_moved_meanwhile_catches_up_inside_the_shared_transaction(games):
    """Another process records manche 1 of the first game while the writes wait for the lock: that
    write finds its game moved once in the transaction, reads manche 1 and records manche 2."""
    created = [games.create_game("classique", THREE, first_dealer=0)[0] for _ in range(3)]
    games.purge.maybe(games.db)
    first = created[0].id

    def other_process(connection):
        manche = connection.execute(
            "INSERT INTO manche (game_id, number, winner_seat, blocked, last_card, created_at)"
            " VALUES (?, 1, 0, 0, NULL, '2026-11-27 12:00:00.000000') RETURNING id",
            (first,),
        ).fetchone()[0]
        connection.executemany(
            "INSERT INTO hand (manche_id, seat, cards, typed, value) VALUES (?, ?, ?, NULL, ?)",
            [(manche, 1, "3C KD", 13), (manche, 2, "8H", 50)],
        )
        connection.execute("UPDATE game SET revision = revision + 1 WHERE id = ?", (first,))

    with Statements(games.db) as statements:
        answers = together(
            games.commits, [lambda g=g: games.record_manche(g.id, ANA_OUT) for g in created], other_process
        )
    assert [a.number for a in answers] == [2, 1, 1], answers
    assert answers[0].totals == {"Ana": 0, "Bob": 26, "Chloé": 100}  # 13 + 13, 50 + 50
    assert sum(s == "SAVEPOINT carte_write" for s in statements.seen) == 3
    assert [m.number for m in games.get(first).manches] == [1, 2]
    assert games.get(first).totals == {"Ana": 0, "Bob": 26, "Chloé": 100}


def manche_row(game_id: str, number: int) -> dict:
    return {"game_id": game_id, "number": number, "winner_seat": 0, "blocked": True, "last_card": None,
            "created_at": WHEN}  # fmt: skip


def stored_numbers(database: Database, game_id: str) -> list[int]:
    return [
        row[0] for row in database.lookup_all("SELECT number FROM manche WHERE game_id = ? ORDER BY number", game_id)
    ]


def test_a_write_that_fails_is_taken_back_alone(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    commits = SharedCommits(games.db)

    def good(number):
        return lambda: commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, number)]).scalar_one())

    def refused(write):
        write.execute(NEW_MANCHE, [manche_row(game.id, 3)])
        raise ValueError("refused after its first statement")

    def duplicate(write):
        write.execute(NEW_MANCHE, [manche_row(game.id, 5)])
        return write.execute(NEW_MANCHE, [manche_row(game.id, 1)])  # manche 1 is another write's

    answers = together(commits, [good(1), lambda: commits.run(refused), good(2), lambda: commits.run(duplicate)])
    assert isinstance(answers[0], int) and isinstance(answers[2], int)
    assert isinstance(answers[1], ValueError)
    assert isinstance(answers[3], IntegrityError)
    assert stored_numbers(games.db, game.id) == [1, 2]  # neither 3 nor 5: each taken back whole


class Stopped(BaseException):
    """What a request stopped in the middle of the transaction raises (like gevent's GreenletExit)."""


def test_when_the_transaction_does_not_commit_no_write_in_it_is_kept(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    commits = SharedCommits(games.db)

    def stopped(write):
        write.execute(NEW_MANCHE, [manche_row(game.id, 2)])
        raise Stopped

    first = lambda: commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, 1)]).scalar_one())  # noqa: E731
    answers = together(commits, [first, lambda: commits.run(stopped)])
    assert all(isinstance(answer, Stopped) for answer in answers), answers  # manche 1 was never answered as stored
    assert stored_numbers(games.db, game.id) == []
    # and the next write goes through as usual
    assert isinstance(commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, 1)]).scalar_one()), int)
    assert stored_numbers(games.db, game.id) == [1]


def test_writes_that_never_get_the_lock_each_say_the_database_is_busy(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    database = Database(games.db.url, lock_timeout=0.2)
    commits = SharedCommits(database)
    held = HeldLock(database)
    try:
        threads, answers = in_threads(
            [
                lambda n=n: commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, n)]))
                for n in (1, 2, 3)
            ]
        )
        for thread in threads:
            thread.join(30)
    finally:
        held.release()
        database.dispose()
    for answer in answers:
        assert isinstance(answer, OperationalError) and is_busy(answer), answer
    assert stored_numbers(games.db, game.id) == []

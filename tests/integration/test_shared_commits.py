"""Manche writes waiting together share one transaction on SQLite (``SharedCommits``, issue 29):
each is stored and answered only once that transaction committed; one that fails is taken back
alone; when the database refuses the commit, none of them is kept and each says so; a request
stopped while it waits or leads makes no write, and the others go on.

To make writes wait together, the test holds SQLite's write lock from a connection of its own
(``BEGIN IMMEDIATE``), starts the writes in threads, waits until all of them wait for that lock,
and lets it go. PostgreSQL locks rows, not the database: there each write keeps a transaction of
its own, and these tests do not apply."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from models.services.db import Database, is_busy
from models.services.games import MancheEntry
from models.services.transaction import SharedCommits
from models.services.undo import NEW_MANCHE
from tests.conftest import USE_PG
from tests.integration.test_write_statements import Statements

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
    assert statements.seen.count("SAVEPOINT carte_write") == 4
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
    assert statements.seen.count("SAVEPOINT carte_write") == 3
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
        return write.execute(NEW_MANCHE, [manche_row(game.id, 9)])  # manche 9 is there already

    commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, 9)]))
    answers = together(commits, [good(1), lambda: commits.run(refused), good(2), lambda: commits.run(duplicate)])
    assert isinstance(answers[0], int) and isinstance(answers[2], int)
    assert isinstance(answers[1], ValueError)
    assert isinstance(answers[3], IntegrityError)
    assert stored_numbers(games.db, game.id) == [1, 2, 9]  # neither 3 nor 5: each taken back whole


def test_when_the_database_refuses_the_commit_no_write_in_it_is_kept(games):
    """The second write's foreign key is checked at the commit (SQLite's ``defer_foreign_keys``):
    the commit is refused, and the two writes beside it, whose statements all went through, are
    not kept either; each request says so."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    commits = SharedCommits(games.db)

    def good(number):
        return lambda: commits.run(lambda write: write.execute(NEW_MANCHE, [manche_row(game.id, number)]).scalar_one())

    def unknown_game(write):
        write.connection.execute("PRAGMA defer_foreign_keys = ON")
        return write.execute(NEW_MANCHE, [manche_row("no-such-game", 1)]).scalar_one()

    answers = together(commits, [good(1), lambda: commits.run(unknown_game), good(2)])
    assert all(isinstance(answer, IntegrityError) for answer in answers), answers
    assert stored_numbers(games.db, game.id) == []
    # the held connection is as it was: the next write goes through
    assert isinstance(good(1)(), int)
    assert stored_numbers(games.db, game.id) == [1]


class Stopped(BaseException):
    """What a request stopped by its worker raises (as gevent's GreenletExit, or a timeout)."""


def test_a_request_stopped_while_it_leads_makes_no_write_and_the_others_go_on(games):
    """The request that leads the transaction is stopped in the middle of it (here while it runs
    the first of the writes: a leader runs the writes of the others): the transaction is rolled
    back, that request's own write is not made, and the others are made in the next one."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    commits = SharedCommits(games.db)
    stop = threading.Event()
    stop.set()

    def write(number):
        def work(session):
            session.execute(NEW_MANCHE, [manche_row(game.id, number)])
            if stop.is_set():
                stop.clear()
                raise Stopped
            return number

        return lambda: commits.run(work)

    answers = together(commits, [write(n) for n in (1, 2, 3, 4)])
    stopped = [n for n, answer in zip((1, 2, 3, 4), answers, strict=True) if isinstance(answer, Stopped)]
    assert len(stopped) == 1, answers
    made = [answer for answer in answers if not isinstance(answer, Stopped)]
    assert sorted(made) == [n for n in (1, 2, 3, 4) if n not in stopped]
    assert stored_numbers(games.db, game.id) == sorted(made)


class StoppedWhileWaiting(threading.Condition):
    """A condition whose ``wait`` stops the thread named "stopped" (as a worker stops a request
    waiting for its turn: the lock is held again when the stop is raised)."""

    def wait(self, timeout=None):
        if threading.current_thread().name == "stopped":
            raise Stopped
        return super().wait(timeout)


def test_a_request_stopped_while_it_waits_makes_no_write(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    commits = SharedCommits(games.db)
    commits.turn = StoppedWhileWaiting()
    answers: dict = {}

    def write(number):
        try:
            answers[number] = commits.run(lambda session: session.execute(NEW_MANCHE, [manche_row(game.id, number)]))
        except BaseException as error:  # noqa: BLE001 — the test looks at it
            answers[number] = error

    held = HeldLock(games.db)
    try:
        leader = threading.Thread(target=write, args=(1,))
        leader.start()
        until(lambda: commits.leading)
        stopped = threading.Thread(target=write, args=(2,), name="stopped")
        stopped.start()
        stopped.join(30)
        other = threading.Thread(target=write, args=(3,))
        other.start()
        until(lambda: len(commits.waiting) == 2)  # the leader's and the third; not the stopped one's
    finally:
        held.release()
    for thread in (leader, other):
        thread.join(30)
    assert isinstance(answers[2], Stopped)
    assert not isinstance(answers[1], BaseException) and not isinstance(answers[3], BaseException), answers
    assert stored_numbers(games.db, game.id) == [1, 3]


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

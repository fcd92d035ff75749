"""A write trusts the view its process kept of a game only at the revision the database holds
(issue 17): two processes — here two services on one database, as two gunicorn workers — writing
the same game each see the other's manches, and a kept view spares the read of the game."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import event

from models.core.errors import GameFinished
from models.core.rules import catalog
from models.services.db import Database
from models.services.games import GameService, MancheEntry
from models.services.house import HouseService
from models.services.registry import Registry

# Classique (SPEC §2): a 3 counts 3, a King 10, a 2 is worth 20. Ana goes out each time.
BOB_3 = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]})  # Bob 3, Chloé 10
BOB_K2 = MancheEntry("Ana", {"Bob": ["KD", "2S"], "Chloé": ["3C"]})  # Bob 10 + 20 = 30, Chloé 3


def worker(url: str) -> GameService:
    database = Database(url)
    return GameService(database, Registry(catalog(), HouseService(database, catalog())))


@pytest.fixture
def workers(database_url):
    """``workers()``: a new game service on the test's database, as one more gunicorn worker."""
    made = []

    def make() -> GameService:
        made.append(worker(database_url))
        return made[-1]

    yield make
    for service in made:
        service.db.dispose()


def selects_while(service: GameService, do) -> list[str]:
    """The SELECT statements ``service`` runs while ``do()`` does."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        seen.append(" ".join(statement.split()))

    for engine in service.db.engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        do()
    finally:
        for engine in service.db.engines:
            event.remove(engine, "before_cursor_execute", record)
    return [statement for statement in seen if statement.startswith("SELECT")]


def test_two_workers_writing_one_game_each_see_the_other(workers):
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    assert first.record_manche(game.id, BOB_3).number == 1  # the first keeps its view (revision 1)
    assert second.record_manche(game.id, BOB_K2).number == 2  # the second writes: revision 2
    third = first.record_manche(game.id, BOB_3)  # the first's view is stale: it reads the game again
    assert third.number == 3
    assert third.totals == {"Ana": 0, "Bob": 3 + 30 + 3, "Chloé": 10 + 3 + 10}
    assert second.get(game.id).totals == third.totals
    # the second's view is stale too: deleting "the last manche" must delete manche 3, not 2
    assert len(second.delete_manche(game.id, 3).manches) == 2
    assert first.record_manche(game.id, BOB_3).totals == {"Ana": 0, "Bob": 36, "Chloé": 23}


def test_a_kept_view_spares_reading_the_game(workers):
    service = workers()
    game, _ = service.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    service.record_manche(game.id, BOB_3)
    selects = selects_while(service, lambda: service.record_manche(game.id, BOB_K2))
    assert len(selects) == 1 and selects[0].startswith("SELECT game.revision, game.reshaped"), selects


# Classique (SPEC §2): an 8 counts 50, a Queen 10, a 5 its face value.
CHLOE_OUT = MancheEntry("Chloé", {"Ana": ["8H"], "Bob": ["QS", "5D"]})  # Ana 50, Bob 10 + 5 = 15


def test_a_write_answers_the_game_as_a_fresh_read_shows_it(workers):
    """The view a write answers goes on from the view it kept (issue 17): the same as reading the
    game again, manche after manche, to the end of the game (classique: 500 ends it)."""
    service = workers()
    game, _ = service.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=1)
    recorded = None
    # A round of three: Ana 50, Bob 3 + 30 + 15 = 48, Chloé 10 + 3 = 13; Ana reaches 500 (SPEC §2:
    # the game ends after the manche in which a total reaches the target) in the 30th manche.
    for entry in [BOB_3, BOB_K2, CHLOE_OUT] * 11:
        recorded = service.record_manche(game.id, entry)
        assert recorded.game == service.get(game.id)
        if recorded.standing.finished:
            break
    assert recorded.number == 30 and recorded.standing.finished
    assert recorded.game.totals == {"Ana": 500, "Bob": 480, "Chloé": 130}


def test_a_kept_view_reads_only_the_manches_another_worker_added(workers):
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    first.record_manche(game.id, BOB_3)  # the first keeps its view
    second.record_manche(game.id, BOB_K2)
    second.record_manche(game.id, CHLOE_OUT)
    written = []
    reads = selects_while(first, lambda: written.append(first.record_manche(game.id, BOB_3)))
    fourth = written[0]
    assert fourth.number == 4
    # Bob 3 + 30 + 15 + 3, Chloé 10 + 3 + 0 + 10, Ana 0 + 0 + 50 + 0
    assert fourth.totals == {"Ana": 50, "Bob": 51, "Chloé": 23} == second.get(game.id).totals
    assert fourth.game == second.get(game.id)
    assert not any("FROM player" in s for s in reads), reads  # not the whole game again
    # one statement: the game's revision with the manches added after the view's last one and their hands
    assert len(reads) == 1 and "manche.number >" in reads[0] and "LEFT OUTER JOIN hand" in reads[0], reads


def test_a_game_another_worker_ended_is_caught_up_with_its_end(workers):
    """A game played in 2 manches (SPEC §2: with a number of manches, the game ends after the
    last) ended by another worker: the kept view is brought up to date with the game's end as the
    database holds it (on SQLite, text read back as a date: it was a 500 here), and the next manche
    is refused as on a game read whole."""
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=2, first_dealer=0)
    first.record_manche(game.id, BOB_3)  # the first keeps its view of a game still played
    ended = second.record_manche(game.id, BOB_K2)
    assert ended.standing.finished
    with pytest.raises(GameFinished):
        first.record_manche(game.id, BOB_3)
    caught_up = first.latest.current(first.db, game.id)
    assert caught_up.finished_at == second.get(game.id).finished_at == ended.game.finished_at
    assert caught_up == second.get(game.id)


def test_a_kept_view_is_read_whole_after_an_edit_elsewhere(workers):
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    first.record_manche(game.id, BOB_3)
    first.record_manche(game.id, BOB_3)
    second.edit_manche(game.id, 1, CHLOE_OUT)  # manche 1 becomes Ana 50, Bob 15
    third = first.record_manche(game.id, BOB_K2)
    # manche 1 as edited (Ana 50, Bob 15), manche 2 (Bob 3, Chloé 10), manche 3 (Bob 30, Chloé 3)
    assert third.totals == {"Ana": 50, "Bob": 48, "Chloé": 13} == second.get(game.id).totals
    assert third.game == second.get(game.id)


def test_a_view_brought_up_to_date_while_another_worker_writes_is_not_trusted(workers):
    """What another worker added is read in one statement, with the game's revision and count of
    reshapes: one state of the database. A player joining and a manche saved by another worker
    just before it are seen together — the kept view is then read whole (the write answers
    right), never half updated (a manche with a seat the kept view lacks)."""
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    first.record_manche(game.id, BOB_3)  # the first keeps its view
    second.record_manche(game.id, BOB_K2)  # only a manche added: the first would read it alone
    meddled = []

    def meanwhile(_conn, _cursor, statement, *_args):
        if "manche.number >" in statement and not meddled:
            meddled.append(1)  # right before the first reads what was added: Dan sits down, plays
            second.join_player(game.id, "Dan")
            second.record_manche(game.id, MancheEntry("Dan", {"Ana": ["5H"], "Bob": ["9C"], "Chloé": ["3C"]}))

    event.listen(first.db.reader, "before_cursor_execute", meanwhile)
    try:
        # Dan is at the table now: the first's entry has his hand, as the phone shows it
        fourth = first.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"], "Dan": ["4D"]}))
    finally:
        event.remove(first.db.reader, "before_cursor_execute", meanwhile)
    assert meddled and fourth.number == 4
    assert fourth.game == second.get(game.id)


def test_a_view_answered_by_create_game_can_be_written_from(workers):
    service = workers()
    game, _ = service.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    service.record_manche(game, BOB_3)  # the view create_game answered, kept
    service.create_invite(game.id)  # the revision moves, nothing else
    # Ana out twice; Bob 3 + 3, Chloé 10 + 10 (SPEC §2)
    assert service.record_manche(game.id, BOB_3).totals == {"Ana": 0, "Bob": 6, "Chloé": 20}


def test_a_write_overtaken_while_it_waited_for_the_lock_is_made_again_whole(workers):
    """Another worker's manche committed between this write's look at the game and its lock: the
    revision compared in the bump fails, the unit of work rolls back and runs again whole from the
    game as it now stands (``game_work.run``: a conflict retries the whole unit; nothing is read
    through another connection while the lock is held). The overtaken entry becomes the next
    manche, scored on the game as it now stands."""
    first, second = workers(), workers()
    game, _ = first.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    first.record_manche(game.id, BOB_3)  # the first keeps its view at revision 1
    seen: list[str] = []
    overtake_at = "BEGIN IMMEDIATE" if first.db.is_sqlite else "UPDATE game SET"
    done = []

    def overtaker(_conn, _cursor, statement, *_args):
        seen.append(" ".join(statement.split()))
        if statement.startswith(overtake_at) and not done:
            done.append(1)
            second.record_manche(game.id, BOB_K2)  # manche 2, committed before the first's bump

    event.listen(first.db.writer, "before_cursor_execute", overtaker)
    try:
        third = first.record_manche(game.id, BOB_3)
    finally:
        event.remove(first.db.writer, "before_cursor_execute", overtaker)
    assert done and third.number == 3
    assert sum(s.startswith("UPDATE game SET") for s in seen) == 2  # compared (stale), then bumped
    assert seen.count("BEGIN IMMEDIATE") == (2 if first.db.is_sqlite else 0)  # the unit, twice
    # Ana out each time (SPEC §2): Bob 3 + 30 + 3, Chloé 10 + 3 + 10
    assert third.totals == {"Ana": 0, "Bob": 36, "Chloé": 23} == second.get(game.id).totals
    assert [m.number for m in second.get(game.id).manches] == [1, 2, 3]


def test_two_writes_of_one_game_in_one_worker_take_turns(workers):
    """Two phones saving the same game at once, both answered by one worker: the second
    waits for the first's turn to end (``LatestViews.turn``), then plans on the view the first kept
    — its one bump goes through, no revision found moved. Without the turn it planned on the view
    from before the first's manche and found the revision moved once it had the lock."""
    service = workers()
    game, _ = service.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    service.record_manche(game.id, BOB_3)  # manche 1; the view is kept
    inside, release = threading.Event(), threading.Event()
    bumps: list[str] = []

    def hold_the_first(_conn, _cursor, statement, *_args):
        if statement.startswith("UPDATE game SET"):
            bumps.append(statement)
            if len(bumps) == 1:
                inside.set()
                release.wait(10)

    event.listen(service.db.writer, "before_cursor_execute", hold_the_first)
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            first = pool.submit(service.record_manche, game.id, BOB_K2)
            assert inside.wait(10)
            second = pool.submit(service.record_manche, game.id, BOB_3)
            deadline = time.monotonic() + 10
            while service.latest.turns[game.id][1] < 2:  # the second waits for its turn
                assert time.monotonic() < deadline
                time.sleep(0.001)
            release.set()
            assert first.result(10).number == 2 and second.result(10).number == 3
    finally:
        release.set()
        event.remove(service.db.writer, "before_cursor_execute", hold_the_first)
    assert len(bumps) == 2  # one each: none found the revision moved
    assert game.id not in service.latest.turns  # nobody holds or waits for the turn any more
    # Ana out each time (SPEC §2): Bob 3 + 30 + 3, Chloé 10 + 3 + 10
    assert second.result().totals == {"Ana": 0, "Bob": 36, "Chloé": 23}

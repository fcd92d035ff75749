"""A retried manche never comes back (issue 27, item 3): an idempotency key outlives the deletion
and the undo of the manche it recorded. A retry answers the manche its key recorded as it stands,
or a ``conflict`` saying it was deleted since — never a new manche; keys are kept KEPT_DAYS.

Classique table (SPEC §2): 8 and joker 50, A 2 J 20, K Q 10, other cards their face value; in
penalty mode everyone but the player who went out adds their hand's value.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import insert, select

from models.core.errors import Conflict
from models.services import keys
from models.services.db import IdempotencyRecord, utcnow
from models.services.games import MancheEntry

THREE = ["Ana", "Bob", "Chloé"]
# Ana out; Bob 3♣ = 3; Chloé K♦ 2♠ = 10 + 20 = 30
FIRST = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]})
# Bob out; Ana 5♥ = 5; Chloé 9♣ = 9
OTHER = MancheEntry("Bob", {"Ana": ["5H"], "Chloé": ["9C"]})


@pytest.fixture
def game(games):
    created, _ = games.create_game("classique", THREE, first_dealer=0)
    return created.id


def numbers(games, game_id) -> list[int]:
    return [m.number for m in games.get(game_id).manches]


def test_a_retry_after_the_deletion_is_refused_not_recorded(games, game):
    games.record_manche(game, FIRST, key="K")
    games.delete_manche(game, 1)
    with pytest.raises(Conflict) as refused:
        games.record_manche(game, FIRST, key="K")
    assert refused.value.params == {"number": 1} and "deleted" in refused.value.template
    assert numbers(games, game) == []  # before issue 27: the deleted manche was recorded again


def test_a_retry_is_refused_even_when_another_manche_took_the_number(games, game):
    games.record_manche(game, FIRST, key="K")
    games.delete_manche(game, 1)
    games.record_manche(game, OTHER, key="L")  # another manche 1
    with pytest.raises(Conflict):
        games.record_manche(game, FIRST, key="K")
    after = games.get(game)
    assert [m.winner for m in after.manches] == ["Bob"]  # only the other one
    assert after.totals == {"Ana": 5, "Bob": 0, "Chloé": 9}
    again = games.record_manche(game, OTHER, key="L")  # its own key still answers it
    assert (again.number, again.replayed) == (1, True)


def test_a_retry_after_delete_and_undo_answers_the_manche_put_back(games, game):
    games.record_manche(game, FIRST, key="K")
    deleted = games.delete_manche(game, 1)
    games.undo(deleted, "deleted", 1, deleted.revision)
    retried = games.record_manche(game, FIRST, key="K")
    assert (retried.number, retried.replayed) == (1, True)
    assert retried.totals == {"Ana": 0, "Bob": 3, "Chloé": 30}
    assert numbers(games, game) == [1]  # before issue 27: recorded a second time, as manche 2


def test_a_retry_after_the_undo_of_its_saving_is_refused(games, game):
    saved = games.record_manche(game, FIRST, key="K").game
    games.undo(saved, "saved", 1, saved.revision)
    with pytest.raises(Conflict):
        games.record_manche(game, FIRST, key="K")
    assert numbers(games, game) == []


def test_delete_undo_delete_undo_follows_the_manche(games, game):
    games.record_manche(game, FIRST, key="K")
    for _ in range(2):
        deleted = games.delete_manche(game, 1)
        with pytest.raises(Conflict):
            games.record_manche(game, FIRST, key="K")
        games.undo(deleted, "deleted", 1, deleted.revision)
        assert games.record_manche(game, FIRST, key="K").replayed
    assert numbers(games, game) == [1]


def test_undoing_a_later_deletion_does_not_bring_back_an_earlier_key(games, game):
    """Manche 1 recorded with K, deleted; another manche 1 recorded with L, deleted, and that
    deletion undone: L's manche is back, K's is not — a retry with K is still refused."""
    games.record_manche(game, FIRST, key="K")
    games.delete_manche(game, 1)
    games.record_manche(game, OTHER, key="L")
    deleted = games.delete_manche(game, 1)
    games.undo(deleted, "deleted", 1, deleted.revision)
    with pytest.raises(Conflict):
        games.record_manche(game, FIRST, key="K")
    assert games.record_manche(game, OTHER, key="L").replayed
    assert numbers(games, game) == [1]


def test_a_retry_after_an_edit_answers_the_manche_as_edited(games, game):
    games.record_manche(game, FIRST, key="K")
    # Edited: Bob out; Ana 4♣ = 4, Chloé 5♦ = 5
    games.edit_manche(game, 1, MancheEntry("Bob", {"Ana": ["4C"], "Chloé": ["5D"]}))
    retried = games.record_manche(game, FIRST, key="K")
    assert (retried.number, retried.replayed, retried.points) == (1, True, {"Ana": 4, "Bob": 0, "Chloé": 5})
    assert numbers(games, game) == [1]


def test_keys_are_kept_thirty_days_then_let_go(games, game):
    """A key younger than KEPT_DAYS stays (a retry within it never records twice); an older one is
    let go by the purge the writes run at most once an hour."""
    now = utcnow()
    with games.db.writer.begin() as connection:
        connection.execute(insert(IdempotencyRecord.__table__), [
            {"game_id": game, "key": "old", "manche_number": 1, "created_at": now - timedelta(days=keys.KEPT_DAYS, hours=1)},
            {"game_id": game, "key": "young", "manche_number": 1, "created_at": now - timedelta(days=keys.KEPT_DAYS - 1)},
        ])  # fmt: skip
    purge = keys.Purge(every=3600)
    assert purge.due() and not purge.due()  # once an hour at most
    with games.db.writer.begin() as connection:
        assert purge.run(connection) == 1
    with games.db.reader.connect() as connection:
        left = connection.execute(select(IdempotencyRecord.key).where(IdempotencyRecord.game_id == game))
        assert list(left.scalars()) == ["young"]


def test_the_writes_run_the_purge(games, game):
    with games.db.writer.begin() as connection:
        connection.execute(insert(IdempotencyRecord.__table__), [
            {"game_id": game, "key": "old", "manche_number": 1, "created_at": utcnow() - timedelta(days=keys.KEPT_DAYS + 1)},
        ])  # fmt: skip
    games.purge = keys.Purge(every=0)  # due at every write, for the test
    games.record_manche(game, FIRST, key="new")
    assert keys.found(games.db, game, "old") is None
    assert keys.found(games.db, game, "new") == (1, None)

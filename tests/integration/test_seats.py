"""A newcomer sits where they really sit, and a join or a leave is undone (issue 28, items 3 and 4),
on the real database (SQLite, and PostgreSQL with DATABASE_URL).

The deal passes to the left each manche, to the next player the way play goes (seed 000: « Le
joueur à gauche du donneur commence. Puis on joue dans le sens horaire »; who deals next is
``scoring.play_through``'s interpretation), skipping a place nobody sits in. Classique table
(SPEC §2): 8 and joker 50, A 2 J 20, K Q 10, other cards their face value; in penalty mode
everyone but the player who went out adds their hand.
"""

from __future__ import annotations

import json

import pytest

from models.core.errors import Conflict, UnknownPlayer, ValidationError
from models.services.games import MancheEntry

THREE = ["Ana", "Bob", "Chloé"]
# Ana out; Bob 3♣ = 3; Chloé K♦ 2♠ = 10 + 20 = 30
FIRST = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]})


def places(games, game_id: str) -> list[int]:
    """The places stored, by seat (read from the database, not from a view kept in memory)."""
    return [row[5] for row in games.get(game_id).rows.players]


@pytest.fixture
def game(games):
    """Ana, Bob, Chloé; Ana dealt manche 1 (first_dealer 0)."""
    created, _ = games.create_game("classique", THREE, first_dealer=0)
    games.record_manche(created.id, FIRST)
    return games.get(created.id)


def test_a_newcomer_who_sits_on_the_dealers_left_deals_next(games, game):
    assert game.dealer_name == "Bob"  # Ana dealt manche 1; Bob, on her left, deals manche 2
    joined = games.join_player(game, "Dan", "zero", after="Ana")
    # Dan now sits between Ana and Bob: Ana → Dan → Bob → Chloé. Ana dealt manche 1, so the
    # player on her left deals manche 2: Dan; Bob, on Dan's left, starts.
    assert joined.seated == ["Ana", "Dan", "Bob", "Chloé"]
    assert joined.table_order == ["Ana", "Dan", "Bob", "Chloé"]
    assert joined.players == ["Ana", "Bob", "Chloé", "Dan"]  # seats never move: Dan has the next one
    assert (joined.dealer_name, joined.starter_name) == ("Dan", "Bob")
    assert joined.totals == {"Ana": 0, "Bob": 3, "Chloé": 30, "Dan": 0}
    assert games.get(game.id) == joined
    assert places(games, game.id) == [0, 2, 3, 1]
    # Manche 2: Bob out; Ana 4♣ 4, Chloé 5♦ 5, Dan 6♠ 6 → 4 / 3 / 35 / 6. Dan dealt it: Bob deals manche 3.
    second = games.record_manche(joined, MancheEntry("Bob", {"Ana": ["4C"], "Chloé": ["5D"], "Dan": ["6S"]})).game
    assert second.manches[1].dealer == "Dan"
    assert second.totals == {"Ana": 4, "Bob": 3, "Chloé": 35, "Dan": 6}
    assert (second.dealer_name, second.starter_name) == ("Bob", "Chloé")


def test_without_a_place_the_newcomer_sits_after_the_last_in_table_order(games, game):
    with pytest.raises(UnknownPlayer) as refused:
        games.join_player(game, "Fred", after="Zoé")
    assert refused.value.field == "after"
    dan = games.join_player(game, "Dan", after="Ana")  # Ana → Dan → Bob → Chloé
    eve = games.join_player(dan, "Eve")  # after Chloé, the last around the table
    assert eve.seated == ["Ana", "Dan", "Bob", "Chloé", "Eve"]
    # Ana dealt manche 1: Dan deals manche 2 wherever Eve sits.
    assert eve.dealer_name == "Dan"


def test_a_join_is_undone_once_and_the_others_places_come_back(games, game):
    dan = games.join_player(game, "Dan", after="Ana")
    eve = games.join_player(dan, "Eve", after="Dan")  # Ana → Dan → Eve → Bob → Chloé
    assert places(games, game.id) == [0, 3, 4, 1, 2]
    undone, replayed = games.undo(eve, "joined", 4, eve.revision)
    assert not replayed
    assert undone.players == ["Ana", "Bob", "Chloé", "Dan"] and undone.seated == ["Ana", "Dan", "Bob", "Chloé"]
    assert places(games, game.id) == [0, 2, 3, 1]
    assert games.get(game.id) == undone
    again, replayed = games.undo(eve.id, "joined", 4, eve.revision)  # the same Undo posted twice
    assert replayed and again.players == undone.players
    # Dan's join was not the last write any more once Eve sat down: its Undo is refused.
    with pytest.raises(Conflict):
        games.undo(game.id, "joined", 3, dan.revision)


def test_a_join_undone_leaves_the_game_as_it_was(games, game):
    joined = games.join_player(game, "Dan", "highest", after="Ana")
    undone, _ = games.undo(joined, "joined", 3, joined.revision)
    assert undone.players == THREE and undone.roster == {} and undone.order is None
    assert undone.totals == game.totals and undone.dealer_name == "Bob"  # as before Dan sat down
    assert places(games, game.id) == [0, 1, 2]
    # The name is free again.
    assert games.join_player(undone, "Dan").players == [*THREE, "Dan"]


def test_a_join_cannot_be_undone_once_a_manche_was_played(games, game):
    joined = games.join_player(game, "Dan", after="Ana")
    games.record_manche(joined, MancheEntry("Bob", {"Ana": ["4C"], "Chloé": ["5D"], "Dan": ["6S"]}))
    with pytest.raises(Conflict):
        games.undo(game.id, "joined", 3, joined.revision)
    assert games.get(game.id).players == [*THREE, "Dan"]


def test_a_leave_is_undone_and_the_player_is_back_at_their_place(games, game):
    dan = games.join_player(game, "Dan", after="Ana")  # Ana → Dan → Bob → Chloé; Dan deals manche 2
    left = games.leave_player(dan, "Dan")
    # Dan's place is empty: Ana dealt manche 1, Bob on her left deals manche 2.
    assert left.seated == ["Ana", "Bob", "Chloé"] and left.gone == ["Dan"] and left.dealer_name == "Bob"
    assert left.table_order == ["Ana", "Dan", "Bob", "Chloé"]  # the others keep their order
    undone, replayed = games.undo(left, "left", 3, left.revision)
    assert not replayed and undone.seated == ["Ana", "Dan", "Bob", "Chloé"] and undone.dealer_name == "Dan"
    assert games.get(game.id) == undone
    assert games.undo(game.id, "left", 3, left.revision)[1]  # a replay: nothing written again


def test_a_leave_cannot_be_undone_after_another_write(games, game):
    left = games.leave_player(game, "Chloé")
    # Manche 2 without Chloé: Ana out, Bob 7♣ 7.
    games.record_manche(left, MancheEntry("Ana", {"Bob": ["7C"]}))
    with pytest.raises(Conflict):
        games.undo(game.id, "left", 2, left.revision)
    with pytest.raises(Conflict):  # what a forged form names must be what was kept
        games.undo(game.id, "joined", 2, left.revision)
    assert games.get(game.id).gone == ["Chloé"]


def test_a_player_who_left_comes_back_under_another_name(games, game):
    left = games.leave_player(game, "Chloé")
    with pytest.raises(ValidationError) as refused:
        games.join_player(left, "chloé")
    assert refused.value.field == "name" and "another name" in refused.value.template
    back = games.join_player(left.id, "Chloé 2", "zero", after="Bob")
    assert back.seated == ["Ana", "Bob", "Chloé 2"] and back.totals["Chloé"] == 30


def test_the_game_file_keeps_where_everybody_sits(games, game):
    joined = games.join_player(game, "Dan", after="Ana")
    document = games.export_game(game.id)
    assert document["game"]["table_order"] == ["Ana", "Dan", "Bob", "Chloé"]
    imported, _ = games.import_game(json.loads(json.dumps(document)))
    assert imported.table_order == joined.table_order and imported.dealer_name == "Dan"
    assert places(games, imported.id) == [0, 2, 3, 1]
    document["game"]["table_order"] = ["Ana", "Dan", "Bob"]  # one missing
    with pytest.raises(ValidationError) as refused:
        games.import_game(document)
    assert refused.value.field == "game.table_order"


def test_a_backup_keeps_where_everybody_sits(app, games, game, tmp_path):
    from models.services import backup
    from models.services.db import Database
    from models.services.games import GameService
    from models.services.schema import migrate

    games.join_player(game, "Dan", after="Ana")
    document = json.loads(json.dumps(backup.backup(app.extensions["database"]), default=str))
    other = Database(f"sqlite:///{tmp_path / 'other.db'}")
    migrate(other)
    assert backup.restore(other, document) == (1, 0)
    assert GameService(other, games.registry).get(game.id).seated == ["Ana", "Dan", "Bob", "Chloé"]
    # A backup made before players chose their place: each sits at their seat.
    for player in document["games"][0]["players"]:
        del player["place"]
    older = Database(f"sqlite:///{tmp_path / 'older.db'}")
    migrate(older)
    backup.restore(older, document)
    assert GameService(older, games.registry).get(game.id).seated == [*THREE, "Dan"]
    other.dispose()
    older.dispose()

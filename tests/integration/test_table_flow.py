"""The table flow on the real database (issue 14): undo of a save, an edit and a deletion (checked
against the game's revision, a replay never counting twice), players joining and leaving.

Classique table (SPEC §2): 8 and joker 50, A 2 J 20, K Q 10, other cards their face value; in
penalty mode everyone but the player who went out adds their hand.
"""

from __future__ import annotations

import pytest

from models.core.errors import Conflict, ValidationError
from models.services import unit_of_work
from models.services.games import MancheEntry

THREE = ["Ana", "Bob", "Chloé"]
# Ana out; Bob 3♣ = 3; Chloé K♦ 2♠ = 10 + 20 = 30
FIRST = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]})
# Bob out; Ana 5♥ = 5; Chloé 9♣ = 9
SECOND = MancheEntry("Bob", {"Ana": ["5H"], "Chloé": ["9C"]})


@pytest.fixture
def game(games):
    created, _ = games.create_game("classique", THREE, first_dealer=0)
    games.record_manche(created.id, FIRST)
    return games.get(created.id)


def test_undo_of_a_save_deletes_it_once(games, game):
    saved = games.record_manche(game, SECOND).game
    undone, replayed = games.undo(saved, "saved", 2, saved.revision)
    assert not replayed
    assert [m.number for m in undone.manches] == [1]
    assert undone.totals == {"Ana": 0, "Bob": 3, "Chloé": 30}
    assert games.get(game.id) == undone
    again, replayed = games.undo(game.id, "saved", 2, saved.revision)  # the same form posted twice
    assert replayed and again.totals == undone.totals and len(again.manches) == 1


def test_undo_of_an_edit_puts_the_manche_back_as_it_was(games, game):
    # Edited: Bob out; Ana 4♣ = 4, Chloé 5♦ = 5
    edited = games.edit_manche(game, 1, MancheEntry("Bob", {"Ana": ["4C"], "Chloé": ["5D"]}))
    assert edited.totals == {"Ana": 4, "Bob": 0, "Chloé": 5}
    undone, _ = games.undo(edited, "edited", 1, edited.revision)
    assert undone.totals == {"Ana": 0, "Bob": 3, "Chloé": 30}
    assert undone.manches[0].winner == "Ana"
    assert [c.rank for c in undone.manches[0].hands["Chloé"].cards] == ["K", "2"]
    assert games.get(game.id) == undone


def test_undo_of_a_deletion_puts_the_manche_back_at_its_number(games, game):
    two = games.record_manche(game, SECOND).game
    deleted = games.delete_manche(two, 2)
    assert len(deleted.manches) == 1
    undone, _ = games.undo(deleted, "deleted", 2, deleted.revision)
    # 0 + 5, 3 + 0, 30 + 9
    assert undone.totals == {"Ana": 5, "Bob": 3, "Chloé": 39}
    assert [m.number for m in undone.manches] == [1, 2]
    assert games.get(game.id) == undone


def test_an_undo_after_another_write_is_refused(games, game):
    edited = games.edit_manche(game, 1, MancheEntry("Bob", {"Ana": ["4C"], "Chloé": ["5D"]}))
    games.record_manche(edited.id, SECOND)
    with pytest.raises(Conflict):
        games.undo(edited.id, "edited", 1, edited.revision)
    with pytest.raises(Conflict):  # nothing was kept for a save at that revision
        games.undo(edited.id, "deleted", 1, edited.revision + 1)


def test_a_newcomer_joins_at_manche_3_from_the_average_and_a_player_leaves(games, game):
    two = games.record_manche(game, SECOND).game
    # Totals after manche 2: Ana 0 + 5 = 5, Bob 3 + 0 = 3, Chloé 30 + 9 = 39; average 47 / 3 = 15.67 → 16
    joined = games.join_player(two, "Dan")
    assert joined.totals == {"Ana": 5, "Bob": 3, "Chloé": 39, "Dan": 16}
    assert joined.seated == ["Ana", "Bob", "Chloé", "Dan"]
    # Ana dealt manche 1, Bob manche 2: Chloé deals manche 3, Dan (the new seat on her left) next.
    assert joined.dealer_name == "Chloé"
    assert games.get(game.id) == joined
    # Manche 3: Dan out; Ana 7♣ 7, Bob 6♣ 6, Chloé 4♥ 4
    third = games.record_manche(joined, MancheEntry("Dan", {"Ana": ["7C"], "Bob": ["6C"], "Chloé": ["4H"]})).game
    assert third.totals == {"Ana": 12, "Bob": 9, "Chloé": 43, "Dan": 16}
    assert third.dealer_name == "Dan"
    left = games.leave_player(third, "Chloé")
    assert left.seated == ["Ana", "Bob", "Dan"] and left.gone == ["Chloé"]
    assert left.totals["Chloé"] == 43
    # Manche 4 without Chloé: her hand is not asked for.
    fourth = games.record_manche(left, MancheEntry("Ana", {"Bob": ["3H"], "Dan": ["4D"]})).game
    assert fourth.totals == {"Ana": 12, "Bob": 12, "Chloé": 43, "Dan": 20}
    # Dan dealt manche 4; Ana's seat is next on his left.
    assert fourth.dealer_name == "Ana"
    three = games.delete_manche(fourth, 4)  # nobody joined or left after manche 4
    with pytest.raises(Conflict):  # Chloé left after manche 3: it stays
        games.delete_manche(three, 3)


def test_joining_with_a_name_taken_or_a_full_table_is_refused(games, game):
    with pytest.raises(ValidationError):
        games.join_player(game, "ana")
    games.join_player(game.id, "Dan")
    games.join_player(game.id, "Eve")
    with pytest.raises(ValidationError):  # classique: 5 players at most
        games.join_player(game.id, "Fred")


def test_an_invites_last_use_is_noted_at_most_once_a_minute(app, games):
    from sqlalchemy import event

    game, _ = games.create_game("classique", THREE, first_dealer=0)
    _, token = games.create_invite(game.id)
    access = app.extensions["access"]
    updates = []

    def seen(_conn, _cursor, statement, *_args):
        if statement.startswith("UPDATE invite"):
            updates.append(statement)

    event.listen(games.db.writer, "before_cursor_execute", seen)
    try:
        access.note_use(game.id, token)  # noted with the write it goes with: none yet
        assert games.invites(game.id)[0].last_used_at is None and not updates
        games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["K"], "Chloé": ["3"]}))
        first = games.invites(game.id)[0].last_used_at
        access.note_use(game.id, token)
        games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["K"], "Chloé": ["3"]}))
        assert games.invites(game.id)[0].last_used_at == first is not None  # a second write within the minute
    finally:
        event.remove(games.db.writer, "before_cursor_execute", seen)
        unit_of_work.let_go()
    assert len(updates) == 2  # one statement per write at most (the second matches no row)


# --- a game file keeps the table as it was (issue 27, item 2: found by tests/e2e/test_every_shape.py)


def test_a_fourth_player_who_joined_les_huit_before_the_first_manche_comes_back_without_partners(games):
    """Les-huit pairs partners at four (seed 004); a game of three that a fourth joined before any
    manche was dealt is played without them, and its file says ``"teams": null``. Seed 004: « Il
    marque alors des points pour les cartes que détiennent encore ses adversaires : 50 points pour
    chaque huit, 10 points pour chaque figure et, pour les autres cartes, le nombre de points
    correspondant à leur valeur nominale. »"""
    created, _ = games.create_game("les-huit", THREE, first_dealer=0)
    games.join_player(created.id, "Dan")
    # Ana out; she collects Bob's 3♣ (3) + Chloé's K♦ (10) + Dan's 5♠ (5) = 18.
    played = games.record_manche(created.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"], "Dan": ["5S"]})).game
    assert played.teams is None and played.totals == {"Ana": 18, "Bob": 0, "Chloé": 0, "Dan": 0}
    document = games.export_game(created.id)
    assert document["game"]["teams"] is None
    imported, _ = games.import_game(document)
    assert imported.teams is None and imported.totals == played.totals


def test_a_game_whose_table_changed_past_the_variants_count_comes_back_from_its_file(games):
    """Les-huit is played by 2 to 4 (seed 004's table); Ana leaves, then Xavier and Yann join: five
    names in all, never more than four at the table. The file holds them all and imports."""
    created, _ = games.create_game("les-huit", THREE[:2] + ["Dan"], first_dealer=0)
    # Ana out; she collects Bob's K♦ (10) and Dan's 3♣ (3): 13.
    games.record_manche(created.id, MancheEntry("Ana", {"Bob": ["KD"], "Dan": ["3C"]}))
    games.leave_player(created.id, "Ana")
    games.join_player(created.id, "Xavier", "zero")
    played = games.join_player(created.id, "Yann", "zero")
    assert played.players == ["Ana", "Bob", "Dan", "Xavier", "Yann"]
    assert played.seated == ["Bob", "Dan", "Xavier", "Yann"]
    imported, _ = games.import_game(games.export_game(created.id))
    assert imported.players == played.players and imported.seated == played.seated
    assert imported.totals == {"Ana": 13, "Bob": 0, "Dan": 0, "Xavier": 0, "Yann": 0}

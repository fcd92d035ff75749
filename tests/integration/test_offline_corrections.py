"""A correction or a deletion sent again counts once (issue 28 item 1): the phone that queued it
offline sends it with its own key (the form's nonce); a retry — the answer lost on the way back —
is answered as done: no collision with itself, no second deletion.

Classique table (SPEC §2): 8 and joker 50, A 2 J 20, K Q 10, other cards their face value; in
penalty mode everyone but the player who went out adds their hand's value.
"""

from __future__ import annotations

import pytest

from models.core.errors import Conflict, EditCollision
from models.services.games import MancheEntry

THREE = ["Ana", "Bob", "Chloé"]
# Ana out; Bob 3♣ = 3; Chloé K♦ = 10
FIRST = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]})
# Bob out; Ana 5♥ = 5; Chloé 9♣ = 9
SECOND = MancheEntry("Bob", {"Ana": ["5H"], "Chloé": ["9C"]})
# manche 1 corrected: Ana out; Bob 7♣ = 7; Chloé Q♦ = 10
FIXED = MancheEntry("Ana", {"Bob": ["7C"], "Chloé": ["QD"]})


@pytest.fixture
def game(games):
    created, _ = games.create_game("classique", THREE, first_dealer=0)
    return created.id


def test_a_correction_sent_twice_is_made_once_and_never_collides_with_itself(games, game):
    games.record_manche(game, FIRST)
    games.record_manche(game, SECOND)
    version = games.get(game).rows.manche_version(1)
    games.edit_manche(game, 1, FIXED, version=version, key="form:fix-1")
    again = games.edit_manche(game, 1, FIXED, version=version, key="form:fix-1")  # the same form, sent again
    # totals: Ana 0 + 5, Bob 7 + 0, Chloé 10 + 9
    assert again.totals == {"Ana": 5, "Bob": 7, "Chloé": 19}
    assert games.get(game).revision == again.revision
    with pytest.raises(EditCollision):  # another form with the old version: a real collision
        games.edit_manche(game, 1, FIRST, version=version, key="form:other")


def test_a_deletion_sent_twice_deletes_one_manche(games, game):
    games.record_manche(game, FIRST)
    games.record_manche(game, SECOND)
    games.delete_manche(game, 2, key="form:del-2")
    view = games.delete_manche(game, 2, key="form:del-2")  # sent again: manche 1 stays
    assert [m.number for m in view.manches] == [1]
    assert [m.number for m in games.get(game).manches] == [1]


def test_a_deletion_of_a_manche_no_longer_the_last_is_refused(games, game):
    games.record_manche(game, FIRST)
    games.record_manche(game, SECOND)  # another phone recorded manche 2 meanwhile
    with pytest.raises(Conflict):
        games.delete_manche(game, 1, key="form:del-1")
    assert [m.number for m in games.get(game).manches] == [1, 2]

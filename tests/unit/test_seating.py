"""Where a newcomer sits (issue 28, item 3): the core deals in the table order it is given.

Worked out by hand. The rules they rest on: the player on the dealer's left starts and play goes
round clockwise (seed 000: « Le joueur à gauche du donneur commence. Puis on joue dans le sens
horaire »; seed 003: « Le voisin de gauche du donneur entame »); the deal passes to the left each
manche, to the next player the way play goes (``scoring.play_through``'s interpretation: the
sources say who starts, not who deals next), skipping a place nobody sits in. In penalty mode
every player but the one who went out adds their own hand's value (SPEC §2).

Seats are the players' indexes (Ana 0, Bob 1, Chloé 2, Dan 3); the table order lists the seats
the way play goes round.
"""

import pytest

from models.core.errors import UnknownPlayer, ValidationError
from models.core.rules import load_catalog
from models.core.scoring import Seat, manche_loser, next_seated, play_through, seated
from models.core.seating import check_count, neighbour, sit_after

CAT = load_catalog()
CLASSIQUE = CAT.resolve("classique")  # penalty mode, to 500, 2 to 5 players
LOSER_DEALS = CAT.resolve("classique", options={"loser_deals": True})
FOUR = ["Ana", "Bob", "Chloé", "Dan"]
# Dan (seat 3) sat down after manche 1, between Ana and Bob: Ana → Dan → Bob → Chloé.
DAN_AFTER_ANA = (0, 3, 1, 2)
# Manche 1 (Ana, Bob, Chloé): Chloé out; Ana keeps 10, Bob 20.
# Manches 2 to 5 (all four): Ana out; Bob keeps 1, Chloé 2, Dan 3.
RESULTS = [("Chloé", {"Ana": 10, "Bob": 20})] + [("Ana", {"Bob": 1, "Chloé": 2, "Dan": 3})] * 4


def test_a_newcomer_sits_right_after_the_player_chosen():
    assert sit_after((0, 1, 2), 0, 3) == DAN_AFTER_ANA
    assert sit_after((0, 1, 2), 2, 3) == (0, 1, 2, 3)  # after the last: the place a newcomer had before
    assert sit_after((2, 0, 1), 1, 3) == (2, 0, 1, 3)


def test_after_whom_defaults_to_the_last_at_the_table_in_table_order():
    playing = ["Ana", "Dan", "Bob", "Chloé"]
    assert neighbour(playing, None) == "Chloé"
    assert neighbour(playing, "Dan") == "Dan"
    with pytest.raises(UnknownPlayer):
        neighbour(playing, "Zoé")


def test_those_dealt_are_listed_in_table_order():
    roster = {"Dan": Seat(joined=1)}
    assert seated(FOUR, roster, 1, DAN_AFTER_ANA) == ["Ana", "Bob", "Chloé"]  # Dan not yet at the table
    assert seated(FOUR, roster, 2, DAN_AFTER_ANA) == ["Ana", "Dan", "Bob", "Chloé"]
    assert seated(FOUR, None, 1, DAN_AFTER_ANA) == ["Ana", "Dan", "Bob", "Chloé"]


def test_the_deal_goes_to_the_newcomer_sitting_on_the_dealers_left():
    roster = {"Dan": Seat(joined=1, start=10)}
    # Ana (seat 0) dealt manche 1. Dan now sits on her left: he deals manche 2, then Bob,
    # Chloé, Ana again (manche 5), and Dan would deal manche 6.
    played = play_through(CLASSIQUE, FOUR, None, 0, RESULTS, roster, order=DAN_AFTER_ANA)
    assert played.dealers == [0, 3, 1, 2, 0]
    assert played.next_dealer == 3
    # Totals: Ana 10 + 0; Bob 20 + 4 × 1 = 24; Chloé 0 + 4 × 2 = 8; Dan 10 (his start) + 4 × 3 = 22.
    assert played.totals == {"Ana": 10, "Bob": 24, "Chloé": 8, "Dan": 22}
    # Seated after the last (the seat order), Dan would have dealt manche 4 instead.
    after_last = play_through(CLASSIQUE, FOUR, None, 0, RESULTS, roster)
    assert after_last.dealers == [0, 1, 2, 3, 0]
    assert after_last.totals == played.totals  # where one sits changes who deals, not the points


def test_the_next_dealer_after_the_join_is_the_newcomer_before_any_manche_with_them():
    roster = {"Dan": Seat(joined=1)}
    # One manche played (Ana dealt); Dan just sat down on Ana's left: he deals manche 2.
    assert play_through(CLASSIQUE, FOUR, None, 0, RESULTS[:1], roster, order=DAN_AFTER_ANA).next_dealer == 3
    assert next_seated(FOUR, roster, 2, 0, DAN_AFTER_ANA) == 3
    # In manche 1 he was not at the table yet: Ana's left was Bob's.
    assert next_seated(FOUR, roster, 1, 0, DAN_AFTER_ANA) == 1


def test_a_player_who_leaves_keeps_the_others_order():
    # Dan sits between Ana and Bob from manche 2 and leaves after manche 3 (Bob dealt manche 3).
    roster = {"Dan": Seat(joined=1, left=3)}
    results = [*RESULTS[:3], ("Ana", {"Bob": 1, "Chloé": 2})]  # manche 4 without Dan
    played = play_through(CLASSIQUE, FOUR, None, 0, results, roster, order=DAN_AFTER_ANA)
    # Dealers: Ana (1), Dan (2), Bob (3), Chloé (4); manche 5: Ana, then Bob — Dan's place is skipped.
    assert played.dealers == [0, 3, 1, 2]
    assert played.next_dealer == 0
    assert next_seated(FOUR, roster, 5, 0, DAN_AFTER_ANA) == 1
    assert seated(FOUR, roster, 5, DAN_AFTER_ANA) == ["Ana", "Bob", "Chloé"]


def test_a_tie_for_the_loser_goes_to_the_first_of_them_on_the_dealers_left_around_the_table():
    # Ana deals; Bob and Dan both keep 10, Chloé 5. Around the table Ana → Dan → Bob → Chloé:
    # going left from Ana, Dan comes first (in seat order it would be Bob).
    values = {"Bob": 10, "Chloé": 5, "Dan": 10}
    assert manche_loser(FOUR, values, 0, DAN_AFTER_ANA) == 3
    assert manche_loser(FOUR, values, 0) == 1


def test_when_the_loser_deals_a_tie_follows_the_table_order():
    roster = {"Dan": Seat(joined=1)}
    # Manche 1 (Ana dealt): Chloé out, Ana 10, Bob 20 → Bob lost: he deals manche 2.
    # Manche 2: Ana out, Bob 10, Chloé 5, Dan 10 → Bob and Dan tie; going left from Bob (the
    # dealer) around Ana → Dan → Bob → Chloé: Chloé, Ana, then Dan → Dan deals manche 3.
    results = [("Chloé", {"Ana": 10, "Bob": 20}), ("Ana", {"Bob": 10, "Chloé": 5, "Dan": 10})]
    played = play_through(LOSER_DEALS, FOUR, None, 0, results, roster, order=DAN_AFTER_ANA)
    assert played.dealers == [0, 1]
    assert played.next_dealer == 3


def test_a_table_holds_as_many_players_as_the_variant_is_played_by():
    # Classique is played by 2 to 5: 2 and 5 sit, 1 and 6 are refused with those limits; a club
    # night's table says its number and its count.
    low, high = CLASSIQUE.variant.min_players, CLASSIQUE.variant.max_players
    assert (low, high) == (2, 5)
    check_count(2, low, high)
    check_count(5, low, high, table=3)
    for count in (1, 6):
        with pytest.raises(ValidationError) as refused:
            check_count(count, low, high)
        assert refused.value.params == {"min": 2, "max": 5}
    with pytest.raises(ValidationError) as table:
        check_count(6, low, high, table=3)
    assert table.value.params == {"number": 3, "count": 6, "low": 2, "high": 5}

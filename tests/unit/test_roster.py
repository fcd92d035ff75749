"""A player joins or leaves mid-game (issue 14): the newcomer's start, the totals, who deals.

Worked out by hand. The rules they rest on: in penalty mode every player but the one who went out
adds their own hand's value (SPEC §2); the deal passes to the left, the next seat, each manche
(``scoring.play_through``'s interpretation), skipping a seat nobody sits in; the newcomer starts
from the total the group chose when they sit down.
"""

import pytest

from models.core.errors import ValidationError
from models.core.rules import load_catalog
from models.core.scoring import Seat, check_roster_change, play_through, seated, standing, start_total

CAT = load_catalog()
CLASSIQUE = CAT.resolve("classique")  # penalty mode, to 500, 2 to 5 players
THREE = ["Ana", "Bob", "Chloé"]
FOUR = ["Ana", "Bob", "Chloé", "Dan"]
# Manche 1: Chloé goes out, Ana keeps 10 points, Bob 20. Manche 2: Ana goes out, Bob keeps 5,
# Chloé 40. Totals after manche 2: Ana 10, Bob 20 + 5 = 25, Chloé 0 + 40 = 40.
FIRST_TWO = [("Chloé", {"Ana": 10, "Bob": 20}), ("Ana", {"Bob": 5, "Chloé": 40})]


def test_the_newcomer_starts_from_the_average_of_the_table_by_default():
    before = play_through(CLASSIQUE, THREE, None, 0, FIRST_TWO)
    assert before.totals == {"Ana": 10, "Bob": 25, "Chloé": 40}
    # (10 + 25 + 40) / 3 = 25
    assert start_total(before.totals, THREE) == 25
    assert start_total(before.totals, THREE, "zero") == 0
    assert start_total(before.totals, THREE, "highest") == 40


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ({"A": 10, "B": 25, "C": 41}, 25),  # 76 / 3 = 25.33 → 25
        ({"A": 10, "B": 26, "C": 41}, 26),  # 77 / 3 = 25.67 → 26
        ({"A": 10, "B": 15}, 13),  # 25 / 2 = 12.5 → 13 (a half goes up)
    ],
)
def test_the_average_is_rounded_to_the_nearest_point(totals, expected):
    assert start_total(totals, list(totals)) == expected


def test_an_unknown_start_choice_is_refused():
    with pytest.raises(ValidationError):
        start_total({"A": 1}, ["A"], "lowest")


def test_a_fourth_player_joining_after_manche_2_sits_down_with_the_average_and_is_dealt_to():
    roster = {"Dan": Seat(joined=2, start=25)}
    joined = play_through(CLASSIQUE, FOUR, None, 0, FIRST_TWO, roster)
    # Nothing played since the join: Dan's total is his start.
    assert joined.totals == {"Ana": 10, "Bob": 25, "Chloé": 40, "Dan": 25}
    # Ana dealt manche 1, Bob manche 2; Chloé deals manche 3.
    assert joined.dealers == [0, 1]
    assert joined.next_dealer == 2
    # Manche 3: Dan goes out; Ana keeps 3, Bob 7, Chloé 2.
    third = play_through(CLASSIQUE, FOUR, None, 0, [*FIRST_TWO, ("Dan", {"Ana": 3, "Bob": 7, "Chloé": 2})], roster)
    assert third.totals == {"Ana": 13, "Bob": 32, "Chloé": 42, "Dan": 25}
    # The chart's steps: Dan is 0 before he sits down, his start then his points after.
    assert [step["Dan"] for step in third.progression] == [0, 0, 25]
    # Chloé dealt manche 3; the next seat on her left is now Dan's (seat 4), then Ana's.
    assert third.dealers == [0, 1, 2]
    assert third.next_dealer == 3


def test_a_player_who_leaves_keeps_their_total_is_no_more_dealt_to_and_cannot_win():
    roster = {"Bob": Seat(left=2)}
    results = [*FIRST_TWO, ("Ana", {"Chloé": 5})]
    # Manche 3 without Bob: Ana goes out, Chloé keeps 5 → Chloé 45; Bob stays at 25.
    after = play_through(CLASSIQUE, THREE, None, 0, results, roster)
    assert after.totals == {"Ana": 10, "Bob": 25, "Chloé": 45}
    # Manche 3 was dealt by Chloé (seat 3, after Bob's, since Bob dealt manche 2); then Ana:
    # Bob's seat is skipped.
    assert after.dealers == [0, 1, 2]
    assert after.next_dealer == 0
    assert seated(THREE, roster, 3) == ["Ana", "Chloé"]
    assert seated(THREE, roster, 2) == THREE


def test_the_deal_skips_the_seat_of_a_player_who_left():
    # Four players, Ana deals first; Bob leaves after manche 1 (which Ana dealt): Chloé deals
    # manche 2 (Bob's seat is empty), Dan manche 3, Ana manche 4, then Chloé again.
    roster = {"Bob": Seat(left=1)}
    hands = {"Bob": 1, "Chloé": 1, "Dan": 1}
    later = {"Chloé": 1, "Dan": 1}
    results = [("Ana", hands), ("Ana", later), ("Ana", later), ("Ana", later)]
    progress = play_through(CLASSIQUE, FOUR, None, 0, results, roster)
    assert progress.dealers == [0, 2, 3, 0]
    assert progress.next_dealer == 2


def test_a_leaver_is_ranked_after_those_still_playing_and_never_wins():
    # Rounds 3: after manche 3 the game is over. Bob left with 5, the lowest, yet Ana (20) wins.
    ruleset = CAT.resolve("classique", rounds=3)
    result = standing(ruleset, {"Ana": 20, "Bob": 5, "Chloé": 30}, 3, gone={"Bob"})
    assert result.winners == ["Ana"]
    assert [side for _, side, _ in result.ranking] == ["Ana", "Chloé", "Bob"]


def test_teams_refuse_a_join_or_a_leave_and_the_variant_bounds_hold():
    with pytest.raises(ValidationError, match="partnership"):
        check_roster_change(CLASSIQUE, {"A & C": ["A", "C"], "B & D": ["B", "D"]}, FOUR, joining=True)
    five = [*FOUR, "Eve"]
    with pytest.raises(ValidationError):  # classique: 5 players at most
        check_roster_change(CLASSIQUE, None, five, joining=True)
    with pytest.raises(ValidationError):  # 2 at least
        check_roster_change(CLASSIQUE, None, ["Ana", "Bob"], joining=False)
    check_roster_change(CLASSIQUE, None, THREE, joining=True)
    check_roster_change(CLASSIQUE, None, THREE, joining=False)

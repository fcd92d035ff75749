"""A club night's ranking and seatings (models/core/club_night.py), worked out by hand.

The rule they rest on: wins first (a table is won when its game ends, by its winners), then
fewest points (penalty mode) over every table a player sat at; equal on both is a tie, the same
place, the next place skipping (1, 1, 3). Tables as even as can be, the bigger first.
"""

from __future__ import annotations

import pytest

from models.core.club_night import (
    TableResult,
    checked_seating,
    checked_tables,
    proposal,
    ranking,
    shuffled,
    sizes,
    spread,
    together,
)
from models.core.errors import ValidationError


def places(lines) -> list[tuple]:
    return [(line.place, line.name, line.wins, line.points, line.tied) for line in lines]


def test_wins_come_before_points():
    # Turn 1, table 1: Ana 40, Bob 120, Ana wins. Table 2: Chloé 10, Dan 200, Chloé wins.
    # Turn 2, table 1: Ana 90, Chloé 60, finished, Chloé wins; table 2: Bob 30, Dan 35, in progress.
    # Chloé: 2 wins, 10 + 60 = 70. Ana: 1 win, 40 + 90 = 130. Bob: 0 wins, 120 + 30 = 150.
    # Dan: 0 wins, 200 + 35 = 235. Bob is ahead of Dan only by points: the unfinished table wins nothing.
    results = [
        TableResult(1, 1, {"Ana": 40, "Bob": 120}, frozenset({"Ana"}), True),
        TableResult(1, 2, {"Chloé": 10, "Dan": 200}, frozenset({"Chloé"}), True),
        TableResult(2, 1, {"Ana": 90, "Chloé": 60}, frozenset({"Chloé"}), True),
        TableResult(2, 2, {"Bob": 30, "Dan": 35}, frozenset(), False),
    ]
    assert places(ranking(results)) == [
        (1, "Chloé", 2, 70, False),
        (2, "Ana", 1, 130, False),
        (3, "Bob", 0, 150, False),
        (4, "Dan", 0, 235, False),
    ]


def test_a_table_in_progress_counts_its_points_not_its_winner():
    # A game not over has no winner yet, whatever the leader: Bob leads with 5 but wins nothing.
    results = [TableResult(1, 1, {"Ana": 12, "Bob": 5}, frozenset({"Bob"}), False)]
    assert places(ranking(results)) == [(1, "Bob", 0, 5, False), (2, "Ana", 0, 12, False)]


def test_equal_wins_and_points_are_tied_and_share_a_place():
    # Ana and Bob both won one table with 50 points in all: tied at 1st; Chloé is 3rd (1, 1, 3),
    # Dan 4th. Table 1: Ana 20 (won), Chloé 70; table 2: Bob 50 (won), Dan 90; turn 2: Ana 30,
    # Chloé 0, Dan 0, Bob 0 at a table still going.
    results = [
        TableResult(1, 1, {"Ana": 20, "Chloé": 70}, frozenset({"Ana"}), True),
        TableResult(1, 2, {"Bob": 50, "Dan": 90}, frozenset({"Bob"}), True),
        TableResult(2, 1, {"Ana": 30, "Bob": 0, "Chloé": 0, "Dan": 0}, frozenset(), False),
    ]
    assert places(ranking(results)) == [
        (1, "Ana", 1, 50, True),
        (1, "Bob", 1, 50, True),
        (3, "Chloé", 0, 70, False),
        (4, "Dan", 0, 90, False),
    ]


def test_a_shared_win_counts_for_each_winner_and_most_points_lead_when_points_are_won():
    # Winner mode (points won): a tie at the end shares the table, both get the win. Ana 300 and
    # Bob 300 won; Chloé 100. Then most points first among equal wins: nobody ties.
    results = [TableResult(1, 1, {"Ana": 300, "Bob": 300, "Chloé": 100}, frozenset({"Ana", "Bob"}), True)]
    lines = ranking(results, lower_is_better=False)
    assert places(lines) == [(1, "Ana", 1, 300, True), (1, "Bob", 1, 300, True), (3, "Chloé", 0, 100, False)]


def test_one_person_whatever_the_spelling_shown_by_the_latest():
    # "chloe" at turn 1 (20, won) and "Chloé" at turn 2 (15): one person, 1 win and 35 points.
    results = [
        TableResult(1, 1, {"chloe": 20, "Ana": 40}, frozenset({"chloe"}), True),
        TableResult(2, 1, {"Chloé": 15, "Ana": 5}, frozenset(), False),
    ]
    assert places(ranking(results)) == [(1, "Chloé", 1, 35, False), (2, "Ana", 0, 45, False)]


def test_sizes_are_as_even_as_can_be_the_bigger_first():
    assert sizes(7, 2) == [4, 3]
    assert sizes(10, 3) == [4, 3, 3]
    assert sizes(6, 2) == [3, 3]
    assert sizes(5, 0) == []


ORDER = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th"]


def test_together_seats_the_strongest_at_table_one():
    # 7 at 2 tables: sizes 4 and 3; the four best at table 1.
    assert together(ORDER, 2) == [["1st", "2nd", "3rd", "4th"], ["5th", "6th", "7th"]]


def test_spread_deals_the_ranking_in_a_snake():
    # 6 at 2 tables: 1 → T1, 2 → T2, 3 → T2, 4 → T1, 5 → T1, 6 → T2.
    assert spread(ORDER[:6], 2) == [["1st", "4th", "5th"], ["2nd", "3rd", "6th"]]
    # 7 at 3 tables (3, 2, 2): 1 T1, 2 T2, 3 T3, 4 T3, 5 T2, 6 T1, and the snake starts again at
    # T1, which holds two of its three: 7 → T1.
    assert spread(ORDER, 3) == [["1st", "6th", "7th"], ["2nd", "5th"], ["3rd", "4th"]]


def test_spread_skips_a_full_table():
    # 5 at 2 tables (3, 2): 1 T1, 2 T2, 3 T2 (T2 full now), 4 T1, 5: T1 is next → T1.
    assert spread(ORDER[:5], 2) == [["1st", "4th", "5th"], ["2nd", "3rd"]]


def test_shuffled_is_the_same_for_the_same_seed_and_seats_everyone_once():
    first, again = shuffled(ORDER, 2, seed=42), shuffled(ORDER, 2, seed=42)
    assert first == again
    assert [len(table) for table in first] == [4, 3]
    assert sorted(name for table in first for name in table) == sorted(ORDER)
    others = {tuple(map(tuple, shuffled(ORDER, 2, seed=s))) for s in range(20)}
    assert len(others) > 1  # the seed changes the draw


def test_proposal_picks_the_method_and_falls_back_to_spread():
    assert proposal("together", ORDER[:4], 2) == [["1st", "2nd"], ["3rd", "4th"]]
    assert proposal("spread", ORDER[:4], 2) == [["1st", "4th"], ["2nd", "3rd"]]
    assert proposal("anything", ORDER[:4], 2) == [["1st", "4th"], ["2nd", "3rd"]]
    assert proposal("shuffled", ORDER[:4], 2, seed=3) == shuffled(ORDER[:4], 2, 3)


def test_the_number_of_tables_must_seat_everyone_within_the_variants_limits():
    assert checked_tables(2, 5, 2, 8) == 2
    with pytest.raises(ValidationError) as few:
        checked_tables(3, 5, 2, 8)  # 5 players cannot make 3 tables of at least 2
    assert few.value.params == {"players": 5, "tables": 3, "low": 2}
    with pytest.raises(ValidationError) as many:
        checked_tables(1, 9, 2, 8)  # 9 players at one table of at most 8
    assert many.value.params == {"players": 9, "tables": 1, "high": 8}
    with pytest.raises(ValidationError):
        checked_tables(None, 4, 2, 8)
    with pytest.raises(ValidationError):
        checked_tables(0, 4, 2, 8)


def test_a_seating_drops_empty_tables_and_refuses_a_player_twice_or_a_table_too_small_or_too_big():
    assert checked_seating([["Ana", "Bob"], [], ["Chloé", "Dan"]], 2, 8) == [["Ana", "Bob"], ["Chloé", "Dan"]]
    with pytest.raises(ValidationError) as twice:
        checked_seating([["Ana", "Bob"], ["ana", "Dan"]], 2, 8)
    assert twice.value.params == {"name": "ana"}
    with pytest.raises(ValidationError) as small:
        checked_seating([["Ana", "Bob", "Chloé"], ["Dan"]], 2, 8)
    assert small.value.params == {"number": 2, "count": 1, "low": 2, "high": 8}
    with pytest.raises(ValidationError) as big:
        checked_seating([["Ana", "Bob", "Chloé"], ["Dan", "Eve"]], 2, 2)  # 3 at table 1, where 2 at most sit
    assert big.value.params == {"number": 1, "count": 3, "low": 2, "high": 2}
    with pytest.raises(ValidationError):
        checked_seating([[], []], 2, 8)

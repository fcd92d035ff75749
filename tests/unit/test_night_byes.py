"""A club night's byes, leavers and rankings per table played (models/core/club_night.py), worked
out by hand.

The rules they rest on: when the players present are more than the tables seat, the ones over sit
out — the fewest byes so far first (nobody sits out twice while another present player has not
sat out yet), then the most tables played, then the last in the ranking's order. A bye is a table
not played: no win, no point, no table. Ranked per table played, a player's points (or wins) are
divided by the tables they sat at, so a bye or a departure neither helps nor harms them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from models.core.club_night import (
    TableResult,
    checked_ranking,
    checked_seating,
    checked_tables,
    ranking,
    sitting_out,
    turn_seating,
)
from models.core.errors import ValidationError
from models.core.standings import person

NINE = ["Ana", "Bob", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo", "Inès"]


def test_nine_players_at_two_tables_of_four_sit_out_one_each_in_turn():
    # Les huit seats 2 to 4 a table: two tables seat 8 of 9, one sits out each turn.
    # Turn 1: nobody has sat out or played: the last in the order, Inès.
    # Turn 2: Inès has a bye; the eight others none, one table each: the last of them, Hugo.
    # Turn 3: Gus. … Turn 9: Ana — each has sat out once, nobody twice.
    byes: dict = {}
    tables: dict = {}
    sat_out = []
    for _turn in range(9):
        out = sitting_out(NINE, 8, byes, tables)
        assert len(out) == 1
        assert max(byes.values(), default=0) <= min(byes.get(person(name), 0) for name in NINE) + 1
        sat_out += out
        for name in NINE:
            key = person(name)
            if name in out:
                byes[key] = byes.get(key, 0) + 1
            else:
                tables[key] = tables.get(key, 0) + 1
    assert sat_out == list(reversed(NINE))


def test_a_second_bye_waits_until_everybody_present_had_one():
    # Ana and Bob sat out once already; Chloé and Dan never did. Two must sit out: Chloé and Dan,
    # though Ana is last in the order.
    out = sitting_out(["Chloé", "Dan", "Bob", "Ana"], 2, {"ana": 1, "bob": 1}, {"chloe": 2, "dan": 2})
    assert out == ["Chloé", "Dan"]


def test_among_equal_byes_the_one_who_played_more_tables_sits_out():
    # Nobody sat out yet; Dan arrived late (1 table), Ana played 2: Ana sits out, not Dan, though
    # Dan is last in the order.
    assert sitting_out(["Ana", "Dan"], 1, {}, {"ana": 2, "dan": 1}) == ["Ana"]


def test_nobody_sits_out_when_the_tables_seat_everyone():
    assert sitting_out(NINE, 10, {}, {}) == []


def test_the_seating_of_a_turn_with_a_bye():
    # 9 players, 2 tables of at most 4: Inès (last) sits out; the eight others spread in a snake
    # (1, 2, 2, 1, 1, 2, 2, 1): table 1 Ana, Dan, Eve, Hugo; table 2 Bob, Chloé, Fred, Gus.
    seating, out = turn_seating("spread", NINE, 2, 4)
    assert out == ["Inès"]
    assert seating == [["Ana", "Dan", "Eve", "Hugo"], ["Bob", "Chloé", "Fred", "Gus"]]


# Two turns, points count against (the fewest is best):
# Turn 1: table 1 Ana 10, Bob 30, Ana wins; table 2 Chloé 0, Dan 25, Chloé wins; Eve sits out.
# Turn 2: table 1 Ana 0, Bob 20, Ana wins; table 2 Chloé 15, Eve 0, Eve wins; Dan sits out.
# Ana 2 wins, 10 points, 2 tables; Bob 0, 50, 2; Chloé 1, 15, 2; Dan 0, 25, 1 (1 bye);
# Eve 1, 0, 1 (1 bye).
RESULTS = [
    TableResult(1, 1, {"Ana": 10, "Bob": 30}, frozenset({"Ana"}), True),
    TableResult(1, 2, {"Chloé": 0, "Dan": 25}, frozenset({"Chloé"}), True),
    TableResult(2, 1, {"Ana": 0, "Bob": 20}, frozenset({"Ana"}), True),
    TableResult(2, 2, {"Chloé": 15, "Eve": 0}, frozenset({"Eve"}), True),
]
BYES = [(1, "Eve"), (2, "Dan")]


def lines(method: str, gone=()) -> list[tuple]:
    return [(p.place, p.name, p.tied, p.byes, p.gone) for p in ranking(RESULTS, True, method, BYES, gone)]


def test_by_total_a_bye_leaves_a_player_a_table_short():
    # Wins first: Ana 2; then 1 win: Eve 0 points before Chloé 15; then 0 wins: Dan 25 before Bob
    # 50 — Dan's bye spared him a table's points.
    assert lines("total") == [
        (1, "Ana", False, 0, False),
        (2, "Eve", False, 1, False),
        (3, "Chloé", False, 0, False),
        (4, "Dan", False, 1, False),
        (5, "Bob", False, 0, False),
    ]


def test_by_points_per_table_a_bye_neither_helps_nor_harms():
    # Points per table: Eve 0/1 = 0, Ana 10/2 = 5, Chloé 15/2 = 7.5, Bob 50/2 = 25, Dan 25/1 = 25.
    # Bob and Dan are equal, and on wins per table too (0): tied fourth.
    assert lines("points_per_table") == [
        (1, "Eve", False, 1, False),
        (2, "Ana", False, 0, False),
        (3, "Chloé", False, 0, False),
        (4, "Bob", True, 0, False),
        (4, "Dan", True, 1, False),
    ]
    figures = {p.name: p.points_per_table for p in ranking(RESULTS, True, "points_per_table", BYES)}
    assert figures["Chloé"] == Fraction(15, 2)


def test_by_wins_per_table_then_points_per_table():
    # Wins per table: Eve 1/1 = 1 and Ana 2/2 = 1, Eve first on points per table (0 against 5);
    # Chloé 1/2; Bob and Dan 0, equal on points per table (25): tied fourth.
    assert [(place, name, tied) for place, name, tied, _b, _g in lines("wins_per_table")] == [
        (1, "Eve", False),
        (2, "Ana", False),
        (3, "Chloé", False),
        (4, "Bob", True),
        (4, "Dan", True),
    ]


def test_a_player_who_left_keeps_the_tables_they_played():
    # Bob left after turn 2: his two tables stay counted, he is marked gone, his place unchanged.
    assert lines("total", gone=["bob"])[-1] == (5, "Bob", False, 0, True)


def test_a_player_with_only_a_bye_is_ranked_after_every_player_who_played():
    # Fred sat turn 1 out and nothing else: no table, so after everyone, whatever the method.
    for method in ("total", "points_per_table", "wins_per_table"):
        last = ranking(RESULTS, True, method, [*BYES, (1, "Fred")])[-1]
        assert (last.place, last.name, last.tables, last.byes, last.points_per_table) == (6, "Fred", 0, 1, None)


def test_an_unknown_ranking_method_is_refused():
    assert checked_ranking("wins_per_table") == "wins_per_table"
    with pytest.raises(ValidationError):
        checked_ranking("best")


def test_too_many_players_sit_out_but_too_few_are_still_refused():
    assert checked_tables(2, 9, 2, 4, byes=True) == 2  # 9 at two tables of 4: one sits out
    with pytest.raises(ValidationError):
        checked_tables(2, 9, 2, 4)  # without byes, still too many
    with pytest.raises(ValidationError):
        checked_tables(3, 5, 2, 4, byes=True)  # 5 cannot make 3 tables of at least 2


def test_a_seating_refuses_a_player_gone_or_seated_while_sitting_out():
    with pytest.raises(ValidationError, match="left the night"):
        checked_seating([["Ana", "Bob"]], 2, 4, gone=["bob"])
    with pytest.raises(ValidationError, match="sits out"):
        checked_seating([["Ana", "Bob"]], 2, 4, out=["Ana"])
    assert checked_seating([["Ana", "Bob"]], 2, 4, out=["Chloé"], gone=["Dan"]) == [["Ana", "Bob"]]

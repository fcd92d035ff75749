"""The « fresh » seating: the next turn avoiding opponents met already — as a rule, no pair meets
twice while another seating avoids it. The minima below are worked out by hand (the pigeonhole
reasoning in each comment), not read from the code."""

from __future__ import annotations

from itertools import combinations

from models.core.club_night import TableResult, fresh, met, proposal, sizes
from models.core.standings import person


def turn(number: int, seating) -> list[TableResult]:
    return [TableResult(number, table, {name: 0 for name in names}) for table, names in enumerate(seating, 1)]


def repeats(seating, pairs) -> int:
    return sum(frozenset((person(a), person(b))) in pairs for table in seating for a, b in combinations(table, 2))


def seated_once(seating, order, tables) -> None:
    assert sorted(name for table in seating for name in table) == sorted(order)
    assert sorted(len(table) for table in seating) == sorted(sizes(len(order), tables))


def test_nine_players_at_three_tables_never_meet_again_for_two_turns():
    # After 3 tables of 3 (ABC, DEF, GHI), each new table can take one player of each old table
    # (A D G / B E H / C F I): no pair meets again. After that second turn, a third exists too
    # (A E I / B F G / C D H: the other diagonals), so the proposal must repeat nothing.
    order = list("ABCDEFGHI")
    first = [list("ABC"), list("DEF"), list("GHI")]
    second = fresh(order, 3, met(turn(1, first)))
    seated_once(second, order, 3)
    assert repeats(second, met(turn(1, first))) == 0
    third = fresh(order, 3, met(turn(1, first) + turn(2, second)))
    seated_once(third, order, 3)
    assert repeats(third, met(turn(1, first) + turn(2, second))) == 0


def test_when_a_repeat_cannot_be_avoided_the_fewest_are_proposed():
    # Six players after ABC | DEF, again at two tables of three: each new table holds three players
    # from two old tables, so two of them come from the same one — one pair again at each table,
    # two in all, and no seating does better.
    pairs = met(turn(1, [list("ABC"), list("DEF")]))
    seating = fresh(list("ABCDEF"), 2, pairs)
    seated_once(seating, list("ABCDEF"), 2)
    assert repeats(seating, pairs) == 2
    # Twelve at three tables of four after three tables of four: each new table of four draws from
    # three old tables, so two of its players sat together: at least one pair a table, three in all.
    order = [f"P{i}" for i in range(12)]
    pairs = met(turn(1, [order[0:4], order[4:8], order[8:12]]))
    assert repeats(fresh(order, 3, pairs), pairs) == 3


def test_a_spelling_is_one_person_and_a_first_turn_is_the_spread():
    # « élodie » met « Ana » as « Elodie »: the same person (case and accents aside).
    pairs = met(turn(1, [["Ana", "Elodie"], ["Bob", "Chloé"]]))
    seating = fresh(["Ana", "élodie", "Bob", "Chloé"], 2, pairs)
    assert repeats(seating, pairs) == 0 and {"Ana", "élodie"} not in [set(t) for t in seating]
    # Nothing met yet: the spread seating, as the organiser's default.
    assert proposal("fresh", list("ABCD"), 2) == proposal("spread", list("ABCD"), 2)


def test_forty_players_are_seated_at_once():
    # Forty at ten tables of four, two turns played: a third with nobody meeting again exists
    # (four players from four different tables of each earlier turn); the search finds one.
    order = [f"P{i:02}" for i in range(40)]
    first = [order[i * 4 : i * 4 + 4] for i in range(10)]
    second = [order[i::10] for i in range(10)]
    pairs = met(turn(1, first) + turn(2, second))
    assert repeats(second, met(turn(1, first))) == 0
    third = fresh(order, 10, pairs)
    seated_once(third, order, 10)
    assert repeats(third, pairs) == 0

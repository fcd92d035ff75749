"""A group's championship of club nights (models/core/championship.py), worked out by hand.

The rule: each ended night turns a player's place into points — a scale from first place down
(« 10-8-6-5-4-3-2-1 »: further down, or a night missed, 0), or the place itself (the sum of
placings, fewer is better; a night missed counts as its number of players plus one); players
sharing a place both score it; with ``best``, only each player's best nights count; equal totals
share a place, the next skipping (1, 1, 3).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from models.core.championship import NightPlaces, Scale, best, scale, table
from models.core.errors import ValidationError


def night(number: int, places: dict) -> NightPlaces:
    return NightPlaces(
        f"n{number}", f"Night {number}", datetime(2026, 11, number, 20, tzinfo=UTC),
        {name.casefold(): place for name, place in places.items()}, {name.casefold(): name for name in places},
    )  # fmt: skip


# Night 1: Ana and Bob tied first, Chloé third. Night 2: Chloé first, Ana second, Dan third
# (Bob away). Night 3, the oldest given last: Dan first, Bob second (Ana and Chloé away).
NIGHTS = [night(1, {"Ana": 1, "Bob": 1, "Chloé": 3}), night(3, {"Dan": 1, "Bob": 2}),
          night(2, {"Chloé": 1, "Ana": 2, "Dan": 3})]  # fmt: skip


def lines(found) -> list[tuple]:
    return [(line.place, line.name, line.total, line.played, line.tied) for line in found]


def test_points_by_place_shared_places_score_alike():
    # 10-8-6: Ana 10 + 8 + 0 = 18; Bob 10 (tied first scores first's 10) + 0 + 8 = 18;
    # Chloé 6 + 10 + 0 = 16; Dan 0 + 6 + 10 = 16. Two ties, the places 1, 1, 3, 3.
    found = table(NIGHTS, scale("10-8-6"))
    assert lines(found) == [(1, "Ana", 18, 2, True), (1, "Bob", 18, 2, True), (3, "Chloé", 16, 2, True),
                            (3, "Dan", 16, 2, True)]  # fmt: skip
    # Each line has a score per night, by date: Bob missed night 2 (0 points, no place).
    assert [(s.night_id, s.place, s.points) for s in found[1].scores] == [("n1", 1, 10), ("n2", None, 0), ("n3", 2, 8)]


def test_the_best_nights_only():
    # Best 1 of 10-8-6: Ana 10 (night 1), Bob 10 (night 1), Chloé 10 (night 2), Dan 10 (night 3):
    # four tied first.
    found = table(NIGHTS, scale("10-8-6"), best_of=1)
    assert [(line.place, line.total, line.counted) for line in found] == [(1, 10, 1)] * 4
    assert [s.counted for s in found[0].scores] == [True, False, False]  # Ana: night 1, the earlier 10


def test_the_sum_of_places_fewer_is_better():
    # Nights 1 and 2 have 3 players, a night missed counts 4; night 3 has 2, missed counts 3.
    # Ana 1 + 2 + 3 = 6; Bob 1 + 4 + 2 = 7; Chloé 3 + 1 + 3 = 7; Dan 4 + 3 + 1 = 8.
    # Best 2: Ana 1 + 2 = 3, Bob 1 + 2 = 3, Chloé 1 + 3 = 4, Dan 1 + 3 = 4.
    assert lines(table(NIGHTS, scale("places"))) == [(1, "Ana", 6, 2, False), (2, "Bob", 7, 2, True),
                                                     (2, "Chloé", 7, 2, True), (4, "Dan", 8, 2, False)]  # fmt: skip
    assert [line.total for line in table(NIGHTS, scale("places"), best_of=2)] == [3, 3, 4, 4]


def test_a_night_missed_is_counted_last_among_equal_values():
    # Best 2 of 10-8-6 for Eve, who played night 1 only, 4th: 0 points, as a night missed scores.
    # Her played night is the one counted first among her zeros.
    found = table([night(1, {"Ana": 1, "Bob": 2, "Chloé": 3, "Eve": 4}), night(2, {"Ana": 1})], scale("10-8-6"), 2)
    eve = found[-1]
    assert (eve.name, eve.total, [s.counted for s in eve.scores]) == ("Eve", 0, [True, True])


def test_the_scale_and_the_nights_counted_as_written():
    assert scale(None) == scale("") == Scale((10, 8, 6, 5, 4, 3, 2, 1))
    assert scale(" 25, 18 15 ") == Scale((25, 18, 15)) and scale("Places") == Scale()
    assert (scale("5-3-1").text, Scale().text) == ("5-3-1", "places")
    for wrong in ("8-10", "10-x", "-", "10-8-" + "1-" * 40, "2000-1", "١٠", 12):
        with pytest.raises(ValidationError):
            scale(wrong)
    assert (best(None), best(""), best("3")) == (None, None, 3)
    for wrong in ("0", "101", "two", "-1", "1.5"):
        with pytest.raises(ValidationError):
            best(wrong)

"""A group's standings (models/core/standings.py), every figure worked out by hand from the games'
manches below (penalty points: the lowest is best)."""

from __future__ import annotations

from datetime import datetime

from models.core import standings
from models.core.standings import GameResult, person


def game(when, names, points, winners, variant="classique", low=True):
    keys = {person(n): n for n in names}
    return GameResult(when, variant, keys, {person(n): tuple(p) for n, p in zip(names, points, strict=True)},
                      frozenset(person(w) for w in winners), low)  # fmt: skip


# Four finished games of Ana, Bob and Chloé (and Dan in the last one).
GAMES = [
    game(datetime(2026, 1, 10), ["Ana", "Bob"], [[0, 12], [30, 0]], ["Ana"]),  # Ana 12, Bob 30
    game(datetime(2026, 3, 5), ["ana", "Chloé"], [[25], [0]], ["Chloé"]),  # ana 25, Chloé 0
    game(datetime(2026, 3, 20), ["Ana", "Bob", "Chloe"], [[0], [4], [50]], ["Ana"], variant="les-huit"),
    game(datetime(2025, 12, 31), ["Bob", "Dan"], [[0, 0], [7, 9]], ["Bob"]),  # last year
]


def test_a_person_is_one_across_spellings():
    assert person("Chloé") == person(" chloe ") == person("CHLOÉ") == "chloe"
    assert person("Ana  Maria") == "ana maria"


def test_the_table_all_time():
    lines = {line.person: line for line in standings.table(GAMES)}
    ana = lines["ana"]
    # Ana: games 1 (won), 2 (lost), 3 (won): 3 played, 2 won, 2/3 = 66.7 → 67 %.
    assert (ana.name, ana.played, ana.won, ana.win_rate) == ("Ana", 3, 2, 67)
    # Her manches: 0, 12, 25, 0 = 37 over 4 = 9.25 → 9.2 (Python rounds half to even) ; best 0, worst 25.
    assert (ana.manches, ana.points, ana.average, ana.best, ana.worst) == (4, 37, 9.2, 0, 25)
    assert ana.longest_run == 1  # won, lost, won
    bob = lines["bob"]
    # Bob: game 4 (won, 2025-12-31), game 1 (lost), game 3 (lost): 1 of 3 = 33 %; run 1.
    assert (bob.played, bob.won, bob.win_rate, bob.longest_run) == (3, 1, 33, 1)
    # His manches: 0, 0 (game 4), 30, 0 (game 1), 4 (game 3) = 34 over 5 = 6.8; worst 30.
    assert (bob.points, bob.manches, bob.average, bob.best, bob.worst) == (34, 5, 6.8, 0, 30)
    chloe = lines["chloe"]
    # Chloé: game 2 (won, 0), game 3 as "Chloe" (lost, 50): 1 of 2 = 50 %; average 25.0.
    assert (chloe.name, chloe.played, chloe.won, chloe.win_rate, chloe.average) == ("Chloe", 2, 1, 50, 25.0)
    # Order: most wins (Ana 2), then Chloé (1 win, 50 %) before Bob (1 win, 33 %) and Dan (0).
    assert [line.person for line in standings.table(GAMES)] == ["ana", "chloe", "bob", "dan"]


def test_periods_and_variants():
    today = datetime(2026, 3, 25)
    year = standings.this_year(GAMES, today)
    assert len(year) == 3  # game 4 was in 2025
    month = standings.this_month(GAMES, today)
    assert [g.played_at.day for g in month] == [5, 20]
    # In March: Ana lost game 2, won game 3: 1 of 2.
    ana = next(line for line in standings.table(month) if line.person == "ana")
    assert (ana.played, ana.won, ana.win_rate) == (2, 1, 50)
    assert standings.variants(GAMES) == ["classique", "les-huit"]  # 3 games, then 1
    assert len(standings.chosen(GAMES, "year", "les-huit", today)) == 1
    december = standings.this_month(GAMES, datetime(2025, 12, 1))
    assert len(december) == 1


def test_a_winning_run_skips_the_games_not_played():
    games = [
        game(datetime(2026, 1, d), names, [[0]] * len(names), winners)
        for d, names, winners in [
            (1, ["Ana", "Bob"], ["Ana"]),
            (2, ["Bob", "Dan"], ["Dan"]),
            (3, ["Ana", "Dan"], ["Ana"]),
            (4, ["Ana", "Bob"], ["Ana"]),
            (5, ["Ana", "Bob"], ["Bob"]),
        ]  # fmt: skip
    ]
    lines = {line.person: line for line in standings.table(games)}
    assert lines["ana"].longest_run == 3  # days 1, 3, 4 (day 2 she did not play); lost on day 5
    assert lines["bob"].longest_run == 1


def test_head_to_head():
    versus = standings.head_to_head(GAMES, "ana", "bob")
    # Together in games 1 (Ana won) and 3 (Ana won).
    assert (versus.games, versus.first_won, versus.second_won, versus.neither) == (2, 2, 0, 0)
    versus = standings.head_to_head(GAMES, "bob", "chloe")
    # Together in game 3 only, which Ana won.
    assert (versus.games, versus.first_won, versus.second_won, versus.neither) == (1, 0, 0, 1)


def test_points_won_count_the_other_way():
    games = [game(datetime(2026, 2, 1), ["Ana", "Bob"], [[50, 10], [0, 0]], ["Ana"], low=False)]
    ana = standings.table(games)[0]
    assert (ana.best, ana.worst) == (50, 10)  # most points is best where points are won


def test_the_season():
    season = standings.season(GAMES, 2026)
    # Wins in 2026: Ana in January (game 1) and March (game 3); Chloé in March (game 2).
    assert season.persons == ("ana", "chloe", "bob")
    assert season.wins["ana"] == (1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    assert season.wins["chloe"] == (0, 0, 1) + (1,) * 9
    assert season.wins["bob"] == (0,) * 12
    assert season.most == 2


def test_two_spellings_merged_count_as_one_person():
    # "Robert" is Bob, written so on another phone: his one game, against Chloé, he won with 3.
    robert = game(datetime(2026, 2, 1), ["Robert", "Chloé"], [[0, 3], [20, 0]], ["Robert"])  # Robert 3, Chloé 20
    games = [*GAMES[:3], robert]
    apart = {line.person: line for line in standings.table(games)}
    assert (apart["bob"].played, apart["bob"].won) == (2, 0)  # games 1 and 3, both lost
    assert (apart["robert"].played, apart["robert"].won) == (1, 1)

    together = standings.merged(games, {"robert": "bob"})
    lines = {line.person: line for line in standings.table(together)}
    assert "robert" not in lines
    bob = lines["bob"]
    # Bob: game 1 (30, 0 → lost), Robert's game (0, 3 → won), game 3 (4 → lost), in that order.
    assert (bob.played, bob.won, bob.win_rate) == (3, 1, 33)  # 1/3 = 33.3 %
    # Manches 30, 0, 0, 3, 4 = 37 over 5 = 7.4; best 0, worst 30; one win in a row at most.
    assert (bob.manches, bob.points, bob.average, bob.best, bob.worst, bob.longest_run) == (5, 37, 7.4, 0, 30, 1)
    assert bob.name == "Bob"  # the latest spelling: game 3 (20 March) after Robert's (1 February)
    assert together[3].names == {"bob": "Robert", "chloe": "Chloé"}  # the game keeps its spelling
    assert robert.names == {"robert": "Robert", "chloe": "Chloé"}  # and the stored result is untouched


def test_a_merge_is_shown_before_it_is_done():
    robert = game(datetime(2026, 2, 1), ["Robert", "Chloé"], [[0], [20]], ["Robert"])
    preview = standings.merge_preview([*GAMES[:3], robert], "bob", "robert")
    assert [name for _, name in preview.first_games] == ["Bob", "Bob"]  # games 1 and 3
    assert [name for _, name in preview.second_games] == ["Robert"]
    assert preview.possible
    # Ana and Chloé sat at games 2 and 3 together: two people, never merged.
    assert not standings.merge_preview(GAMES, "ana", "chloe").possible
    assert len(standings.merge_preview(GAMES, "ana", "chloe").together) == 2


def test_merges_are_followed_to_their_end():
    assert standings.counted_as({"robert": "bob", "bobby": "robert"}, "bobby") == "bob"
    assert standings.counted_as({"a": "b", "b": "a"}, "a") == "b"  # a loop stops
    assert standings.counted_as({}, "ana") == "ana"

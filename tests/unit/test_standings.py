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
    # les-huit scores points won: the manche's winner (Ana) takes the others' cards, 54.
    game(datetime(2026, 3, 20), ["Ana", "Bob", "Chloe"], [[54], [0], [0]], ["Ana"], variant="les-huit", low=False),
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
    # Game 3 is les-huit's, points won: its manche (54) is apart, never added to penalty points.
    # Her penalty manches: 0, 12, 25 = 37 over 3 = 12.33 → 12.3; best 0, worst 25.
    penalty = ana.kinds["penalty"]
    assert (penalty.manches, penalty.points, penalty.average, penalty.best, penalty.worst) == (3, 37, 12.3, 0, 25)
    assert ana.longest_run == 1  # won, lost, won
    bob = lines["bob"]
    # Bob: game 4 (won, 2025-12-31), game 1 (lost), game 3 (lost): 1 of 3 = 33 %; run 1.
    assert (bob.played, bob.won, bob.win_rate, bob.longest_run) == (3, 1, 33, 1)
    # His penalty manches: 0, 0 (game 4), 30, 0 (game 1) = 30 over 4 = 7.5; worst 30.
    penalty = bob.kinds["penalty"]
    assert (penalty.points, penalty.manches, penalty.average, penalty.best, penalty.worst) == (30, 4, 7.5, 0, 30)
    chloe = lines["chloe"]
    # Chloé: game 2 (won, 0), game 3 as "Chloe" (lost, 0 points won): 1 of 2 = 50 %.
    assert (chloe.name, chloe.played, chloe.won, chloe.win_rate) == ("Chloe", 2, 1, 50)
    assert chloe.kinds["penalty"].average == 0.0 and chloe.kinds["won"].average == 0.0
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
    ana = standings.table(games)[0].kinds["won"]
    assert (ana.best, ana.worst) == (50, 10)  # most points is best where points are won


def test_the_season():
    season = standings.season(GAMES, datetime(2026, 12, 31))
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
    # Penalty manches 30, 0, 0, 3 = 33 over 4 = 8.25 → 8.2 (half to even); best 0, worst 30 (game 3's
    # 4 is les-huit's, points won); one win in a row at most.
    penalty = bob.kinds["penalty"]
    assert (penalty.manches, penalty.points, penalty.average, penalty.best, penalty.worst) == (4, 33, 8.2, 0, 30)
    assert bob.longest_run == 1
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


def test_penalty_points_and_points_won_are_never_added_together():
    # Marc's evening: a classique game (penalty points, "the lowest total wins") and a les-huit
    # game (points won, "the winner of a manche scores the cards left in the others' hands").
    games = [
        game(datetime(2026, 11, 1), ["Marc", "Jean"], [[0, 12], [20, 0]], ["Marc"]),  # Marc 12, Jean 20
        game(datetime(2026, 11, 2), ["Marc", "Jean"], [[79, 59], [0, 0]], ["Marc"], variant="les-huit", low=False),
    ]
    marc = next(line for line in standings.table(games) if line.person == "marc")
    # Wins add across variants: 2 played, 2 won.
    assert (marc.played, marc.won) == (2, 2)
    assert standings.kinds([marc]) == ["penalty", "won"]
    penalty, won = marc.kinds["penalty"], marc.kinds["won"]
    # Penalty: manches 0 and 12 = 12 over 2 = 6.0; fewer is better: best 0, worst 12.
    assert (penalty.manches, penalty.points, penalty.average, penalty.best, penalty.worst) == (2, 12, 6.0, 0, 12)
    # Points won: 79 and 59 = 138 over 2 = 69.0; more is better: best 79, worst 59.
    assert (won.manches, won.points, won.average, won.best, won.worst) == (2, 138, 69.0, 79, 59)
    # Before, one figure of both: (0 + 12 + 79 + 59) / 4 = 37.5, « Meilleure 79, Pire 59 » by merit.


def test_a_merged_person_keeps_the_group_s_name_under_a_filter():
    # Marco merged into Marc; the group last wrote "Marc" (game of 3 November).
    games = [
        game(datetime(2026, 11, 1), ["Marco", "Jean"], [[0], [9]], ["Marco"], variant="les-huit", low=False),
        game(datetime(2026, 11, 3), ["Marc", "Jean"], [[0], [9]], ["Marc"]),
    ]
    merged = standings.merged(games, {"marco": "marc"})
    names = standings.spellings(merged)
    # Under the les-huit filter only Marco's game is left: still « Marc », the group's spelling.
    lines = standings.table(standings.of_variant(merged, "les-huit"), names)
    assert [line.name for line in lines] == ["Marc", "Jean"]


def test_people_are_listed_once_by_the_group_s_last_spelling():
    # (name as stored, games, last played): "a person is one across spellings"; Marco is merged into Marc.
    uses = [
        ("Jean", 3, datetime(2026, 11, 1)),
        ("jean", 1, datetime(2026, 11, 20)),  # the group's last spelling of Jean
        ("Elodie", 2, datetime(2026, 11, 25)),  # Élodie's last spelling
        ("Élodie", 2, datetime(2026, 11, 2)),
        ("Marc", 1, datetime(2026, 11, 28)),
        ("Marco", 4, datetime(2026, 10, 1)),
        ("Ana", 1, datetime(2026, 1, 1)),
    ]
    # Games: Marc 1 + 4 = 5, Jean 3 + 1 = 4, Élodie 2 + 2 = 4 (jean before Elodie by name), Ana 1.
    assert standings.people(uses, {"marco": "marc"}) == ["Marc", "Elodie", "jean", "Ana"]
    assert standings.people(uses, {"marco": "marc"}, limit=2) == ["Marc", "Elodie"]


def test_the_season_covers_every_player_and_no_month_to_come():
    # Eight players in 2026, on 29 November: Ana won 3 (Jan, Mar, Nov), Bob 1 (Feb), the six
    # others none (Chloé, Dan, Eve, Fred, Gus, Hugo).
    others = ["Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo"]
    games = [
        game(datetime(2026, 1, 5), ["Ana", "Bob", "Chloé", "Dan"], [[0], [5], [6], [7]], ["Ana"]),
        game(datetime(2026, 2, 5), ["Bob", "Eve", "Fred"], [[0], [5], [6]], ["Bob"]),
        game(datetime(2026, 3, 5), ["Ana", "Gus", "Hugo"], [[0], [5], [6]], ["Ana"]),
        game(datetime(2026, 11, 20), ["Ana", "Bob"], [[0], [5]], ["Ana"]),
    ]
    season = standings.season(games, datetime(2026, 11, 29, 18, 0))
    # "Every player of the period": all eight, most wins first, then by name.
    assert season.persons == ("ana", "bob", *(person(n) for n in others))
    # "Never a month to come": January to November, eleven counts; December is not drawn.
    assert season.wins["ana"] == (1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3)
    assert season.wins["bob"] == (0,) + (1,) * 10
    assert season.wins["hugo"] == (0,) * 11

"""A club night's ranking counts the group's merges (two spellings the owner said are one
person), as the group's standings do; and whether points count against comes from the night's
rules, not from its games.

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0, every
other player their hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20); the lowest total wins the table.
"""

from __future__ import annotations

from models.services.games import MancheEntry
from tests.e2e.test_groups import cells, make_group, page, phone


def ranked(client, url: str) -> list[tuple]:
    """The night's ranking as the page (or its live part) shows it: (place, name, wins, points)."""
    rows = cells(page(client, url), "night-ranking")
    return [(row["place"].split()[0], name, row["wins"], row["points"]) for name, row in rows.items()]


def test_a_merge_of_two_spellings_counts_in_the_night_ranking_and_undoing_it_parts_them(app):
    client = phone(app)
    group_id = make_group(client)
    groups, nights, games = app.extensions["groups"], app.extensions["nights"], app.extensions["games"]
    night_id, _ = nights.start(group_id, "Mardi soir", "classique", None, 1, [["Ana", "Zoé"], ["Bob", "Chloé"]], "k")
    one, two = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(one, MancheEntry("Zoé", {"Ana": ["3C"]}))  # Zoé 0 (wins), Ana 3
    games.record_manche(two, MancheEntry("Bob", {"Chloé": ["KD"]}))  # Bob 0 (wins), Chloé 10
    nights.next_round(nights.state(night_id).night, 2, [["Zozo", "Bob"], ["Ana", "Chloé"]])
    three, four = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(three, MancheEntry("Bob", {"Zozo": ["2S"]}))  # Bob 0 (wins), Zozo 20
    games.record_manche(four, MancheEntry("Ana", {"Chloé": ["3C"]}))  # Ana 0 (wins), Chloé 3

    # Apart: Bob 2 wins 0 points; Zoé 1 win 0; Ana 1 win 3; Chloé 0 wins 13; Zozo 0 wins 20.
    apart = [("1", "Bob", "2", "0"), ("2", "Zoé", "1", "0"), ("3", "Ana", "1", "3"), ("4", "Chloé", "0", "13"),
             ("5", "Zozo", "0", "20")]  # fmt: skip
    assert ranked(client, f"/nights/{night_id}") == apart
    assert ranked(client, f"/nights/{night_id}/live") == apart

    # The owner says Zozo is Zoé: one person, 1 win and 0 + 20 = 20 points over two tables, shown by
    # the spelling the night played last (turn 2's « Zozo »): behind Ana (1 win, 3 points).
    owner_id = next(m.id for m in groups.members(group_id) if m.owner)
    groups.merge(group_id, "zozo", "zoe", by=owner_id)
    merged = [("1", "Bob", "2", "0"), ("2", "Ana", "1", "3"), ("3", "Zozo", "1", "20"), ("4", "Chloé", "0", "13")]
    assert ranked(client, f"/nights/{night_id}") == merged
    assert ranked(client, f"/nights/{night_id}/live") == merged  # the live part kept before is not shown
    watch_id = groups.group(group_id).watch_id
    assert ranked(phone(app), f"/w/{watch_id}/nights/{night_id}/live") == merged

    (alias,) = groups.aliases(group_id)
    groups.unmerge(group_id, alias.id, by=owner_id)
    assert ranked(client, f"/nights/{night_id}/live") == apart


def test_points_count_for_or_against_as_the_nights_rules_say(app):
    """Les huit is played in winner mode (the winner scores the others' cards): the most points
    rank first, said before any manche is played; classique counts points against."""
    client = phone(app)
    group_id = make_group(client)
    nights = app.extensions["nights"]
    winner, _ = nights.start(group_id, "Huit", "les-huit", None, 1, [["Ana", "Bob"]], "k1")
    penalty, _ = nights.start(group_id, "Classique", "classique", None, 1, [["Ana", "Bob"]], "k2")
    assert "then the most points" in page(client, f"/nights/{winner}")
    assert "then the fewest points" in page(client, f"/nights/{penalty}")


def test_the_players_present_are_each_person_once(app):
    """« Zoé », « zoe » and « ZOE » are one person (as in the standings): the first spelling is kept."""
    client = phone(app)
    group_id = make_group(client)
    query = "players=Zo%C3%A9&players=zoe&players=+ZOE+&players=Ana&tables=1&variant=classique"
    text = page(client, f"/groups/{group_id}/nights/new?{query}")
    assert text.count('data-seat="') == 2 and 'data-seat="Zoé"' in text and 'data-seat="Ana"' in text

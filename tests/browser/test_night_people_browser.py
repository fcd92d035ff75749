"""A club night's people, in Chromium at 360 px (light and dark) and 320 px: « Joueurs présents »
lists each person once by the group's last spelling (case, accents and a merge followed), the next
turn seated « en évitant les adversaires déjà rencontrés » where the ranking's seating repeats
both tables, and a ranking per table played that is fair to a player who left after one table —
each whole on the phone (no text cut, no sideways scroll, no accessibility violation).
Screenshots under test-artifacts/.

Classique in penalty mode, one manche a game: the player who goes out scores 0, the others their
hand (SPEC §2: 3♣ = 3, 9♣ = 9, K♦ = 10, 2♠ = 20).
"""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry
from tests.browser.test_group_kinds_browser import played
from tests.browser.test_group_screens import make_group
from tests.browser.test_groups_browser import no_sideways_scroll
from tests.browser.test_night_end_browser import nothing_cut
from tests.browser.test_nights_browser import no_violations, seats

SIZES = [(360, 780, "light"), (360, 780, "dark"), (320, 640, "light")]


def looks_whole(page, shot, name: str) -> None:
    no_sideways_scroll(page)
    nothing_cut(page)
    no_violations(page)
    shot(name, page)


def a_night(app, page, base: str, seating) -> tuple[str, list[str]]:
    """A group made on ``page``'s phone and its night « Mardi soir » of one manche a table: the
    night's id and its tables' game ids."""
    group_id = make_group(page, base, "Mardi").rsplit("/", 1)[1]
    nights = app.extensions["nights"]
    night_id, _ = nights.start(group_id, "Mardi soir", "classique", None, 1, seating, "k")
    return night_id, [t.game_id for t in nights.state(night_id).current]


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_players_present_are_each_person_once_by_the_last_spelling(live_server, phone, shot, width, height, scheme):
    base, app = live_server.url, live_server.app
    page = phone(width, height, scheme=scheme)
    group_url = make_group(page, base)
    group_id = group_url.rsplit("/", 1)[1]
    # Jean, jean, Elodie, Élodie, Marco then Marc: three persons, the last spellings Jean, Élodie, Marc.
    played(app, group_id, datetime(2026, 3, 1), "classique", ["Elodie", "Jean"], [("Elodie", {"Jean": ["3C"]})])
    played(app, group_id, datetime(2026, 6, 1), "classique", ["Élodie", "jean", "Marco"],
           [("Marco", {"jean": ["3C"], "Élodie": ["4C"]})])  # fmt: skip
    played(app, group_id, datetime(2026, 9, 1), "classique", ["Élodie", "Jean", "Marc"],
           [("Marc", {"Jean": ["3C"], "Élodie": ["4C"]})])  # fmt: skip
    page.goto(group_url)
    page.get_by_label("Garder", exact=True).select_option("Marc")
    page.get_by_label("Compter comme la même personne").select_option("Marco")
    page.get_by_role("button", name="Voir la fusion").click()
    page.get_by_role("button", name="Les fusionner").click()
    expect(page.locator("[data-merge]")).to_contain_text("Marc")

    page.goto(f"{base}/groups/{group_id}/nights")
    present = page.locator('.night-players input[type="checkbox"] + label')
    expect(present).to_have_count(3)
    assert sorted(present.all_inner_texts()) == ["Jean", "Marc", "Élodie"]
    looks_whole(page, shot, f"present-{width}-{scheme}")
    # Ticked, each person is seated under the group's last spelling.
    for name in ("Élodie", "Jean", "Marc"):
        page.get_by_label(name, exact=True).check()
    page.fill("#night-tables", "1")
    page.get_by_role("button", name="Proposer les places").click()
    expect(page.locator("select[data-seat]")).to_have_count(3)
    assert sorted(s.get_attribute("data-seat") for s in page.locator("select[data-seat]").all()) == [
        "Jean", "Marc", "Élodie"
    ]  # fmt: skip
    looks_whole(page, shot, f"seated-{width}-{scheme}")


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_the_next_turn_avoids_opponents_met(live_server, phone, shot, width, height, scheme):
    base, app = live_server.url, live_server.app
    ana = phone(width, height, scheme=scheme)
    night_id, (one, two) = a_night(app, ana, base, [["Ana", "Dan"], ["Chloé", "Bob"]])
    games = app.extensions["games"]
    games.record_manche(one, MancheEntry("Ana", {"Dan": ["KD", "2S"]}))  # Ana 0 wins; Dan 30
    games.record_manche(two, MancheEntry("Chloé", {"Bob": ["3C"]}))  # Chloé 0 wins; Bob 3
    met = {frozenset({"Ana", "Dan"}), frozenset({"Chloé", "Bob"})}

    # The ranking is Ana, Chloé (a table won, 0), Bob (3), Dan (30): spread over two tables, the
    # strongest with the weakest, it seats turn 1's two tables again.
    ana.goto(f"{base}/nights/{night_id}")
    ana.fill("#next-tables", "2")
    ana.check("#method-spread")
    ana.get_by_role("button", name="Proposer", exact=True).click()
    expect(ana.locator("#method-spread")).to_be_checked()
    assert {frozenset(table) for table in seats(ana)} == met

    ana.check("#method-fresh")
    ana.get_by_role("button", name="Proposer", exact=True).click()
    expect(ana.locator("#method-fresh")).to_be_checked()
    expect(ana.locator("#method-fresh + label")).to_have_text("en évitant les adversaires déjà rencontrés")
    fresh = seats(ana)
    assert len(fresh) == 2 and all(len(table) == 2 for table in fresh), fresh
    assert not {frozenset(table) for table in fresh} & met, fresh
    looks_whole(ana, shot, f"fresh-{width}-{scheme}")
    ana.get_by_role("button", name="Lancer le tour 2").click()
    expect(ana.locator("[data-turn]")).to_have_text("Tour 2")
    for number, table in enumerate(fresh, start=1):
        expect(ana.locator(f'[data-table="{number}"] tbody [data-side]')).to_have_count(2)
        for name in table:
            expect(ana.locator(f'[data-table="{number}"] [data-side="{name}"]')).to_have_count(1)
    looks_whole(ana, shot, f"turn-2-{width}-{scheme}")


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_a_ranking_per_table_played_is_fair_to_a_player_who_left(live_server, phone, shot, width, height, scheme):
    base, app = live_server.url, live_server.app
    ana = phone(width, height, scheme=scheme)
    night_id, (one, two) = a_night(app, ana, base, [["Ana", "Bob"], ["Chloé", "Dan"]])
    games, nights = app.extensions["games"], app.extensions["nights"]
    games.record_manche(one, MancheEntry("Ana", {"Bob": ["2S"]}))  # Ana 0 wins; Bob 20
    games.record_manche(two, MancheEntry("Chloé", {"Dan": ["3C"]}))  # Chloé 0 wins; Dan 3

    # Dan leaves after one table; turn 2 seats the three others at one table.
    ana.goto(f"{base}/nights/{night_id}")
    ana.get_by_role("button", name="Départ de Dan").click()
    expect(ana.locator('[data-person="Dan"] [data-gone]')).to_have_text("a quitté")
    ana.fill("#next-tables", "1")
    ana.get_by_role("button", name="Proposer", exact=True).click()
    expect(ana.locator("#next-seating select[data-seat]")).to_have_count(3)
    ana.get_by_role("button", name="Lancer le tour 2").click()
    expect(ana.locator("[data-turn]")).to_have_text("Tour 2")
    (three,) = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(three, MancheEntry("Bob", {"Ana": ["KD"], "Chloé": ["9C"]}))  # Bob 0 wins; Ana 10, Chloé 9

    # By total (wins, then points): Chloé 1 and 9, Ana 1 and 10, Bob 1 and 20, Dan 0 and 3. Per
    # table played: Dan 3 over 1 table = 3; Chloé 9 / 2 = 4,5; Ana 10 / 2 = 5; Bob 20 / 2 = 10.
    rows = ana.locator("[data-night-ranking] tbody tr")
    expect(rows.first).to_have_attribute("data-person", "Chloé", timeout=15_000)
    ana.locator("#ranking-method").select_option("points_per_table")
    ana.get_by_role("button", name="Classer ainsi").click()
    expect(ana.locator("[data-ranked-by]")).to_have_attribute("data-ranked-by", "points_per_table")
    expect(rows.first).to_have_attribute("data-person", "Dan")
    assert [r.get_attribute("data-person") for r in rows.all()] == ["Dan", "Chloé", "Ana", "Bob"]
    assert rows.locator("[data-per-table]").all_inner_texts() == ["3", "4,5", "5", "10"]
    expect(rows.first.locator("[data-tables]")).to_have_text("1 table")
    looks_whole(ana, shot, f"per-table-{width}-{scheme}")

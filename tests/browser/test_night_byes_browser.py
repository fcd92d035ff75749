"""A club night with a bye and a player leaving, on a phone at 360 px (light) and one at 320 px
(dark): turn 2 asked at one table seats five of six, the sixth shown « exempt de ce tour »; once it
is started, the ranking counts the bye; Bob leaves (« Départ »), heard by the other phone's open
page without a reload, and the next turn seats him no more — all whole on both phones (no text
cut, no sideways scroll, no accessibility violation).

Classique in penalty mode, one manche a game: the player who goes out scores 0, the others their
hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20); the night ranks tables won first, then fewest points.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry
from tests.browser.conftest import open_listening
from tests.browser.test_groups_browser import no_sideways_scroll
from tests.browser.test_night_end_browser import nothing_cut
from tests.browser.test_nights_browser import LIVE, make_group_of_four, no_violations


@pytest.mark.slow
def test_a_bye_and_a_player_leaving_on_two_phones(live_server, phone, shot):
    base, app = live_server.url, live_server.app
    ana, dan = phone(360, 780), phone(320, 640, scheme="dark")
    group_url = make_group_of_four(base, ana, ((dan, "Dan"),))
    nights, games = app.extensions["nights"], app.extensions["games"]
    seating = [["Ana", "Bob", "Chloé"], ["Dan", "Eve", "Fred"]]
    night_id, _ = nights.start(group_url.rsplit("/", 1)[1], "Mardi soir", "classique", None, 1, seating, "k")
    one, two = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(one, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]}))  # Ana 0, Bob 3, Chloé 10
    games.record_manche(two, MancheEntry("Dan", {"Eve": ["3C"], "Fred": ["2S"]}))  # Dan 0, Eve 3, Fred 20
    open_listening(dan, f"{base}/nights/{night_id}")

    # The ranking: Ana and Dan (a table won, 0), Bob and Eve (3), Chloé (10), Fred (20). One table
    # seats five: all have sat out no turn and played one table, so the last, Fred, sits out.
    ana.goto(f"{base}/nights/{night_id}")
    ana.fill("#next-tables", "1")
    ana.locator("[data-propose]").click()
    out = ana.locator("fieldset[data-byes] [data-bye]")
    expect(out).to_have_count(1)
    expect(out).to_contain_text("Fred")
    expect(ana.locator("fieldset[data-byes] legend")).to_have_text("Exempts de ce tour")
    no_sideways_scroll(ana)
    nothing_cut(ana)
    no_violations(ana)
    shot("bye-proposed-360", ana)
    ana.get_by_role("button", name="Lancer le tour 2").click()
    expect(ana.locator("[data-turn]")).to_have_text("Tour 2")
    expect(ana.locator('[data-person="Fred"] [data-byes]')).to_have_text("1 exemption")

    # Bob leaves: his line says so, he keeps his table; the next turn (five present, one table)
    # seats the five others, Fred again, nobody out.
    ana.get_by_role("button", name="Départ de Bob").click()
    expect(ana.locator('[data-person="Bob"] [data-gone]')).to_have_text("a quitté")
    expect(ana.locator('[data-person="Bob"] [data-tables]')).to_have_text("2 tables")
    seated = ana.locator("#next-seating [data-seat]")
    expect(seated).to_have_count(5)
    expect(ana.locator('#next-seating [data-seat="Bob"]')).to_have_count(0)
    expect(ana.locator("fieldset[data-byes]")).to_have_count(0)
    expect(ana.get_by_role("button", name="Retour de Bob")).to_be_visible()
    no_sideways_scroll(ana)
    nothing_cut(ana)
    no_violations(ana)
    shot("gone-360", ana)

    # Dan's open page hears turn 2 and Bob's departure without a reload.
    expect(dan.locator("[data-turn]")).to_have_text("Tour 2", timeout=LIVE)
    expect(dan.locator('[data-person="Bob"] [data-gone]')).to_have_text("a quitté", timeout=LIVE)
    expect(dan.locator('[data-person="Fred"] [data-byes]')).to_have_text("1 exemption")
    expect(dan.locator('#next-seating [data-seat="Bob"]')).to_have_count(0, timeout=LIVE)
    dan.locator("#ranking-method").select_option("points_per_table")
    dan.get_by_role("button", name="Classer ainsi").click()
    expect(dan.locator("[data-ranked-by]")).to_have_attribute("data-ranked-by", "points_per_table")
    no_sideways_scroll(dan)
    nothing_cut(dan)
    no_violations(dan)
    shot("gone-320-dark", dan)

"""A club night ended on a phone at 360 px (light) and read on one at 320 px (dark): « Terminer la
soirée » on the first, heard by the second's open page without a reload, the podium whole on both
(no text cut, no sideways scroll), the result sheet, and « Rouvrir la soirée », which brings the
next turn's form back on the second's open page without a reload.

Classique in penalty mode, one manche a game: the player who goes out scores 0, the others their
hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20); the night ranks tables won first, then fewest points.
"""

from __future__ import annotations

from playwright.sync_api import expect

from models.services.games import MancheEntry
from tests.browser.conftest import open_listening
from tests.browser.test_groups_browser import no_sideways_scroll
from tests.browser.test_nights_browser import LIVE, make_group_of_four, no_violations


def nothing_cut(page) -> None:
    """No element holding text wider than its box (the visually hidden ones, for screen readers, aside)."""
    cut = page.evaluate(
        """[...document.querySelectorAll('main *')].filter(e => e.childElementCount === 0
             && !e.closest('.sr') && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1).map(e => e.outerHTML.slice(0, 120))"""
    )
    assert cut == [], cut


def test_a_night_ended_shows_its_podium_whole_on_two_phones(live_server, phone, shot):
    base, app = live_server.url, live_server.app
    ana, dan = phone(360, 780), phone(320, 640, scheme="dark")
    group_url = make_group_of_four(base, ana, ((dan, "Dan"),))
    nights, games = app.extensions["nights"], app.extensions["games"]
    seating = [["Ana", "Bob"], ["Chloé", "Dan"]]
    night_id, _ = nights.start(group_url.rsplit("/", 1)[1], "Mardi soir", "classique", None, 1, seating, "k")
    one, two = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(one, MancheEntry("Ana", {"Bob": ["3C"]}))  # Ana 0, wins; Bob 3
    games.record_manche(two, MancheEntry("Chloé", {"Dan": ["KD", "2S"]}))  # Chloé 0, wins; Dan 30

    open_listening(dan, f"{base}/nights/{night_id}")  # Dan's phone keeps the night's page open
    ana.goto(f"{base}/nights/{night_id}")
    ana.get_by_role("button", name="Terminer la soirée").click()
    podium = ana.locator("[data-podium] li")
    # Ana and Chloé tied first (a table won, 0 points), Bob third (3 points); Dan (30) is fourth.
    expect(podium).to_have_count(3)
    expect(podium.nth(0)).to_contain_text("Ana")
    expect(podium.nth(2)).to_contain_text("Bob")
    expect(podium.nth(2)).to_contain_text("0 table gagnée · 3 points")
    expect(ana.get_by_role("button", name="Lancer le tour 2")).to_have_count(0)
    no_sideways_scroll(ana)
    nothing_cut(ana)
    no_violations(ana)
    shot("ended-360", ana)

    # Dan's page hears the end at its stream's next look, without a reload.
    expect(dan.locator("[data-podium] li")).to_have_count(3, timeout=LIVE)
    expect(dan.get_by_role("button", name="Terminer la soirée")).to_have_count(0)
    no_sideways_scroll(dan)
    nothing_cut(dan)
    shot("ended-320-dark", dan)

    dan.get_by_role("link", name="Feuille de résultats (à imprimer)").click()
    expect(dan.get_by_role("heading", name="Classement final")).to_be_visible()
    expect(dan.locator("[data-sheet-table]")).to_have_count(2)
    no_sideways_scroll(dan)
    shot("sheet-320-dark", dan)

    open_listening(dan, f"{base}/nights/{night_id}")  # Dan's page open on the ended night
    expect(dan.locator("#next-turn")).to_have_count(0)
    ana.get_by_role("button", name="Rouvrir la soirée").click()
    expect(ana.locator("[data-podium]")).to_have_count(0)
    expect(ana.get_by_role("button", name="Terminer la soirée")).to_be_visible()
    # Dan's page hears the night reopened: the next turn's form comes back without a reload.
    expect(dan.locator("[data-podium]")).to_have_count(0, timeout=LIVE)
    expect(dan.get_by_role("button", name="Lancer le tour 2")).to_be_visible(timeout=LIVE)
    expect(dan.get_by_role("button", name="Terminer la soirée")).to_be_visible()

"""The pages that fold or page a long history (issue 17): the game page with its last 20 rounds,
the paged history, the paged list of games, a player's page — axe finds nothing, nothing
scrolls sideways at 360 px, light and dark."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from models.services.games import MancheEntry

AXE = Axe()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_long_histories_fold_and_page_cleanly(live_server, page, shot, scheme):
    games = live_server.app.extensions["games"]
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    base = live_server.url
    long, _ = games.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    for _ in range(25):
        games.record_manche(long.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]}))
    others = [games.create_game("classique", ["Ana", "Bob"], rounds=3, first_dealer=0)[0] for _ in range(21)]
    for game in others:  # opened here: now among this browser's games
        page.goto(f"{base}/games/{game.id}")
    failures = []

    def audit(name: str):
        page.wait_for_load_state("load")
        results = AXE.run(page)
        if results.violations_count:
            failures.append(f"{name}: {results.generate_report()}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        shot(f"{scheme}-{name}")

    page.goto(f"{base}/games/{long.id}")
    expect(page.locator(".manche-row")).to_have_count(20)
    audit("game-folded")
    page.get_by_role("link", name="Voir les 5 manches précédentes").click()
    expect(page.locator(".manche-row")).to_have_count(5)
    audit("rounds-page-2")
    page.get_by_role("link", name="Voir les manches suivantes").click()
    expect(page.locator(".manche-row")).to_have_count(20)
    page.goto(f"{base}/games")
    expect(page.locator(".game-item")).to_have_count(20)
    audit("games-page-1")
    page.get_by_role("link", name="Page suivante").click()
    expect(page.locator(".game-item")).to_have_count(2)
    audit("games-page-2")
    page.goto(f"{base}/players/Bob")
    expect(page.get_by_role("link", name="Voir ses 22 parties")).to_be_visible()
    audit("player")
    assert not failures, "\n\n".join(failures)

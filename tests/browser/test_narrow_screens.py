"""Every page of the app at 320 px (the narrowest phone we aim at), light and dark: no sideways
scroll (the page is never wider than the screen; a wide table scrolls inside its own box), and
table headers never break inside a word ("Manch/e", "Ch/lo/é"; after a hyphen is a fair break)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .conftest import ARTIFACTS
from .test_games_flow import choose_winner, create_game, enter_manche, tap

NAMES = ["Marie-Éléonore", "Bob", "Chloé", "Dan", "Éloïse", "Fred", "Gaëlle", "Maximilien-Alexandre"]
WORDS_BROKEN = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("thead th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      // written upwards (names over narrow columns): a line is a column, told by its left edge
      const vertical = getComputedStyle(node.parentElement).writingMode.startsWith("vertical");
      let start = 0;
      for (const word of node.textContent.split(/[\\s-]/)) {
        const tops = new Set();
        for (let i = 0; i < word.length; i++) {
          const range = document.createRange();
          range.setStart(node, start + i);
          range.setEnd(node, start + i + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width) tops.add(Math.round(vertical ? rect.left : rect.top));
        }
        if (tops.size > 1) broken.push(word);
        start += word.length + 1;
      }
    }
  }
  return broken;
}"""


def every_page(page, live_server) -> tuple[str, list[str]]:
    """Games of 8 players with long names, of 2 players of 16-character names (issue 30), of teams,
    each with manches, and a house variant: every page a phone may open, and the game's id."""
    base = live_server.url
    games = live_server.app.extensions["games"]
    game_url = create_game(page, base, NAMES, "huit-americain")
    game_id = game_url.rsplit("/", 1)[1]
    for winner in (NAMES[0], NAMES[7], NAMES[3]):
        others = {name: 7 + len(name) for name in NAMES if name != winner}
        games.record_manche(game_id, MancheEntry(winner, {}, typed=others))
    # two players with 16-character names (issue 30): their page and their entry
    pair = ["Marie-Antoinette", "Jean-Christophe"]
    pair_url = create_game(page, base, pair, "classique")
    games.record_manche(pair_url.rsplit("/", 1)[1], MancheEntry(pair[0], {}, typed={pair[1]: 23}))
    teams_url = create_game(page, base, ["Ana", "Bob", "Chloé", "Dan"], "les-huit")
    games.record_manche(teams_url.rsplit("/", 1)[1], MancheEntry("Ana", {}, typed={"Bob": 12, "Dan": 3}))
    page.goto(f"{base}/variants/new?base=classique")
    page.locator("#house-name").fill("Les règles de la maison Dupont-Lefèvre")
    page.locator('.form-actions button[value="save"]').click()
    expect(page).to_have_url(re.compile(r"/variants/h[0-9a-f]{16}$"))
    house = page.url.removeprefix(base)
    share_id = games.get(game_id).share_id

    paths = [
        "/",
        "/games/new",
        "/games/new?variant=les-huit",
        f"/games/{game_id}",
        f"/games/{game_id}?share=1",
        f"/games/{game_id}/manches/new",
        f"/games/{game_id}/manches/1/edit",
        f"/games/{game_id}/referee",
        f"/games/{game_id}/rules",
        teams_url.removeprefix(base),
        pair_url.removeprefix(base),
        f"{pair_url.removeprefix(base)}/manches/new",
        f"/s/{share_id}",
        "/games",
        f"/games?player={NAMES[0]}",
        f"/players/{NAMES[7]}",
        "/games/import",
        "/calculette",
        "/calculette?variant=54-cartes",
        "/rules",
        *(f"/rules/{variant}" for variant in live_server.app.extensions["catalog"].variants),
        "/rules/compare",
        "/rules/compare/all",
        "/rules/search?q=que+fait+le+8",
        "/referee",
        "/variants/new?base=classique",
        house,
        f"{house}/edit",
        "/games/no-such-game",
    ]
    return game_id, paths


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_scrolls_sideways_at_320_px(live_server, browser, request, scheme):
    context = browser.new_context(
        viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True, locale="fr-FR", color_scheme=scheme
    )
    page = context.new_page()
    base = live_server.url
    try:
        game_id, paths = every_page(page, live_server)
        wide, broken = {}, {}
        for path in paths:
            page.goto(base + path)
            page.wait_for_load_state("load")
            scroll_width, client_width = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if scroll_width > client_width:
                wide[path] = scroll_width
            if words := page.evaluate(WORDS_BROKEN):
                broken[path] = words
        # the invite just made (its QR code and address), shown on a page of its own without htmx
        page.goto(f"{base}/games/{game_id}?share=1")
        page.locator("#invites button[type=submit]").click()
        expect(page.locator(".invite-url")).to_be_visible()
        if page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth"):
            wide["invite"] = page.evaluate("document.documentElement.scrollWidth")
        page.goto(f"{base}/games/{game_id}")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-game.png"), full_page=True)
        assert not wide, f"wider than 320 px: {wide}"
        assert not broken, f"words broken in table headers: {broken}"
        assert len(paths) >= 30
    finally:
        context.close()


def test_a_key_s_count_never_covers_its_face_at_320_px(live_server, phone):
    """At 320 px a key is about 45 px wide: the « ×1 » of the 10 key (the widest face) stays clear
    of its « 10 », and of the points under it."""
    page = phone(320, 640)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique")
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "10")
    key = page.locator('#keypad [data-token="10"] button[data-step="1"]')
    expect(key.locator("[data-count]")).to_have_text("1")
    page.locator("#keypad").screenshot(path=ARTIFACTS / "keypad-320-count.png")
    badge = key.locator(".in-hand").bounding_box()
    for part in (key.locator(".face"), key.locator("small")):
        box = part.bounding_box()
        apart = (
            badge["x"] >= box["x"] + box["width"]
            or box["x"] >= badge["x"] + badge["width"]
            or badge["y"] >= box["y"] + box["height"]
            or box["y"] >= badge["y"] + badge["height"]
        )
        assert apart, f"the count {badge} covers {box}"

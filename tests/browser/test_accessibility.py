"""axe-core finds no violation on the pages a table uses, in light and in dark colour scheme."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .test_games_flow import subtotal, tap, type_total

AXE = Axe()


class Audit:
    """Runs axe on the page as it is now and keeps every violation, by page name."""

    def __init__(self, page, shot, scheme: str):
        self.page, self.shot, self.scheme = page, shot, scheme
        self.reports: dict[str, str] = {}
        self.checked: list[str] = []

    def __call__(self, name: str):
        self.page.wait_for_load_state("load")
        results = AXE.run(self.page)
        self.checked.append(name)
        if results.violations_count:
            self.reports[name] = f"{self.page.url}\n{results.generate_report()}"
        self.shot(f"{self.scheme}-{name}")


def new_game_with_its_error(page, base: str, audit) -> str:
    """The new-game form, refused (one player) then made (three): each audited, and the home page
    that offers to resume it. The game's address."""
    page.goto(base + "/games/new")
    audit("new-game")
    page.locator("#player-0").fill("Ana")
    page.locator("#game-settings button.primary").click()
    expect(page.locator("#err-players, .error").first).to_be_visible()
    audit("new-game-error")
    page.locator("#player-1").fill("Bob")
    page.locator("#player-2").fill("Chloé")
    page.locator("#game-settings button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    game_url = page.url
    audit("game-new")
    page.goto(base + "/")
    expect(page.locator(".resume-link")).to_have_count(1)  # "Resume" this game
    audit("home-resume")
    page.goto(game_url)
    return game_url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation(live_server, page, shot, scheme):
    page.emulate_media(color_scheme=scheme)
    audit = Audit(page, shot, scheme)
    base = live_server.url

    page.goto(base + "/")
    audit("home")
    page.goto(base + "/calculette?variant=classique")
    page.locator('[data-token="8"] button[data-step="1"]').click()
    audit("calculette")

    game_url = new_game_with_its_error(page, base, audit)
    # The manche form, filled in: a winner chosen (its keypad folded), cards tapped.
    page.get_by_role("link", name="Saisir la manche 1").click()
    page.locator('label[for="winner-0"]').click()
    tap(page, 1, "8 JK K")
    tap(page, 2, "Q 3")
    expect(subtotal(page, 1)).to_have_text("110")
    audit("manche-form")
    page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page.locator(".notice")).to_be_visible()
    page.locator(".manche-detail summary").first.click()  # the hands of manche 1, open
    audit("game-with-manches")

    page.goto(f"{game_url}/manches/1/edit")
    expect(page.locator('input[name="p1-n_JK"]')).to_have_value("1")
    audit("edit-form")

    # A refusal shown next to its field: no winner chosen.
    page.goto(f"{game_url}/manches/new")
    tap(page, 0, "3")
    page.get_by_role("button", name="Enregistrer la manche 2").click()
    expect(page.locator("form .error").first).to_be_visible()
    audit("manche-form-error")

    # Bob reaches 500: the game is over.
    page.goto(f"{game_url}/manches/new")
    page.locator('label[for="winner-2"]').click()
    tap(page, 0, "5")
    type_total(page, 1, "400")  # 110 + 400 = 510
    page.get_by_role("button", name="Enregistrer la manche 2").click()
    expect(page.locator("#final-title")).to_be_visible()
    audit("game-finished")

    assert len(audit.checked) == 11
    assert not audit.reports, "\n\n".join(f"== {name} ({scheme})\n{report}" for name, report in audit.reports.items())


def test_keypad_stays_readable_next_to_a_typed_total(live_server, page):
    page.goto(live_server.url + "/games/new")
    for seat, name in enumerate(["Ana", "Bob"]):
        page.locator(f"#player-{seat}").fill(name)
    page.locator("#game-settings button.primary").click()
    page.get_by_role("link", name="Saisir la manche 1").click()
    page.locator('label[for="winner-0"]').click()
    type_total(page, 1, "30")
    results = AXE.run(page, context="#keypad")
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_the_referee_pages(live_server, page, shot, scheme):
    """The rule pages, the search, the comparison and the dispute checker with a verdict."""
    page.emulate_media(color_scheme=scheme)
    audit = Audit(page, shot, scheme)
    base = live_server.url
    for name, path in [
        ("rules-index", "/rules"),
        ("rules-classique", "/rules/classique"),
        ("rules-les-huit", "/rules/les-huit"),
        ("rules-compare", "/rules/compare"),
        ("rules-search", "/rules/search?q=que+fait+le+7"),
        ("referee", "/referee"),
    ]:
        page.goto(base + path)
        audit(name)
    page.goto(base + "/referee")
    page.locator(".referee-form button[type=submit]").click()  # nothing picked: the error state
    audit("referee-error")
    for side, rank, suit in (("top", "3", "H"), ("card", "8", "C")):
        page.locator(f'label[for="{side}-rank-{rank}"]').click()
        page.locator(f'label[for="{side}-suit-{suit}"]').click()
    page.locator(".referee-form button[type=submit]").click()
    expect(page.locator(".verdict.legal")).to_be_visible()  # an 8 goes on anything
    audit("referee-verdict")
    assert not audit.reports, "\n\n".join(audit.reports.values())

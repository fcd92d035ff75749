"""A club season read on phones: the championship of three ended nights (``tests/e2e/test_season.py``,
worked out there by hand) on the group's page at 360 px (light) and 320 px (dark) — whole, no text
cut, no sideways scroll, no accessibility violation (axe, on the phone that runs JavaScript) — and another scale and the best two nights
asked through its form, which works without JavaScript.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_groups_browser import no_sideways_scroll
from tests.browser.test_night_end_browser import nothing_cut
from tests.browser.test_nights_browser import make_group_of_four, no_violations
from tests.e2e.test_season import BEST_TWO, NIGHTS, PLACES_SUM, SEASON, TODAY, play


def season_shot(shot, page, name: str) -> None:
    """The whole page, and the championship alone (to be looked at)."""
    path = shot(name, page)
    page.locator("[data-championship]").screenshot(path=str(path.with_name(path.stem + "-part.png")))


def season_rows(page) -> list[tuple]:
    rows = page.locator("[data-season] tbody tr")
    return [
        (int(row.locator("[data-place]").inner_text().split()[0].rstrip("=")), row.locator("th").inner_text(),
         int(row.locator("[data-total]").inner_text()))
        for row in rows.all()
    ]  # fmt: skip


def test_a_club_season_reads_whole_on_two_phones(live_server, phone, shot):
    base, app = live_server.url, live_server.app
    app.extensions["clock"] = lambda: TODAY
    ana, dan = phone(360, 780), phone(320, 640, scheme="dark", js=False)
    group_url = make_group_of_four(base, ana, ((dan, "Dan"),))
    group_id = group_url.rsplit("/", 1)[1]
    for number, night in enumerate(NIGHTS, start=1):
        app.extensions["nights"].end(play(app, group_id, number, night))

    ana.goto(group_url + "#season")
    expect(ana.get_by_role("heading", name="Championnat des soirées")).to_be_visible()
    assert season_rows(ana) == [(place, name, points) for place, name, points, _played in SEASON]
    # The scale is never broken after one of its dashes (a word joiner follows each).
    expect(ana.locator("[data-season-rule]")).to_contain_text(
        "10-\u20608-\u20606-\u20605-\u20604-\u20603-\u20602-\u20601"
    )
    no_sideways_scroll(ana)
    nothing_cut(ana)
    no_violations(ana)
    season_shot(shot, ana, "season-360")

    # Dan's phone, 320 px, dark, no JavaScript: the sum of places, the best two nights.
    dan.goto(group_url)  # a new page (the one it joined on is this address)
    dan.get_by_label("Points par place").select_option("places")
    dan.get_by_role("button", name="Afficher").last.click()
    expect(dan.locator("[data-season-rule]")).to_contain_text("moins, c'est mieux")
    assert season_rows(dan) == PLACES_SUM
    no_sideways_scroll(dan)
    nothing_cut(dan)
    season_shot(shot, dan, "season-places-320-dark")
    dan.get_by_label("Points par place").select_option("10-8-6-5-4-3-2-1")
    dan.get_by_label("Meilleures soirées comptées").fill("2")
    dan.get_by_role("button", name="Afficher").last.click()
    assert season_rows(dan) == BEST_TWO
    expect(dan.locator("[data-season] tr[data-person='Ana'] [data-nights]")).to_have_text("2 sur 3")
    no_sideways_scroll(dan)
    nothing_cut(dan)
    season_shot(shot, dan, "season-best-320-dark")

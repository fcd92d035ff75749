"""A group's standings in Chromium at 360 px (light and dark) and 320 px (#55 items 4 and 7):
penalty points and points won in two tables that say their kind, a merge that holds under a
variant filter, the season's chart with every player of the year and no month to come (the app's
clock set to 29 November 2026), and a club night's players present, each person once. Screenshots under test-artifacts/.

Classique scores penalty points (« the manche's winner scores 0, the others the cards left in
their hand; the lowest total wins »); les-huit points won (« the winner scores the others'
cards », standard table: K 10, 7 7, 8 50; the highest total wins).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from sqlalchemy import update

from models.services.db import Game
from models.services.games import MancheEntry

from .test_groups_browser import no_sideways_scroll

AXE = Axe()
SIZES = [(360, 780, "light"), (360, 780, "dark"), (320, 640, "light")]
TODAY = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def played(app, group_id, when, variant, players, manches) -> None:
    games = app.extensions["games"]
    game, _token = games.create_game(variant, list(players), rounds=len(manches), first_dealer=0, group=group_id)
    for winner, hands in manches:
        games.record_manche(game.id, MancheEntry(winner, hands))
    with app.extensions["database"].writer.begin() as connection:
        connection.execute(update(Game).where(Game.id == game.id).values(created_at=when.replace(tzinfo=UTC)))


def eight_players(app) -> str:
    """A group of 2026: eight persons over four games, Marco merged into Marc."""
    groups = app.extensions["groups"]
    group_id, _token = groups.create("Jeudis")
    # 10 February, classique: Ana goes out, Bob, Chloé, Dan keep 3♣, 4♣, 5♣: Ana wins.
    played(app, group_id, datetime(2026, 2, 10), "classique", ["Ana", "Bob", "Chloé", "Dan"],
           [("Ana", {"Bob": ["3C"], "Chloé": ["4C"], "Dan": ["5C"]})])  # fmt: skip
    # 5 March, les-huit: Marco goes out twice, Jean keeps K♣ 7♣ (17) then 8♣ (50): Marco 67, Jean 0.
    played(app, group_id, datetime(2026, 3, 5), "les-huit", ["Marco", "Jean"],
           [("Marco", {"Jean": ["KC", "7C"]}), ("Marco", {"Jean": ["8C"]})])  # fmt: skip
    # 1 June, classique: Eve goes out, Fred keeps 4♣ and Jean 3♣: Eve wins.
    played(app, group_id, datetime(2026, 6, 1), "classique", ["Eve", "Fred", "Jean"],
           [("Eve", {"Fred": ["4C"], "Jean": ["3C"]})])  # fmt: skip
    # 20 November, classique: Marc goes out (0), Jean keeps 3♣ (3); Jean goes out (0), Marc keeps
    # 9♣ (9): Jean 3 wins over Marc 9.
    played(app, group_id, datetime(2026, 11, 20), "classique", ["Marc", "Jean"],
           [("Marc", {"Jean": ["3C"]}), ("Jean", {"Marc": ["9C"]})])  # fmt: skip
    groups.merge(group_id, "marco", "marc", by=next(m.id for m in groups.members(group_id) if m.owner))
    return group_id


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_kinds_apart_a_merge_held_and_the_whole_season(live_server, phone, shot, width, height, scheme):
    app = live_server.app
    app.extensions["clock"] = lambda: TODAY
    group_id = eight_players(app)
    groups = app.extensions["groups"]
    invite = groups.create_invite(group_id, by=next(m.id for m in groups.members(group_id) if m.owner))
    page = phone(width, height, scheme=scheme)
    page.goto(f"{live_server.url}/groups/{group_id}/join/{invite}")
    page.fill("#join-phone", "Bob")
    page.get_by_role("button", name="Rejoindre la tablée").click()

    # Two tables of points, each saying its kind.
    penalty, won = page.locator('[data-rounds="penalty"]'), page.locator('[data-rounds="won"]')
    expect(page.get_by_role("heading", name="Points de pénalité\u00a0: moins, c'est mieux")).to_be_visible()
    expect(page.get_by_role("heading", name="Points gagnés\u00a0: plus, c'est mieux")).to_be_visible()
    # Penalty points: Jean 3 + 0 (Nov) + 3 (June) = 6 over 3 = 2,0; best 0, worst 3.
    expect(penalty.locator('tr[data-person="Jean"] [data-total]')).to_have_text("6")
    expect(penalty.locator('tr[data-person="Jean"] [data-average]')).to_have_text("2,0")
    # Points won: Marc (as Marco) 17 + 50 = 67 over 2 = 33,5; more is better: best 50, worst 17.
    marc = won.locator('tr[data-person="Marc"]')
    expect(marc.locator("[data-average]")).to_have_text("33,5")
    expect(marc.locator("[data-best]")).to_have_text("50")
    expect(marc.locator("[data-worst]")).to_have_text("17")
    # Every table in its box.
    for table in ("[data-standings]", '[data-rounds="penalty"]', '[data-rounds="won"]'):
        overflow = page.locator(table).evaluate("(t) => t.scrollWidth - t.parentElement.clientWidth")
        assert overflow <= 0, f"{table} is {overflow} px too wide at {width} px"

    # The season: all eight persons of 2026 (one win each for Ana, Eve, Jean, Marc, then the four
    # who won none, by name), and January to November only (29 November: December is to come).
    legend = page.locator(".stats-chart .legend-name")
    expect(legend).to_have_count(8)
    assert legend.all_inner_texts() == ["Ana (1)", "Eve (1)", "Jean (1)", "Marc (1)",
                                        "Bob (0)", "Chloé (0)", "Dan (0)", "Fred (0)"]  # fmt: skip
    points = page.locator(".season-line").first.get_attribute("points").split()
    assert len(points) == 11
    no_sideways_scroll(page)
    found = AXE.run(page)
    assert found.violations_count == 0, found.generate_report()
    path = shot(f"{width}-{scheme}", page)
    page.locator("#standings").screenshot(path=str(path).replace(".png", "-standings.png"))

    # Under the les-huit filter, the merged « Marco » does not come back.
    page.select_option("#standings-variant", "les-huit")
    page.get_by_role("button", name="Afficher").click()
    expect(page.locator("[data-standings] tbody tr")).to_have_count(2)
    expect(page.locator('[data-standings] tr[data-person="Marc"]')).to_be_visible()
    expect(page.locator('[data-person="Marco"]')).to_have_count(0)
    expect(page.locator('[data-rounds="penalty"]')).to_have_count(0)
    no_sideways_scroll(page)
    shot(f"{width}-{scheme}-les-huit", page)

    # A club night's « Joueurs présents »: each person once, by the group's last spelling, most
    # played first (Jean 3 games, Marc 2 as Marco then Marc), then by name.
    page.goto(f"{live_server.url}/groups/{group_id}/nights")
    present = page.locator('.night-players input[type="checkbox"] + label')
    expect(present).to_have_count(8)
    assert present.all_inner_texts() == ["Jean", "Marc", "Ana", "Bob", "Chloé", "Dan", "Eve", "Fred"]
    no_sideways_scroll(page)
    shot(f"{width}-{scheme}-present", page)

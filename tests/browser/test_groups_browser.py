"""A group (issue 42) on three phones at 360 px (light and dark) and one at 320 px: made on the
home page, joined by its link, a game of the group started on one phone and recorded from the
others, seen on all of them with its standings, and a phone removed and locked out at once."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

AXE = Axe()


def path_of(url: str) -> str:
    """The link's path (its host is the machine's LAN address: the test server listens on 127.0.0.1)."""
    return "/" + url.split("/", 3)[3]


def record(page, base: str, game_id: str, fields: dict) -> None:
    """Record a manche from ``page``'s phone: its entry's number and nonce, posted with its cookies."""
    page.goto(f"{base}/games/{game_id}/manches/new")
    form = {
        "number": page.locator("input[name=number]").first.input_value(),
        "nonce": page.locator("input[name=nonce]").first.input_value(),
        **fields,
    }
    response = page.context.request.post(f"{base}/games/{game_id}/manches", form=form, max_redirects=0)
    assert response.status == 303, response.text()


def no_sideways_scroll(page) -> None:
    """Nothing wider than the phone: on a phone, a page wider than its screen widens the layout
    viewport itself (``innerWidth``), so both are held to the screen's width."""
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert max(widths) <= page.viewport_size["width"], widths


@pytest.mark.slow
def test_a_group_on_four_phones(live_server, phone, shot):
    base = live_server.url
    ana, bob = phone(360, 780), phone(360, 780, scheme="dark")
    chloe, dan = phone(360, 780), phone(320, 640)

    ana.goto(base + "/")
    ana.fill("#group-name", "Dimanche")
    ana.get_by_role("button", name="Créer la tablée").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Dimanche")
    group_url = ana.url
    assert bob.goto(group_url).status == 404  # not a member: nothing to see

    ana.get_by_label("Autant qu'il en faut, jusqu'à ce que vous le révoquiez").check()  # a link for the whole table
    ana.get_by_role("button", name="Créer un lien d'invitation").click()
    link = path_of(ana.locator("[data-join-link]").inner_text())
    for member, name in ((bob, "Bob"), (chloe, "Chloé"), (dan, "Dan")):
        member.goto(base + link)
        member.fill("#join-phone", name)
        member.get_by_role("button", name="Rejoindre la tablée").click()
        expect(member.get_by_role("heading", level=1)).to_have_text("Dimanche")

    # Ana starts a game of the group: the form offers the group, chosen.
    ana.goto(group_url)
    ana.locator("[data-new-group-game]").click()
    expect(ana.locator("#game-group")).to_have_value(group_url.rsplit("/", 1)[1])
    for index, name in enumerate(("Ana", "Bob", "Chloé")):
        ana.fill(f"#player-{index}", name)
    ana.check("#end-rounds")
    ana.fill("#rounds", "2")
    ana.locator("#game-settings").get_by_role("button", name="Commencer la partie").click()
    ana.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = ana.url.rsplit("/", 1)[1]

    # Bob and Chloé record its manches from their own phones.
    record(bob, base, game_id, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    record(chloe, base, game_id, {"winner": "1", "p0-typed": "5", "p2-typed": "20"})

    check_every_phone(base, group_url, game_id, {"ana": ana, "bob": bob, "chloe": chloe, "dan": dan}, shot)
    lock_out(base, group_url, game_id, ana, bob, shot)


def check_every_phone(base, group_url, game_id, phones, shot):
    """Every member phone shows the game and the standings worked out by hand."""
    # Totals: Ana 0 + 5 = 5, Bob 30 + 0 = 30, Chloé 12 + 20 = 32: Ana wins the only game.
    # Ana: 1 played, 1 won, 100 %; manches 0 and 5: average 2.5, best 0, worst 5, run 1.
    # Bob: 1 played, 0 won; 30 and 0: average 15, best 0, worst 30. Chloé: 12 and 20: average 16 (shown « 16,0 », one decimal as the others).
    for name, member in phones.items():
        member.goto(group_url)
        standings = member.locator("[data-standings] tbody tr")
        expect(standings).to_have_count(3)
        expect(standings.nth(0)).to_contain_text("Ana")
        ana_row = member.locator('[data-rounds] tr[data-person="Ana"]')
        expect(ana_row.locator("[data-average]")).to_have_text("2,5")
        expect(ana_row.locator("[data-worst]")).to_have_text("5")
        expect(member.locator('[data-standings] tr[data-person="Bob"] [data-won]')).to_have_text("0")
        expect(member.locator('[data-rounds] tr[data-person="Chloé"] [data-average]')).to_have_text("16,0")
        expect(member.locator("[data-group-games]")).to_contain_text("Ana, Bob, Chloé")
        no_sideways_scroll(member)
        shot(f"group-{name}", member)
        found = AXE.run(member)
        assert found.violations_count == 0, found.generate_report()
        member.goto(base + "/games")
        expect(member.locator(f'a[href="/games/{game_id}"]')).to_have_count(1)


def lock_out(base, group_url, game_id, ana, bob, shot):
    """Ana removes Bob's phone: the group and its games are closed to it at once."""
    # Ana removes Bob's phone: the group and its games are closed to it at once.
    ana.goto(group_url)
    ana.get_by_role("button", name="Retirer Bob de la tablée").click()
    expect(ana.locator("[data-members]")).not_to_contain_text("Bob")
    assert bob.goto(group_url).status == 404
    second = ana.context.request.post(
        f"{base}/games",
        form={"variant": "classique", "shown_variant": "classique", "players": "Ana", "end": "target"},
        max_redirects=0,
    )
    assert second.status in (303, 422)
    bob.goto(f"{base}/games/{game_id}")
    expect(bob.locator("body")).not_to_contain_text("Nouvelle manche")
    shot("removed-bob", bob)

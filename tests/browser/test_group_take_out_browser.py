"""A game taken out of a group from its page, and put back by the notice's undo, in Chromium at
360 px (light and dark) and 320 px (#55 item 5): the button on the game's line, the notice that
says which game left and offers « Annuler », the game back in the list; no sideways scroll, no
accessibility fault; the group's score sheet, downloaded after, numbers the games left without a gap.
Screenshots under test-artifacts/."""

from __future__ import annotations

import csv
import io

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .test_group_screens import make_group, new_game
from .test_groups_browser import no_sideways_scroll

AXE = Axe()
SIZES = [(360, 780, "light"), (360, 780, "dark"), (320, 640, "light")]


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_a_game_taken_out_and_put_back(live_server, phone, shot, width, height, scheme):
    base = live_server.url
    ana = phone(width, height, scheme=scheme)
    group_url = make_group(ana, base)
    group_id = group_url.rsplit("/", 1)[1]
    kept = new_game(ana, base, ("Ana", "Bob"), group_id)
    # A manche of the kept game: Ana goes out, Bob keeps 3♣; the other game started by mistake.
    live_server.app.extensions["games"].record_manche(kept, MancheEntry("Ana", {"Bob": ["3C"]}))
    mistake = new_game(ana, base, ("Ana", "Chloé"), group_id)
    ana.goto(group_url)
    games = ana.locator("[data-group-games] > li")
    expect(games).to_have_count(2)

    ana.locator(f'form[action$="/games/{mistake}/out"] button').click()
    notice = ana.locator('[data-group-notice="out"]')
    expect(notice).to_contain_text("Partie retirée de la tablée\u00a0: Classique, Ana, Chloé.")
    expect(games).to_have_count(1)
    box = notice.get_by_role("button", name="Annuler").bounding_box()
    assert box["height"] >= 44  # a thumb's target
    no_sideways_scroll(ana)
    found = AXE.run(ana)
    assert found.violations_count == 0, found.generate_report()
    path = shot(f"{width}-{scheme}-out", ana)
    ana.locator("#games").screenshot(path=str(path).replace(".png", "-games.png"))

    notice.get_by_role("button", name="Annuler").click()
    expect(ana.locator('[data-group-notice="back"]')).to_contain_text(
        "Annulé\u00a0: la partie est de retour dans la tablée."
    )
    expect(games).to_have_count(2)
    no_sideways_scroll(ana)
    shot(f"{width}-{scheme}-back", ana)


@pytest.mark.parametrize(("width", "height", "scheme"), [(360, 780, "light"), (320, 640, "dark")])
def test_the_score_sheet_downloaded_after_a_game_taken_out_skips_no_number(
    live_server, phone, tmp_path, width, height, scheme
):
    """Three games of a manche each; the second, started by mistake, taken out from the page: the
    group's score sheet downloaded from the page numbers the two games left 1 and 2."""
    base, games = live_server.url, live_server.app.extensions["games"]
    ana = phone(width, height, scheme=scheme)
    group_url = make_group(ana, base)
    group_id = group_url.rsplit("/", 1)[1]
    made = [new_game(ana, base, players, group_id) for players in (("Ana", "Bob"), ("Ana", "Chloé"), ("Ana", "Dan"))]
    for game_id, other in zip(made, ("Bob", "Chloé", "Dan"), strict=True):
        games.record_manche(game_id, MancheEntry("Ana", {other: ["3C"]}))  # Ana goes out, the other keeps 3♣
    ana.goto(group_url)
    ana.locator(f'form[action$="/games/{made[1]}/out"] button').click()
    expect(ana.locator('[data-group-notice="out"]')).to_contain_text("Ana, Chloé")
    expect(ana.locator("[data-group-games] > li")).to_have_count(2)
    no_sideways_scroll(ana)

    with ana.expect_download() as download:
        ana.locator('[data-export="csv"]').click()
    sheet = tmp_path / "tablee.csv"
    download.value.save_as(sheet)
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))[1:]
    assert list(dict.fromkeys(row[0] for row in rows)) == ["1", "2"]
    assert "Chloé" not in sheet.read_text(encoding="utf-8-sig")

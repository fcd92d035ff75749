"""The table flow in a phone's browser (issue 14): Undo after a save, an edit and a deletion, a
player joining at manche 3 from the total chosen, the revoked invite's landing with its entry
kept (with and without JavaScript), the end of the game's table — at 360×740 and 320×640, light
and dark, never scrolling sideways. Screenshots go to /tmp/shots-h14b/.

classique table (SPEC §2), penalty mode: everyone but the player who went out adds their hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_games_flow import choose_winner, create_game, enter_manche, save_manche, scoreboard, type_total

SHOTS = Path("/tmp/shots-h14b")
SIZES = [
    pytest.param(360, 740, "light", id="360-light"),
    pytest.param(320, 640, "dark", id="320-dark"),
]


def snap(page, name: str):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page):
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{page.url} is {width} px wide in {client}"


def play(page, number: int, winner: int, totals: dict[int, str]):
    enter_manche(page, number)
    choose_winner(page, winner)
    for seat, total in totals.items():
        type_total(page, seat, total)
    save_manche(page, number)


def undo(page):
    page.locator("[data-undo]").click()
    expect(page.locator(".notice")).to_contain_text("Annulé")


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_undo_a_save_an_edit_and_a_deletion(live_server, phone, width, height, scheme):
    page = phone(width, height, scheme=scheme)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique")
    # Manche 1: Ana out, Bob 12, Chloé 5
    play(page, 1, 0, {1: "12", 2: "5"})
    assert scoreboard(page) == {"Ana": 0, "Bob": 12, "Chloé": 5}
    snap(page, f"undo-saved-{width}-{scheme}")
    undo(page)
    assert scoreboard(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}
    play(page, 1, 0, {1: "12", 2: "5"})
    # Edit from the row in one tap: Ana still out, Bob 1, Chloé 40
    page.locator('#history a.row-tool[href$="/manches/1/edit"]').click()
    type_total(page, 1, "1")
    type_total(page, 2, "40")
    page.get_by_role("button", name="Enregistrer les modifications").click()
    expect(page.locator(".notice")).to_contain_text("1")
    assert scoreboard(page) == {"Ana": 0, "Bob": 1, "Chloé": 40}
    snap(page, f"undo-edited-{width}-{scheme}")
    undo(page)
    assert scoreboard(page) == {"Ana": 0, "Bob": 12, "Chloé": 5}
    # Delete from the row in one tap, then undo: the manche is back at its number.
    page.locator("#history [data-delete-row]").click()
    expect(page.locator("#history")).not_to_contain_text("12")
    assert scoreboard(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}
    snap(page, f"undo-deleted-{width}-{scheme}")
    no_sideways_scroll(page)
    undo(page)
    assert scoreboard(page) == {"Ana": 0, "Bob": 12, "Chloé": 5}
    expect(page.locator("#history tbody th[scope=row]").first).to_contain_text("1")
    snap(page, f"undo-undone-{width}-{scheme}")
    no_sideways_scroll(page)


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_a_player_joins_at_manche_3_from_the_average(live_server, phone, width, height, scheme):
    page = phone(width, height, scheme=scheme)
    page.goto(f"{live_server.url}/games/new")
    for seat, name in enumerate(["Ana", "Bob", "Chloé"]):
        page.locator(f"#player-{seat}").fill(name)
    page.locator("#first_dealer").select_option("0")  # Ana deals first
    page.locator("#game-settings button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    # Manche 1: Ana out, Bob 10, Chloé 25. Manche 2: Bob out, Ana 10, Chloé 15 → 10 / 10 / 40.
    play(page, 1, 0, {1: "10", 2: "25"})
    play(page, 2, 1, {0: "10", 2: "15"})
    page.locator("#players summary").click()
    # The average, the default: (10 + 10 + 40) / 3 = 20.
    expect(page.locator('#players input[name="start"][value="average"]')).to_be_checked()
    expect(page.locator("#players")).to_contain_text("20")
    snap(page, f"join-form-{width}-{scheme}")
    no_sideways_scroll(page)
    page.locator("#newcomer").fill("Dan")
    page.locator("#players .join-form button[type=submit]").click()
    expect(page.locator(".notice")).to_contain_text("Dan")
    assert scoreboard(page) == {"Ana": 10, "Bob": 10, "Chloé": 40, "Dan": 20}
    # Ana dealt manche 1, Bob manche 2: Chloé deals manche 3, and Dan, in the new seat on her
    # left, starts.
    expect(page.locator(".next-manche .deal")).to_contain_text("Chloé distribue, Dan commence.")
    snap(page, f"join-done-{width}-{scheme}")
    no_sideways_scroll(page)
    # Manche 3 asks for Dan's hand: Dan out, Ana 1, Bob 2, Chloé 3 → 11 / 12 / 43 / 20.
    play(page, 3, 3, {0: "1", 1: "2", 2: "3"})
    assert scoreboard(page) == {"Ana": 11, "Bob": 12, "Chloé": 43, "Dan": 20}
    expect(page.locator(".next-manche .deal")).to_contain_text("Dan distribue, Ana commence.")
    snap(page, f"join-manche-3-{width}-{scheme}")
    no_sideways_scroll(page)


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_revoked_phone_saving_lands_on_the_game_with_its_entry_kept(live_server, phone, js):
    owner = phone(360, 740)
    game_url = create_game(owner, live_server.url, ["Ana", "Bob", "Chloé"], "classique")
    owner.goto(game_url + "?share=1")
    owner.locator("#invites button[type=submit]").click()
    invite = owner.locator(".invite-url").inner_text()
    path = re.sub(r"^https?://[^/]+", "", invite)
    keeper = phone(360, 740, js=js, scheme="dark" if js else "light")
    keeper.goto(live_server.url + path)
    enter_manche(keeper, 1)
    choose_winner(keeper, 0)
    type_total(keeper, 1, "12")
    type_total(keeper, 2, "7")
    # Meanwhile the owner revokes the invite.
    owner.goto(game_url + "?share=1")
    owner.locator("#invites button.danger").click()
    keeper.get_by_role("button", name="Enregistrer la manche 1").click()
    landing = keeper.locator("[data-revoked]")
    expect(landing).to_contain_text("Cette invitation a été retirée")
    expect(landing).to_contain_text("12")
    expect(landing).to_contain_text("7")
    expect(keeper.get_by_role("link", name="Saisir la manche 1")).to_have_count(0)
    snap(keeper, f"revoked-{'js' if js else 'nojs'}")
    no_sideways_scroll(keeper)


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_the_end_of_the_game_table(live_server, phone, width, height, scheme):
    page = phone(width, height, scheme=scheme)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique", target=100)
    # Manche 1: Ana out, Bob 30, Chloé 60. Manche 2: Bob out, Ana 20, Chloé 50 → 20 / 30 / 110.
    play(page, 1, 0, {1: "30", 2: "60"})
    enter_manche(page, 2)
    choose_winner(page, 1)
    type_total(page, 0, "20")
    type_total(page, 2, "50")
    page.get_by_role("button", name="Enregistrer la manche 2").click()
    final = page.locator(".final")
    expect(final).to_contain_text("Chloé a atteint l'objectif de 100")
    expect(final).to_contain_text("Ana")
    expect(page.locator("[data-final-table] tbody th")).to_have_text(["Ana", "Bob", "Chloé"])  # a row each
    # Averages: Ana (0 + 20) / 2 = 10, Bob (30 + 0) / 2 = 15, Chloé (60 + 50) / 2 = 55
    expect(page.locator('[data-final-table] td[data-stat="average"]')).to_have_text(["10,0", "15,0", "55,0"])
    snap(page, f"final-{width}-{scheme}")
    box = page.locator("[data-final-table]").bounding_box()
    scroller = page.locator(".final .table-scroll").bounding_box()
    assert box["width"] <= scroller["width"] + 1, "the end's table is cut at this width"
    expect(page.get_by_role("button", name="Rejouer")).to_be_visible()
    snap(page, f"final-{width}-{scheme}")
    no_sideways_scroll(page)

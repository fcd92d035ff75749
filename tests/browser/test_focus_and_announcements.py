"""Focus and announcements that follow the person (issue 58, point 3), item by item, in Debian's
Chromium: a live update keeps the focus where it was on the shared view; a notice that hides
with the focus on it gives it to the page's heading; no hidden button is heard before the form it
submits; the keypad is one Tab stop that the arrows move through; every group has a name.
The whole walk, in both languages, is test_keyboard_walk.py. Nothing here sleeps.

Classique (SPEC §2): penalty points, the others add their hands; 8 = 50, 3 = 3, K = 10.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .conftest import open_listening
from .test_games_flow import choose_winner, create_game, enter_manche, save_manche, tap
from .test_keyboard_walk import FOCUS, HEARS, focus, hears, tab_to, wait_focus

THREE = ["Ana", "Bob", "Chloé"]


def test_a_live_update_keeps_the_focus_on_the_shared_view(live_server, page):
    """A watcher reads the hands of manche 1 (a summary with no id) when manche 2 lands: the part
    is swapped, the focus stays on that summary, and the change is said once."""
    games = live_server.app.extensions["games"]
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H"], "Chloé": ["3C"]}))  # Bob 50, Chloé 3
    page.add_init_script(HEARS)
    open_listening(page, f"{live_server.url}/s/{games.get(game.id).share_id}")
    tab_to(page, "#history summary")
    assert focus(page)["words"] == "Les mains de la manche 1"
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["KS"], "Chloé": ["3D"]}))  # Ana 10, Chloé 3
    # Chloé 3 + 3, Ana 0 + 10, Bob 50 + 0: the lowest total first
    hears(page, "announce", "Manche 2 enregistrée. Totaux\u00a0: Chloé 6, Ana 10, Bob 50.")
    expect(page.locator("#history .manche-row")).to_have_count(2)
    where = wait_focus(page, "#history summary")
    assert where["words"] == "Les mains de la manche 1"


def test_a_notice_hidden_with_the_focus_on_it_gives_it_to_the_heading(live_server, page):
    page.clock.install()
    create_game(page, live_server.url, ["Ana", "Bob"], "classique")
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8")
    save_manche(page, 1)
    # the notice takes the focus as it comes (a screen reader says it, once, as focused)
    where = wait_focus(page, ".notice")
    assert where["words"].startswith("Manche 1 enregistrée.")
    assert page.locator(".notice").get_attribute("role") is None  # not a live region arriving full
    page.clock.run_for(8_500)
    expect(page.locator(".notice")).to_be_hidden()
    assert wait_focus(page, "main h1")["words"] == "Classique"


def test_a_notice_waits_while_its_undo_button_has_the_focus(live_server, page):
    page.clock.install()
    create_game(page, live_server.url, ["Ana", "Bob"], "classique")
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8")
    save_manche(page, 1)
    wait_focus(page, ".notice")
    page.keyboard.press("Tab")
    assert focus(page)["words"] == "Annuler"
    page.clock.run_for(8_500)
    expect(page.locator("[data-undo]")).to_be_visible()
    page.keyboard.press("Tab")  # left: the notice goes
    expect(page.locator(".notice")).to_be_hidden()
    assert page.evaluate(FOCUS) is not None


def accessible_names(page, selector: str) -> str:
    return page.locator(selector).aria_snapshot()


def test_no_control_is_heard_before_the_form_it_submits(live_server, page):
    page.goto(f"{live_server.url}/games/new")
    heard = accessible_names(page, "form.new-game")
    # « Commencer la partie » once, after the players' fields
    assert heard.count("Commencer la partie") == 1, heard
    assert heard.index("Joueur 1") < heard.index("Commencer la partie"), heard
    create_game(page, live_server.url, THREE, "classique")
    enter_manche(page, 1)
    heard = accessible_names(page, "form.manche-form")
    # the form begins with its question; « Enregistrer » is heard only at its end
    assert heard.index("Qui est sorti") < heard.index("Enregistrer"), heard
    assert heard.count("Enregistrer") == 1, heard


def test_the_keypad_is_one_tab_stop_moved_through_with_the_arrows(live_server, page):
    create_game(page, live_server.url, THREE, "classique")
    enter_manche(page, 1)
    choose_winner(page, 0)
    tab_to(page, "#keypad button")
    assert focus(page)["token"] == "A"
    page.keyboard.press("End")
    assert focus(page)["token"] == "JK"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert focus(page)["token"] == "2"
    below = page.locator('#keypad [data-token="2"] .add').bounding_box()
    page.keyboard.press("ArrowDown")  # the key under it, in the same column
    now = page.locator(f'#keypad [data-token="{focus(page)["token"]}"] .add').bounding_box()
    assert now["y"] > below["y"] and abs(now["x"] - below["x"]) < 2, (below, now)
    page.keyboard.press("ArrowUp")
    assert focus(page)["token"] == "2"
    page.keyboard.press("Enter")  # a card counted: its "−" appears, in the same one stop
    expect(page.locator('#keypad [data-token="2"] .count')).to_be_visible()
    page.keyboard.press("Tab")
    assert focus(page)["token"] is None  # one Tab leaves the keypad
    assert page.locator("#keypad button[tabindex='0']").count() == 1


def unnamed_groups(page) -> list[str]:
    cdp = page.context.new_cdp_session(page)
    unnamed = []
    for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        if node.get("role", {}).get("value") == "group" and not node.get("name", {}).get("value"):
            described = cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})["node"]
            unnamed.append(f"{described['nodeName']} {described.get('attributes', [])[:4]}")
    return unnamed


@pytest.mark.parametrize("where", ["new game", "game"])
def test_every_group_has_a_name(live_server, page, where):
    if where == "game":
        create_game(page, live_server.url, THREE, "classique")
    else:
        page.goto(f"{live_server.url}/games/new")
    assert unnamed_groups(page) == []


def test_the_rule_page_s_card_table_says_each_card_once(live_server, page):
    """What Chromium gives a screen reader for each special card of classique (SPEC §2: the 8, the
    Jack, the Ace, the 2, the Joker): its name once — the face drawn beside it is hidden from it."""
    page.goto(f"{live_server.url}/rules/classique")
    heads = page.locator("table.card-rules tbody th")
    expect(heads.first).to_be_visible()
    for head in heads.all():
        assert head.aria_snapshot() == f'- rowheader "{head.locator(".sr").inner_text()}"'

"""Join at a seat, leave with a confirmation, and undo either, in a phone's browser (issue 28 items
3–5, issue 30 item 3), at 360×740 light and dark: with JavaScript the game is swapped in place (no
page load: a mark set on the window survives), without it plain forms do the same. Screenshots go
to /tmp/shots-seats/.

The deal passes to the left each manche, to the next player the way play goes (seed 000: « Le
joueur à gauche du donneur commence. Puis on joue dans le sens horaire »; who deals next is
``scoring.play_through``'s interpretation). Classique table (SPEC §2), penalty mode: everyone but
the player who went out adds their hand's value.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_games_flow import choose_winner, enter_manche, save_manche, scoreboard, type_total

SHOTS = Path("/tmp/shots-seats")
SCHEMES = [pytest.param("light", id="light"), pytest.param("dark", id="dark")]


def snap(page, name: str, full: bool = True):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def snap_panel(page, name: str):
    """The players' panel alone (the whole page is five screens long)."""
    SHOTS.mkdir(exist_ok=True)
    page.locator("#players").screenshot(path=str(SHOTS / f"{name}.png"))


def no_sideways_scroll(page):
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{page.url} is {width} px wide in {client}"


def game_after_one_manche(page, base_url: str, js: bool = True):
    """Ana, Bob, Chloé (Ana deals first); manche 1: Ana out, Bob 10, Chloé 25."""
    page.goto(f"{base_url}/games/new")
    for seat, name in enumerate(["Ana", "Bob", "Chloé"]):
        page.locator(f"#player-{seat}").fill(name)
    page.locator("#first_dealer").select_option("0")
    page.locator("#game-settings button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    enter_manche(page, 1)
    choose_winner(page, 0)
    type_total(page, 1, "10")
    type_total(page, 2, "25")
    save_manche(page, 1)
    if js:
        page.wait_for_function("window.htmx !== undefined")
        page.evaluate("window.stayedOnPage = true")  # gone if a page were loaded


def stayed_on_page(page) -> bool:
    return page.evaluate("window.stayedOnPage === true")


def deal(page):
    return page.locator(".next-manche .deal")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_newcomer_joins_between_ana_and_bob_then_the_join_is_undone(live_server, phone, scheme):
    page = phone(360, 740, scheme=scheme)
    game_after_one_manche(page, live_server.url)
    expect(deal(page)).to_contain_text("Bob distribue, Chloé commence.")  # Bob is on Ana's left
    page.locator("#players summary").click()
    expect(page.locator("#players .table-order")).to_contain_text("Ana → Bob → Chloé")
    # A name already taken is refused in place (a 422 that htmx shows), what was typed kept.
    page.locator("#newcomer").fill("bob")
    page.locator("#players .join-form button[type=submit]").click()
    expect(page.locator("#players-error")).to_contain_text("bob")
    expect(page.locator("#newcomer")).to_have_value("bob")
    assert stayed_on_page(page), "the refusal loaded a page"
    snap(page, f"join-refused-{scheme}", full=False)
    page.locator("#newcomer").fill("Dan")
    expect(page.locator("#after")).to_have_value("2")  # after the last, Chloé, unless told
    page.locator("#after").select_option(label="après Ana, avant Bob")
    page.locator('#players input[name="start"][value="zero"]').check()
    snap_panel(page, f"join-form-{scheme}")
    no_sideways_scroll(page)
    page.locator("#players .join-form button[type=submit]").click()
    expect(page.locator(".notice")).to_contain_text("Dan s'assoit après Ana et part de 0.")
    # Ana dealt manche 1; Dan now sits on her left (Ana → Dan → Bob → Chloé): he deals manche 2,
    # Bob starts.
    expect(deal(page)).to_contain_text("Dan distribue, Bob commence.")
    expect(page).to_have_url(re.compile(r"\?joined=3$"))
    assert stayed_on_page(page), "the join loaded a page"
    assert scoreboard(page) == {"Ana": 0, "Dan": 0, "Bob": 10, "Chloé": 25}
    snap(page, f"join-done-{scheme}", full=False)
    no_sideways_scroll(page)
    page.locator("[data-undo]").click()
    expect(page.locator(".notice")).to_contain_text("Annulé\u00a0: le nouveau venu n'est plus à table.")
    expect(deal(page)).to_contain_text("Bob distribue, Chloé commence.")
    assert stayed_on_page(page), "the undo loaded a page"
    assert scoreboard(page) == {"Ana": 0, "Bob": 10, "Chloé": 25}
    snap(page, f"join-undone-{scheme}", full=False)
    # Manche 2 asks for Dan's hand between Ana's and Bob's once he sits there.
    page.locator("#players summary").click()
    page.locator("#newcomer").fill("Dan")
    page.locator("#after").select_option(label="après Ana, avant Bob")
    page.locator("#players .join-form button[type=submit]").click()
    expect(deal(page)).to_contain_text("Dan distribue, Bob commence.")
    enter_manche(page, 2)
    expect(page.locator("[data-hand] [data-name]")).to_have_text(["Ana", "Dan", "Bob", "Chloé"])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_leaving_asks_who_confirms_and_is_undone(live_server, phone, scheme):
    page = phone(360, 740, scheme=scheme)
    game_after_one_manche(page, live_server.url)
    page.locator("#players summary").click()
    expect(page.locator("#leaver")).to_have_value("")  # nobody chosen in advance
    page.locator("#players").scroll_into_view_if_needed()
    snap_panel(page, f"leave-form-{scheme}")
    no_sideways_scroll(page)
    page.locator("#leaver").select_option(label="Chloé")
    page.locator("#players .leave-form button[type=submit]").click()
    confirm = page.locator("#leave-confirm")
    expect(confirm).to_contain_text("Chloé quitte la table\u00a0?")
    expect(confirm).to_be_in_viewport()
    assert scoreboard(page) == {"Ana": 0, "Bob": 10, "Chloé": 25}
    assert stayed_on_page(page), "the question loaded a page"
    snap(page, f"leave-confirm-{scheme}", full=False)
    no_sideways_scroll(page)
    page.get_by_role("button", name="Oui, Chloé s'en va").click()
    expect(page.locator(".notice")).to_contain_text("Chloé a quitté la table")
    # Without Chloé, Bob (on Ana's left) still deals manche 2, and Ana starts after him.
    expect(deal(page)).to_contain_text("Bob distribue, Ana commence.")
    assert stayed_on_page(page), "the leave loaded a page"
    snap(page, f"leave-done-{scheme}", full=False)
    page.locator("[data-undo]").click()
    expect(page.locator(".notice")).to_contain_text("Annulé\u00a0: Chloé est de retour à table.")
    expect(deal(page)).to_contain_text("Bob distribue, Chloé commence.")
    assert stayed_on_page(page), "the undo loaded a page"
    snap(page, f"leave-undone-{scheme}", full=False)
    no_sideways_scroll(page)


def test_without_javascript_the_join_the_leave_and_their_undo_work(live_server, phone):
    page = phone(360, 740, js=False)
    game_after_one_manche(page, live_server.url, js=False)
    page.locator("#players summary").click()
    page.locator("#newcomer").fill("Dan")
    page.locator("#after").select_option(label="après Ana, avant Bob")
    page.locator("#players .join-form button[type=submit]").click()
    expect(page.locator(".notice")).to_contain_text("Dan s'assoit après Ana")
    expect(deal(page)).to_contain_text("Dan distribue, Bob commence.")
    page.locator("[data-undo]").click()
    expect(page.locator(".notice")).to_contain_text("Annulé\u00a0: le nouveau venu n'est plus à table.")
    page.locator("#players summary").click()
    page.locator("#leaver").select_option(label="Bob")
    page.locator("#players .leave-form button[type=submit]").click()
    expect(page.locator("#leave-confirm")).to_contain_text("Bob quitte la table\u00a0?")
    snap(page, "leave-confirm-nojs", full=False)
    page.get_by_role("link", name="Non, ne rien changer").click()
    assert scoreboard(page) == {"Ana": 0, "Bob": 10, "Chloé": 25}
    page.locator("#players summary").click()
    page.locator("#leaver").select_option(label="Bob")
    page.locator("#players .leave-form button[type=submit]").click()
    page.get_by_role("button", name="Oui, Bob s'en va").click()
    expect(page.locator(".notice")).to_contain_text("Bob a quitté la table")
    page.locator("[data-undo]").click()
    expect(page.locator(".notice")).to_contain_text("Annulé\u00a0: Bob est de retour à table.")
    snap(page, "leave-undone-nojs", full=False)
    no_sideways_scroll(page)

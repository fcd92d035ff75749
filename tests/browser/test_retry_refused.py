"""A manche sent again after it was deleted (issue 27, item 3), in a phone's browser without
JavaScript: the same form posted once more lands on the game with the reason — nothing recorded
again; and a new game past CREATE_LIMIT, refused with which limit and when to come back — at
360×740 light and 320×640 dark, never scrolling sideways. Screenshots: test-artifacts/.
"""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app import create_app

from .test_games_flow import ARTIFACTS, choose_winner, create_game, enter_manche, type_total

SIZES = [
    pytest.param(360, 740, "light", id="360-light"),
    pytest.param(320, 640, "dark", id="320-dark"),
]


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_the_form_sent_again_after_a_deletion_says_why_and_records_nothing(live_server, phone, width, height, scheme):
    page = phone(width, height, js=False, scheme=scheme)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique", js=False)
    game_url = page.url.split("?")[0]
    # Manche 1: Ana out, Bob types 12, Chloé 5
    enter_manche(page, 1)
    nonce = page.locator('input[name="nonce"]').get_attribute("value")
    choose_winner(page, 0)
    type_total(page, 1, "12")
    type_total(page, 2, "5")
    with page.expect_navigation():
        page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page.locator(".notice")).to_contain_text("Manche 1 enregistrée")
    deleted = page.request.post(f"{game_url}/manches/1/delete", form={"confirm": "1"})
    assert deleted.ok
    page.goto(game_url)

    # The phone sends the same entry again (a retry: the same nonce, the same number).
    enter_manche(page, 1)
    page.locator('input[name="nonce"]').evaluate("(input, nonce) => { input.value = nonce }", nonce)
    choose_winner(page, 0)
    type_total(page, 1, "12")
    type_total(page, 2, "5")
    with page.expect_navigation():
        page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page.get_by_text("a été enregistrée depuis cette même saisie, puis supprimée")).to_be_visible()
    width_used, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width_used <= client
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"retry-refused-{width}-{scheme}.png"), full_page=True)
    page.goto(game_url)
    expect(page.get_by_text("Aucune manche enregistrée")).to_be_visible()


@pytest.fixture
def limited_server(app_config):
    """The app with CREATE_LIMIT "1 per hour", served for one test."""
    application = create_app({**app_config, "RATELIMIT_ENABLED": True, "CREATE_LIMIT": "1 per hour"})
    server = make_server("127.0.0.1", 0, application, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    application.extensions["database"].dispose()


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_a_new_game_past_the_limit_says_which_limit_and_when(limited_server, phone, width, height, scheme):
    page = phone(width, height, js=False, scheme=scheme)
    create_game(page, limited_server, ["Ana", "Bob"], js=False)
    page.goto(f"{limited_server}/games/new")
    page.locator("#player-0").fill("Ana")
    page.locator("#player-1").fill("Bob")
    with page.expect_navigation():
        page.locator("#game-settings button.primary").click()
    expect(page.get_by_text("Trop de nouvelles parties depuis cette connexion")).to_be_visible()
    width_used, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width_used <= client
    page.screenshot(path=str(ARTIFACTS / f"new-game-limited-{width}-{scheme}.png"), full_page=True)

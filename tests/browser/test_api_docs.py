"""/api/v1/docs in Chromium: Swagger UI draws every path of the OpenAPI document, with nothing
asked of any other server (it works on a LAN without internet) and nothing refused by the app's
Content-Security-Policy; "Try it out" with a bearer token records a manche on this same server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from views.openapi import DOCUMENT


@pytest.fixture
def docs_page(page, live_server):
    """The docs page opened at 360 px, every request to another origin refused and noted, every
    console error (a policy violation is one) noted."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.elsewhere, page.errors = [], []
    page.route(
        lambda url: not url.startswith(live_server.url),
        lambda route: (page.elsewhere.append(route.request.url), route.abort()),
    )
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{live_server.url}/api/v1/docs")
    return page


def test_the_docs_page_shows_every_path_of_the_document(docs_page):
    page = docs_page
    paths = page.locator(".opblock-summary-path")
    expect(paths.first).to_be_visible()
    shown = {paths.nth(i).get_attribute("data-path") for i in range(paths.count())}
    assert shown == set(DOCUMENT["paths"])
    assert page.elsewhere == [] and page.errors == []


def test_try_it_records_a_manche_with_a_bearer_token(docs_page, live_server):
    """Authorize with the game's edit token, then "Try it out" on recordManche: the server answers
    201 and the game holds the manche. Classique (SPEC §2): K 10, 7 7; the winner scores 0."""
    page, games = docs_page, live_server.app.extensions["games"]
    game, token = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    page.locator(".auth-wrapper button.authorize").click()
    page.locator(".modal-ux input[type=text]").fill(token)
    page.locator(".modal-ux .auth-btn-wrapper button.authorize").click()
    page.locator(".modal-ux button.btn-done").click()

    operation = page.locator("#operations-default-recordManche")
    operation.locator(".opblock-summary").click()
    operation.locator("button.try-out__btn").click()
    operation.locator('input[placeholder="game_id"]').fill(game.id)
    operation.locator("textarea.body-param__text").fill('{"winner": "Ana", "hands": {"Bob": ["KH", "7C"]}}')
    operation.locator("button.execute").click()

    expect(operation.locator(".live-responses-table tbody .response-col_status")).to_have_text("201")
    assert [m.points for m in games.get(game.id).manches] == [{"Ana": 0, "Bob": 17}]
    assert page.elsewhere == [] and page.errors == []


def test_without_a_token_try_it_is_refused(docs_page, live_server):
    """The same call without "Authorize": the server's own 401, shown as it answered."""
    page, games = docs_page, live_server.app.extensions["games"]
    game, _token = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    operation = page.locator("#operations-default-getOpenEntry")
    operation.locator(".opblock-summary").click()
    operation.locator("button.try-out__btn").click()
    operation.locator('input[placeholder="game_id"]').fill(game.id)
    operation.locator("button.execute").click()
    expect(operation.locator(".live-responses-table tbody .response-col_status")).to_have_text("401")

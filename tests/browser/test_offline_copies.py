"""The pages the service worker keeps for offline, fetched in the background (issue 15's worker,
a flaky test found by CI): each copy says it is one (``X-Offline-Copy``, static/js/sw.js), and
its answer leaves the phone's session cookie alone (views/sessions.py)."""

from __future__ import annotations

import pytest

from tests.browser.test_offline import api_game, opened_phones, wait_js


@pytest.fixture
def phones(browser):
    yield from opened_phones(browser)


def test_the_copies_kept_for_offline_say_so_and_set_no_cookie(live_server, phones):
    """The worker fetches the pages it keeps with the cookie of their moment, in the background:
    each copy says it is one, and its answer leaves the phone's cookie alone (views/sessions.py).
    Seen in CI before: a copy's cookie, arriving after the next page's, took a game away from
    this browser's list of games."""
    game_id, token = api_game(live_server)
    path = f"/games/{game_id}"
    asked = []  # (path, its X-Offline-Copy header, whether the answer set a cookie), as served
    served = live_server.app.wsgi_app

    def watched(environ, start_response):
        def start(status, headers, exc_info=None):
            cookie = any(name.lower() == "set-cookie" for name, _ in headers)
            asked.append((environ["PATH_INFO"], environ.get("HTTP_X_OFFLINE_COPY"), cookie))
            return start_response(status, headers, exc_info)

        return served(environ, start)

    live_server.app.wsgi_app = watched
    phone = phones(live_server, game_id, token)
    page = phone.page
    page.goto(phone.game_url)  # once, before any worker: the page and its entry are copied
    wait_js(page, f"caches.open('carte-pages').then(c => c.match('{path}')).then(Boolean)")
    wait_js(page, f"caches.open('carte-pages').then(c => c.match('{path}/manches/new')).then(Boolean)")
    copies = [(where, cookie) for where, mark, cookie in asked if mark == "1"]
    assert (path, False) in copies and (f"{path}/manches/new", False) in copies, asked
    assert all(not cookie for _, cookie in copies), asked
    assert [where for where, mark, _ in asked if where == path and mark is None] == [path]  # the visit

"""Two manches recorded one right after the other (a phone sending the two it queued offline):
another phone already open on the game page, listening to its stream, shows both — its totals
and its history — not only the first.

The second event may come while the page is still fetching its live part for the first: htmx
queues it on that element, which the answer then replaces. The second test makes that happen
every time: the first answer is held (a WSGI middleware, as Flask documents them) until the page
has heard the second manche.

classique (SPEC §2): 8 = 50, JK = 50, A = 20, K = 10, others face value; penalty mode.
"""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest
from playwright.sync_api import expect

from .conftest import open_listening
from .test_offline import api_game

pytestmark = pytest.mark.on_postgresql  # how a write is heard differs: NOTIFY, or SQLite's watcher

# Manche 1: Ana goes out; Bob 8 + K = 60, Chloé 3 + JK = 53.
# Manche 2: Bob goes out; Ana 5 + K = 15, Chloé A = 20 (73 in all).
MANCHES = (
    {"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Chloé": ["3C", "JK"]}},
    {"winner": "Bob", "hands": {"Ana": ["5H", "KH"], "Chloé": ["AS"]}},
)
WAIT = 10  # s: the longest a step may take on a busy machine

# The revisions the page's stream said with `scores` (htmx-ext-sse's message on each part).
HEARS_SCORES = """
window.heardScores = 0;
document.addEventListener('htmx:sseMessage', (event) => {
  if (event.detail.type === 'scores') window.heardScores = Math.max(window.heardScores, +event.detail.lastEventId);
});
"""


def post_manche(server, game_id: str, token: str, body: dict) -> None:
    """One manche through the JSON API over HTTP, as a phone sends it."""
    request = urllib.request.Request(
        f"{server.url}/api/v1/games/{game_id}/manches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        assert answer.status == 201


def total(page, side: str):
    return page.locator(f'#scoreboard tr[data-side="{side}"] .total')


def shows_both(page) -> None:
    expect(total(page, "Chloé")).to_have_text("73", timeout=5000)
    expect(total(page, "Ana")).to_have_text("15")
    expect(total(page, "Bob")).to_have_text("60")
    expect(page.locator(".history-table .manche-row")).to_have_count(2)


def listening_page(server, phone, game_id: str, token: str):
    page = phone(360, 740)
    page.add_init_script(HEARS_SCORES)
    open_listening(page, f"{server.url}/join/{game_id}/{token}")
    expect(total(page, "Chloé")).to_have_text("0")
    return page


def test_a_phone_on_the_game_page_shows_two_manches_recorded_back_to_back(live_server, phone):
    game_id, token = api_game(live_server)
    page = listening_page(live_server, phone, game_id, token)
    for body in MANCHES:
        post_manche(live_server, game_id, token, body)
    shows_both(page)


class HeldFirstLivePart:
    """WSGI middleware: the first answer for a game's live part is built at once (at the revision
    of that moment) and sent only once ``release`` is set."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.built = threading.Event()
        self.release = threading.Event()
        self.held = False

    def __call__(self, environ, start_response):
        if self.held or not environ["PATH_INFO"].endswith("/live"):
            return self.wsgi_app(environ, start_response)
        self.held = True
        body = b"".join(self.wsgi_app(environ, start_response))
        self.built.set()
        self.release.wait(WAIT)
        return [body]


def test_the_second_manche_heard_while_the_first_is_fetched_shows(live_server, phone):
    game_id, token = api_game(live_server)
    page = listening_page(live_server, phone, game_id, token)
    held = HeldFirstLivePart(live_server.app.wsgi_app)
    live_server.app.wsgi_app = held

    post_manche(live_server, game_id, token, MANCHES[0])
    assert held.built.wait(WAIT)  # the page asked for the live part of manche 1, answered at manche 1
    post_manche(live_server, game_id, token, MANCHES[1])
    page.wait_for_function("() => window.heardScores === 2")  # heard while that answer is on its way
    held.release.set()

    shows_both(page)

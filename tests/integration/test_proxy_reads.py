"""Flask's proxies on the paths every phone takes (issue 29). Each attribute read through
``request``, ``g``, ``session`` or ``current_app`` costs about 0.9 µs: werkzeug's ``LocalProxy``
finds its object again every time (0.04 µs on the object itself). A game page served from the
cache read them 27 times in the app's own code, a tenth of what the page cost; a manche's write, 26.
The app's code now takes each object once (``_get_current_object()``, views/kit.py); these tests
count the reads the app's own code makes (and Flask's request, whose body limit is now set on
each request), so that a new hook or helper does not bring them back."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import flask.wrappers
import pytest
from werkzeug import local

ROOT = Path(__file__).resolve().parents[2]
OWN = tuple(str(ROOT / part) for part in ("app.py", "views", "models"))
FLASK_REQUEST = str(Path(flask.wrappers.__file__))  # Flask's request: its body limit read from current_app
PLAYERS = ["Ana", "Bob", "Chloé"]
BODY = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD", "2S"]}}


@pytest.fixture
def proxy_reads(monkeypatch):
    """Where the app's own code (and Flask's request) read an attribute through a proxy, counted by file and function."""
    seen: Counter = Counter()
    lookup = local._ProxyLookup.__get__

    def counted(self, instance, owner=None):
        caller = sys._getframe(1).f_code
        if caller.co_filename.startswith(OWN) or caller.co_filename == FLASK_REQUEST:
            seen[f"{Path(caller.co_filename).name}:{caller.co_name}"] += 1
        return lookup(self, instance, owner)

    monkeypatch.setattr(local._ProxyLookup, "__get__", counted)
    return seen


def new_game(client) -> tuple[str, str]:
    created = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}).get_json()
    return created["id"], created["edit_token"]


def test_a_stored_game_page_reads_no_proxy_in_the_apps_code(app, client, proxy_reads):
    game_id, token = new_game(client)
    with client.session_transaction() as session:  # the owner's phone: its token in its session
        session["tokens"] = [[game_id, token]]
    phone = {"Accept-Encoding": "br", "Accept-Language": "fr-FR,fr;q=0.9"}
    assert client.get(f"/games/{game_id}", headers=phone).status_code == 200  # stored now
    proxy_reads.clear()
    answer = client.get(f"/games/{game_id}", headers=phone)
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br"
    assert not proxy_reads, dict(proxy_reads)


def test_a_manche_written_through_the_api_reads_the_request_once(app, client, proxy_reads):
    game_id, token = new_game(client)
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/v1/games/{game_id}/manches", json=BODY, headers=auth).status_code == 201
    proxy_reads.clear()
    assert client.post(f"/api/v1/games/{game_id}/manches", json=BODY, headers=auth).status_code == 201
    # The Idempotency-Key, read once by the view; the body's size limit is the request's own
    # (views/carteflask.py: it was two reads of current_app each time the body was read).
    assert sum(proxy_reads.values()) <= 1, dict(proxy_reads)

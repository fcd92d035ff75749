"""The service worker as served (issue 15): at scope ``/``, never kept by the HTTP cache, versioned
with the static files' hashes, small with its precache; the offline page; the game page's data
for the provisional scorer. What happens in the browser is in tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

from models.services.games import MancheEntry
from views import assets

ACCEPT = {"Accept-Encoding": "br, gzip"}
LIMIT = 60 * 1024


def shell_of(worker: str) -> list[str]:
    return json.loads(re.search(r"SHELL = (\[.*?\]),", worker).group(1))


def libs_of(worker: str) -> dict:
    """What the worker imports (Workbox's modules, idb-keyval, the queue), by name."""
    return json.loads(re.search(r"LIBS = (\{.*?\});", worker).group(1))


def test_the_worker_is_served_at_the_root_with_its_headers(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    worker = response.get_data(as_text=True)
    shell = shell_of(worker)
    assert "/offline" in shell
    for url in shell:
        assert client.get(url).status_code == 200, url
        if url.startswith("/static/"):
            assert "?v=" in url, url  # hashed: a new file is a new URL, and a new worker
    libs = libs_of(worker)
    assert {"workbox-sw", "workbox-core", "workbox-precaching", "workbox-routing", "workbox-strategies"} <= set(libs)
    for url in libs.values():  # from static/, never a CDN, hashed
        assert url.startswith("/static/js/") and "?v=" in url, url
        assert client.get(url).status_code == 200, url


def test_a_changed_static_file_makes_a_new_worker(client, app, monkeypatch):
    before = re.search(r'VERSION = "(\w+)"', client.get("/sw.js").get_data(as_text=True)).group(1)
    real = assets._asset

    def changed(path, mtime):
        entry = dict(real(path, mtime))
        if path.endswith("app.css"):
            entry["hash"] = "0123456789ab"
        return entry

    monkeypatch.setattr(assets, "_asset", changed)
    after = client.get("/sw.js").get_data(as_text=True)
    assert "/static/css/app.css?v=0123456789ab" in after
    assert re.search(r'VERSION = "(\w+)"', after).group(1) != before


def test_the_worker_and_its_precache_stay_within_60_kb_compressed(client):
    worker = client.get("/sw.js", headers=ACCEPT)
    total = len(worker.data)
    assert worker.headers["Content-Encoding"] == "br"
    source = client.get("/sw.js").get_data(as_text=True)
    for url in shell_of(source) + list(libs_of(source).values()):
        total += len(client.get(url, headers=ACCEPT).data)
    assert total <= LIMIT, total


def test_the_offline_page(client):
    response = client.get("/offline")
    assert response.status_code == 200
    assert "Hors ligne" in response.get_data(as_text=True)


def test_the_game_page_hands_its_scorer_the_games_data(client, games):
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=1)
    # Ana goes out; Bob holds 8♥ + K♠ = 50 + 10, Chloé 3♣ = 3 (classique table, SPEC §2)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H", "KS"], "Chloé": ["3C"]}))
    with client.session_transaction() as session:
        session["tokens"] = [[game.id, token]]
    html = client.get(f"/games/{game.id}").get_data(as_text=True)
    model = json.loads(html_unescape(re.search(r"id=\"offline-queue\"[^>]*data-model='([^']*)'", html).group(1)))
    assert model["players"] == ["Ana", "Bob", "Chloé"]
    assert model["deal"] == {"first": 1, "loser_deals": False}
    assert model["table_order"] == ["Ana", "Bob", "Chloé"] and model["teams"] is None and model["roster"] == []
    # penalty mode: the winner adds 0, every other player their own hand; the lowest total wins
    assert model["mode"] == {"pays": 1, "collects": 0, "bonus": 0, "tie": "share", "low_wins": True}
    assert model["end"] == {"target": 500, "rounds": None}
    # each manche as the API names it, with only what the scorer reads
    assert model["manches"] == [{"number": 1, "winner": "Ana", "values": {"Bob": 60, "Chloé": 3}}]
    assert model["after_end"] == []
    # the recorded manche's version, as its correction page carries it (kept again when it changes)
    edit = client.get(f"/games/{game.id}/manches/1/edit").get_data(as_text=True)
    assert model["versions"] == [re.search(r'name="version" value="([^"]+)"', edit).group(1)]
    assert model["keys"]["8"] == 50 and model["keys"]["K"] == 10 and model["keys"]["JK"] == 50
    assert 'id="offline-queue"' in html


def test_the_offline_copy_names_the_game_as_the_api_does(client, games):
    """One shape (issue 25 item 4): the page's copy carries the API's players, teams, roster and
    table order as they are, and of each manche the API's number, winner and values."""
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H", "KS"], "Chloé": ["3C"]}))
    games.join_player(game.id, "Dan", "zero", after="Ana")  # Dan sits between Ana and Bob
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["4H"], "Chloé": ["5D"], "Dan": ["7S"]}))
    with client.session_transaction() as session:
        session["tokens"] = [[game.id, token]]
    html = client.get(f"/games/{game.id}").get_data(as_text=True)
    model = json.loads(html_unescape(re.search(r"id=\"offline-queue\"[^>]*data-model='([^']*)'", html).group(1)))
    api = client.get(f"/api/v1/games/{game.id}").get_json()
    for name in ("players", "teams", "roster", "table_order", "after_end"):
        assert model[name] == api[name], name
    assert model["table_order"] == ["Ana", "Dan", "Bob", "Chloé"] and model["roster"][0]["name"] == "Dan"
    assert model["manches"] == [{k: m[k] for k in ("number", "winner", "values")} for m in api["manches"]]
    assert model["manches"][1] == {"number": 2, "winner": "Bob", "values": {"Ana": 4, "Chloé": 5, "Dan": 7}}


def test_a_name_cannot_leave_the_data_attribute(client, games):
    name = "'><b>&amp;"
    game, token = games.create_game("classique", [name, "Bob"], first_dealer=0)
    with client.session_transaction() as session:
        session["tokens"] = [[game.id, token]]
    html = client.get(f"/games/{game.id}").get_data(as_text=True)
    block = re.search(r"data-model='([^']*)'", html).group(1)
    assert json.loads(html_unescape(block))["players"][0] == name
    assert name not in html


def test_a_read_only_page_carries_no_queue(client, games):
    game, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    assert "offline-queue" not in client.get(f"/games/{game.id}").get_data(as_text=True)


def test_the_offline_words_in_the_browsers_language(client):
    french = client.get("/offline/texts.json").get_json()
    assert french["update"] == "Mettre à jour"
    assert french["since"] == "Hors ligne — dernière mise à jour à {time}"
    assert french["waiting"] == "En attente d'envoi"
    client.set_cookie("lang", "en")
    english = client.get("/offline/texts.json").get_json()
    assert english["update"] == "Update"
    assert set(english) == set(french)

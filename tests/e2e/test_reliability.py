"""Reliability and security (issue 6): rights, CSRF, headers, cookies, limits, backup, migrations."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from app import create_app
from models.services.db import Database
from models.services.schema import migrate

from .test_server import redis_reachable

PLAYERS = ["Ana", "Bob", "Chloé"]
NEW_GAME_FORM = {"variant": "classique", "shown_variant": "classique", "players": PLAYERS, "end": "target",
                 "first_dealer": "0"}  # fmt: skip


def new_game(client, **extra):
    r = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


# --- headers and cookies --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/calculette", "/games/new", "/api/v1/variants", "/healthz"])
def test_security_headers_on_every_answer(client, path):
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "http" not in csp, "no inline script, no third-party origin"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"]


def test_pages_have_no_inline_script_or_style(client, games):
    game, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    for path in ["/", "/calculette", "/games/new", f"/games/{game.id}"]:
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"inline script on {path}"
        assert not re.search(r"\son[a-z]+=", html), f"event handler attribute on {path}"
        assert ' style="' not in html, f"inline style on {path}"


def test_session_cookie_flags(client):
    r = client.post("/games", data=NEW_GAME_FORM)
    assert r.status_code == 303
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP on the LAN


def test_session_cookie_secure_behind_https(app_config):
    app = create_app({**app_config, "PUBLIC_URL": "https://carte.example"})
    r = app.test_client().post("/games", data=NEW_GAME_FORM)
    assert "Secure" in r.headers["Set-Cookie"]
    app.extensions["database"].dispose()


# --- forms from another site (CSRF, views/crossorigin.py) ---------------------------------------


def games_count(app) -> int:
    with app.extensions["database"].reader.connect() as conn:
        return conn.execute(text("SELECT COUNT(*) FROM game")).scalar()


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://autre.localhost"},  # another origin of the same site
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"},  # the browser's word wins over Origin
        {"Origin": "http://autre.example"},  # a browser without Fetch Metadata (plain HTTP on the LAN)
        {"Origin": "http://localhost:8080"},  # another port is another origin
        {"Origin": "null"},  # a sandboxed frame, a page from a file
    ],
)
def test_a_form_posted_from_another_site_is_refused_and_changes_nothing(app, client, headers):
    before = games_count(app)
    r = client.post("/games", data=NEW_GAME_FORM, headers={**headers, "Accept-Language": "fr"})
    assert r.status_code == 403
    assert "Ce formulaire vient d'un autre site : rien n'a été changé." in html.unescape(r.get_data(as_text=True))
    assert "Set-Cookie" not in r.headers and games_count(app) == before


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
        {"Sec-Fetch-Site": "none"},  # sent by the person (a bookmark, the address bar)
        {"Origin": "http://localhost"},  # plain HTTP on the LAN: no Fetch Metadata, the Origin names this server
        {"Origin": "http://LOCALHOST:80"},  # the same origin written otherwise
        {},  # not a browser (a script, curl): it holds no cookie of ours unless given one
    ],
)
def test_a_form_posted_from_this_server_is_accepted(app, client, headers):
    r = client.post("/games", data=NEW_GAME_FORM, headers=headers)
    assert r.status_code == 303, r.get_data(as_text=True)


def test_the_public_address_is_this_server_too(app_config):
    app = create_app({**app_config, "PUBLIC_URL": "https://carte.example"})
    try:
        client = app.test_client()
        assert client.post("/games", data=NEW_GAME_FORM, headers={"Origin": "https://carte.example"}).status_code == 303
        assert client.post("/games", data=NEW_GAME_FORM, headers={"Origin": "https://carte.evil"}).status_code == 403
    finally:
        app.extensions["database"].dispose()


def test_no_page_carries_a_token_and_the_cookie_stays_same_site(client):
    html = client.get("/games/new?variant=classique").get_data(as_text=True)
    assert "csrf" not in html.lower()
    r = client.post("/games", data=NEW_GAME_FORM)
    assert "SameSite=Lax" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]


def test_the_api_keeps_its_own_rule_a_bearer_token(client):
    game = new_game(client)
    body = {"winner": "Ana", "hands": {"Bob": ["KS"], "Chloé": ["3C"]}}
    url = f"/api/v1/games/{game['id']}/manches"
    assert client.post(url, json=body).status_code == 401
    r = client.post(
        url, json=body, headers={"Authorization": f"Bearer {game['edit_token']}", "Origin": "http://outil.example"}
    )
    assert r.status_code == 201  # a program with the token may write from anywhere; a cookie gives the API nothing


# --- rights ------------------------------------------------------------------------------------------


def test_tokens_are_long_random_and_stored_hashed(client, app):
    tokens = {new_game(client)["edit_token"] for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 22 for t in tokens)  # ≥ 128 bits in URL-safe base64
    with app.extensions["database"].reader.connect() as conn:
        stored = [row[0] for row in conn.execute(text("SELECT edit_token_hash FROM game"))]
    assert not set(stored) & tokens


def test_another_browser_cannot_write_through_the_web(app, client, games):
    r = client.post("/games", data=NEW_GAME_FORM)
    game_id = r.headers["Location"].rsplit("/", 1)[-1]
    stranger = app.test_client()
    data = {"winner": "0", "number": "1", "nonce": "x", "p1-typed": "10", "p2-typed": "5"}
    assert stranger.post(f"/games/{game_id}/manches", data=data).status_code in (401, 403)
    assert games.get(game_id).manches == []


# --- limits -------------------------------------------------------------------------------------------


def test_game_creation_is_rate_limited(app_config):
    app = create_app({**app_config, "RATELIMIT_ENABLED": True, "CREATE_LIMIT": "3 per hour"})
    client = app.test_client()
    codes = [
        client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}).status_code for _ in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    body = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}).get_json()
    assert body["error"]["code"] == "rate_limited"
    app.extensions["database"].dispose()


def test_writes_are_rate_limited_per_client(app_config):
    app = create_app({**app_config, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "4 per minute"})
    client = app.test_client()
    codes = [client.post("/api/v1/score", json={"variant": "classique", "cards": ["8H"]}).status_code for _ in range(6)]
    assert codes[:4] == [200] * 4 and codes[4:] == [429, 429]
    assert client.get("/api/v1/variants").status_code == 200  # reading is not limited
    app.extensions["database"].dispose()


@pytest.mark.parametrize(("proxies", "second_client"), [(0, 429), (1, 200)])
def test_forwarded_addresses_count_apart_only_behind_trusted_proxies(app_config, proxies, second_client):
    """Without TRUSTED_PROXIES anyone could send X-Forwarded-For: it is ignored and both clients
    (one address) share a counter; behind one trusted proxy each forwarded client has its own."""
    app = create_app({**app_config, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "2 per minute",
                      "TRUSTED_PROXIES": proxies})  # fmt: skip
    body = {"variant": "classique", "cards": ["8H"]}
    first = app.test_client()
    for _ in range(2):
        assert first.post("/api/v1/score", json=body, headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 200
    second = app.test_client()
    assert second.post("/api/v1/score", json=body, headers={"X-Forwarded-For": "198.51.100.9"}).status_code == (
        second_client
    )
    assert first.post("/api/v1/score", json=body, headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 429
    app.extensions["database"].dispose()


def test_trusted_proxies_is_a_number(app_config):
    with pytest.raises(RuntimeError, match="TRUSTED_PROXIES"):
        create_app({**app_config, "TRUSTED_PROXIES": -1})


def test_several_workers_with_memory_counters_are_warned_of():
    from app import split_counters_warning

    assert "REDIS_URL" in split_counters_warning(2, None)
    assert "3 worker processes" in split_counters_warning(3, "memory://")
    assert split_counters_warning(1, None) is None  # one process (with threads): one count
    assert split_counters_warning(4, "redis://127.0.0.1:6379/0") is None  # shared counters


def test_oversized_body_is_refused_early(client):
    r = client.post("/api/v1/games", data=json.dumps({"variant": "classique", "players": ["A" * 1_000_000, "B"]}),
                    content_type="application/json")  # fmt: skip
    assert r.status_code == 413
    assert r.get_json()["error"]["code"] == "validation_error"


def test_absurd_values_are_refused(client):
    r = client.post("/api/v1/games", json={"variant": "classique", "players": [f"P{i}" for i in range(10_000)]})
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "players"
    r = client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS, "target": 10**12})
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "target"


def test_a_game_has_at_most_1000_manches(games):
    from models.core.errors import ValidationError

    with pytest.raises(ValidationError) as info:
        games.create_game("classique", ["Ana", "Bob"], rounds=1001)
    assert info.value.field == "rounds"


# --- bad input, by hypothesis ----------------------------------------------------------------------

# Digits to str.isdigit() that int() refuses or reads as other digits: mixed into every run (not left
# to luck), with explicit examples on top.
UNICODE_DIGITS = ["²", "١٢", "⁵", "３", "1²", "٣"]

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20) | st.sampled_from(UNICODE_DIGITS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.dictionaries(st.sampled_from(["variant", "players", "teams", "options", "table", "mode", "target",
                                               "rounds", "first_dealer", "cards", "top", "card", "pending"]),
                            JSONISH, max_size=6))  # fmt: skip
@example(body={"variant": "classique", "players": ["Ana", "Bob"], "first_dealer": "²"})
@example(body={"variant": "classique", "players": ["Ana", "Bob"], "target": "١٢", "rounds": "⁵"})
@example(body={"variant": "classique", "top": "8H", "card": "9H", "players": "²"})
def test_api_answers_any_body_with_a_4xx_or_success(client, body):
    for path in ("/api/v1/games", "/api/v1/score", "/api/v1/referee/check", "/api/v1/games/import"):
        r = client.post(path, json=body)
        assert r.status_code < 500, (path, body, r.get_data(as_text=True))
        if r.status_code >= 400:
            assert r.get_json()["error"]["message"]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(fields=st.dictionaries(st.sampled_from(["winner", "number", "nonce", "last_card", "p0-typed", "p1-typed",
                                                 "p2-typed", "p1-n_8", "p2-n_JK", "p1-tap", "blocked"]),
                              st.text(max_size=12) | st.sampled_from(UNICODE_DIGITS), max_size=8))  # fmt: skip
@example(fields={"winner": "²", "number": "²", "p1-typed": "²", "p2-typed": "١٢", "p1-n_8": "⁵", "p2-n_JK": "²"})
def test_manche_form_answers_any_post_without_5xx(app, fields):
    client = app.test_client()
    r = client.post("/games", data=NEW_GAME_FORM)
    game_id = r.headers["Location"].rsplit("/", 1)[-1]
    r = client.post(f"/games/{game_id}/manches", data=fields)
    assert r.status_code < 500, (fields, r.status_code)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(fields=st.dictionaries(st.sampled_from(["first_dealer", "target", "rounds", "end", "mode"]),
                              st.text(max_size=8) | st.sampled_from(UNICODE_DIGITS), max_size=5),
       query=st.dictionaries(st.sampled_from(["players", "n_8", "n_K", "n_JK", "decks", "saved", "edited"]),
                             st.text(max_size=8) | st.sampled_from(UNICODE_DIGITS), max_size=4))  # fmt: skip
@example(fields={"first_dealer": "²", "target": "١٢"}, query={"players": "²", "n_8": "⁵", "saved": "²"})
def test_new_game_form_and_number_queries_answer_without_5xx(app, fields, query):
    client = app.test_client()
    r = client.post("/games", data={**NEW_GAME_FORM, **fields})
    assert r.status_code in (303, 422), (fields, r.status_code)
    for path in ("/referee", "/calculette", "/games/new"):
        r = client.get(path, query_string=query)
        assert r.status_code == 200, (path, query, r.status_code)


# --- numbers from requests: ASCII digits only, one helper (issue 12, A) ---------------------------


@pytest.mark.parametrize(
    "text, expected",
    [("0", 0), ("12", 12), (" 7 ", 7), ("007", 7), ("²", None), ("١٢", None), ("⁵", None), ("３", None),
     ("1²", None), ("-1", None), ("+1", None), ("1.5", None), ("", None), (" ", None), pytest.param("1" * 5000, None, id="5000-digits"),
     (None, None), (3, None)],
)  # fmt: skip
def test_whole_number_reads_ascii_digits_only(text, expected):
    from views.numbers import whole_number

    assert whole_number(text) == expected


def test_whole_number_bounds_and_keypad_counts():
    from views.numbers import keypad_count, number_or_text, whole_number

    assert whole_number("5", 1, 5) == 5 and whole_number("6", 1, 5) is None and whole_number("0", 1, 5) is None
    assert [keypad_count(t, 8) for t in ("3", "9", "99999999999", "²", "", None, "-1")] == [3, 8, 8, 0, 0, 0, 0]
    assert [number_or_text(t) for t in ("300", " ", "", None, "²", "abc")] == [300, None, None, None, "²", "abc"]


def test_no_view_or_model_reads_request_digits_with_isdigit():
    """The one place: views/numbers.py. (str.isdigit says yes to "²", which int() refuses.)"""
    root = Path(__file__).resolve().parents[2]
    for folder in ("views", "models"):
        for path in (root / folder).glob("*.py"):
            if path.name in ("numbers.py", "rulesearch.py"):  # the search: words of rule texts, not request input
                continue
            assert ".isdigit()" not in path.read_text(encoding="utf-8"), path


def test_referee_page_with_a_unicode_digit_for_players(client):
    r = client.get("/referee?variant=classique&players=²")
    assert r.status_code == 200
    assert '<option value="3" selected>' in r.get_data(as_text=True)  # the variant's sample table, not "²"


def test_calculette_with_a_unicode_digit_count(client):
    r = client.get("/calculette?variant=classique&n_8=²&n_K=1")
    assert r.status_code == 200
    assert "<output data-total>10</output>" in r.get_data(as_text=True)  # the K alone: classique K = 10


@pytest.mark.parametrize("digit", ["²", "١", "⁰"])
def test_new_game_form_with_a_unicode_digit_first_dealer(client, app, digit):
    r = client.post("/games", data={**NEW_GAME_FORM, "first_dealer": digit})
    assert r.status_code == 422
    assert "distribue en premier" in r.get_data(as_text=True)  # the message under the dealer choice
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0


@pytest.mark.parametrize("field", ["target", "rounds"])
def test_new_game_form_with_a_unicode_digit_target_or_rounds(client, field):
    end = "rounds" if field == "rounds" else "target"
    r = client.post("/games", data={**NEW_GAME_FORM, "end": end, field: "١٢"})
    assert r.status_code == 422
    expected = {"target": "objectif est un nombre entier", "rounds": "nombre de manches est un entier"}[field]
    assert expected in r.get_data(as_text=True)


@pytest.mark.parametrize(
    "fields, where",
    [({"winner": "²", "p1-typed": "4", "p2-typed": "5"}, "winner"),
     ({"winner": "0", "p1-typed": "²", "p2-typed": "5"}, "typed"),
     ({"winner": "0", "p1-n_8": "²", "p2-typed": "5"}, "count")],
)  # fmt: skip
def test_manche_form_with_unicode_digits(app, games, fields, where):
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(f"/games/{game_id}/manches", data={"nonce": f"n-{where}", **fields})
    assert r.status_code == 422, r.status_code
    page = r.get_data(as_text=True)
    if where == "typed":
        assert "total saisi" in page  # "A typed total is a whole number from 0 to …" under Bob's hand
    if where == "count":
        assert "Bob" in page  # "²" is no count: Bob's hand is missing
    assert games.get(game_id).manches == []


def test_a_manche_form_s_number_is_only_what_the_phone_showed(app, games):
    """Issue 24: the entry is "the next manche"; its number only says what the phone showed (to tell
    it when another phone took that number). A "²" there is no number: the manche is recorded as
    the next one, with no word of a renumbering."""
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(
        f"/games/{game_id}/manches", data={"nonce": "n", "winner": "0", "p1-typed": "4", "p2-typed": "5", "number": "²"}
    )
    assert r.status_code == 303 and r.headers["Location"].endswith("?saved=1")
    assert [m.number for m in games.get(game_id).manches] == [1]


def test_manche_form_ascii_digits_still_record(app, games):
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(f"/games/{game_id}/manches", data={"winner": " 0 ", "number": "1", "p1-n_K": "2", "p2-typed": "07"})
    assert r.status_code == 303
    # classique: Bob's two kings are 2 × 10 = 20; Chloé typed 7; the winner Ana adds 0
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 20, "Chloé": 7}


@pytest.mark.parametrize(
    "path, body, field",
    [("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "²"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "0"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "random"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "target": "300"}, "target"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "target": "١٢"}, "target"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "rounds": "3"}, "rounds"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "rounds": ""}, "rounds"),
     ("/api/v1/referee/check", {"variant": "classique", "top": "3H", "card": "8C", "players": "²"}, "players"),
     ("/api/v1/referee/check", {"variant": "classique", "top": "3H", "card": "8C", "players": "3"}, "players")],
)  # fmt: skip
def test_api_numbers_are_json_numbers(client, path, body, field):
    """SPEC §4: these fields are integers; a string (even "0" or "²") is a 422 naming the field."""
    r = client.post(path, json=body)
    assert r.status_code == 422, r.get_data(as_text=True)
    assert r.get_json()["error"] == {**r.get_json()["error"], "code": "validation_error", "field": field}


@pytest.mark.parametrize("body, field", [({"number": "1"}, "number"), ({"number": "²"}, "number"),
                                         ({"points": {"Chloé": "4"}}, "points.Chloé"),
                                         ({"points": {"Chloé": "²"}}, "points.Chloé")])  # fmt: skip
def test_api_manche_numbers_are_json_numbers(client, games, body, field):
    game = new_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    manche = {"winner": "Ana", "hands": {"Bob": ["KS"], "Chloé": ["3C"]}} | body
    if "points" in body:
        del manche["hands"]["Chloé"]
    r = client.post(f"/api/v1/games/{game['id']}/manches", json=manche, headers=auth)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == field, r.get_json()
    assert games.get(game["id"]).manches == []
    # the same with JSON numbers is recorded: classique K = 10, 3 = 3 (or the typed 4)
    fixed = manche | ({"number": 1} if "number" in body else {"points": {"Chloé": 4}})
    r = client.post(f"/api/v1/games/{game['id']}/manches", json=fixed, headers=auth)
    assert r.status_code == 201 and r.get_json()["totals"] == {
        "Ana": 0,
        "Bob": 10,
        "Chloé": 4 if "points" in body else 3,
    }


# --- text that cannot be encoded, hosts that cannot be named (issue 12, B) -----------------------

SURROGATE_BODIES = [
    ("/api/v1/games", '{"variant": "\\ud800", "players": ["Ana", "Bob"]}', "variant"),
    ("/api/v1/games", '{"variant": "classique", "players": ["Ana", "\\udfff"]}', "players.1"),
    ("/api/v1/games", '{"variant": "classique", "players": ["Ana", "Bob"], "teams": {"\\ud800": ["Ana"]}}', "teams"),
    ("/api/v1/score", '{"variant": "classique", "cards": ["8H", "\\ud800"]}', "cards.1"),
    ("/api/v1/referee/check", '{"variant": "classique", "top": "\\ud800", "card": "8H"}', "top"),
    ("/api/v1/variants", '{"base": "classique", "name": "Chez \\ud800"}', "name"),
    ("/api/v1/games/import", '{"format": "carte-game/1", "game": {"variant": "\\ud800"}}', "game.variant"),
]


@pytest.mark.parametrize("path, body, field", SURROGATE_BODIES)
def test_a_lone_surrogate_in_a_json_body_is_a_422(client, app, path, body, field):
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == 422, r.get_data(as_text=True)
    error = r.get_json()["error"]
    assert error["code"] == "validation_error" and error["field"] == field
    assert "UTF-16" in error["message"]
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0


def test_a_surrogate_pair_is_a_character_and_welcome(client):
    r = client.post("/api/v1/games", data='{"variant": "classique", "players": ["Ana \\ud83c\\udccf", "Bob"]}',
                    content_type="application/json")  # fmt: skip
    assert r.status_code == 201 and r.get_json()["players"] == ["Ana 🃏", "Bob"]


def test_a_lone_surrogate_in_a_manche_body_is_a_422(client, games):
    game = new_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}", "Content-Type": "application/json"}
    body = '{"winner": "Ana", "hands": {"Bob": ["KS"], "Chlo\\udce9": ["3C"]}}'
    r = client.post(f"/api/v1/games/{game['id']}/manches", data=body, headers=auth)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands"
    assert games.get(game["id"]).manches == []


@pytest.mark.parametrize(
    "path, document",
    [("/games/import", '{"format": "carte-game/1", "game": {"variant": "\\ud800", "players": ["Ana", "Bob"]}}'),
     ("/variants/import", '{"format": "carte-variant/1", "variant": {"base": "classique", "name": "\\ud800"}}')],
)  # fmt: skip
def test_a_lone_surrogate_in_an_uploaded_file_is_a_422(client, app, path, document):
    import io

    r = client.post(path, data={"file": (io.BytesIO(document.encode()), "x.json")}, content_type="multipart/form-data")
    assert r.status_code == 422
    assert "UTF-16" in r.get_data(as_text=True)
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM house_variant")).scalar_one() == 0


def test_form_posts_cannot_carry_a_lone_surrogate(client, games):
    """A browser form percent-encodes UTF-8; the bytes of a surrogate (ED A0 80) are no UTF-8 and
    are read as replacement characters, never as a surrogate."""
    body = b"variant=classique&shown_variant=classique&players=Ana&players=%ED%A0%80&end=target&first_dealer=0"
    r = client.post("/games", data=body, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 303
    players = games.get(r.headers["Location"].rsplit("/", 1)[-1]).players
    assert players[0] == "Ana" and not any("\ud800" <= ch <= "\udfff" for ch in players[1])


LONG_LABEL_HOST = "a" * 70 + ".example"


@pytest.mark.parametrize("host", [LONG_LABEL_HOST, "a..example", "bad host", "<script>"])
@pytest.mark.parametrize("path", ["/", "/games/new", "/api/v1/variants", "/nowhere", "/healthz"])
def test_a_host_that_cannot_be_named_is_a_400(client, host, path):
    r = client.get(path, headers={"Host": host})
    assert r.status_code == 400, r.status_code
    if path.startswith("/api/"):
        assert r.get_json()["error"]["code"] == "validation_error"
    else:
        assert "Host" in r.get_data(as_text=True)


def test_a_bad_host_reaches_no_share_link_nor_write(client, app):
    game = new_game(client)
    share_id = game["share_url"].rsplit("/", 1)[-1]
    for path in (f"/s/{share_id}", f"/s/{share_id}/qr.svg", f"/api/v1/games/{game['id']}"):
        assert client.get(path, headers={"Host": LONG_LABEL_HOST}).status_code == 400, path
    r = client.post(
        "/api/v1/games", json={"variant": "classique", "players": PLAYERS}, headers={"Host": LONG_LABEL_HOST}
    )
    assert r.status_code == 400
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 1


def test_a_valid_host_still_builds_links(client):
    game = new_game(client)  # the test client's host is "localhost": LAN address or itself
    r = client.get(f"/api/v1/games/{game['id']}", headers={"Host": "carte.example:8080"})
    assert r.status_code == 200
    assert r.get_json()["share_url"].startswith("http://carte.example:8080/s/")


# --- rate limit headers (issue 12, D) ----------------------------------------------------------------


def test_retry_after_only_on_a_refusal(app_config):
    app = create_app({**app_config, "RATELIMIT_ENABLED": True, "CREATE_LIMIT": "2 per hour"})
    client = app.test_client()
    answers = [client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}) for _ in range(3)]
    assert [r.status_code for r in answers] == [201, 201, 429]
    for r in answers[:2]:
        assert "Retry-After" not in r.headers, dict(r.headers)
        assert r.headers["X-RateLimit-Limit"]  # the limits are still named
    assert int(answers[2].headers["Retry-After"]) > 0
    app.extensions["database"].dispose()


# --- backup and restore ----------------------------------------------------------------------------


def test_backup_and_restore_are_idempotent(app, games, tmp_path, app_config):
    from models.services.games import MancheEntry

    game, _ = games.create_game("les-huit", ["Ana", "Bob", "Chloé", "Dan"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H", "KS"], "Dan": ["3C"]}), key="k1")
    games.create_invite(game.id)
    runner = app.test_cli_runner()
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    document = json.loads(path.read_text())
    assert len(document["games"]) == 1

    # into an empty database: everything comes back, twice changes nothing
    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    other = create_app({**app_config, "DATABASE_URL": other_url, "AUTO_MIGRATE": True})
    other_runner = other.test_cli_runner()
    assert "1 games restored" in other_runner.invoke(args=["restore", str(path)]).output
    assert "0 games restored, 1 already present" in other_runner.invoke(args=["restore", str(path)]).output
    again = tmp_path / "again.json"
    other_runner.invoke(args=["backup", str(again)])
    assert json.loads(again.read_text())["games"] == document["games"]
    restored = other.extensions["games"].get(game.id)
    assert restored.totals == {"Ana & Chloé": 63, "Bob & Dan": 0}  # 8 = 50 + K = 10 + 3 = 3
    other.extensions["database"].dispose()


# --- migrations ------------------------------------------------------------------------------------


def old_game(database: Database, with_invite: bool = False) -> None:
    """A game "g1" of two players (and an invite) written as an older schema stores them."""
    with database.writer.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (id, variant, options_json, mode, table_id, target, rounds, first_dealer, edit_token_hash,"
            " share_id, revision, created_at, updated_at) VALUES ('g1', 'classique', '{}', 'penalty', 'classique', 500,"
            " NULL, 0, 'h', 's1', 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        ))  # fmt: skip
        conn.execute(text("INSERT INTO player (game_id, seat, name) VALUES ('g1', 0, 'Ana'), ('g1', 1, 'Bob')"))
        if with_invite:
            conn.execute(
                text("INSERT INTO invite (id, game_id, token_hash, created_at) VALUES ('i1', 'g1', 't', '2026-01-01')")
            )


def upgraded(tmp_path, start: str, with_invite: bool = False, to: str = "head") -> Database:
    """A database at ``start`` with the old game "g1" written in it, then migrated to ``to``."""
    database = Database(f"sqlite:///{tmp_path / f'from-{start}.db'}")
    migrate(database, start)
    old_game(database, with_invite)
    migrate(database, to)
    return database


def test_migrations_from_empty_and_from_the_previous_revision_with_data(tmp_path):
    database = upgraded(tmp_path, "0001")  # 0001 → head, with data in it
    tables = set(inspect(database.reader).get_table_names())
    assert {"game", "player", "manche", "hand", "idempotency", "invite"} <= tables
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM player WHERE game_id = 'g1'")).scalar_one() == 2
    database.dispose()


def test_migration_0003_from_0002_with_data(tmp_path):
    """0002 → 0003 (house rules) keeps the games, adds house_variant and an empty game.rules_json."""
    database = upgraded(tmp_path, "0002", with_invite=True)
    assert "house_variant" in set(inspect(database.reader).get_table_names())
    assert "rules_json" in {c["name"] for c in inspect(database.reader).get_columns("game")}
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT rules_json FROM game WHERE id = 'g1'")).scalar_one() is None
        assert conn.execute(text("SELECT count(*) FROM invite")).scalar_one() == 1
    from models.core.rules import catalog
    from models.services.games import GameService
    from models.services.house import HouseService
    from models.services.registry import Registry

    registry = Registry(catalog(), HouseService(database, catalog()))
    assert GameService(database, registry).get("g1").players == ["Ana", "Bob"]
    database.dispose()


def test_migration_0004_from_0003_with_data(tmp_path):
    """0003 → 0004 keeps games and invites; players sit from the start, invites were never used."""
    database = upgraded(tmp_path, "0003", with_invite=True)
    assert "undo_record" in set(inspect(database.reader).get_table_names())
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT joined_after, left_after, start_total FROM player")).all() == [
            (0, None, 0),
            (0, None, 0),
        ]
        assert conn.execute(text("SELECT last_used_at FROM invite")).scalar_one() is None
    database.dispose()


def test_migration_0005_from_0004_with_data(tmp_path):
    """0004 → 0005 keeps the games: each starts unreshaped, the count of changes exists and the
    triggers move it with every change to a game (issue 17)."""
    database = upgraded(tmp_path, "0004", with_invite=True, to="0005")
    with database.writer.begin() as conn:
        indexes = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'index'")).scalars())
        assert {"ix_game_listed", "ix_player_name"} <= indexes  # (an index on an expression is not reflected)
        assert conn.execute(text("SELECT reshaped FROM game WHERE id = 'g1'")).scalar_one() == 0
        before = conn.execute(text("SELECT count FROM game_changes")).scalar_one()
        conn.execute(text("UPDATE game SET revision = revision + 1 WHERE id = 'g1'"))
    assert database.lookup("SELECT count FROM game_changes") == (before + 1,)
    database.dispose()


def test_migration_0006_from_0005_with_data(tmp_path):
    """0005 → 0006 (issue 24) keeps the games; the count of changes shared by every game goes, with
    its triggers (a game changes without touching it), and the presence table comes."""
    database = upgraded(tmp_path, "0005", with_invite=True)
    tables = set(inspect(database.reader).get_table_names())
    assert "game_changes" not in tables and "presence" in tables
    with database.writer.begin() as conn:
        triggers = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'")).scalars())
        assert not triggers
        conn.execute(text("UPDATE game SET revision = revision + 1 WHERE id = 'g1'"))
    assert database.lookup("SELECT revision FROM game WHERE id = 'g1'") == (1,)
    database.dispose()


@pytest.mark.skipif(not redis_reachable() and os.environ.get("CI") != "true", reason="no Redis on 127.0.0.1:6379")
def test_two_app_servers_share_their_counters_in_redis(app_config):
    import uuid

    # A fresh key prefix so that runs do not see each other's counters.
    config = {**app_config, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "5 per minute",
              "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0", "RATELIMIT_KEY_PREFIX": uuid.uuid4().hex}  # fmt: skip
    first, second = create_app(config), create_app(config)
    body = {"variant": "classique", "cards": ["8H"]}
    codes = [first.test_client().post("/api/v1/score", json=body).status_code for _ in range(3)]
    codes += [second.test_client().post("/api/v1/score", json=body).status_code for _ in range(3)]
    assert codes == [200] * 5 + [429]
    for app in (first, second):
        app.extensions["database"].dispose()


def test_a_generated_secret_key_is_made_once_and_kept_private(tmp_path):
    from app import _secret_key

    first, second = _secret_key(tmp_path), _secret_key(tmp_path)
    assert first == second and len(first) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0

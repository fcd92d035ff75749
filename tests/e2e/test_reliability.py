"""Reliability and security (issue 6): rights, CSRF, headers, cookies, limits, backup, migrations."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from app import create_app

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
        {"Origin": "https://localhost"},  # another scheme is another origin: this server is plain HTTP
        {"Origin": "https://localhost:80"},  # this host and port, but not this scheme
        {"Origin": "ws://localhost"},
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


@pytest.mark.parametrize(
    ("proxies", "forwarded", "sent", "status"),
    [
        (0, None, "http://table.lan:8000", 303),
        (0, None, "https://table.lan:8000", 403),  # plain HTTP here: an HTTPS page is another origin
        (0, "https", "https://table.lan:8000", 403),  # the header is anyone's without TRUSTED_PROXIES
        (1, "https", "https://table.lan:8000", 303),  # TLS ends at the trusted proxy: the page was HTTPS
        (1, "https", "http://table.lan:8000", 403),
        (1, "http", "https://table.lan:8000", 403),
    ],
)
def test_the_origin_s_scheme_must_be_this_server_s(app_config, proxies, forwarded, sent, status):
    app = create_app({**app_config, "TRUSTED_PROXIES": proxies})
    try:
        headers = {"Host": "table.lan:8000", "Origin": sent}
        if forwarded:
            headers |= {"X-Forwarded-Proto": forwarded, "X-Forwarded-For": "192.0.2.7"}
        assert app.test_client().post("/games", data=NEW_GAME_FORM, headers=headers).status_code == status
    finally:
        app.extensions["database"].dispose()


def test_the_public_address_is_this_server_too(app_config):
    app = create_app({**app_config, "PUBLIC_URL": "https://carte.example"})
    try:
        client = app.test_client()
        assert client.post("/games", data=NEW_GAME_FORM, headers={"Origin": "https://carte.example"}).status_code == 303
        assert client.post("/games", data=NEW_GAME_FORM, headers={"Origin": "https://carte.evil"}).status_code == 403
        assert client.post("/games", data=NEW_GAME_FORM, headers={"Origin": "http://carte.example"}).status_code == 403
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

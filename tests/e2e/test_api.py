"""JSON API v1 over HTTP (SPEC §4): every route, every error code, every scoring mode end to end.

Every expected number is computed by hand from SPEC §2's scoring tables; the arithmetic is in the
comments. Error bodies are checked to be exactly {"error": {"code", "message", "field"?}} with a
4xx status.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import pytest
from sqlalchemy import func, select
from sqlmodel import Session

from models.services.db import Game
from tests.unit.test_scoring import SPEC_POINTS

USE_PG = os.environ.get("DATABASE_URL", "").startswith("postgres")

VARIANT_IDS = ["classique", "deux-jeux", "54-cartes", "huit-americain", "huit-elabore", "les-huit"]
THREE = ["Ana", "Bob", "Chloé"]
FOUR = ["Ana", "Bob", "Chloé", "Dan"]
AC, BD = "Ana & Chloé", "Bob & Dan"
URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")


# --- helpers -------------------------------------------------------------------------------------


def assert_error(resp, status, code, field=None, names=None):
    """The answer is exactly SPEC §4's error body, with this status and code."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True))
    assert 400 <= resp.status_code < 500
    body = resp.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert {"code", "message"} <= set(error) <= {"code", "message", "field"}, error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"].strip(), error
    if "field" in error:
        assert isinstance(error["field"], str) and error["field"]
    if field is not None:
        assert error.get("field") == field, error
    if names is not None:
        assert names in error["message"], error
    return error


def create(client, variant="classique", players=None, **extra):
    body = {"variant": variant, "players": players or list(THREE), **extra}
    resp = client.post("/api/v1/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    return game, {"Authorization": f"Bearer {game['edit_token']}"}


def post_manche(client, game, auth, body, status=201, headers=None):
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers={**auth, **(headers or {})})
    assert resp.status_code == status, resp.get_json()
    return resp.get_json()


def get_game(client, game):
    resp = client.get(f"/api/v1/games/{game['id']}")
    assert resp.status_code == 200
    return resp.get_json()


def score(client, variant, cards, **extra):
    return client.post("/api/v1/score", json={"variant": variant, "cards": cards, **extra})


# --- GET /api/v1/variants ------------------------------------------------------------------------

# SPEC §2: id -> (name fr, players min, max, decks, jokers in the whole deck, deal, mode, table, target, forbidden)
SPEC_VARIANTS = {
    "classique": (2, 5, 1, 2, {2: 7, 5: 7}, "penalty", "classique", 500, []),
    "deux-jeux": (2, 10, 2, 0, {2: 7, 10: 7}, "penalty", "standard", 500, ["10"]),
    "54-cartes": (2, 6, 1, 2, {2: 8, 6: 8}, "penalty", "54-cartes", 500, []),
    "huit-americain": (2, 8, 2, 2, {2: 8, 8: 8}, "penalty", "huit-americain", 500, ["8", "JK"]),
    "huit-elabore": (2, 8, 1, 0, {2: 8, 8: 8}, "penalty", "huit-elabore", 500, ["8", "9"]),
    "les-huit": (2, 4, 1, 0, {2: 7, 3: 5, 4: 5}, "winner", "standard", 100, []),
}


def deal_for(deal, players):
    """The cards dealt at ``players`` from the API's `deal` (a number, or a list by player count)."""
    if isinstance(deal, int):
        return deal
    return next(step["cards"] for step in deal if step["min"] <= players <= step["max"])


def test_variants_lists_the_six_in_order_with_spec_fields(client):
    resp = client.get("/api/v1/variants")
    assert resp.status_code == 200
    variants = resp.get_json()
    assert [v["id"] for v in variants] == VARIANT_IDS
    for v in variants:
        low, high, decks, jokers, deal, mode, table, target, forbidden = SPEC_VARIANTS[v["id"]]
        assert {"id", "name", "players", "decks", "jokers", "deal", "mode", "table", "target"} <= set(v)
        assert {"finish_forbidden", "options"} <= set(v)
        assert v["players"] == {"min": low, "max": high}, v["id"]
        assert v["decks"] == decks, v["id"]
        assert v["jokers"] == jokers, v["id"]
        for count, cards in deal.items():
            assert deal_for(v["deal"], count) == cards, (v["id"], count)
        assert (v["mode"], v["table"], v["target"]) == (mode, table, target), v["id"]
        assert sorted(v["finish_forbidden"]) == sorted(forbidden), v["id"]
        assert isinstance(v["options"], dict) and isinstance(v["name"], str) and v["name"]


def test_variants_options_with_their_defaults(client):
    by_id = {v["id"]: v for v in client.get("/api/v1/variants").get_json()}
    # SPEC §2: classique's house options, all off by default; 1 deck (option 2); the Ace reverses.
    classique = by_id["classique"]["options"]
    assert classique["decks"] == 1
    assert classique["stacking"] is False
    assert classique["counter_joker"] is False
    assert classique["special_finish_forbidden"] is False
    assert classique["ace_two_players"] == "reverse"
    assert by_id["huit-elabore"]["options"]["decks"] == 1  # 1 (option 2)
    assert by_id["les-huit"]["options"]["partners"] is True  # partners at 4 unless `partners: false`


def test_variants_names_follow_accept_language(client):
    def names(headers):
        return {v["id"]: v["name"] for v in client.get("/api/v1/variants", headers=headers).get_json()}

    default, fr, en = names({}), names({"Accept-Language": "fr-FR,fr;q=0.9"}), names({"Accept-Language": "en-GB"})
    assert default == fr  # French by default
    assert fr["classique"] == "Classique" and en["classique"] == "Classic"
    assert fr["deux-jeux"] != en["deux-jeux"]
    assert names({"Accept-Language": "de"}) == fr  # an unsupported language falls back to French
    one = client.get("/api/v1/variants/classique", headers={"Accept-Language": "en"}).get_json()
    assert one["name"] == "Classic"


# SPEC §2 scoring tables, copied by hand once (tests/unit/test_scoring.py), with 54-cartes' 2 of
# spades at 25 (the other 2s 15).
SPEC_TABLES = {**SPEC_POINTS, "54-cartes": {**SPEC_POINTS["54-cartes"], "2S": 25}}
VARIANT_TABLE = {v: spec[6] for v, spec in SPEC_VARIANTS.items()}


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_one_variant_has_its_points_table_and_summary(client, variant_id):
    resp = client.get(f"/api/v1/variants/{variant_id}")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["id"] == variant_id
    assert isinstance(body["summary"], str) and body["summary"].strip()
    points = body["points"]
    for card, value in SPEC_TABLES[VARIANT_TABLE[variant_id]].items():
        if value is None:
            assert card not in points
        else:
            assert points[card] == value, (variant_id, card)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_unknown_variant_is_404(client, language):
    resp = client.get("/api/v1/variants/belote", headers={"Accept-Language": language})
    assert_error(resp, 404, "unknown_variant", names="belote")


# --- POST /api/v1/score --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, cards, expected",
    [
        # classique: 8H 50 + JK 50 + AS 20 + 2D 20 + KC 10 + QH 10 + JS 20 + 3C 3 + 7D 7 + 9H 9 + 10S 10 = 209
        ("classique", ["8H", "JK", "AS", "2D", "KC", "QH", "JS", "3C", "7D", "9H", "10S"], 209),
        # 54-cartes: 2S 25 + 2H 15 + 8C 25 + AD 15 + JK 50 + JH 10 + 3S 5 + 10C 5 = 150
        ("54-cartes", ["2S", "2H", "8C", "AD", "JK", "JH", "3S", "10C"], 150),
        # huit-americain: 8H 32 + JK 50 + AC 20 + 2C 2 + KD 10 + 7S 7 = 121
        ("huit-americain", ["8H", "JK", "AC", "2C", "KD", "7S"], 121),
        # huit-elabore: 8 15 + A 11 + 2 10 + K 3 + Q 2 + J 1 + 9 9 + 10 10 = 61
        ("huit-elabore", ["8H", "AH", "2H", "KH", "QH", "JH", "9H", "10H"], 61),
        # deux-jeux (standard): 8 50 + A 1 + 2 2 + K 10 + Q 10 + J 10 + 10 10 + 6 6 = 99
        ("deux-jeux", ["8S", "AS", "2S", "KS", "QS", "JS", "10S", "6S"], 99),
        # les-huit (standard): A 1 + 4 4 + 8 50 = 55
        ("les-huit", ["AD", "4D", "8D"], 55),
        # a rank alone where the suit changes nothing: classique 8 50 + K 10 = 60; 54-cartes 10 is 5
        ("classique", ["8", "K"], 60),
        ("54-cartes", ["10", "A"], 5 + 15),
        ("classique", [], 0),
    ],
)
def test_score_by_hand(client, variant, cards, expected):
    resp = score(client, variant, cards)
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["points"] == expected
    assert len(body["cards"]) == len(cards)
    assert sum(c["points"] for c in body["cards"]) == expected


def test_score_breakdown_is_per_card_in_canonical_notation(client):
    # symbols, lower case and JOKER are accepted; classique: 8♥ 50 + 10s 10 + qs 10 + Joker 50 = 120
    body = score(client, "classique", ["8♥", "10s", "qs", "Joker"]).get_json()
    assert body == {
        "points": 120,
        "cards": [
            {"card": "8H", "points": 50},
            {"card": "10S", "points": 10},
            {"card": "QS", "points": 10},
            {"card": "JK", "points": 50},
        ],
    }


def test_score_table_override(client):
    # deux-jeux counts with `standard` by default: AS 1 + JS 10 = 11; with `classique`: 20 + 20 = 40
    assert score(client, "deux-jeux", ["AS", "JS"]).get_json()["points"] == 11
    assert score(client, "deux-jeux", ["AS", "JS"], table="classique").get_json()["points"] == 40
    # 54-cartes under huit-americain: 2S 2 + 8C 32 = 34 (the suit no longer matters for the 2)
    assert score(client, "54-cartes", ["2S", "8C"], table="huit-americain").get_json()["points"] == 34


def test_score_with_two_decks(client):
    # classique decks=2: 8H exists twice (50 + 50), jokers 2 per deck: 4 jokers = 200
    assert score(client, "classique", ["8H", "8H"], options={"decks": 2}).get_json()["points"] == 100
    assert score(client, "classique", ["JK"] * 4, options={"decks": 2}).get_json()["points"] == 200
    assert_error(score(client, "classique", ["8H"] * 3, options={"decks": 2}), 422, "too_many_copies", "cards")
    assert_error(score(client, "classique", ["JK"] * 5, options={"decks": 2}), 422, "too_many_copies", "cards")


@pytest.mark.parametrize("token", ["ZZ", "11H", "8X", "H8", "JOKR"])
def test_score_invalid_card_names_the_token(client, token):
    assert_error(score(client, "classique", ["8H", token]), 422, "invalid_card", "cards", names=token)


def test_score_joker_in_a_deck_without_jokers_is_invalid(client):
    assert_error(score(client, "deux-jeux", ["JK"]), 422, "invalid_card", "cards")
    assert_error(score(client, "huit-elabore", ["8H", "JK"]), 422, "invalid_card", "cards")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_score_ambiguous_two_under_54_cartes(client, language):
    resp = client.post(
        "/api/v1/score", json={"variant": "54-cartes", "cards": ["2"]}, headers={"Accept-Language": language}
    )
    error = assert_error(resp, 422, "ambiguous_card", "cards")
    for choice in ("2S", "2H", "2D", "2C"):  # names the suits to choose from
        assert choice in error["message"]


def test_score_too_many_copies(client):
    # the card named in words, not by its code (issue 30 item 9: « card names in words in every message »)
    assert_error(score(client, "classique", ["8H", "8H", "8H"]), 422, "too_many_copies", "cards", names="Le 8 de cœur")
    assert_error(score(client, "classique", ["8H", "8H"]), 422, "too_many_copies", "cards")
    assert_error(score(client, "classique", ["JK", "JK", "JK"]), 422, "too_many_copies", "cards")
    # a rank alone counts against its rank: 4 eights + one more
    assert_error(score(client, "classique", ["8S", "8H", "8D", "8C", "8"]), 422, "too_many_copies", "cards")
    # huit-americain: 2 decks and 2 jokers in all: 8H twice is fine, three jokers are not
    assert score(client, "huit-americain", ["8H", "8H"]).get_json()["points"] == 64  # 32 + 32
    assert_error(score(client, "huit-americain", ["JK", "JK", "JK"]), 422, "too_many_copies", "cards")


def test_score_unknown_variant(client):
    assert_error(score(client, "belote", ["8H"]), 422, "unknown_variant", names="belote")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"data": "not json", "content_type": "application/json"},
        {"data": "{", "content_type": "application/json"},
        {"data": b"\xff\xfe{", "content_type": "application/json"},
        {"data": "", "content_type": "application/json"},
        {"data": "null", "content_type": "application/json"},
        {"json": []},
        {"json": "classique"},
        {"json": 12},
    ],
    ids=["text", "truncated", "bad-utf8", "empty", "null", "list", "string", "number"],
)
def test_score_body_not_a_json_object(client, kwargs):
    assert_error(client.post("/api/v1/score", **kwargs), 422, "validation_error")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"variant": "classique"}, "cards"),
        ({"variant": "classique", "cards": {"8H": 1}}, "cards"),
        ({"variant": "classique", "cards": 8}, "cards"),
        ({"variant": "classique", "cards": ["8H"], "options": {"turbo": True}}, "options.turbo"),
        ({"variant": "classique", "cards": ["8H"], "options": ["decks"]}, "options"),
        ({"variant": "classique", "cards": ["8H"], "options": {"decks": 3}}, "options.decks"),
        ({"variant": "classique", "cards": ["8H"], "options": {"stacking": "maybe"}}, "options.stacking"),
        ({"variant": "classique", "cards": ["8H"], "table": "belote"}, "table"),
        ({"variant": "classique", "cards": ["8H"], "table": 5}, "table"),
        # a table that gives jokers no value, for a deck with jokers
        ({"variant": "classique", "cards": ["8H"], "table": "huit-elabore"}, "table"),
    ],
)
def test_score_validation_errors(client, body, field):
    assert_error(client.post("/api/v1/score", json=body), 422, "validation_error", field)


@pytest.mark.parametrize("table", [[], {}, ["standard"]])
def test_score_table_not_a_string_is_a_validation_error(client, table):
    resp = client.post("/api/v1/score", json={"variant": "classique", "cards": ["8H"], "table": table})
    assert_error(resp, 422, "validation_error", "table")


def test_score_deeply_nested_json_is_a_4xx(client):
    resp = client.post("/api/v1/score", data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert_error(resp, 422, "validation_error")


# --- POST /api/v1/games, GET /api/v1/games/{id} --------------------------------------------------


def test_create_game_201_with_token_and_random_id(client):
    games = []
    for _ in range(5):
        resp = client.post("/api/v1/games", json={"variant": "classique", "players": THREE})
        assert resp.status_code == 201
        games.append(resp.get_json())
    for game in games:
        # at least 128 bits: 22 URL-safe base64 characters
        assert URLSAFE.match(game["edit_token"]) and len(game["edit_token"]) >= 22
        assert URLSAFE.match(game["id"]) and len(game["id"]) >= 16
        assert not game["id"].isdigit()
        assert game["edit_token"] != game["id"]
        assert game["edit_token"] not in game["share_url"]  # the share link is not the edit token
    assert len({g["id"] for g in games}) == 5
    assert len({g["edit_token"] for g in games}) == 5
    # the token is shown once: reading the game does not give it
    assert "edit_token" not in get_game(client, games[0])


def test_get_game_has_every_spec_field(client):
    game, _ = create(client, "classique", THREE)
    body = get_game(client, game)
    fields = {"id", "variant", "players", "teams", "options", "mode", "table", "target", "rounds", "manches"}
    fields |= {"totals", "status", "winners", "dealer", "share_url", "share_qr_url"}
    assert fields <= set(body)
    assert body["id"] == game["id"]
    assert body["variant"] == "classique"
    assert body["players"] == THREE
    assert body["teams"] is None
    assert body["options"]["decks"] == 1
    assert (body["mode"], body["table"], body["target"], body["rounds"]) == ("penalty", "classique", 500, None)
    assert body["manches"] == []
    assert body["totals"] == {"Ana": 0, "Bob": 0, "Chloé": 0}
    assert body["status"] == "playing"
    assert body["winners"] == []
    assert body["dealer"] in THREE
    for url in (body["share_url"], body["share_qr_url"]):
        parts = urlsplit(url)
        assert parts.scheme in ("http", "https") and parts.netloc and parts.path.startswith("/"), url


def test_share_urls_are_absolute_from_request_or_public_url(client, app):
    game, _ = create(client)
    lan = client.get(f"/api/v1/games/{game['id']}", base_url="http://192.168.1.20:5000").get_json()
    assert lan["share_url"].startswith("http://192.168.1.20:5000/")
    assert lan["share_qr_url"].startswith("http://192.168.1.20:5000/")
    app.config["PUBLIC_URL"] = "https://carte.example.org"
    public = client.get(f"/api/v1/games/{game['id']}", base_url="http://192.168.1.20:5000").get_json()
    assert public["share_url"].startswith("https://carte.example.org/")
    assert public["share_qr_url"].startswith("https://carte.example.org/")
    assert public["share_url"].removeprefix("https://carte.example.org") == lan["share_url"].removeprefix(
        "http://192.168.1.20:5000"
    )


def test_share_urls_from_localhost_use_the_lan_address(client, app):
    # the sharing issue's LAN case: a request to localhost gives a link the other phones can reach
    app.config["LAN_ADDRESSES"] = ["192.168.0.42"]
    game, _ = create(client)
    body = client.get(f"/api/v1/games/{game['id']}", base_url="http://localhost:5000").get_json()
    assert body["share_url"].startswith("http://192.168.0.42:5000/")
    assert body["share_qr_url"].startswith("http://192.168.0.42:5000/")


def test_get_unknown_game_is_404(client):
    assert_error(client.get("/api/v1/games/doesnotexist"), 404, "not_found")


def test_les_huit_at_four_has_default_teams(client):
    game, _ = create(client, "les-huit", FOUR)
    # seats 1 + 3 against 2 + 4, named by their players joined with " & "
    assert game["teams"] == {AC: ["Ana", "Chloé"], BD: ["Bob", "Dan"]}
    assert game["totals"] == {AC: 0, BD: 0}
    assert (game["mode"], game["target"], game["table"]) == ("winner", 100, "standard")


def test_les_huit_partners_off_or_three_players_have_no_teams(client):
    solo, _ = create(client, "les-huit", FOUR, options={"partners": False})
    assert solo["teams"] is None
    assert solo["totals"] == {"Ana": 0, "Bob": 0, "Chloé": 0, "Dan": 0}
    three, _ = create(client, "les-huit", THREE)
    assert three["teams"] is None


def test_explicit_teams(client):
    teams = {"Les Rouges": ["Ana", "Bob"], "Les Bleus": ["Chloé", "Dan"]}
    game, auth = create(client, "les-huit", FOUR, teams=teams)
    assert game["teams"] == teams
    assert game["totals"] == {"Les Rouges": 0, "Les Bleus": 0}
    # Ana goes out: her team scores Chloé's KS 10 + Dan's 8H 50 = 60; Bob (partner) is left out
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Chloé": ["KS"], "Dan": ["8H"]}})
    assert out["points"] == {"Les Rouges": 60, "Les Bleus": 0}
    assert out["totals"] == {"Les Rouges": 60, "Les Bleus": 0}


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({"variant": "classique", "players": ["Ana"]}, "validation_error", "players"),
        ({"variant": "classique", "players": []}, "validation_error", "players"),
        ({"variant": "classique", "players": ["A", "B", "C", "D", "E", "F"]}, "validation_error", "players"),
        ({"variant": "les-huit", "players": ["A", "B", "C", "D", "E"]}, "validation_error", "players"),
        ({"variant": "deux-jeux", "players": [f"P{i}" for i in range(11)]}, "validation_error", "players"),
        ({"variant": "classique", "players": ["Ana", "Bob", "Ana"]}, "validation_error", "players.2"),
        ({"variant": "classique", "players": ["Ana", "ANA"]}, "validation_error", "players.1"),
        ({"variant": "classique", "players": ["Ana", ""]}, "validation_error", "players.1"),
        ({"variant": "classique", "players": ["   ", "Bob"]}, "validation_error", "players.0"),
        ({"variant": "classique", "players": "Ana, Bob"}, "validation_error", "players"),
        ({"variant": "classique", "players": [1, 2]}, "validation_error", "players"),
        ({"variant": "classique", "players": ["x" * 41, "Bob"]}, "validation_error", "players.0"),
        ({"variant": "belote", "players": THREE}, "unknown_variant", "variant"),
        ({"players": THREE}, "unknown_variant", "variant"),
        ({"variant": "classique", "players": THREE, "mode": "poker"}, "validation_error", "mode"),
        ({"variant": "classique", "players": THREE, "target": 0}, "validation_error", "target"),
        ({"variant": "classique", "players": THREE, "target": -500}, "validation_error", "target"),
        ({"variant": "classique", "players": THREE, "target": "lots"}, "validation_error", "target"),
        ({"variant": "classique", "players": THREE, "target": 1.5}, "validation_error", "target"),
        ({"variant": "classique", "players": THREE, "rounds": 0}, "validation_error", "rounds"),
        ({"variant": "classique", "players": THREE, "rounds": "three"}, "validation_error", "rounds"),
        ({"variant": "classique", "players": THREE, "rounds": True}, "validation_error", "rounds"),
        ({"variant": "classique", "players": THREE, "options": {"turbo": True}}, "validation_error", "options.turbo"),
        ({"variant": "classique", "players": THREE, "table": "belote"}, "validation_error", "table"),
        ({"variant": "classique", "players": THREE, "teams": {"X": ["Ana", "Bob"]}}, "validation_error", "teams"),
        ({"variant": "les-huit", "players": FOUR, "teams": {"X": FOUR}}, "validation_error", "teams"),
        (
            {"variant": "les-huit", "players": FOUR, "teams": {"X": ["Ana", "Ana"], "Y": ["Bob", "Dan"]}},
            "validation_error",
            "teams",
        ),
        (
            {"variant": "les-huit", "players": FOUR, "teams": {"X": ["Ana", "Zed"], "Y": ["Bob", "Dan"]}},
            "unknown_player",
            "teams",
        ),
    ],
)
def test_create_game_errors(client, body, code, field):
    assert_error(client.post("/api/v1/games", json=body), 422, code, field)


@pytest.mark.parametrize("data", ["nope", "[]", "null"])
def test_create_game_body_not_an_object(client, data):
    assert_error(client.post("/api/v1/games", data=data, content_type="application/json"), 422, "validation_error")


def test_create_game_table_not_a_string(client):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": THREE, "table": ["standard"]})
    assert_error(resp, 422, "validation_error", "table")


def test_create_game_long_team_name_is_never_a_500(client):
    teams = {"X" * 200: ["Ana", "Chloé"], "Y": ["Bob", "Dan"]}
    resp = client.post("/api/v1/games", json={"variant": "les-huit", "players": FOUR, "teams": teams})
    assert resp.status_code in (201, 422)


def test_create_game_nul_in_name_is_never_a_500(client):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": ["A\x00na", "Bob"]})
    assert resp.status_code in (201, 422)


def test_get_game_nul_in_id_is_404(client):
    assert_error(client.get("/api/v1/games/abc%00def"), 404, "not_found")


def test_mode_target_rounds_are_kept(client):
    game, _ = create(client, "classique", THREE, mode="wins", target=3)
    assert (game["mode"], game["target"], game["rounds"]) == ("wins", 3, None)
    game, _ = create(client, "huit-americain", THREE, rounds=5)
    assert (game["mode"], game["target"], game["rounds"]) == ("penalty", None, 5)  # rounds → target null
    game, _ = create(client, "deux-jeux", THREE, table="classique")
    assert game["table"] == "classique"


def test_dealer_rotates_clockwise_from_first_dealer(client):
    game, auth = create(client, "classique", THREE, first_dealer=1)
    assert get_game(client, game)["dealer"] == "Bob"
    order = []
    for _ in range(4):
        post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}})
        order.append(get_game(client, game)["dealer"])
    # Bob dealt manche 1; then Chloé, Ana (back to seat 1), Bob, Chloé
    assert order == ["Chloé", "Ana", "Bob", "Chloé"]
    client.delete(f"/api/v1/games/{game['id']}/manches/4", headers=auth)
    assert get_game(client, game)["dealer"] == "Bob"


# --- POST /api/v1/games/{id}/manches: auth and errors --------------------------------------------


@pytest.fixture
def three(client):
    """A classique game for Ana, Bob and Chloé (1 deck + 2 jokers, target 500)."""
    return create(client, "classique", THREE)


def test_record_manche_201_body(client, three):
    game, auth = three
    # Ana goes out; Bob 8H 50 + KS 10 = 60; Chloé JK 50 + 3C 3 = 53
    resp = client.post(
        f"/api/v1/games/{game['id']}/manches",
        json={"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Chloé": ["JK", "3C"]}},
        headers=auth,
    )
    assert resp.status_code == 201
    assert resp.get_json() == {
        "number": 1,
        "points": {"Ana": 0, "Bob": 60, "Chloé": 53},
        "totals": {"Ana": 0, "Bob": 60, "Chloé": 53},
        "status": "playing",
        "winners": [],
    }
    manches = get_game(client, game)["manches"]
    assert len(manches) == 1
    assert manches[0]["number"] == 1 and manches[0]["winner"] == "Ana" and manches[0]["blocked"] is False
    assert manches[0]["hands"]["Bob"] == ["8H", "KS"]
    assert manches[0]["points"] == {"Ana": 0, "Bob": 60, "Chloé": 53}


def test_typed_points_instead_of_cards(client, three):
    game, auth = three
    # Bob's hand as cards (QD 10 + 9D 9 = 19), Chloé's typed: 42
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["QD", "9D"]}, "points": {"Chloé": 42}})
    assert out["points"] == {"Ana": 0, "Bob": 19, "Chloé": 42}
    # the winner's hand may be given, empty (as cards or typed 0)
    out = post_manche(
        client, game, auth, {"winner": "Bob", "hands": {"Bob": [], "Ana": ["2C"]}, "points": {"Chloé": 0}}
    )
    assert out["points"] == {"Ana": 20, "Bob": 0, "Chloé": 0}
    assert out["totals"] == {"Ana": 20, "Bob": 19, "Chloé": 42}


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_writes_need_the_token(client, three, method):
    game, auth = three
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}})
    url = f"/api/v1/games/{game['id']}/manches" + ("" if method == "post" else "/1")
    body = {"winner": "Bob", "hands": {"Ana": ["5H"], "Chloé": ["6H"]}}
    call = getattr(client, method)
    assert_error(call(url, json=body), 401, "unauthorized")
    assert_error(call(url, json=body, headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    assert_error(call(url, json=body, headers={"Authorization": "Bearer "}), 401, "unauthorized")
    assert_error(call(url, json=body, headers={"Authorization": "Bearer wrong-token"}), 403, "forbidden")
    # another game's token does not open this one
    _, other = create(client)
    assert_error(call(url, json=body, headers=other), 403, "forbidden")
    # nothing changed
    after = get_game(client, game)
    assert len(after["manches"]) == 1 and after["totals"] == {"Ana": 0, "Bob": 3, "Chloé": 4}


def test_writes_to_an_unknown_game_are_404(client, three):
    _, auth = three
    body = {"winner": "Ana", "hands": {}}
    assert_error(client.post("/api/v1/games/nope/manches", json=body, headers=auth), 404, "not_found")
    assert_error(client.put("/api/v1/games/nope/manches/1", json=body, headers=auth), 404, "not_found")
    assert_error(client.delete("/api/v1/games/nope/manches/1", headers=auth), 404, "not_found")


def test_unknown_manche_is_404(client, three):
    game, auth = three
    body = {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}
    assert_error(client.put(f"/api/v1/games/{game['id']}/manches/1", json=body, headers=auth), 404, "not_found")
    assert_error(client.delete(f"/api/v1/games/{game['id']}/manches/1", headers=auth), 404, "not_found")


@pytest.mark.parametrize("method", ["put", "delete"])
def test_huge_manche_number_is_404(client, three, method):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches/{10**30}"
    resp = getattr(client, method)(url, json={"winner": "Ana", "hands": {}}, headers=auth)
    assert_error(resp, 404, "not_found")


@pytest.mark.parametrize(
    "body, code, field, names",
    [
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}}, "missing_hand", "hands.Chloé", "Chloé"),
        ({"winner": "Ana", "hands": {}}, "missing_hand", None, None),
        ({"winner": "Zed", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}, "unknown_player", "winner", "Zed"),
        ({"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"], "Zed": []}}, "unknown_player", None, "Zed"),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Zed": 4}}, "unknown_player", None, "Zed"),
        ({"winner": "Ana", "hands": {"Bob": ["3H", "QX"], "Chloé": ["4H"]}}, "invalid_card", "hands.Bob", "QX"),
        ({"winner": "Ana", "hands": {"Bob": ["8H"], "Chloé": ["8H"]}}, "too_many_copies", None, "8 de cœur"),
        ({"winner": "Ana", "hands": {"Bob": ["JK", "JK"], "Chloé": ["JK"]}}, "too_many_copies", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["8", "8", "8"], "Chloé": ["8H", "8S"]}}, "too_many_copies", None, None),
        ({"winner": "Ana", "hands": {"Ana": ["3C"], "Bob": ["3H"], "Chloé": ["4H"]}}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Ana": 5, "Chloé": 1}}, "validation_error", None, None),
        ({"winner": None, "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}, "validation_error", "winner", None),
        ({"hands": {"Bob": ["3H"], "Chloé": ["4H"]}}, "validation_error", "winner", None),
        ({"winner": 3, "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}, "validation_error", "winner", None),
        ({"winner": "Ana", "hands": ["3H"]}, "validation_error", "hands", None),
        ({"winner": "Ana", "hands": {"Bob": 3, "Chloé": ["4H"]}}, "validation_error", "hands", None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": [4]}, "validation_error", "points", None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Chloé": -1}}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Chloé": 4.5}}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Chloé": "lots"}}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Bob": 3, "Chloé": 4}}, "validation_error", None, None),
        # classique has no blocked manche
        (
            {"winner": None, "blocked": True, "hands": {"Ana": ["3H"], "Bob": ["4H"], "Chloé": ["5H"]}},
            "validation_error",
            "blocked",
            None,
        ),
        (
            {"winner": "Ana", "blocked": "yes", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}},
            "validation_error",
            None,
            None,
        ),
        ({"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "number": "x"}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "last_card": 8}, "validation_error", None, None),
        ({"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "last_card": "8Z"}, "invalid_card", None, "8Z"),
    ],
)
def test_record_manche_errors(client, three, body, code, field, names):
    game, auth = three
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(resp, 422, code, field, names)
    assert get_game(client, game)["manches"] == []  # nothing recorded


@pytest.mark.parametrize("data", ["nope", "[]", "null", ""])
def test_record_manche_body_not_an_object(client, three, data):
    game, auth = three
    resp = client.post(f"/api/v1/games/{game['id']}/manches", data=data, content_type="application/json", headers=auth)
    assert_error(resp, 422, "validation_error")


def test_typed_points_up_to_the_deck_maximum(client, three):
    game, auth = three
    # classique, 1 deck + 2 jokers: per suit A 20 + 2 20 + 3..7 (25) + 8 50 + 9 9 + 10 10 + J 20 + Q 10 + K 10 = 174;
    # 4 suits = 696, + 2 jokers × 50 = 796
    body = {"winner": "Ana", "hands": {"Bob": []}, "points": {"Chloé": 797}}
    assert_error(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), 422, "validation_error")
    body["points"]["Chloé"] = 796
    assert post_manche(client, game, auth, body)["points"] == {"Ana": 0, "Bob": 0, "Chloé": 796}


def test_typed_totals_of_one_manche_are_checked_together(client, three):
    """Issue 16: two hands of one deck cannot be worth more than the whole deck."""
    game, auth = three
    # classique, one deck: the whole deck is worth 796 (above); two players typing 796 each → 1592 > 796
    body = {"winner": "Ana", "points": {"Bob": 796, "Chloé": 796}}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    error = assert_error(resp, 422, "validation_error")
    assert error["field"] == "points" and "796" in error["message"] and "1592" in error["message"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["manches"] == []  # nothing half-written
    # cards and typed totals together: Bob's 3♥ (3) + Chloé's 794 = 797 > 796 → refused; 793 → 796 fits
    body = {"winner": "Ana", "hands": {"Bob": ["3H"]}, "points": {"Chloé": 794}}
    assert_error(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), 422, "validation_error")
    body["points"]["Chloé"] = 793
    assert post_manche(client, game, auth, body)["points"] == {"Ana": 0, "Bob": 3, "Chloé": 793}


def test_typed_points_maximum_follows_the_deck(client):
    # les-huit (standard, 1 deck, no joker): per suit A 1 + 2 + 3..7 (25) + 8 50 + 9 + 10 + J/Q/K 30 = 127; ×4 = 508
    game, auth = create(client, "les-huit", THREE)
    body = {"winner": "Ana", "points": {"Bob": 509, "Chloé": 0}}
    assert_error(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), 422, "validation_error")
    body["points"]["Bob"] = 508
    assert post_manche(client, game, auth, body)["points"] == {"Ana": 508, "Bob": 0, "Chloé": 0}


@pytest.mark.parametrize(
    "variant, options, last_card",
    [
        ("huit-americain", {}, "8H"),
        ("huit-americain", {}, "JK"),
        ("huit-americain", {}, "8"),
        ("deux-jeux", {}, "10S"),
        ("huit-elabore", {}, "8C"),
        ("huit-elabore", {}, "9D"),
        ("classique", {"special_finish_forbidden": True}, "JK"),
        ("classique", {"special_finish_forbidden": True}, "8S"),
    ],
)
def test_finish_forbidden(client, variant, options, last_card):
    game, auth = create(client, variant, THREE, options=options)
    body = {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "last_card": last_card}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(resp, 422, "finish_forbidden", "last_card")
    assert get_game(client, game)["manches"] == []


@pytest.mark.parametrize(
    "variant, options, last_card",
    [
        ("huit-americain", {}, "7H"),
        ("deux-jeux", {}, "9S"),
        ("huit-elabore", {}, "10D"),
        ("classique", {}, "8H"),  # no restriction without the house option
        ("classique", {}, "JK"),
        ("54-cartes", {}, "JK"),
        ("les-huit", {}, "8C"),
    ],
)
def test_allowed_last_card(client, variant, options, last_card):
    game, auth = create(client, variant, THREE, options=options)
    body = {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "last_card": last_card}
    post_manche(client, game, auth, body)


def test_joker_in_a_jokerless_game_is_invalid(client):
    game, auth = create(client, "deux-jeux", THREE)
    body = {"winner": "Ana", "hands": {"Bob": ["JK"], "Chloé": ["4H"]}}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(resp, 422, "invalid_card")


def test_two_decks_allow_two_copies_across_hands(client):
    game, auth = create(client, "classique", THREE, options={"decks": 2})
    # 8H twice and 3 jokers across hands (2 decks: 2 copies, 4 jokers): Bob 8H + JK + JK = 150, Chloé 8H + JK = 100
    out = post_manche(
        client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8H", "JK", "JK"], "Chloé": ["8H", "JK"]}}
    )
    assert out["points"] == {"Ana": 0, "Bob": 150, "Chloé": 100}
    body = {"winner": "Ana", "hands": {"Bob": ["8H", "8H"], "Chloé": ["8H"]}}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(resp, 422, "too_many_copies")


def test_ambiguous_two_in_a_54_cartes_hand(client):
    game, auth = create(client, "54-cartes", THREE)
    body = {"winner": "Ana", "hands": {"Bob": ["2"], "Chloé": ["4H"]}}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(resp, 422, "ambiguous_card", "hands.Bob")
    # with the suit: Bob 2S 25, Chloé 4H 5
    body["hands"]["Bob"] = ["2S"]
    assert post_manche(client, game, auth, body)["points"] == {"Ana": 0, "Bob": 25, "Chloé": 5}


# --- number precondition and Idempotency-Key ------------------------------------------------------


def test_number_precondition(client, three):
    game, auth = three
    body = {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}, "number": 1}
    assert post_manche(client, game, auth, body)["number"] == 1
    # a second phone records manche 1 too
    again = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)
    assert_error(again, 409, "conflict")
    skip = client.post(f"/api/v1/games/{game['id']}/manches", json={**body, "number": 3}, headers=auth)
    assert_error(skip, 409, "conflict")
    assert len(get_game(client, game)["manches"]) == 1
    assert post_manche(client, game, auth, {**body, "number": 2})["number"] == 2


def test_idempotency_key_replays_the_first_answer(client, three):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches"
    key = {"Idempotency-Key": "a1b2c3"}
    body = {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["AC"]}}  # Bob 10, Chloé 20
    first = client.post(url, json=body, headers={**auth, **key})
    assert first.status_code == 201
    retry = client.post(url, json=body, headers={**auth, **key})
    assert retry.status_code == first.status_code
    assert retry.get_json() == first.get_json()
    # even a different body under the same key returns the first answer
    other = client.post(url, json={"winner": "Bob", "hands": {"Ana": ["8H"], "Chloé": ["8S"]}}, headers={**auth, **key})
    assert other.get_json() == first.get_json()
    after = get_game(client, game)
    assert len(after["manches"]) == 1
    assert after["totals"] == {"Ana": 0, "Bob": 10, "Chloé": 20}
    # another key records the next manche
    assert client.post(url, json=body, headers={**auth, "Idempotency-Key": "zz"}).get_json()["number"] == 2


def test_idempotency_key_of_a_refused_request_is_not_used(client, three):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches"
    key = {"Idempotency-Key": "k-1"}
    bad = client.post(url, json={"winner": "Ana", "hands": {"Bob": ["QX"], "Chloé": []}}, headers={**auth, **key})
    assert_error(bad, 422, "invalid_card")
    good = client.post(url, json={"winner": "Ana", "hands": {"Bob": ["QH"], "Chloé": []}}, headers={**auth, **key})
    assert good.status_code == 201 and good.get_json()["points"] == {"Ana": 0, "Bob": 10, "Chloé": 0}


def test_idempotent_retry_of_the_final_manche_is_not_game_finished(client):
    game, auth = create(client, "classique", ["Ana", "Bob"], target=50)
    url = f"/api/v1/games/{game['id']}/manches"
    key = {**auth, "Idempotency-Key": "last"}
    body = {"winner": "Ana", "hands": {"Bob": ["8H"]}}  # Bob 50 ≥ 50: over, Ana wins
    first = client.post(url, json=body, headers=key)
    assert first.get_json()["status"] == "finished" and first.get_json()["winners"] == ["Ana"]
    retry = client.post(url, json=body, headers=key)
    assert (retry.status_code, retry.get_json()) == (201, first.get_json())
    assert_error(client.post(url, json=body, headers=auth), 409, "game_finished")


def test_idempotency_key_with_nul_is_never_a_500(client, three):
    game, auth = three
    body = {"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}
    resp = client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers={**auth, "Idempotency-Key": "a\x00b"})
    assert resp.status_code in (201, 422)


# --- PUT and DELETE -------------------------------------------------------------------------------


def test_edit_recomputes_every_total(client, three):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches"
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["QH"]}})  # 0, 10, 10
    post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["5C"], "Chloé": ["6C"]}})  # 5, 10, 16
    # manche 1 becomes: Chloé went out; Ana 8H 50, Bob JK 50 → totals 50 + 5 = 55, 50 + 0 = 50, 0 + 6 = 6
    resp = client.put(f"{url}/1", json={"winner": "Chloé", "hands": {"Ana": ["8H"], "Bob": ["JK"]}}, headers=auth)
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["totals"] == {"Ana": 55, "Bob": 50, "Chloé": 6}
    assert body["manches"][0]["winner"] == "Chloé"
    assert body["manches"][0]["points"] == {"Ana": 50, "Bob": 50, "Chloé": 0}
    assert body["manches"][1]["points"] == {"Ana": 5, "Bob": 0, "Chloé": 6}
    assert get_game(client, game)["totals"] == {"Ana": 55, "Bob": 50, "Chloé": 6}


def test_edit_is_validated_like_a_new_manche(client, three):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches/1"
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["QH"]}})
    assert_error(client.put(url, json={"winner": "Ana", "hands": {"Bob": ["KH"]}}, headers=auth), 422, "missing_hand")
    bad = {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["KH"]}}
    assert_error(client.put(url, json=bad, headers=auth), 422, "too_many_copies")
    assert_error(client.put(url, data="x", content_type="application/json", headers=auth), 422, "validation_error")
    assert get_game(client, game)["totals"] == {"Ana": 0, "Bob": 10, "Chloé": 10}  # unchanged


def test_edit_that_unfinishes_reopens_the_game(client):
    game, auth = create(client, "classique", ["Ana", "Bob"], target=100)
    url = f"/api/v1/games/{game['id']}/manches"
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8H", "8S"]}})  # Bob 100 ≥ 100
    finished = get_game(client, game)
    assert finished["status"] == "finished" and finished["winners"] == ["Ana"]
    assert_error(client.post(url, json={"winner": "Ana", "hands": {"Bob": []}}, headers=auth), 409, "game_finished")
    # manche 1 corrected: Bob had 8H + 3S = 53 < 100
    reopened = client.put(f"{url}/1", json={"winner": "Ana", "hands": {"Bob": ["8H", "3S"]}}, headers=auth).get_json()
    assert reopened["status"] == "playing" and reopened["winners"] == []
    assert reopened["totals"] == {"Ana": 0, "Bob": 53}
    # playing again: Bob 47 more (KS 10 + QS 10 + 10S 10 + 7S 7 + 10H 10) → 100, over again
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KS", "QS", "10S", "7S", "10H"]}})
    assert out["totals"] == {"Ana": 0, "Bob": 100} and out["status"] == "finished"


def test_delete_only_the_last_manche(client, three):
    game, auth = three
    url = f"/api/v1/games/{game['id']}/manches"
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["QH"]}})  # 0, 10, 10
    post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["5C"], "Chloé": ["6C"]}})  # 5, 10, 16
    assert_error(client.delete(f"{url}/1", headers=auth), 409, "conflict")
    assert len(get_game(client, game)["manches"]) == 2
    resp = client.delete(f"{url}/2", headers=auth)
    assert resp.status_code == 200
    assert resp.get_json()["totals"] == {"Ana": 0, "Bob": 10, "Chloé": 10}
    assert [m["number"] for m in resp.get_json()["manches"]] == [1]
    # the number is free again
    again = post_manche(client, game, auth, {"winner": "Chloé", "hands": {"Ana": ["2H"], "Bob": ["2S"]}})
    assert again["number"] == 2 and again["totals"] == {"Ana": 20, "Bob": 30, "Chloé": 10}  # 2H 20, 2S 20


def test_delete_of_the_final_manche_reopens_the_game(client):
    game, auth = create(client, "classique", ["Ana", "Bob"], target=50)
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["JK"]}})  # Bob 50: over
    assert get_game(client, game)["status"] == "finished"
    body = client.delete(f"/api/v1/games/{game['id']}/manches/1", headers=auth).get_json()
    assert body["status"] == "playing" and body["winners"] == [] and body["totals"] == {"Ana": 0, "Bob": 0}


def test_unknown_api_route_and_method_are_json_errors(client, three):
    game, _ = three
    resp = client.get("/api/v1/nothing-here")
    assert resp.status_code == 404 and resp.get_json()["error"]["code"] == "not_found"
    resp = client.delete(f"/api/v1/games/{game['id']}")
    assert 400 <= resp.status_code < 500 and set(resp.get_json()) == {"error"}


@pytest.mark.parametrize("method, path", [("delete", "/api/v1/games/{id}"), ("patch", "/api/v1/games"),
                                          ("put", "/api/v1/games/{id}"), ("post", "/api/v1/variants/classique")])  # fmt: skip
def test_an_unsupported_method_is_405_method_not_allowed(client, three, method, path):
    game, auth = three
    resp = getattr(client, method)(path.format(id=game["id"]), json={}, headers=auth)
    assert_error(resp, 405, "method_not_allowed")


NOT_JSON = [
    {"data": '{"variant": "classique", "players": ["Ana", "Bob"]}', "content_type": "text/plain"},
    {"data": {"variant": "classique", "players": ["Ana", "Bob"]}},  # application/x-www-form-urlencoded
    {"data": {"variant": "classique"}, "content_type": "multipart/form-data"},
    {"data": '{"variant": "classique", "players": ["Ana", "Bob"]}'},  # no Content-Type at all
    {},  # no body
]


@pytest.mark.parametrize("kwargs", NOT_JSON, ids=["text-plain", "form", "multipart", "no-type", "no-body"])
@pytest.mark.parametrize(
    "path", ["/api/v1/games", "/api/v1/games/import", "/api/v1/score", "/api/v1/referee/check", "/api/v1/variants",
             "/api/v1/variants/import"],
)  # fmt: skip
def test_writes_take_json_only(client, app, path, kwargs):
    """A page on another site can post a plain HTML form (text/plain, no CORS preflight) to the API
    under its visitors' addresses: 415, nothing created."""
    assert_error(client.post(path, **kwargs), 415, "unsupported_media_type")
    with Session(app.extensions["database"].reader) as session:
        assert session.exec(select(func.count()).select_from(Game)).one()[0] == 0


def test_manche_writes_take_json_only_and_delete_needs_no_body(client, three):
    game, auth = three
    body = '{"winner": "Ana", "hands": {"Bob": ["3H"], "Chloé": ["4H"]}}'
    url = f"/api/v1/games/{game['id']}/manches"
    assert_error(client.post(url, data=body, content_type="text/plain", headers=auth), 415, "unsupported_media_type")
    resp = client.post(url, data=body, content_type="application/json; charset=utf-8", headers=auth)
    assert resp.status_code == 201
    assert_error(
        client.put(url + "/1", data=body, content_type="text/plain", headers=auth), 415, "unsupported_media_type"
    )
    assert get_game(client, game)["totals"] == {"Ana": 0, "Bob": 3, "Chloé": 4}  # 3H 3, 4H 4; nothing else
    resp = client.delete(url + "/1", headers=auth)  # DELETE carries no body, and needs none
    assert resp.status_code == 200 and resp.get_json()["manches"] == []


def test_openapi_says_bodies_are_json_only(client):
    document = client.get("/api/v1/openapi.json").get_json()
    with_body = [op for path in document["paths"].values() for op in path.values() if "requestBody" in op]
    assert len(with_body) == 11
    for operation in with_body:
        assert list(operation["requestBody"]["content"]) == ["application/json"]
        assert "415" in operation["responses"], operation["operationId"]


# --- every mode end to end -----------------------------------------------------------------------


def test_penalty_classique_to_500(client, three):
    game, auth = three
    m = [
        # M1 Ana out: Bob 8H 50 + 8S 50 + JK 50 = 150; Chloé KS 10 + QS 10 + 3H 3 = 23 → 0, 150, 23
        {"winner": "Ana", "hands": {"Bob": ["8H", "8S", "JK"], "Chloé": ["KS", "QS", "3H"]}},
        # M2 Bob out: Ana JK 50 + 8D 50 + AH 20 = 120; Chloé typed 200 → 120, 150, 223
        {"winner": "Bob", "hands": {"Ana": ["JK", "8D", "AH"]}, "points": {"Chloé": 200}},
        # M3 Chloé out: Ana typed 300; Bob 8C 50 + JH 20 + 2C 20 + 10D 10 = 100 → 420, 250, 223
        {"winner": "Chloé", "points": {"Ana": 300}, "hands": {"Bob": ["8C", "JH", "2C", "10D"]}},
        # M4 Chloé out: Ana 7S 7; Bob typed 250 → 427, 500, 223: Bob reached 500 (≥), the game is over
        {"winner": "Chloé", "hands": {"Ana": ["7S"]}, "points": {"Bob": 250}},
    ]
    expected = [
        ({"Ana": 0, "Bob": 150, "Chloé": 23}, {"Ana": 0, "Bob": 150, "Chloé": 23}),
        ({"Ana": 120, "Bob": 0, "Chloé": 200}, {"Ana": 120, "Bob": 150, "Chloé": 223}),
        ({"Ana": 300, "Bob": 100, "Chloé": 0}, {"Ana": 420, "Bob": 250, "Chloé": 223}),
        ({"Ana": 7, "Bob": 250, "Chloé": 0}, {"Ana": 427, "Bob": 500, "Chloé": 223}),
    ]
    for number, (body, (points, totals)) in enumerate(zip(m, expected, strict=True), start=1):
        out = post_manche(client, game, auth, body)
        assert (out["number"], out["points"], out["totals"]) == (number, points, totals)
        assert out["status"] == ("finished" if number == 4 else "playing")
    assert out["winners"] == ["Chloé"]  # lowest total: 223
    final = get_game(client, game)
    assert (final["status"], final["winners"], final["totals"]) == ("finished", ["Chloé"], expected[-1][1])
    late = client.post(f"/api/v1/games/{game['id']}/manches", json=m[0], headers=auth)
    assert_error(late, 409, "game_finished")


def test_penalty_equal_lowest_totals_share_the_win(client, three):
    game, auth = three
    # M1 Ana out: Bob typed 300, Chloé 5H + 5S = 10 → 0, 300, 10
    post_manche(client, game, auth, {"winner": "Ana", "points": {"Bob": 300}, "hands": {"Chloé": ["5H", "5S"]}})
    # M2 Chloé out: Ana 4H + 6H = 10, Bob typed 200 → 10, 500, 10: over, Ana and Chloé share the win
    out = post_manche(client, game, auth, {"winner": "Chloé", "hands": {"Ana": ["4H", "6H"]}, "points": {"Bob": 200}})
    assert out["totals"] == {"Ana": 10, "Bob": 500, "Chloé": 10}
    assert out["status"] == "finished"
    assert sorted(out["winners"]) == ["Ana", "Chloé"]


def test_winner_collects_les_huit_with_partners_to_100(client):
    game, auth = create(client, "les-huit", FOUR)
    url = f"/api/v1/games/{game['id']}/manches"
    # M1 Ana out: her team scores Bob 8H 50 + KS 10 = 60 and Dan AS 1 + 2S 2 = 3 → 63.
    # Chloé's QH (the partner's hand) is given but not counted.
    out = post_manche(
        client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Dan": ["AS", "2S"], "Chloé": ["QH"]}}
    )
    assert out["points"] == {AC: 63, BD: 0} and out["totals"] == {AC: 63, BD: 0}
    # M2 Dan out, Bob (partner) left out: Ana 10H 10 + 9H 9 = 19, Chloé JD 10 → Bob & Dan 29
    out = post_manche(client, game, auth, {"winner": "Dan", "hands": {"Ana": ["10H", "9H"], "Chloé": ["JD"]}})
    assert out["points"] == {AC: 0, BD: 29} and out["totals"] == {AC: 63, BD: 29}
    assert out["status"] == "playing"
    # an opponent's hand is still required
    assert_error(
        client.post(url, json={"winner": "Chloé", "hands": {"Bob": ["8S"]}}, headers=auth), 422, "missing_hand"
    )
    # M3 Chloé out: Bob 8S 50, Dan 3C 3 + 4C 4 = 7 → +57 → 120 ≥ 100: Ana & Chloé win
    out = post_manche(client, game, auth, {"winner": "Chloé", "hands": {"Bob": ["8S"], "Dan": ["3C", "4C"]}})
    assert out["points"] == {AC: 57, BD: 0} and out["totals"] == {AC: 120, BD: 29}
    assert out["status"] == "finished" and out["winners"] == [AC]
    assert_error(
        client.post(url, json={"winner": "Bob", "hands": {"Ana": [], "Chloé": []}}, headers=auth), 409, "game_finished"
    )


def test_winner_collects_without_partners(client):
    game, auth = create(client, "les-huit", FOUR, options={"partners": False})
    # Ana out: Bob KD 10 + Chloé 2D 2 + Dan 8D 50 = 62, only Ana scores
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KD"], "Chloé": ["2D"], "Dan": ["8D"]}})
    assert out["points"] == {"Ana": 62, "Bob": 0, "Chloé": 0, "Dan": 0}
    # everyone but the winner must be entered: no partner exemption
    body = {"winner": "Ana", "hands": {"Bob": ["KD"], "Dan": ["8D"]}}
    assert_error(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), 422, "missing_hand")


def test_classique_switched_to_winner_collects(client):
    game, auth = create(client, "classique", THREE, mode="winner", target=100)
    # Ana out: Bob 8H 50, Chloé JK 50 → Ana 100 ≥ 100 wins (highest total)
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8H"], "Chloé": ["JK"]}})
    assert out["totals"] == {"Ana": 100, "Bob": 0, "Chloé": 0}
    assert out["status"] == "finished" and out["winners"] == ["Ana"]


def test_wins_mode_first_to_the_number_of_manches_won(client):
    game, auth = create(client, "classique", ["Ana", "Bob"], mode="wins", target=2)
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8H", "JK"]}})
    assert out["points"] == {"Ana": 1, "Bob": 0} and out["status"] == "playing"
    out = post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["3C"]}})
    assert out["totals"] == {"Ana": 1, "Bob": 1} and out["status"] == "playing"
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KC"]}})
    assert out["totals"] == {"Ana": 2, "Bob": 1}
    assert out["status"] == "finished" and out["winners"] == ["Ana"]


def test_rounds_penalty_best_is_lowest(client):
    game, auth = create(client, "classique", THREE, rounds=3)
    assert (game["target"], game["rounds"]) == (None, 3)
    # M1 Ana out: Bob KH 10, Chloé JH 20 → 0, 10, 20
    out = post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["KH"], "Chloé": ["JH"]}})
    assert out["totals"] == {"Ana": 0, "Bob": 10, "Chloé": 20} and out["status"] == "playing"
    # M2 Bob out: Ana 8H 50, Chloé 2C 20 → 50, 10, 40
    out = post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["8H"], "Chloé": ["2C"]}})
    assert out["totals"] == {"Ana": 50, "Bob": 10, "Chloé": 40} and out["status"] == "playing"
    # M3 Bob out: Ana 3C 3, Chloé 4C 4 → 53, 10, 44: three manches played, Bob (lowest) wins
    out = post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["3C"], "Chloé": ["4C"]}})
    assert out["totals"] == {"Ana": 53, "Bob": 10, "Chloé": 44}
    assert out["status"] == "finished" and out["winners"] == ["Bob"]
    body = {"winner": "Ana", "hands": {"Bob": [], "Chloé": []}}
    assert_error(client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth), 409, "game_finished")


def test_rounds_winner_collects_best_is_highest(client):
    game, auth = create(client, "les-huit", ["Ana", "Bob"], rounds=2)
    # M1 Ana out: Bob 8C 50 → Ana 50.  M2 Bob out: Ana KC 10 + QC 10 = 20 → Bob 20.  Highest: Ana 50.
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["8C"]}})
    out = post_manche(client, game, auth, {"winner": "Bob", "hands": {"Ana": ["KC", "QC"]}})
    assert out["totals"] == {"Ana": 50, "Bob": 20}
    assert out["status"] == "finished" and out["winners"] == ["Ana"]


def test_blocked_manche_les_huit_teams(client):
    game, auth = create(client, "les-huit", FOUR)
    url = f"/api/v1/games/{game['id']}/manches"
    # Ana KS 10 + Chloé 2H 2 = 12; Bob AH 1 + Dan 3D 3 = 4: Bob & Dan lowest, score 12 − 4 = 8
    hands = {"Ana": ["KS"], "Chloé": ["2H"], "Bob": ["AH"], "Dan": ["3D"]}
    out = post_manche(client, game, auth, {"winner": None, "blocked": True, "hands": hands})
    assert out["points"] == {AC: 0, BD: 8} and out["totals"] == {AC: 0, BD: 8}
    manche = get_game(client, game)["manches"][0]
    assert manche["blocked"] is True and manche["winner"] is None
    # every player appears in a blocked manche, partners included
    partial = {"blocked": True, "hands": {"Ana": ["KS"], "Bob": ["AH"], "Dan": ["3D"]}}
    assert_error(client.post(url, json=partial, headers=auth), 422, "missing_hand")
    # a blocked manche has no winner
    assert_error(client.post(url, json={**partial, "winner": "Ana"}, headers=auth), 422, "validation_error")


def test_blocked_manche_les_huit_three_players(client):
    game, auth = create(client, "les-huit", THREE)
    # Ana KS 10 + QS 10 = 20, Bob 5H 5, Chloé 9C 9: Bob scores (20 − 5) + (9 − 5) = 15 + 4 = 19
    hands = {"Ana": ["KS", "QS"], "Bob": ["5H"], "Chloé": ["9C"]}
    out = post_manche(client, game, auth, {"winner": None, "blocked": True, "hands": hands})
    assert out["points"] == {"Ana": 0, "Bob": 19, "Chloé": 0}
    # a tie for the lowest hand scores nothing: Ana 5H 5, Bob 2S 2 + 3S 3 = 5, Chloé KD 10
    hands = {"Ana": ["5H"], "Bob": ["2S", "3S"], "Chloé": ["KD"]}
    out = post_manche(client, game, auth, {"blocked": True, "hands": hands})
    assert out["points"] == {"Ana": 0, "Bob": 0, "Chloé": 0}
    assert out["totals"] == {"Ana": 0, "Bob": 19, "Chloé": 0}


def test_blocked_manche_tie_between_teams_scores_nothing(client):
    game, auth = create(client, "les-huit", FOUR)
    # Ana 4H 4 + Chloé 6H 6 = 10; Bob KH 10 + Dan typed 0 = 10: tie → nothing
    out = post_manche(
        client,
        game,
        auth,
        {"blocked": True, "hands": {"Ana": ["4H"], "Chloé": ["6H"], "Bob": ["KH"]}, "points": {"Dan": 0}},
    )
    assert out["points"] == {AC: 0, BD: 0}


# --- export and import ---------------------------------------------------------------------------


def played_les_huit(client):
    """A les-huit game with explicit teams (Rouges: Ana + Bob, Bleus: Chloé + Dan), first dealer Chloé."""
    teams = {"Rouges": ["Ana", "Bob"], "Bleus": ["Chloé", "Dan"]}
    game, auth = create(client, "les-huit", FOUR, teams=teams, first_dealer=2)
    # M1 Ana out: Chloé 8H 50 + Dan KS 10 → Rouges 60
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Chloé": ["8H"], "Dan": ["KS"]}})
    # M2 Dan out with typed totals: Ana 12, Bob 3D 3 → Bleus 15
    post_manche(client, game, auth, {"winner": "Dan", "hands": {"Bob": ["3D"]}, "points": {"Ana": 12}})
    return game, auth


def test_export_document(client):
    game, _ = played_les_huit(client)
    resp = client.get(f"/api/v1/games/{game['id']}/export")
    assert resp.status_code == 200
    doc = resp.get_json()
    assert doc["format"] == "carte-game/1"
    assert doc["totals"] == {"Rouges": 60, "Bleus": 15}
    assert doc["game"]["players"] == FOUR and doc["game"]["variant"] == "les-huit"
    assert [m["winner"] for m in doc["game"]["manches"]] == ["Ana", "Dan"]
    assert game["edit_token"] not in resp.get_data(as_text=True)  # an export never carries the edit token
    assert_error(client.get("/api/v1/games/nope/export"), 404, "not_found")


def test_import_rebuilds_the_game_with_a_new_id_and_token(client):
    game, auth = played_les_huit(client)
    doc = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    resp = client.post("/api/v1/games/import", json=doc)
    assert resp.status_code == 201
    new = resp.get_json()
    assert new["id"] != game["id"] and new["edit_token"] != game["edit_token"]
    assert len(new["edit_token"]) >= 22
    original = get_game(client, game)
    same = ("variant", "players", "teams", "options", "mode", "table", "target", "rounds", "totals", "status", "dealer")
    for key in same:
        assert new[key] == original[key], key
    assert [(m["number"], m["winner"], m["points"]) for m in new["manches"]] == [
        (m["number"], m["winner"], m["points"]) for m in original["manches"]
    ]
    # each game has its own token
    body = {"winner": "Bob", "hands": {"Chloé": ["2C"], "Dan": ["2D"]}}
    resp = client.post(f"/api/v1/games/{new['id']}/manches", json=body, headers=auth)
    assert_error(resp, 403, "forbidden")
    out = post_manche(client, new, {"Authorization": f"Bearer {new['edit_token']}"}, body)
    assert out["number"] == 3 and out["totals"] == {"Rouges": 64, "Bleus": 15}  # 2C 2 + 2D 2
    assert get_game(client, game)["totals"] == {"Rouges": 60, "Bleus": 15}  # the original is untouched


def test_import_keeps_a_blocked_manche(client):
    game, auth = create(client, "les-huit", THREE)
    # blocked: Ana 3H 3, Bob 4H 4, Chloé KD 10 → Ana scores (4 − 3) + (10 − 3) = 8
    post_manche(client, game, auth, {"blocked": True, "hands": {"Ana": ["3H"], "Bob": ["4H"], "Chloé": ["KD"]}})
    doc = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    new = client.post("/api/v1/games/import", json=doc).get_json()
    assert new["manches"][0]["blocked"] is True
    again = client.get(f"/api/v1/games/{new['id']}/export").get_json()
    resp = client.post("/api/v1/games/import", json=again)
    assert resp.status_code == 201 and resp.get_json()["totals"] == {"Ana": 8, "Bob": 0, "Chloé": 0}


def test_import_errors(client, app):
    game, _ = played_les_huit(client)
    doc = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    assert_error(client.post("/api/v1/games/import", json={**doc, "format": "carte-game/0"}), 422, "validation_error")
    assert_error(client.post("/api/v1/games/import", json=[doc]), 422, "validation_error")
    wrong = {**doc, "totals": {"Rouges": 61, "Bleus": 15}}
    assert_error(client.post("/api/v1/games/import", json=wrong), 422, "validation_error", "totals")
    bad_card = {**doc, "game": {**doc["game"], "manches": [dict(doc["game"]["manches"][0])]}}
    bad_card["game"]["manches"][0]["hands"] = {"Chloé": ["ZZ"], "Dan": ["KS"]}
    assert_error(client.post("/api/v1/games/import", json=bad_card), 422, "invalid_card", names="ZZ")
    # all or nothing: no refused import left a game behind
    with Session(app.extensions["database"].reader) as session:
        assert session.execute(select(func.count()).select_from(Game)).scalar_one() == 1


@pytest.mark.parametrize("where", ["winner-list", "hand-int", "table-list"])
def test_import_malformed_document_is_a_4xx(client, where):
    game, _ = played_les_huit(client)
    doc = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    first = doc["game"]["manches"][0]
    if where == "winner-list":
        first["winner"] = ["Ana"]
    elif where == "hand-int":
        first["hands"]["Chloé"] = 5
    else:
        doc["game"]["table"] = ["standard"]
    resp = client.post("/api/v1/games/import", json=doc)
    assert_error(resp, 422, "validation_error")


def test_an_edit_that_ends_the_game_earlier_is_refused(client):
    """Issue 16: target 50; Bob 3 then 9 (12). Manche 1 rewritten as Bob 8♠ 2♥ 3♥ = 50 + 20 + 3 = 73
    would end the game at manche 1 (000: « La partie s'arrête quand un joueur atteint 500 points (ou
    dépasse) »): manche 2 would come after the end. 409 game_finished, naming it; nothing changed."""
    game, auth = create(client, "classique", ["Ana", "Bob"], target=50)
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["3H"]}})
    post_manche(client, game, auth, {"winner": "Ana", "hands": {"Bob": ["9C"]}})
    body = {"winner": "Ana", "hands": {"Bob": ["8S", "2H", "3H"]}}
    resp = client.put(f"/api/v1/games/{game['id']}/manches/1", json=body, headers={**auth, "Accept-Language": "en"})
    error = assert_error(resp, 409, "game_finished")
    assert "round 1" in error["message"] and "after the end: 2." in error["message"]
    after = get_game(client, game)
    assert after["totals"] == {"Ana": 0, "Bob": 12} and after["status"] == "playing" and after["after_end"] == []

"""JSON API v1 over HTTP (SPEC §4): every route, every error code, every scoring mode end to end.

Every expected number is computed by hand from SPEC §2's scoring tables; the arithmetic is in the
comments. Error bodies are checked to be exactly {"error": {"code", "message", "field"?}} with a
4xx status.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.unit.test_scoring import SPEC_POINTS

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

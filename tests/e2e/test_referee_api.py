"""The dispute checker through POST /api/v1/referee/check, in French and English: a
representative subset of the cases of ``tests/unit/test_referee.py`` (each worked out by hand from
SPEC §3 and the rule texts, the rule that decides it named in a comment), errors and bad bodies.
"""

from __future__ import annotations

import re

import pytest

from tests.unit.test_referee import ALL_CASES, UNSET, params  # the cases worked out by hand

API_CASES = [c for c in ALL_CASES if c["api"] and not c["xfail"]]
URL = "/api/v1/referee/check"


def body_of(c) -> dict:
    body = {"variant": c["variant"], "top": c["top"], "card": c["card"], "players": c["players"]}
    if c["opts"]:
        body["options"] = c["opts"]
    if c["suit"]:
        body["active_suit"] = c["suit"]
    if c["pending"]:
        body["pending"] = True
    if c["last"]:
        body["last_card"] = True
    return body


def assert_error(resp, field=None, code=None):
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.get_data(as_text=True))
    body = resp.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert {"code", "message"} <= set(error) <= {"code", "message", "field"}, error
    assert isinstance(error["message"], str) and error["message"].strip()
    if code:
        assert error["code"] == code, error
    if field:
        assert error.get("field") == field, error
    return error


BASE = {"variant": "classique", "top": "9H", "card": "5H"}


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("c", params(API_CASES))
def test_api_check(client, c, language):
    headers = {"Accept-Language": "en"} if language == "en" else {}
    resp = client.post(URL, json=body_of(c), headers=headers)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    data = resp.get_json()
    assert set(data) == {"legal", "reason", "rule", "effect", "cost", "turn_lost", "depends_on"}
    assert (data["cost"] is None) is c["legal"]  # an illegal card always says what it costs
    assert data["legal"] is c["legal"]
    for key in ("reason", "rule", "effect"):
        assert isinstance(data[key], str) and data[key].strip(), key
        assert "%(" not in data[key], data[key]
    if c["draw"] is not UNSET:
        for n in c["draw"]:
            assert re.search(rf"\b{n}\b", data["effect"]), data["effect"]


def test_api_english_effect_words(client):
    """The English texts carry the facts: Joker +4 in classique, hearts named after an 8."""
    en = {"Accept-Language": "en"}
    data = client.post(URL, json={"variant": "classique", "top": "3D", "card": "JK"}, headers=en).get_json()
    assert data["legal"] is True and re.search(r"\b4\b", data["effect"]) and "turn" in data["effect"]
    data = client.post(
        URL, json={"variant": "classique", "top": "8S", "card": "4S", "active_suit": "H"}, headers=en
    ).get_json()
    assert data["legal"] is False and "hearts" in data["reason"].lower()
    data = client.post(URL, json={"variant": "huit-americain", "top": "7C", "card": "7H"}, headers=en).get_json()
    assert data["legal"] is True and "random" in data["effect"]


def test_api_french_is_default(client):
    fr = client.post(URL, json={"variant": "54-cartes", "top": "5H", "card": "JK"}).get_json()
    en = client.post(
        URL, json={"variant": "54-cartes", "top": "5H", "card": "JK"}, headers={"Accept-Language": "en"}
    ).get_json()
    assert fr["legal"] is en["legal"] is True
    assert fr["effect"] != en["effect"]
    assert re.search(r"\b5\b", fr["effect"]) and re.search(r"\b5\b", en["effect"])


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize(
    "change, field, code",
    [
        ({"top": None}, "top", None),
        ({"card": None}, "card", None),
        ({"card": "ZZ"}, "card", "invalid_card"),
        ({"top": "ZZ"}, "top", "invalid_card"),
        ({"card": ""}, "card", None),
        ({"card": 7}, "card", None),
        ({"card": "8"}, "card", None),
        ({"variant": "nope"}, "variant", "unknown_variant"),
        ({"variant": None}, "variant", "unknown_variant"),
        ({"top": "8H", "card": "4S"}, "active_suit", "validation_error"),
        ({"top": "JK", "card": "4S"}, "active_suit", "validation_error"),
        ({"top": "8H", "card": "4S", "active_suit": "Z"}, "active_suit", "validation_error"),
        ({"players": 1}, "players", "validation_error"),
        ({"players": 0}, "players", "validation_error"),
        ({"players": 99}, "players", "validation_error"),
        ({"players": "abc"}, "players", "validation_error"),
        ({"players": True}, "players", "validation_error"),
        ({"pending": "yes"}, None, "validation_error"),
        ({"last_card": 1}, None, "validation_error"),
        ({"options": {"nope": True}}, None, "validation_error"),
        ({"options": "stacking"}, "options", "validation_error"),
        ({"variant": "deux-jeux", "card": "JK"}, "card", None),
        ({"variant": "les-huit", "top": "JK", "active_suit": "H"}, "top", None),
        ({"variant": "huit-elabore", "card": "Joker"}, "card", None),
    ],
)
def test_api_errors(client, change, field, code, language):
    body = {k: v for k, v in {**BASE, **change}.items() if v is not None}
    headers = {"Accept-Language": "en"} if language == "en" else {}
    resp = client.post(URL, json=body, headers=headers)
    assert resp.status_code != 500
    error = assert_error(resp, field=field, code=code)
    if "card" in change and change["card"] == "JK":
        assert resp.status_code == 422, error


@pytest.mark.parametrize("data", ["not json", "[1, 2]", ""])
def test_api_bad_body(client, data):
    resp = client.post(URL, data=data, content_type="application/json")
    assert_error(resp)


@pytest.mark.parametrize(
    "variant, players",
    [
        # §2 les-huit is played by 2–4 players.
        ("les-huit", 5),
        # §2 classique is played by 2–5 players.
        ("classique", 6),
    ],
)
def test_api_players_outside_variant_range(client, variant, players):
    resp = client.post(URL, json={"variant": variant, "top": "9H", "card": "5H", "players": players})
    assert_error(resp, field="players")


def test_api_joker_without_jokers_is_invalid_card(client):
    resp = client.post(URL, json={"variant": "deux-jeux", "top": "5H", "card": "JK"})
    assert_error(resp, field="card", code="invalid_card")


def test_api_pending_skip_and_covered(client):
    en = {"Accept-Language": "en"}
    # 000 « Le Valet fait sauter le tour du joueur suivant »
    data = client.post(
        URL, json={"variant": "classique", "top": "JH", "card": "JS", "pending": True}, headers=en
    ).get_json()
    assert data["legal"] is False and data["turn_lost"] is True and "loses the turn" in data["effect"]
    fr = client.post(URL, json={"variant": "classique", "top": "JH", "card": "JS", "pending": True}).get_json()
    assert fr["legal"] is False and "perd son tour" in fr["effect"]
    # 004: the King on an 8 that covered a King
    body = {"variant": "les-huit", "players": 3, "top": "8S", "active_suit": "H", "card": "KD"}
    data = client.post(URL, json={**body, "covered": "KC"}, headers=en).get_json()
    assert data["legal"] is True and data["depends_on"] is None
    data = client.post(URL, json=body, headers=en).get_json()
    assert data["legal"] is False and data["depends_on"] == "covered"
    assert "card under" in data["reason"] and "King" in data["reason"]
    assert_error(client.post(URL, json={**body, "covered": "ZZ"}), field="covered", code="invalid_card")

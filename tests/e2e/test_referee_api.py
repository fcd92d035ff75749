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


# --- issue 26: what a wrong card costs, chains sent on, in French and in English --------------------


@pytest.mark.parametrize(
    "body, fr, en",
    [
        # 001 « tout joueur qui … enfreint une règle pioche également deux cartes supplémentaires »
        (
            {"variant": "deux-jeux", "top": "9C", "card": "3D"},
            "Pénalité : le joueur pioche 2 cartes de plus. Une carte déjà posée revient dans la main.",
            "Penalty: the player draws 2 more cards. A card already laid goes back to the hand.",
        ),
        # 003, autre variante: « toute carte inadéquate à la série doit être reprise », « pénalisé par la
        # pioche d'une carte au talon »; « Pas de 2 sur un 9 ».
        (
            {"variant": "huit-elabore", "top": "9H", "card": "2H"},
            "Pénalité : le joueur pioche 1 carte de plus. Une carte déjà posée revient dans la main.",
            "Penalty: the player draws 1 more card. A card already laid goes back to the hand.",
        ),
        # 000, 002, 003 (first rule) and 004 set no penalty for a wrong card: said plainly.
        (
            {"variant": "classique", "top": "9H", "card": "5C"},
            "Les règles ne prévoient pas de pénalité : une carte déjà posée revient simplement dans la main.",
            "The rules set no penalty: a card already laid simply goes back to the hand.",
        ),
        (
            {"variant": "les-huit", "top": "KD", "card": "3C", "players": 3},
            "Les règles ne prévoient pas de pénalité : une carte déjà posée revient simplement dans la main.",
            "The rules set no penalty: a card already laid simply goes back to the hand.",
        ),
    ],
)
def test_api_says_what_a_wrong_card_costs(client, body, fr, en):
    for language, wanted in (("fr", fr), ("en", en)):
        data = client.post(URL, json=body, headers={"Accept-Language": language}).get_json()
        assert data["legal"] is False
        assert data["cost"].replace("\u00a0", " ") == wanted
        assert data["effect"].replace("\u00a0", " ").endswith(wanted)  # the effect says it last


@pytest.mark.parametrize(
    "body, fr, en",
    [
        # 000 « Empilement des +2 et +4 : autoriser qu'un joueur réponde par un 2 ou un Joker pour « renvoyer »
        # la pioche au suivant »: a 2 on a pending 2, 2 + 2 (interpretation: the draws add up).
        (
            {"variant": "classique", "options": {"stacking": True}, "top": "2H", "card": "2S", "pending": True},
            "Le 2 de pique renvoie la pioche au suivant : elle compte maintenant 4 cartes. Le joueur d'après peut "
            "la renvoyer à son tour avec un 2 ou un Joker ; sinon il pioche le tout et perd son tour.",
            "The 2 of spades sends the draw on to the next player: it now counts 4 cards. The next player may send "
            "it on in turn with a 2 or a Joker; otherwise they draw it all and lose the turn.",
        ),
        # 003 « c'est le troisième joueur qui … devra piocher deux cartes par As posé »: two Aces already
        # (pending_draw 4), a third: 6.
        (
            {"variant": "huit-americain", "top": "AH", "card": "AC", "pending": True, "pending_draw": 4},
            "L'As de trèfle renvoie la pioche au suivant : elle compte maintenant 6 cartes. Le joueur d'après peut "
            "la renvoyer à son tour avec un As ; sinon il pioche le tout et perd son tour.",
            "The Ace of clubs sends the draw on to the next player: it now counts 6 cards. The next player may send "
            "it on in turn with an Ace; otherwise they draw it all and lose the turn.",
        ),
    ],
)
def test_api_an_answer_sends_the_draw_on(client, body, fr, en):
    for language, wanted in (("fr", fr), ("en", en)):
        data = client.post(URL, json=body, headers={"Accept-Language": language}).get_json()
        assert data["legal"] is True and data["cost"] is None
        assert data["effect"].replace("\u00a0", " ").startswith(wanted), data["effect"]


def test_api_pending_draw_is_checked(client):
    body = {"variant": "classique", "options": {"stacking": True}, "top": "JK", "active_suit": "H", "card": "2S"}
    # the Joker alone makes 4: a draw of 2 cannot be pending after it
    assert_error(client.post(URL, json={**body, "pending": True, "pending_draw": 2}), field="pending_draw")
    assert_error(client.post(URL, json={**body, "pending": True, "pending_draw": "8"}), field="pending_draw")
    data = client.post(URL, json={**body, "pending": True, "pending_draw": 8}, headers={"Accept-Language": "en"})
    assert "it now counts 10 cards" in data.get_json()["effect"]  # 8 + the 2's own 2


@pytest.mark.parametrize(
    "language, wanted",
    [("fr", "Indiquez la couleur annoncée après le Joker."), ("en", "Say which suit was named after the Joker.")],
)
def test_api_asks_for_the_suit_named_after_a_joker_in_words(client, language, wanted):
    # issue 30 item 9: « Indiquez la couleur annoncée après JK. » named the card by its code.
    response = client.post(
        URL, json={"variant": "classique", "top": "JK", "card": "5S"}, headers={"Accept-Language": language}
    )
    error = assert_error(response, field="active_suit", code="validation_error")
    assert error["message"] == wanted

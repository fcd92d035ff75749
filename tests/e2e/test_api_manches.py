"""JSON API v1 over HTTP (SPEC §4): recording, editing and deleting manches, the idempotency keys,
every scoring mode end to end, export and import.

Every expected number is computed by hand from SPEC §2's scoring tables; the arithmetic is in the
comments. Error bodies are checked to be exactly {"error": {"code", "message", "field"?}}.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select
from sqlmodel import Session

from models.services.db import Game
from tests.e2e.test_api import THREE, assert_error, create, get_game, post_manche

# --- POST /api/v1/games/{id}/manches: auth and errors --------------------------------------------


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
    written = {(method.upper(), path) for path, ops in document["paths"].items() for method, op in ops.items()
               if "requestBody" in op}  # fmt: skip
    assert written == {
        ("POST", "/games"), ("POST", "/games/import"),  # a game
        ("POST", "/games/{game_id}/manches"), ("PUT", "/games/{game_id}/manches/{number}"),  # its manches
        ("PUT", "/games/{game_id}/entry/hands/{seat}"), ("PUT", "/games/{game_id}/entry/winner"),  # the open entry
        ("POST", "/games/{game_id}/entry/save"),
        ("POST", "/games/{game_id}/players"), ("POST", "/games/{game_id}/players/leave"),  # who sits
        ("POST", "/groups/{group_id}/members"), ("POST", "/groups/import"),  # a group
        ("POST", "/groups/{group_id}/invites"), ("PUT", "/groups/{group_id}/members/{member_id}"),  # its links, names
        ("PUT", "/groups/{group_id}/games/{game_id}"),  # a game put back in its group
        ("POST", "/nights/{night_id}/rounds"), ("POST", "/nights/{night_id}/end"),  # a club night's next turn, its end
        ("POST", "/nights/{night_id}/gone"), ("PUT", "/nights/{night_id}/ranking"),  # who left, how it is ranked
        ("POST", "/variants"), ("POST", "/variants/import"), ("PUT", "/variants/{variant_id}"),  # house rules
        ("POST", "/score"), ("POST", "/referee/check"),  # the calculette and the referee
    }  # fmt: skip
    for operation in with_body:
        assert list(operation["requestBody"]["content"]) == ["application/json"]
        assert "415" in operation["responses"], operation["operationId"]


def test_every_api_operation_answers_another_method_405_with_allow(app, client):
    """Each path of the OpenAPI document, asked with a method none of its routes takes: 405, and
    ``Allow`` lists the methods it takes (RFC 9110 §15.5.6), those the document gives among them."""
    document = client.get("/api/v1/openapi.json").get_json()
    adapter = app.url_map.bind("localhost")
    assert len(document["paths"]) >= 20
    for template, operations in document["paths"].items():
        path = "/api/v1" + re.sub(r"\{(number|seat)\}", "1", re.sub(r"\{(?!number|seat)\w+\}", "abcdefgh", template))
        allowed = adapter.allowed_methods(path)
        method = next(m for m in ("PATCH", "DELETE", "PUT", "POST") if m not in allowed)
        resp = client.open(path, method=method)
        assert_error(resp, 405, "method_not_allowed")
        said = {m.strip() for m in resp.headers.get("Allow", "").split(",") if m.strip()}
        assert said == set(allowed) and {m.upper() for m in operations} <= said, (template, method, said)

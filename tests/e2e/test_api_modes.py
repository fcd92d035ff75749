"""JSON API v1 over HTTP (SPEC §4): every scoring mode played end to end, export and import.

Every expected number is computed by hand from SPEC §2's scoring tables; the arithmetic is in the
comments.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlmodel import Session

from models.services.db import Game
from tests.e2e.test_api import (
    AC,
    BD,
    FOUR,
    THREE,
    assert_error,
    create,
    get_game,
    post_manche,
)

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
    assert doc["format"] == "carte-game/2"
    assert doc["game"]["totals"] == {"Rouges": 60, "Bleus": 15} and "totals" not in doc
    assert doc["game"]["players"] == FOUR and doc["game"]["variant"] == "les-huit"
    assert [m["winner"] for m in doc["game"]["manches"]] == ["Ana", "Dan"]
    # a manche's names mean what they mean in the API: points by side, typed totals, hand values
    assert doc["game"]["manches"][1]["points"] == {"Rouges": 0, "Bleus": 15}
    assert doc["game"]["manches"][1]["typed"] == {"Ana": 12} and doc["game"]["manches"][1]["values"]["Bob"] == 3
    # one shape: the file's game is the API's, less what only the server knows, plus what rebuilding needs
    api = get_game(client, game)
    server_only = ("id", "revision", "share_url", "share_qr_url")
    assert set(doc["game"]) - set(api) == {"first_dealer", "created_at"}
    assert {k: v for k, v in doc["game"].items() if k in api} == {k: v for k, v in api.items() if k not in server_only}
    assert doc["game"]["first_dealer"] == 2
    assert game["edit_token"] not in resp.get_data(as_text=True)  # an export never carries the edit token
    assert_error(client.get("/api/v1/games/nope/export"), 404, "not_found")


def test_the_game_keeps_its_keys_in_the_order_it_always_had(client):
    """The API's game, built in models/services/game_json.py, answers its keys in the order it
    answered them before there was one shape (a client comparing answers byte for byte sees none)."""
    game, _ = played_les_huit(client)
    answer = get_game(client, game)
    assert list(answer) == [
        "id", "variant", "players", "teams", "options", "mode", "table", "target", "rounds", "roster", "seated",
        "table_order", "finish_forbidden", "manches", "after_end", "totals", "ranking", "status", "winners",
        "dealer", "starter", "cards_to_deal", "revision", "share_url", "share_qr_url",
    ]  # fmt: skip
    # a manche's parts stored as sent come after the rest (stored.MANCHE_PARTS): who saved it
    manche = ["number", "winner", "blocked", "last_card", "dealer", "hands", "typed", "values", "points", "saved_by"]
    assert all(list(m) == manche for m in answer["manches"])


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
    refused = client.post("/api/v1/games/import", json={**doc, "format": "carte-game/0"}).get_json()["error"]
    assert "carte-game/2" in refused["message"] and "carte-game/1" in refused["message"]
    wrong = {**doc, "game": {**doc["game"], "totals": {"Rouges": 61, "Bleus": 15}}}
    assert_error(client.post("/api/v1/games/import", json=wrong), 422, "validation_error", "totals")
    bad_card = {**doc, "game": {**doc["game"], "manches": [dict(doc["game"]["manches"][0])]}}
    bad_card["game"]["manches"][0]["hands"] = {"Chloé": ["ZZ"], "Dan": ["KS"]}
    assert_error(client.post("/api/v1/games/import", json=bad_card), 422, "invalid_card", names="ZZ")
    # all or nothing: no refused import left a game behind
    with Session(app.extensions["database"].reader) as session:
        assert session.execute(select(func.count()).select_from(Game)).scalar_one() == 1


# played_les_huit's game as files write it, by hand: carte-game/1 (SPEC §4's first format: a
# manche's typed totals under "points", the totals beside the game) and carte-game/2 (the API's names).
LES_HUIT = {
    "variant": "les-huit",
    "players": FOUR,
    "teams": {"Rouges": ["Ana", "Bob"], "Bleus": ["Chloé", "Dan"]},
    "first_dealer": 2,
}
FILE_1 = {
    "format": "carte-game/1",
    "game": {
        **LES_HUIT,
        "manches": [
            {"number": 1, "winner": "Ana", "hands": {"Chloé": ["8H"], "Dan": ["KS"]}, "points": {}},
            {"number": 2, "winner": "Dan", "hands": {"Bob": ["3D"]}, "points": {"Ana": 12}},
        ],
    },
    "totals": {"Rouges": 60, "Bleus": 15},
}
FILE_2 = {
    "format": "carte-game/2",
    "game": {
        **LES_HUIT,
        "manches": [
            {"number": 1, "winner": "Ana", "hands": {"Chloé": ["8H"], "Dan": ["KS"]}, "points": {"Rouges": 60}},
            {"number": 2, "winner": "Dan", "hands": {"Bob": ["3D"]}, "typed": {"Ana": 12}, "points": {"Bleus": 15}},
        ],
        "totals": {"Rouges": 60, "Bleus": 15},
    },
}


@pytest.mark.parametrize("document", [FILE_1, FILE_2], ids=["carte-game/1", "carte-game/2"])
def test_both_formats_import_to_the_same_game(client, document):
    """Ana's 12 typed counts in either format (Bleus 15 = Ana 12 + Bob 3D 3); the totals are checked
    where each format keeps them (a wrong one refused)."""
    new = client.post("/api/v1/games/import", json=document)
    assert new.status_code == 201, new.get_json()
    game = new.get_json()
    assert game["totals"] == {"Rouges": 60, "Bleus": 15}
    assert [m["dealer"] for m in game["manches"]] == ["Chloé", "Dan"] and game["dealer"] == "Ana"  # first_dealer 2
    assert [(m["number"], m["winner"], m["typed"], m["points"]) for m in game["manches"]] == [
        (1, "Ana", {}, {"Rouges": 60, "Bleus": 0}),
        (2, "Dan", {"Ana": 12}, {"Rouges": 0, "Bleus": 15}),
    ]
    wrong = {k: dict(v) if isinstance(v, dict) else v for k, v in document.items()}
    (wrong["game"] if document is FILE_2 else wrong)["totals"] = {"Rouges": 60, "Bleus": 16}
    assert_error(client.post("/api/v1/games/import", json=wrong), 422, "validation_error", "totals")


def test_an_export_imports_to_the_same_game(client):
    game, _ = played_les_huit(client)
    original = get_game(client, game)
    doc = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    new = client.post("/api/v1/games/import", json=doc).get_json()
    assert new["totals"] == original["totals"] and new["manches"] == original["manches"]
    assert client.get(f"/api/v1/games/{new['id']}/export").get_json()["game"]["manches"] == doc["game"]["manches"]


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

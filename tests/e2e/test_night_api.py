"""A group's club nights in the JSON API: a member (an invite's token, then its member token as
bearer token) lists the group's nights, reads a night (its turn, its tables' games and totals, the
ranking with its ties, the next turn proposed as asked) and starts the next turn once however often
it is sent; a night is a 404 to anyone else.

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0, every
other player their hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20); the lowest total wins the table.
"""

from __future__ import annotations

import pytest

from models.services.games import MancheEntry
from tests.e2e.test_groups import join_link, make_group, phone


@pytest.fixture
def played(app):
    """Ana's group, a member client's bearer header, and a night of two tables whose turn 1 is over:
    table 1 Ana goes out, Bob keeps 3♣ (3); table 2 Chloé goes out, Dan keeps K♦ 2♠ (30)."""
    return played_night(app)[1:]


def played_night(app):
    """``played``, with Ana's phone first."""
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    joined = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    bearer = {"Authorization": f"Bearer {joined.get_json()['member_token']}"}
    nights, games = app.extensions["nights"], app.extensions["games"]
    night_id, _ = nights.start(group_id, "Mardi soir", "classique", None, 1, [["Ana", "Bob"], ["Chloé", "Dan"]], "k")
    one, two = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(one, MancheEntry("Ana", {"Bob": ["3C"]}))
    games.record_manche(two, MancheEntry("Chloé", {"Dan": ["KD", "2S"]}))
    return ana, client, bearer, group_id, night_id, (one, two)


def test_a_member_lists_and_reads_a_night(app, played):
    client, bearer, group_id, night_id, (one, two) = played
    listed = client.get(f"/api/v1/groups/{group_id}/nights", headers=bearer).get_json()
    assert listed["group"] == group_id
    assert [(n["id"], n["name"], n["turn"], n["rounds"]) for n in listed["nights"]] == [(night_id, "Mardi soir", 1, 1)]

    night = client.get(f"/api/v1/nights/{night_id}?method=together&tables=2&seed=5", headers=bearer).get_json()
    assert (night["id"], night["group"], night["turn"], night["lower_is_better"]) == (night_id, group_id, 1, True)
    assert night["tables"] == [
        {"table": 1, "game": one, "finished": True, "totals": [{"name": "Ana", "total": 0}, {"name": "Bob", "total": 3}],
         "winners": ["Ana"]},
        {"table": 2, "game": two, "finished": True,
         "totals": [{"name": "Chloé", "total": 0}, {"name": "Dan", "total": 30}], "winners": ["Chloé"]},
    ]  # fmt: skip
    # Ana and Chloé: one table won each, 0 points: tied first (place 1 each); Bob 3 points third,
    # Dan 30 fourth.
    assert [(p["place"], p["name"], p["wins"], p["points"], p["tied"]) for p in night["ranking"]] == [
        (1, "Ana", 1, 0, True),
        (1, "Chloé", 1, 0, True),
        (3, "Bob", 0, 3, False),
        (4, "Dan", 0, 30, False),
    ]
    # Together, 2 tables of 2: the two first, then the two next.
    assert night["proposal"] == {"turn": 2, "method": "together", "tables": 2, "seed": 5,
                                 "seating": [["Ana", "Chloé"], ["Bob", "Dan"]], "error": None}  # fmt: skip
    # Spread (the default) deals a snake: 1st table 1, 2nd table 2, 3rd table 2, 4th table 1.
    spread = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()["proposal"]
    assert (spread["method"], spread["seating"]) == ("spread", [["Ana", "Dan"], ["Chloé", "Bob"]])
    # Four players cannot fill three tables of classique (2 a table at least): said, a 422.
    refused = client.get(f"/api/v1/nights/{night_id}?tables=3", headers=bearer)
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "tables"


def test_a_member_starts_the_next_turn_once(app, played):
    client, bearer, _group_id, night_id, _games = played
    body = {"turn": 2, "seating": [["Ana", "Chloé"], ["Bob", "Dan"]]}
    started = client.post(f"/api/v1/nights/{night_id}/rounds", json=body, headers=bearer)
    assert started.status_code == 201
    made = started.get_json()["games"]
    assert [g["table"] for g in made] == [1, 2] and all(g["edit_token"] for g in made)
    again = client.post(f"/api/v1/nights/{night_id}/rounds", json=body, headers=bearer)
    assert again.status_code == 200
    assert again.get_json() == {
        "turn": 2,
        "started": False,
        "games": [{"table": g["table"], "id": g["id"]} for g in made],
    }
    night = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()
    assert night["turn"] == 2 and [t["game"] for t in night["tables"]] == [g["id"] for g in made]
    assert night["tables"][0]["totals"] == [{"name": "Ana", "total": 0}, {"name": "Chloé", "total": 0}]
    game = app.extensions["games"].get(made[1]["id"])
    assert game.players == ["Bob", "Dan"]
    for bad in ({"turn": 4, "seating": body["seating"]}, {"turn": "3", "seating": body["seating"]},
                {"turn": 3, "seating": "Ana"}, {"turn": 3, "seating": [["Ana"], ["Bob", "Dan"]]}, ["not", "an", "object"]):  # fmt: skip
        response = client.post(f"/api/v1/nights/{night_id}/rounds", json=bad, headers=bearer)
        assert response.status_code == 422, bad
        assert response.get_json()["error"]["code"] == "validation_error"
    assert app.extensions["nights"].state(night_id).night.round == 2  # nothing more started


def test_a_night_is_a_404_to_anyone_else(app, played):
    client, _bearer, group_id, night_id, _games = played
    other, bea = app.test_client(), phone(app)
    elsewhere = make_group(bea, "Autre")  # a member of another group: its token says nothing of this one
    invite = join_link(bea, elsewhere).rsplit("/", 1)[1]
    token = other.post(f"/api/v1/groups/{elsewhere}/members", json={"invite": invite}).get_json()["member_token"]
    assert (
        other.get(f"/api/v1/groups/{elsewhere}/nights", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    )
    for headers in ({}, {"Authorization": "Bearer not-a-member-token-at-all"}, {"Authorization": f"Bearer {token}"}):
        for path in (f"/api/v1/groups/{group_id}/nights", f"/api/v1/nights/{night_id}"):
            response = other.get(path, headers=headers)
            assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found", path
        posted = other.post(f"/api/v1/nights/{night_id}/rounds", json={"turn": 2, "seating": []}, headers=headers)
        assert posted.status_code == 404
    assert client.get("/api/v1/nights/nosuchnight000000000").status_code == 404
    assert app.extensions["nights"].state(night_id).night.round == 1


def test_the_nights_are_in_the_openapi_document(app):
    paths = app.test_client().get("/api/v1/openapi.json").get_json()["paths"]
    assert {"/groups/{group_id}/nights", "/nights/{night_id}", "/nights/{night_id}/rounds"} <= set(paths)
    assert "415" in paths["/nights/{night_id}/rounds"]["post"]["responses"]


def test_a_turn_too_small_for_the_night_is_said_in_the_proposal(app, played):
    """Six played turn 1 at two tables; turn 2 seats two at one table. Nobody has scored, so all six
    are tied, in the order of their names. Classique seats 2 to 5 a table: the turn's one table
    cannot seat six — said in the proposal (seated there all the same, as the page does) when no
    number of tables was asked, a 422 when one table is asked; two tables seat three and three."""
    client, bearer, group_id, _night_id, _games = played
    nights = app.extensions["nights"]
    six = [["Ana", "Bob", "Chloé"], ["Dan", "Eve", "Fred"]]
    night_id, _ = nights.start(group_id, "Jeudi", "classique", None, 1, six, "k6")
    nights.next_round(nights.state(night_id).night, 2, [["Ana", "Bob"]])
    proposal = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()["proposal"]
    assert proposal["tables"] == 1 and proposal["seating"] == [["Ana", "Bob", "Chloé", "Dan", "Eve", "Fred"]]
    assert proposal["error"] == "Trop de joueurs (6) pour 1 table\u00a0: au plus 5 par table."  # French first
    assert client.get(f"/api/v1/nights/{night_id}?tables=1", headers=bearer).status_code == 422
    two = client.get(f"/api/v1/nights/{night_id}?tables=2&method=together", headers=bearer).get_json()["proposal"]
    assert (two["seating"], two["error"]) == ([["Ana", "Bob", "Chloé"], ["Dan", "Eve", "Fred"]], None)

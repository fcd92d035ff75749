"""A group's standings never add penalty points and points won, a merge holds under every filter,
and every list of people names each person once (#55 item 4), through the pages and the API.

Two kinds of points, from the variants' data: classique scores penalty points (« the manche's
winner scores 0, every other player the cards left in their hand; the lowest total wins »),
les-huit points won (« the winner scores the others' cards », standard table: K 10, 7 7, 8 50;
over a number of rounds the highest total wins).
"""

from __future__ import annotations

import html
import re

from models.services.games import MancheEntry
from tests.e2e.test_groups import cells, make_group, page, phone


def played(app, group_id, variant, players, manches) -> str:
    games = app.extensions["games"]
    game, _token = games.create_game(variant, list(players), rounds=len(manches), first_dealer=0, group=group_id)
    for winner, hands in manches:
        games.record_manche(game.id, MancheEntry(winner, hands))
    return game.id


def marc_and_jean(app):
    """Ana's phone and its group: G1 les-huit (Marco, Jean), then G2 classique (Marc, Jean)."""
    ana = phone(app)
    group_id = make_group(ana)
    # G1, les-huit: Marco goes out twice; Jean keeps K♣ 7♣ (10 + 7 = 17), then 8♣ (50):
    # Marco 17 + 50 = 67, Jean 0 + 0 = 0; the highest total wins: Marco.
    played(
        app, group_id, "les-huit", ["Marco", "Jean"], [("Marco", {"Jean": ["KC", "7C"]}), ("Marco", {"Jean": ["8C"]})]
    )
    # G2, classique: Marc goes out, Jean keeps 3♣ (3); Jean goes out, Marc keeps 9♣ (9):
    # Marc 0 + 9 = 9, Jean 3 + 0 = 3; the lowest total wins: Jean.
    played(app, group_id, "classique", ["Marc", "Jean"], [("Marc", {"Jean": ["3C"]}), ("Jean", {"Marc": ["9C"]})])
    return ana, group_id


def owner_of(app, group_id: str) -> str:
    return next(m.id for m in app.extensions["groups"].members(group_id) if m.owner)


def test_penalty_points_and_points_won_are_shown_apart(app):
    ana, group_id = marc_and_jean(app)
    text = page(ana, f"/groups/{group_id}")
    won = cells(text, "standings")
    # Wins add across variants: Marco (not merged yet) won G1, Jean G2.
    assert won["Jean"] == {"won": "1", "played": "2", "rate": "50", "run": "1"}
    penalty, points_won = cells(text, 'rounds="penalty"'), cells(text, 'rounds="won"')
    # Penalty points (G2): Jean 3 and 0 = 3 over 2 = 1.5, best 0, worst 3; Marc 0 and 9.
    assert penalty["Jean"] == {"total": "3", "average": "1.5", "best": "0", "worst": "3"}
    assert penalty["Marc"] == {"total": "9", "average": "4.5", "best": "0", "worst": "9"}
    assert "Marco" not in penalty
    # Points won (G1): Marco 17 and 50 = 67 over 2 = 33.5; more is better: best 50, worst 17.
    assert points_won["Marco"] == {"total": "67", "average": "33.5", "best": "50", "worst": "17"}
    assert points_won["Jean"] == {"total": "0", "average": "0.0", "best": "0", "worst": "0"}
    # Each table says its kind.
    assert "Penalty points: fewer is better" in text and "Points won: more is better" in text

    bearer = api_member(app, ana, group_id)
    answer = app.test_client().get(f"/api/v1/groups/{group_id}/standings", headers=bearer).get_json()
    assert answer["kinds"] == ["penalty", "won"]
    jean = next(line for line in answer["lines"] if line["name"] == "Jean")
    assert jean["points"] == {
        "penalty": {"rounds": 2, "total": 3, "average": 1.5, "best": 0, "worst": 3},
        "won": {"rounds": 2, "total": 0, "average": 0.0, "best": 0, "worst": 0},
    }


def api_member(app, owner, group_id) -> dict:
    """A bearer token of a second member, joined through the API by a link the owner made."""
    link = re.search(r"data-join-link>([^<]+)<", owner.post(f"/groups/{group_id}/invites").get_data(as_text=True))
    token = html.unescape(link.group(1)).rsplit("/", 1)[1]
    response = app.test_client().post(f"/api/v1/groups/{group_id}/members", json={"invite": token, "name": "API"})
    assert response.status_code == 201
    return {"Authorization": f"Bearer {response.get_json()['member_token']}"}


def test_a_merge_holds_under_a_variant_filter(app):
    ana, group_id = marc_and_jean(app)
    app.extensions["groups"].merge(group_id, "marco", "marc", by=owner_of(app, group_id))  # Marco counts as Marc
    # The group's last spelling of that person is G2's « Marc ».
    for query in ("", "?variant=les-huit", "?variant=classique", "?period=year&variant=les-huit"):
        won = cells(page(ana, f"/groups/{group_id}{query}"), "standings")
        assert "Marco" not in won and "Marc" in won, query
    # Under les-huit only G1 is left: Marc (as Marco) won it, 1 of 1, 67 points won.
    text = page(ana, f"/groups/{group_id}?variant=les-huit")
    assert cells(text, "standings")["Marc"] == {"won": "1", "played": "1", "rate": "100", "run": "1"}
    assert cells(text, 'rounds="won"')["Marc"]["total"] == "67"
    assert 'data-rounds="penalty"' not in text  # no penalty game under this filter
    bearer = api_member(app, ana, group_id)
    lines = app.test_client().get(f"/api/v1/groups/{group_id}/standings?variant=les-huit", headers=bearer)
    assert [line["name"] for line in lines.get_json()["lines"]] == ["Marc", "Jean"]


def test_every_list_of_people_names_each_person_once(app):
    ana, group_id = marc_and_jean(app)
    # G3 classique « Élodie » and « jean », then G4 « Elodie » and « Marc » (G1, G2 above).
    played(app, group_id, "classique", ["Élodie", "jean"], [("Élodie", {"jean": ["3C"]})])
    played(app, group_id, "classique", ["Elodie", "Marc"], [("Elodie", {"Marc": ["3C"]})])
    app.extensions["groups"].merge(group_id, "marco", "marc", by=owner_of(app, group_id))
    # Games per person: Marc 3 (G1 as Marco, G2, G4), Jean 3 (G1, G2, G3 as « jean »), Élodie 2;
    # each by the group's last spelling: « Marc » (G4), « jean » (G3), « Elodie » (G4).
    # Most played first, then by name: jean, Marc, Elodie.
    nights = html.unescape(page(ana, f"/groups/{group_id}/nights"))
    present = re.findall(r'<input type="checkbox" id="present-\d+" name="players" value="([^"]*)"', nights)
    assert present == ["jean", "Marc", "Elodie"]
    new_game = html.unescape(page(ana, f"/games/new?group={group_id}"))
    datalist = new_game.split('<datalist id="known-names">', 1)[1].split("</datalist>", 1)[0]
    assert re.findall(r'<option value="([^"]*)">', datalist) == ["jean", "Marc", "Elodie"]
    # Head to head: one option per person.
    versus = page(ana, f"/groups/{group_id}")
    options = re.findall(r'<option value="([^"]*)"', versus.split('id="versus-a"', 1)[1].split("</select>", 1)[0])
    assert sorted(html.unescape(o) for o in options) == ["Elodie", "Marc", "jean"]

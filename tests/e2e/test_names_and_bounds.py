"""Hardening (issue 12): one rule for names (players, teams, house rules), team names that collide
refused, house scoring tables bounded like the editor's (MAX_CARD_POINTS)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlmodel import Session

from models.core.house_rules import base_document
from models.core.variant import MAX_CARD_POINTS
from models.services.db import Game, HouseVariant

FOUR = ["Ana", "Bob", "Chloé", "Dan"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def count(app, model) -> int:
    with Session(app.extensions["database"].reader) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()


def error_of(resp, status=422) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    return resp.get_json()["error"]


# --- house rules: their name and their table ----------------------------------------------------


def house_document(points: int = 5, name="Chez Mamie", **changes) -> dict:
    ranks = {**{rank: points for rank in RANKS}, "JK": points}
    return {
        "base": "classique",
        "name": name,
        "scoring": {"mode": "penalty", "target": 500, "table": {"ranks": ranks, "cards": {}}},
        **changes,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Lone surrogates cannot be sent as UTF-8 at all: the JSON escape "\\ud800" is tested in test_reliability.py.
@given(
    st.text(
        st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from("\u200d\u202e\u00a0 \U0001f469")),
        max_size=45,
    )
)
def test_a_player_name_through_the_api_is_refused_or_comes_back_the_same(client, text):
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": [text, "Bob"]})
    assert resp.status_code in (201, 422), resp.get_data(as_text=True)
    if resp.status_code == 422:
        assert resp.get_json()["error"]["field"] in ("players.0", "players.1")
        return
    game = resp.get_json()
    name = " ".join(unicodedata.normalize("NFC", text).split())
    assert game["players"] == [name, "Bob"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["players"] == [name, "Bob"]


@pytest.mark.parametrize("name", ["A\u200dna", "An\u200ba", "\u202eanA", "A\x00na", "x" * 41])
def test_the_api_and_the_web_form_refuse_a_player_name_the_same_way(app, name):
    client = app.test_client()
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": ["Bob", name]})
    api_message = error_of(resp)["message"]
    assert error_of(resp)["field"] == "players.1"
    form = {"variant": "classique", "shown_variant": "classique", "players": ["Bob", name, ""], "end": "target"}
    page = client.post("/games", data=form)
    assert page.status_code == 422
    under_field = re.search(r'id="err-players-1">([^<]*)<', page.get_data(as_text=True))
    assert under_field and under_field.group(1).replace("&#39;", "'") == api_message.replace("&#39;", "'")
    assert count(app, Game) == 0


def test_an_emoji_family_is_a_name(client):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    resp = client.post("/api/v1/games", json={"variant": "classique", "players": [family, "Bob"]})
    assert resp.status_code == 201 and resp.get_json()["players"] == [family, "Bob"]


# --- teams ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [("T", "T "), ("T", "t"), ("\u00c9quipe", "E\u0301quipe"), ("Les  Rouges", "Les Rouges"), ("Bleus", "BLEUS\u00a0")],
)
def test_team_names_that_collide_are_refused_and_nothing_is_saved(client, app, first, second):
    teams = {first: ["Ana", "Chloé"], second: ["Bob", "Dan"]}
    resp = client.post("/api/v1/games", json={"variant": "les-huit", "players": FOUR, "teams": teams})
    error = error_of(resp)
    assert error["code"] == "validation_error" and error["field"] == "teams"
    assert count(app, Game) == 0


@pytest.mark.parametrize("name", ["R\u202eouges", "Rou\u200bges", "\u2066Rouges\u2069", "R" * 61, "  "])
def test_a_team_name_goes_through_the_rule_for_names(client, app, name):
    teams = {name: ["Ana", "Chloé"], "Bleus": ["Bob", "Dan"]}
    resp = client.post("/api/v1/games", json={"variant": "les-huit", "players": FOUR, "teams": teams})
    assert error_of(resp)["field"] == "teams"
    assert count(app, Game) == 0


def test_team_names_are_kept_normalised_and_the_game_reads_back(client):
    teams = {"  Les   Rouges ": ["Ana ", "Chloé"], "E\u0301toiles": ["Bob", "Dan"]}
    resp = client.post("/api/v1/games", json={"variant": "les-huit", "players": FOUR, "teams": teams})
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    assert game["teams"] == {"Les Rouges": ["Ana", "Chloé"], "\u00c9toiles": ["Bob", "Dan"]}
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["teams"] == game["teams"]
    assert client.get(f"/api/v1/games/{game['id']}/export").status_code == 200


@pytest.mark.parametrize("name", ["Chez\u200bMamie", "\u202eeimaM", "M" * 61, "Chez\x07Mamie"])
def test_a_house_rules_name_goes_through_the_rule_for_names(client, app, name):
    assert error_of(client.post("/api/v1/variants", json=house_document(name=name)))["field"] == "name"
    assert count(app, HouseVariant) == 0


def test_a_house_rules_name_is_kept_normalised(client):
    resp = client.post("/api/v1/variants", json=house_document(name="  Chez   Mamie\u00a0\U0001f475 "))
    assert resp.status_code == 201
    assert resp.get_json()["variant"]["name"] == "Chez Mamie \U0001f475"


@pytest.mark.parametrize(
    "where, value",
    [("ranks", 2**40), ("ranks", MAX_CARD_POINTS + 1), ("cards", 2**40), ("cards", 10**30), ("ranks", -1)],
)
def test_a_card_worth_more_than_the_limit_is_refused(client, app, where, value):
    document = house_document()
    if where == "ranks":
        document["scoring"]["table"]["ranks"]["K"] = value
        field = "scoring.table.ranks.K"
    else:
        document["scoring"]["table"]["cards"] = {"KS": value}
        field = "scoring.table.cards.KS"
    error = error_of(client.post("/api/v1/variants", json=document))
    assert error["field"] == field and str(MAX_CARD_POINTS) in error["message"]
    assert count(app, HouseVariant) == 0


def test_the_fullest_hand_of_the_largest_table_and_deck_is_recorded(client):
    """Every card worth MAX_CARD_POINTS, 4 packs with 4 jokers each: 4 × (52 + 4) = 224 cards. Bob
    is left holding the whole deck when Ana goes out: 224 × 1,000 = 224,000 points, which the
    hand's INTEGER column keeps on SQLite and PostgreSQL alike. (Without the base's "number of
    packs" option, which would set the deck back to one or two packs.)"""
    options = [option for option in base_document("classique")["options"] if option["id"] != "decks"]
    document = house_document(
        MAX_CARD_POINTS, deck={"decks": 4, "jokers_per_deck": 4}, options=options, scoring={
            "mode": "penalty", "target": 1_000_000 // 10,
            "table": {"ranks": {**{r: MAX_CARD_POINTS for r in RANKS}, "JK": MAX_CARD_POINTS}, "cards": {}},
        },
    )  # fmt: skip
    resp = client.post("/api/v1/variants", json=document)
    assert resp.status_code == 201, resp.get_json()
    variant_id = resp.get_json()["id"]
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    deck = [f"{rank}{suit}" for rank in RANKS for suit in "SHDC"] * 4 + ["JK"] * 16
    assert len(deck) == 224
    resp = client.post(
        f"/api/v1/games/{game['id']}/manches",
        json={"winner": "Ana", "hands": {"Bob": deck}},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["totals"] == {"Ana": 0, "Bob": 224_000}
    again = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert again["manches"][0]["values"] == {"Bob": 224_000} and again["status"] == "finished"

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

from models.db import Game, HouseVariant
from models.house_rules import base_document
from models.names import InvalidName, clean_name
from models.problems import VariantFileError
from models.rules import validate_table
from models.variant import MAX_CARD_POINTS

FOUR = ["Ana", "Bob", "Chloé", "Dan"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def count(app, model) -> int:
    with Session(app.extensions["database"].reader) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()


def error_of(resp, status=422) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    return resp.get_json()["error"]


# --- the one rule for names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "given_name, kept",
    [
        ("  Ana   Maria ", "Ana Maria"),
        ("Ana\tMaria\n", "Ana Maria"),
        ("Ana\u00a0Maria", "Ana Maria"),  # a no-break space is a space
        ("E\u0301lodie", "\u00c9lodie"),  # E + combining acute: NFC makes it one É
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),  # 👨‍👩‍👧
        ("\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f3f3\ufe0f\u200d\U0001f308"),  # 🏳️‍🌈 (VS16 before the joiner)
        ("\U0001f9d1\U0001f3fd\u200d\U0001f4bb", "\U0001f9d1\U0001f3fd\u200d\U0001f4bb"),  # 🧑🏽‍💻 (skin tone)
        ("Mamie \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
         "Mamie \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"),  # Scotland's flag
        ("مريم", "مريم"),  # right-to-left text needs no override
        ("O'Brien-Duval", "O'Brien-Duval"),
        ("x" * 40, "x" * 40),
    ],
)  # fmt: skip
def test_a_name_is_kept_normalised(given_name, kept):
    assert clean_name(given_name, 40) == kept


@pytest.mark.parametrize(
    "given_name, reason",
    [
        ("Ana\u200d", "invisible"),  # a joiner that joins nothing
        ("A\u200dna", "invisible"),  # between letters
        ("\u200d\U0001f468", "invisible"),
        ("An\u200ba", "invisible"),  # zero-width space
        ("An\u200ca", "invisible"),  # zero-width non-joiner
        ("\ufeffAna", "invisible"),  # byte order mark
        ("Ana\u2060", "invisible"),  # word joiner
        ("\u200b", "invisible"),
        ("\u202eanA", "invisible"),  # right-to-left override
        ("\u202aAna\u202c", "invisible"),
        ("\u2066Ana\u2069", "invisible"),  # isolates
        ("A\x00na", "invisible"),
        ("A\x1bna", "invisible"),
        ("A\x7fna", "invisible"),
        ("\ud800", "invisible"),  # a lone surrogate
        ("\ue000", "invisible"),  # private use
        ("\U000e0067", "invisible"),  # a tag outside a flag
        ("", "empty"),
        (" \t\n\u3000", "empty"),
        ("x" * 41, "too_long"),
        (5, "not_text"),
        (None, "not_text"),
    ],
)
def test_a_name_is_refused_with_a_reason_and_the_field(given_name, reason):
    with pytest.raises(InvalidName) as refused:
        clean_name(given_name, 40, field="players.0")
    assert refused.value.reason == reason and refused.value.field == "players.0" and refused.value.status == 422


@settings(max_examples=300)
@given(st.text(st.one_of(st.characters(), st.sampled_from("\u200d\u200b\u202e\u2066\ufeff \t\U0001f468"))))
def test_a_name_is_refused_or_kept_normalised_for_good(text):
    """Whatever is typed: refused, or kept in a form that the rule keeps as it is (the same name
    on the next request), with no invisible character save an emoji's joiner."""
    try:
        name = clean_name(text, 40)
    except InvalidName:
        return
    assert name == " ".join(unicodedata.normalize("NFC", text).split())
    assert clean_name(name, 40) == name and 0 < len(name) <= 40
    assert not re.search("[\x00-\x1f\x7f\u200b\u200c\u2060\ufeff\u202a-\u202e\u2066-\u2069]", name)


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


# --- house rules: their name and their table ----------------------------------------------------


def house_document(points: int = 5, name="Chez Mamie", **changes) -> dict:
    ranks = {**{rank: points for rank in RANKS}, "JK": points}
    return {
        "base": "classique",
        "name": name,
        "scoring": {"mode": "penalty", "target": 500, "table": {"ranks": ranks, "cards": {}}},
        **changes,
    }


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


def test_a_table_file_is_bounded_by_the_same_limit():
    name = {"fr": "x", "en": "x"}
    ranks = {**{rank: 1 for rank in RANKS}, "K": MAX_CARD_POINTS + 1}
    with pytest.raises(VariantFileError) as refused:
        validate_table("big", {"source": "x", "name": name, "ranks": ranks}, "tables.toml")
    assert refused.value.field == "big.ranks.K"
    ranks["K"] = MAX_CARD_POINTS
    assert validate_table("big", {"source": "x", "name": name, "ranks": ranks}, "tables.toml").ranks["K"] == 1000

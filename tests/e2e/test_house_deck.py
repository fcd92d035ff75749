"""A house deck, one source (issue 26): the packs, the jokers and the ranks taken out of house rules
reach scoring (/api/v1/score and a game's manches), the deck check, the dispute checker, the keypad
and the rule page — on SQLite and on PostgreSQL (the house rules and the game are stored).

Before: house rules built on classique with two packs were reported as two packs, but the base's
packs option (one by default) was applied over them, and the second 8 of hearts was refused.
"""

from __future__ import annotations

from tests.e2e.test_own_words import page_text

TWO_PACKS = {"base": "classique", "name": "Deux paquets", "deck": {"decks": 2, "jokers_per_deck": 2}}
PIQUET = {
    "base": "classique",
    "name": "Piquet",
    "deck": {"decks": 1, "jokers_per_deck": 0, "without": ["2", "3", "4", "5", "6"]},
    "players": {"min": 2, "max": 4},
    "scoring": {"mode": "penalty", "target": 500, "table": "standard"},
}


def create(client, document):
    response = client.post("/api/v1/variants", json=document)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def score(client, variant, cards, **more):
    return client.post("/api/v1/score", json={"variant": variant, "cards": cards, **more})


def new_game(client, variant, players=("Ana", "Bob")):
    response = client.post("/api/v1/games", json={"variant": variant, "players": list(players)})
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    with client.session_transaction() as session:  # this phone created the game: it may enter a round
        session["tokens"] = {game["id"]: game["edit_token"]}
    return game


def record(client, game, body):
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    return client.post(f"/api/v1/games/{game['id']}/manches", json=body, headers=auth)


def test_two_packs_are_scored_as_two_packs(client):
    variant = create(client, TWO_PACKS)
    summary = client.get(f"/api/v1/variants/{variant}").get_json()
    assert summary["decks"] == 2 and summary["jokers"] == 4 and summary["options"]["decks"] == 2
    # 000 « 8 et Joker : 50 points »: the two 8s of hearts of two packs, 100.
    response = score(client, variant, ["8H", "8H"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["points"] == 100
    assert score(client, variant, ["JK"] * 4).get_json()["points"] == 200  # 2 Jokers per pack
    refused = score(client, variant, ["8H"] * 3)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "too_many_copies"
    # A game may still choose one pack: then the second 8 of hearts is one too many.
    one = score(client, variant, ["8H", "8H"], options={"decks": 1})
    assert one.status_code == 422 and one.get_json()["error"]["code"] == "too_many_copies"


def test_a_game_of_two_packs_records_the_second_8_of_hearts(client):
    game = new_game(client, create(client, TWO_PACKS))
    # Ana goes out; Bob holds both 8s of hearts and a Joker: 50 + 50 + 50 (000's table).
    response = record(client, game, {"winner": "Ana", "hands": {"Bob": ["8H", "8H", "JK"]}})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["points"] == {"Ana": 0, "Bob": 150}
    page = client.get(f"/games/{game['id']}/manches/new").get_data(as_text=True)
    assert 'id="key-8"' in page and 'id="key-JK"' in page  # the keypad of the game's deck


def test_the_referee_and_the_rule_page_see_the_house_deck(client):
    variant = create(client, TWO_PACKS)
    verdict = client.post(
        "/api/v1/referee/check", json={"variant": variant, "top": "8H", "active_suit": "H", "card": "8H"}
    )
    assert verdict.status_code == 200 and verdict.get_json()["legal"] is True  # two 8s of hearts exist
    fr = page_text(client.get(f"/rules/{variant}", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    en = page_text(client.get(f"/rules/{variant}", headers={"Accept-Language": "en"}).get_data(as_text=True))
    assert "2 jeux de 52 cartes, plus 4 Jokers" in fr and "2 packs of 52 cards, plus 4 Jokers" in en


def test_ranks_taken_out_are_refused_by_scoring_the_referee_and_the_keypad(client):
    variant = create(client, PIQUET)
    refused = score(client, variant, ["2H"])
    error = refused.get_json()["error"]
    assert refused.status_code == 422 and error["code"] == "invalid_card"
    assert error["message"] == "Le 2 de cœur ne fait pas partie de ce jeu\u00a0: son rang en a été retiré."
    # 004's standard table: 8 → 50, K → 10, 7 → 7
    assert score(client, variant, ["8H", "KS", "7C"]).get_json()["points"] == 67
    checked = client.post("/api/v1/referee/check", json={"variant": variant, "top": "9H", "card": "2H"})
    assert checked.status_code == 422 and checked.get_json()["error"]["field"] == "card"
    game = new_game(client, variant)
    assert record(client, game, {"winner": "Ana", "hands": {"Bob": ["3C"]}}).status_code == 422
    page = client.get(f"/games/{game['id']}/manches/new").get_data(as_text=True)
    assert 'id="key-7"' in page and 'id="key-2"' not in page and 'id="key-JK"' not in page
    fr = page_text(client.get(f"/rules/{variant}", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    en = page_text(client.get(f"/rules/{variant}", headers={"Accept-Language": "en"}).get_data(as_text=True))
    assert "Un jeu de 32 cartes, sans les 2, 3, 4, 5 ou 6, sans Joker" in fr
    assert "One 32-card pack, without the 2s, 3s, 4s, 5s or 6s, no Joker" in en


def test_the_ranks_taken_out_travel_with_the_rules_file_and_survive_the_editor(client):
    from models.core.house_editor import Edits, apply_edits

    variant = create(client, PIQUET)
    document = client.get(f"/variants/{variant}/rules.json").get_json()["variant"]
    assert document["deck"]["without"] == ["2", "3", "4", "5", "6"]
    edits = Edits("Piquet", 1, 0, 2, 4, 5, {}, {}, "penalty", 500, None, [])
    assert apply_edits(document, edits)["deck"] == {
        "decks": 1,
        "jokers_per_deck": 0,
        "without": ["2", "3", "4", "5", "6"],
    }

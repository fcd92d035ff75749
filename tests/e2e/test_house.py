"""House rules (issue 8): documents validated like the built-in files, storage, games that keep
their rules, the API with edit rights, the editor form, export/import, rule pages."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from sqlalchemy import text

from models.core import house_rules
from models.core.rules import catalog

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

# Points chosen so that a hand's value cannot be a built-in table's by chance.
TABLE = {"ranks": {**{r: 1 for r in RANKS}, "8": 40, "K": 7, "JK": 33}, "cards": {"2S": 19}}
DOCUMENT = {
    "base": "classique",
    "name": "Chez Mamie",
    "deal": {"cards": 6},
    "scoring": {"mode": "penalty", "target": 100, "table": TABLE},
    "finish": {"forbidden": ["7"], "rule": {"fr": "Pas de sortie sur un 7.", "en": "No going out on a 7."}},
    "cards": [
        {"card": "5", "play": "any", "names_suit": True},
        {"card": "JK", "play": "any", "draw": 3, "skip": True},
        {"card": "Q", "play_again": True},
    ],
}


def house_count(app) -> int:
    with app.extensions["database"].reader.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM house_variant")).scalar_one()


def create(client, document=None):
    resp = client.post("/api/v1/variants", json=document or DOCUMENT)
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


# --- documents ----------------------------------------------------------------------------------


def test_document_fills_from_its_base_and_validates_like_a_file():
    full = house_rules.normalize(DOCUMENT)
    assert full["base"] == "classique" and full["name"] == {"fr": "Chez Mamie", "en": "Chez Mamie"}
    assert full["deck"] == {"decks": 1, "jokers_per_deck": 2}  # from the base
    assert [o["id"] for o in full["options"]][:2] == ["decks", "special_finish_forbidden"]
    variant = house_rules.compile_document(full, "h0123456789abcdef")
    assert variant.deal.cards_for(4) == 6
    assert variant.table.ranks["8"] == 40 and variant.table.cards["2S"] == 19
    assert variant.card_rule(__import__("models.core.cards").core.cards.parse_card("5H")).names_suit


@pytest.mark.parametrize(
    "change, field",
    [
        ({"cards": [{"card": "8", "explode": True}]}, "cards[0].explode"),
        ({"cards": [{"card": "8", "draw": -2}]}, "cards[0].draw"),
        ({"scoring": {"mode": "penalty", "target": 100, "table": {**TABLE, "ranks": {**TABLE["ranks"], "9": -1}}}},
         "scoring.table.ranks.9"),
        ({"scoring": {"mode": "penalty", "target": 100, "table": {**TABLE, "cards": {"2S": -4}}}},
         "scoring.table.cards.2S"),
        ({"deal": {"cards": 11}}, "deal.cards"),  # 11 × 5 players = 55 > 54 cards
        ({"deck": {"decks": 1, "jokers_per_deck": 0}, "players": {"min": 2, "max": 8}, "deal": {"cards": 7}},
         "deal.cards"),  # 7 × 8 = 56 > 52
        ({"base": "nope"}, "base"),
        ({"name": ""}, "name"),
        ({"colour": "red"}, "colour"),
        ({"deal": {"by_players": [{"min": 2, "max": 10**12, "cards": 5}]}}, "deal.by_players[0].max"),
    ],
)  # fmt: skip
def test_invalid_documents_name_the_field_and_save_nothing(client, app, change, field):
    resp = client.post("/api/v1/variants", json={**DOCUMENT, **change})
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["code"] == "validation_error" and error["field"] == field and error["message"]
    assert house_count(app) == 0


# --- API ----------------------------------------------------------------------------------------


def test_create_get_list_update_delete_with_rights(client, app):
    variant_id, auth = create(client)
    detail = client.get(f"/api/v1/variants/{variant_id}").get_json()
    assert detail["house"] is True and detail["base"] == "classique" and detail["name"] == "Chez Mamie"
    assert detail["points"]["8"] == 40 and detail["points"]["2S"] == 19 and detail["finish_forbidden"] == ["7"]
    listed = client.get("/api/v1/variants").get_json()
    assert [v["house"] for v in listed] == [False] * len(catalog().variants) + [True]
    assert listed[-1]["id"] == variant_id

    renamed = {**DOCUMENT, "name": "Chez Papi"}
    assert client.put(f"/api/v1/variants/{variant_id}", json=renamed).status_code == 401
    wrong = {"Authorization": "Bearer nope"}
    assert client.put(f"/api/v1/variants/{variant_id}", json=renamed, headers=wrong).status_code == 403
    assert client.delete(f"/api/v1/variants/{variant_id}", headers=wrong).status_code == 403
    resp = client.put(f"/api/v1/variants/{variant_id}", json={**renamed, "deal": {"cards": 30}}, headers=auth)
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "deal.cards"
    assert client.get(f"/api/v1/variants/{variant_id}").get_json()["name"] == "Chez Mamie"  # nothing half-saved
    resp = client.put(f"/api/v1/variants/{variant_id}", json=renamed, headers=auth)
    assert resp.status_code == 200 and resp.get_json()["name"] == "Chez Papi"

    assert client.delete(f"/api/v1/variants/{variant_id}").status_code == 401
    assert client.delete(f"/api/v1/variants/{variant_id}", headers=auth).status_code == 204
    assert client.get(f"/api/v1/variants/{variant_id}").status_code == 404
    assert house_count(app) == 0


def test_house_rules_are_listed_newest_first(client, app):
    """The list keeps the newest (a new variant never vanishes past the limit), newest first,
    wherever variants are listed."""
    ids = [create(client, {**DOCUMENT, "name": f"Maison {n}"})[0] for n in range(3)]
    service = app.extensions["house"]
    assert [e.id for e in service.all()] == ids[::-1]
    assert [e.id for e in service.all(limit=2)] == [ids[2], ids[1]]
    listed = [v["id"] for v in client.get("/api/v1/variants").get_json() if v["house"]]
    assert listed == ids[::-1]
    for path in ("/", "/games/new", "/referee"):
        page = client.get(path).get_data(as_text=True)
        where = [page.index(f"Maison {n}") for n in (2, 1, 0)]
        assert where == sorted(where), path


def test_export_import_round_trip(client):
    variant_id, _ = create(client)
    exported = client.get(f"/api/v1/variants/{variant_id}/export").get_json()
    assert exported["format"] == "carte-variant/1" and exported["variant"]["base"] == "classique"
    resp = client.post("/api/v1/variants/import", json=exported)
    assert resp.status_code == 201
    copy_id = resp.get_json()["id"]
    assert copy_id != variant_id
    again = client.get(f"/api/v1/variants/{copy_id}/export").get_json()
    assert again["variant"] == exported["variant"]
    bad = client.post("/api/v1/variants/import", json={"format": "carte-variant/9"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "format"
    broken = {**exported, "variant": {**exported["variant"], "cards": [{"card": "8", "teleport": True}]}}
    resp = client.post("/api/v1/variants/import", json=broken)
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "cards[0].teleport"


# --- games --------------------------------------------------------------------------------------


def record(client, game, body):
    return client.post(
        f"/api/v1/games/{game['id']}/manches", json=body, headers={"Authorization": f"Bearer {game['edit_token']}"}
    )


def test_two_manches_scored_by_hand_and_the_game_keeps_its_rules(client):
    variant_id, auth = create(client)
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob", "Chloé"]}).get_json()
    assert game["cards_to_deal"] == 6 and game["target"] == 100
    # Manche 1: Ana goes out. Bob 8H (40) + KS (7) + 2S (19, the suit entry) = 66; Chloé JK (33) + 3C (1) = 34
    resp = record(client, game, {"winner": "Ana", "hands": {"Bob": ["8H", "KS", "2S"], "Chloé": ["JK", "3C"]}})
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["points"] == {"Ana": 0, "Bob": 66, "Chloé": 34}
    # Manche 2: Chloé goes out. Ana 2H (1) + QD (1) + 8C (40) = 42; Bob KD (7) + KC (7) = 14
    resp = record(client, game, {"winner": "Chloé", "hands": {"Ana": ["2H", "QD", "8C"], "Bob": ["KD", "KC"]}})
    assert resp.get_json()["totals"] == {"Ana": 42, "Bob": 80, "Chloé": 34}

    # The house rules change (8 now worth 1, 7 allowed) and are deleted: the game does not move.
    other = {
        **DOCUMENT,
        "scoring": {"mode": "penalty", "target": 500, "table": {**TABLE, "ranks": {**TABLE["ranks"], "8": 1}}},
    }
    assert client.put(f"/api/v1/variants/{variant_id}", json=other, headers=auth).status_code == 200
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["totals"] == {"Ana": 42, "Bob": 80, "Chloé": 34} and after["target"] == 100
    assert client.delete(f"/api/v1/variants/{variant_id}", headers=auth).status_code == 204
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["totals"] == {"Ana": 42, "Bob": 80, "Chloé": 34}
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get(f"/games/{game['id']}/rules").status_code == 200
    # A new game from the new version of the rules would score the 8 at 1; this one still counts 40.
    resp = record(client, game, {"winner": "Ana", "hands": {"Bob": ["8D"], "Chloé": ["4C"]}})
    assert resp.get_json()["points"] == {"Ana": 0, "Bob": 40, "Chloé": 1}


def test_the_finishing_check_uses_house_rules(client):
    variant_id, _ = create(client)
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    assert game["finish_forbidden"] == ["7"]
    resp = record(client, game, {"winner": "Ana", "last_card": "7H", "hands": {"Bob": ["3C"]}})
    assert resp.status_code == 422
    resp = record(client, game, {"winner": "Ana", "last_card": "8H", "hands": {"Bob": ["3C"]}})
    assert resp.status_code == 201  # the 8 is an ordinary card here: going out on it is allowed


def check(client, variant, top, card, **extra):
    resp = client.post("/api/v1/referee/check", json={"variant": variant, "top": top, "card": card, **extra})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def test_the_referee_follows_house_special_cards(client):
    variant_id, _ = create(client)
    assert check(client, "classique", "KH", "5S")["legal"] is False
    assert check(client, variant_id, "KH", "5S")["legal"] is True  # the 5 is wild here
    assert check(client, "classique", "KH", "8S")["legal"] is True
    assert check(client, variant_id, "KH", "8S")["legal"] is False  # the 8 is an ordinary card
    joker = check(client, variant_id, "KH", "JK")
    assert joker["legal"] is True and "3" in joker["effect"]
    assert check(client, variant_id, "KH", "7H", last_card=True)["legal"] is False
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    page = client.get(f"/games/{game['id']}/referee?checked=1&top_rank=K&top_suit=H&card_rank=5&card_suit=S").get_data(
        as_text=True
    )
    assert "verdict" in page


def test_game_export_carries_its_rules(client):
    variant_id, auth = create(client)
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    record(client, game, {"winner": "Ana", "hands": {"Bob": ["8H", "2S"]}})
    exported = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    assert exported["game"]["rules"]["base"] == "classique"
    client.delete(f"/api/v1/variants/{variant_id}", headers=auth)
    resp = client.post("/api/v1/games/import", json=exported)
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["totals"] == {"Ana": 0, "Bob": 59}


# --- web ----------------------------------------------------------------------------------------


class FormReader(HTMLParser):
    """The fields a browser would submit from the editor as shown (defaults included)."""

    def __init__(self):
        super().__init__()
        self.fields, self.select, self.in_form = {}, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "house-editor" in (a.get("class") or ""):
            self.in_form = True
        if not self.in_form:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("file",):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[a["name"]] = a.get("value", "on")
            elif a.get("value") is not None:
                self.fields[a["name"]] = a["value"]
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.fields[self.select] = a.get("value")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "form":
            self.in_form = False


def editor_fields(client, url) -> dict:
    resp = client.get(url)
    assert resp.status_code == 200
    reader = FormReader()
    reader.feed(resp.get_data(as_text=True))
    return reader.fields


def test_editor_form_preview_save_edit_delete(client, app):
    fields = editor_fields(client, "/variants/new?base=classique")
    assert fields["base"] == "classique" and fields["pt-8"] == "50" and fields["effect-8"] == "wild"
    fields.update({"name": "Les cousins", "pt-8": "25", "effect-5": "skip", "effect-8": "none", "finish-7": "on"})
    fields.pop("csrf_token", None)
    preview = client.post("/variants/new", data={**fields, "action": "preview", "sample": "8H 5C KD"})
    assert preview.status_code == 200 and house_count(app) == 0
    html = preview.get_data(as_text=True)
    assert 'id="preview-total">40<' in html  # 8H 25 + 5C 5 + KD 10, computed by hand

    bad = client.post("/variants/new", data={**fields, "effect-5": "explode", "action": "save"})
    assert bad.status_code == 422 and "cards.5.effect" in bad.get_data(as_text=True) and house_count(app) == 0
    bad = client.post("/variants/new", data={**fields, "pt-9": "-3", "action": "save"})
    assert bad.status_code == 422 and "scoring.table.ranks.9" in bad.get_data(as_text=True)
    bad = client.post("/variants/new", data={**fields, "deal_cards": "20", "action": "save"})
    assert bad.status_code == 422 and "deal.cards" in bad.get_data(as_text=True) and house_count(app) == 0

    resp = client.post("/variants/new", data={**fields, "action": "save"})
    assert resp.status_code == 303
    variant_id = resp.headers["Location"].rsplit("/", 1)[-1]
    detail = client.get(f"/api/v1/variants/{variant_id}").get_json()
    assert detail["points"]["8"] == 25 and detail["finish_forbidden"] == ["7"]
    rules = {r["card"]: r for r in house_rules.normalize({**app.extensions["house"].get(variant_id).document})["cards"]}
    assert rules["5"] == {"card": "5", "skip": True} and "8" not in rules
    assert rules["JK"]["answers_with"]  # a rule the editor shows "as in the base" is kept whole

    page = client.get(f"/variants/{variant_id}").get_data(as_text=True)
    assert "Les cousins" in page and f"/variants/{variant_id}/qr.svg" in page and "/edit" in page
    assert client.get(f"/variants/{variant_id}/qr.svg").mimetype == "image/svg+xml"
    assert "Les cousins" in client.get("/").get_data(as_text=True)
    assert "Les cousins" in client.get("/games/new").get_data(as_text=True)

    fields = editor_fields(client, f"/variants/{variant_id}/edit")
    assert fields["pt-8"] == "25" and fields["effect-5"] == "skip"
    fields.pop("csrf_token", None)
    resp = client.post(f"/variants/{variant_id}/edit", data={**fields, "target": "300", "action": "save"})
    assert resp.status_code == 303
    assert client.get(f"/api/v1/variants/{variant_id}").get_json()["target"] == 300

    stranger = app.test_client()
    assert "/edit" not in stranger.get(f"/variants/{variant_id}").get_data(as_text=True)
    assert stranger.get(f"/variants/{variant_id}/edit").status_code == 401
    assert stranger.post(f"/variants/{variant_id}/delete").status_code == 401
    assert client.post(f"/variants/{variant_id}/delete").status_code == 303
    assert house_count(app) == 0


def test_start_a_game_from_house_rules_with_the_form(client):
    variant_id, _ = create(client)
    page = client.get(f"/games/new?variant={variant_id}").get_data(as_text=True)
    assert "Chez Mamie" in page
    resp = client.post(
        "/games", data={"variant": variant_id, "shown_variant": variant_id, "players": ["Ana", "Bob"], "end": "target"}
    )
    assert resp.status_code in (302, 303), resp.get_data(as_text=True)[:500]
    game_id = resp.headers["Location"].split("/games/")[1].split("?")[0].split("#")[0]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["variant"] == variant_id


def test_json_file_download_and_upload(client):
    variant_id, _ = create(client)
    resp = client.get(f"/variants/{variant_id}/rules.json")
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    document = json.loads(resp.get_data(as_text=True))
    from io import BytesIO

    resp = client.post("/variants/import", data={"file": (BytesIO(json.dumps(document).encode()), "r.json")})
    assert resp.status_code == 303
    new_id = resp.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != variant_id and client.get(f"/api/v1/variants/{new_id}").get_json()["name"] == "Chez Mamie"
    resp = client.post("/variants/import", data={"file": (BytesIO(b"{}"), "r.json")})
    assert resp.status_code == 422


def test_rule_page_and_comparison_show_house_rules(client):
    variant_id, _ = create(client)
    page = client.get(f"/rules/{variant_id}").get_data(as_text=True)
    assert "Chez Mamie" in page and 'class="differs"' in page
    compare = client.get(f"/rules/compare?with={variant_id}").get_data(as_text=True)
    assert "Chez Mamie" in compare and 'class="differs"' in compare
    assert "Chez Mamie" not in client.get("/rules/compare").get_data(as_text=True)


def test_backup_and_restore_keep_house_rules_and_their_games(client, app, tmp_path):
    from models.services import backup
    from models.services.db import Database
    from models.services.schema import migrate

    variant_id, _ = create(client)
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    record(client, game, {"winner": "Ana", "hands": {"Bob": ["8H", "2S"]}})
    document = json.loads(json.dumps(backup.backup(app.extensions["database"]), default=str))
    other = Database(f"sqlite:///{tmp_path / 'other.db'}")
    migrate(other)
    assert backup.restore(other, document) == (1, 0)
    from models.services.games import GameService
    from models.services.house import HouseService
    from models.services.registry import Registry

    house = HouseService(other, catalog())
    assert GameService(other, Registry(catalog(), house)).get(game["id"]).totals == {"Ana": 0, "Bob": 59}
    assert house.get(variant_id).document["name"]["fr"] == "Chez Mamie"
    other.dispose()


def test_a_refused_document_is_explained_in_the_users_language(client):
    body = {"base": "classique", "name": "Chez Mamie", "cards": [{"card": "7", "explode": True}]}
    french = client.post("/api/v1/variants", json=body).get_json()["error"]
    english = client.post("/api/v1/variants", json=body, headers={"Accept-Language": "en"}).get_json()["error"]
    assert french["field"] == english["field"] == "cards[0].explode"
    assert "ce champ est inconnu" in french["message"]
    assert "this field is not known" in english["message"]


def test_house_rules_played_over_a_number_of_manches(client):
    document = {**DOCUMENT, "scoring": {"mode": "penalty", "target": 100, "rounds": 2, "table": TABLE}}
    variant_id, _ = create(client, document)
    listed = client.get(f"/api/v1/variants/{variant_id}").get_json()
    assert listed["rounds"] == 2 and listed["target"] is None
    game = client.post("/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"]}).get_json()
    assert game["rounds"] == 2 and game["target"] is None
    # Bob KS = 7 (the house table), then Ana 3C = 1: two manches, and the game is over; lowest wins.
    assert record(client, game, {"winner": "Ana", "hands": {"Bob": ["KS"]}}).get_json()["status"] == "playing"
    last = record(client, game, {"winner": "Bob", "hands": {"Ana": ["3C"]}}).get_json()
    assert last["totals"] == {"Ana": 1, "Bob": 7}
    assert last["status"] == "finished" and last["winners"] == ["Ana"]
    # A game may still choose its own end.
    other = client.post(
        "/api/v1/games", json={"variant": variant_id, "players": ["Ana", "Bob"], "target": 50}
    ).get_json()
    assert other["target"] == 50 and other["rounds"] is None


def test_editor_offers_a_number_of_manches(client):
    page = client.get("/variants/new?base=classique").get_data(as_text=True)
    assert 'name="end" value="rounds"' in page and 'name="rounds"' in page

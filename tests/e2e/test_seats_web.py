"""Join at a seat, leave after saying who and confirming, and undo either (issue 28 items 3–5,
issue 30 item 3) through HTTP: plain forms (no JavaScript), htmx requests, and the JSON API.

The deal passes to the left each manche, to the next player the way play goes (seed 000: « Le
joueur à gauche du donneur commence. Puis on joue dans le sens horaire »; who deals next is
``scoring.play_through``'s interpretation). Classique table (SPEC §2), penalty mode: everyone but
the player who went out adds their hand's value.
"""

from __future__ import annotations

import html
import re

import pytest

from .test_table_flow_web import undo, undo_form
from .test_web_games import game_page, new_game, post_manche, totals_shown


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture
def game_id(client):
    """Ana, Bob, Chloé, Ana deals first; manche 1: Ana out, Bob 10, Chloé 25 (Ana dealt it)."""
    game_id = new_game(client)
    post_manche(client, game_id, {"winner": "0", "p1-typed": "10", "p2-typed": "25"})
    return game_id


def test_the_join_form_asks_where_the_newcomer_sits_after_the_last_by_default(client, game_id):
    page = game_page(client, game_id)
    select = re.search(r'<select id="after" name="after">(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\d)"( selected)?>([^<]+)</option>', select)
    assert [(seat, text) for seat, _, text in options] == [
        ("0", "after Ana, before Bob"),
        ("1", "after Bob, before Chloé"),
        ("2", "after Chloé, before Ana"),
    ]
    assert [seat for seat, chosen, _ in options if chosen] == ["2"]
    assert "Around the table, in the order of play: Ana → Bob → Chloé" in text_of(page)


def test_a_newcomer_joins_between_ana_and_bob_and_deals_next(client, game_id):
    assert "Bob deals, Chloé starts." in game_page(client, game_id)  # before: Bob is on Ana's left
    joined = client.post(f"/games/{game_id}/players", data={"name": "Dan", "start": "zero", "after": "0"})
    assert joined.status_code == 303 and joined.headers["Location"].endswith("?joined=3")
    page = game_page(client, game_id, "?joined=3")
    assert "Dan joins the table after Ana, starting from 0." in page
    # Ana dealt manche 1; Dan now sits on her left (Ana → Dan → Bob → Chloé): he deals manche 2
    # and Bob, on his left, starts.
    assert "Dan deals, Bob starts." in page
    assert "Ana → Dan → Bob → Chloé" in text_of(page)
    assert totals_shown(page) == {"Ana": 0, "Dan": 0, "Bob": 10, "Chloé": 25}
    # The entry lists the hands around the table, Dan's between Ana's and Bob's.
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert re.findall(r'name="(p\d)-typed"', form) == ["p0", "p3", "p1", "p2"]
    # Manche 2: Bob out; Ana 1, Chloé 2, Dan 3 → 1 / 10 / 27 / 3. Dan dealt it: Bob deals manche 3.
    post_manche(client, game_id, {"winner": "1", "p0-typed": "1", "p2-typed": "2", "p3-typed": "3"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana": 1, "Dan": 3, "Bob": 10, "Chloé": 27}
    assert "Bob deals, Chloé starts." in page


def test_a_join_is_undone_from_its_notice(client, game_id):
    client.post(f"/games/{game_id}/players", data={"name": "Dan", "start": "average", "after": "0"})
    page = game_page(client, game_id, "?joined=3")
    form = undo_form(page)
    assert (form["kind"], form["number"]) == ("joined", "3")
    undone = undo(client, page)
    assert undone.status_code == 303 and undone.headers["Location"].endswith("?unjoined=3")
    page = game_page(client, game_id, "?unjoined=3")
    assert "Undone: the newcomer no longer sits at the table." in page
    assert totals_shown(page) == {"Ana": 0, "Bob": 10, "Chloé": 25}
    assert "Bob deals, Chloé starts." in page and "data-undo" not in page
    again = client.post(form.pop("action"), data=form)  # the same Undo posted twice: nothing more
    assert again.status_code == 303 and totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 10, "Chloé": 25}


def test_an_undo_of_a_join_after_a_manche_is_refused_with_the_reason(client, game_id):
    client.post(f"/games/{game_id}/players", data={"name": "Dan", "after": "2"})
    page = game_page(client, game_id, "?joined=3")
    post_manche(client, game_id, {"winner": "3", "p0-typed": "1", "p1-typed": "2", "p2-typed": "3"})
    refused = undo(client, page)
    assert refused.status_code == 409
    assert "can no longer be undone" in refused.get_data(as_text=True)
    assert "Dan" in totals_shown(game_page(client, game_id))


def test_leaving_asks_who_then_confirms_and_can_be_undone(client, game_id):
    page = game_page(client, game_id)
    leave = re.search(r'<select id="leaver" name="seat" required>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r"<option[^>]*selected[^>]*>([^<]*)<", leave) == ["Choose a player"]  # nobody preselected
    nobody = client.post(f"/games/{game_id}/players/leave", data={"seat": ""})
    assert nobody.status_code == 422 and "Choose who leaves the table." in nobody.get_data(as_text=True)
    asked = client.post(f"/games/{game_id}/players/leave", data={"seat": "2"})
    body = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Does Chloé leave the table?" in body and 'id="players" open' in body
    assert 'name="confirm" value="1"' in body and "Yes, Chloé leaves" in body
    assert "Chloé" not in game_page(client, game_id).split("left the table")[0][-200:]  # nothing changed yet
    assert "Ana → Bob → Chloé" in text_of(game_page(client, game_id))
    left = client.post(f"/games/{game_id}/players/leave", data={"seat": "2", "confirm": "1"})
    assert left.status_code == 303 and left.headers["Location"].endswith("?left=2")
    page = game_page(client, game_id, "?left=2")
    assert "Chloé left the table; their total stays." in page
    form = undo_form(page)
    assert (form["kind"], form["number"]) == ("left", "2")
    back = undo(client, page)
    assert back.status_code == 303 and back.headers["Location"].endswith("?back=2")
    page = game_page(client, game_id, "?back=2")
    assert "Undone: Chloé is back at the table." in page
    assert "Ana → Bob → Chloé" in text_of(page)
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert 'name="p2-typed"' in form  # Chloé's hand is asked for again


def test_leaving_is_refused_before_the_question_where_it_cannot_be(client):
    teams = new_game(client, variant="les-huit", players=("Ana", "Bob", "Chloé", "Dan"), **{"opt-partners": "on"})
    refused = client.post(f"/games/{teams}/players/leave", data={"seat": "1"})
    assert refused.status_code == 422 and "break a partnership" in refused.get_data(as_text=True)
    two = new_game(client, players=("Ana", "Bob"))  # classique: 2 players at least
    refused = client.post(f"/games/{two}/players/leave", data={"seat": "1"})
    assert refused.status_code == 422 and "nobody else can leave" in refused.get_data(as_text=True)


def test_a_player_who_left_is_told_how_to_come_back(client, game_id):
    client.post(f"/games/{game_id}/players/leave", data={"seat": "2", "confirm": "1"})
    refused = client.post(f"/games/{game_id}/players", data={"name": "Chloé", "after": "1"})
    assert refused.status_code == 422
    text = text_of(refused.get_data(as_text=True))
    assert "Chloé left the table; their rounds and total stay under that name." in text
    assert "“Chloé 2”" in text
    assert 'value="Chloé"' in refused.get_data(as_text=True)  # what was typed is kept


def test_with_htmx_the_game_is_swapped_in_place(client, game_id):
    page = game_page(client, game_id)
    assert "js/htmx.min.js" in page  # the game page loads htmx: its hx-post forms work
    assert 'hx-post="/games/' + game_id + '/players"' in page
    headers = {"HX-Request": "true"}
    joined = client.post(f"/games/{game_id}/players", data={"name": "Dan", "after": "0"}, headers=headers)
    assert joined.status_code == 303  # htmx follows it and swaps #game from the page
    followed = client.get(joined.headers["Location"], headers=headers).get_data(as_text=True)
    assert 'id="game"' in followed and "Dan joins the table after Ana" in followed
    # A refusal and the question "does … leave?" come back as the page, shown in place at the panel.
    taken = client.post(f"/games/{game_id}/players", data={"name": "dan"}, headers=headers)
    assert taken.status_code == 422 and taken.headers["HX-Reswap"] == "outerHTML show:#players:top"
    asked = client.post(f"/games/{game_id}/players/leave", data={"seat": "1"}, headers=headers)
    assert asked.status_code == 200 and asked.headers["HX-Reswap"] == "outerHTML show:#players:top"
    assert 'id="leave-confirm"' in asked.get_data(as_text=True)


def test_the_api_joins_at_a_seat_and_shows_the_table_order(client):
    created = client.post(
        "/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob", "Chloé"], "first_dealer": 0}
    ).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    url = f"/api/v1/games/{created['id']}"
    # Manche 1 (Ana dealt): Ana out, Bob 3♣ 3, Chloé K♦ 10.
    client.post(f"{url}/manches", json={"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD"]}}, headers=auth)
    bad = client.post(f"{url}/players", json={"name": "Dan", "after": "Zoé"}, headers=auth)
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "after"
    joined = client.post(f"{url}/players", json={"name": "Dan", "after": "Ana"}, headers=auth)
    assert joined.status_code == 201
    game = joined.get_json()
    assert game["players"] == ["Ana", "Bob", "Chloé", "Dan"]
    assert game["seated"] == game["table_order"] == ["Ana", "Dan", "Bob", "Chloé"]
    # Ana dealt manche 1: Dan, now on her left, deals manche 2; Bob starts.
    assert (game["dealer"], game["starter"]) == ("Dan", "Bob")
    left = client.post(f"{url}/players/leave", json={"name": "Bob"}, headers=auth).get_json()
    assert left["seated"] == ["Ana", "Dan", "Chloé"] and left["table_order"] == ["Ana", "Dan", "Bob", "Chloé"]
    document = client.get(f"{url}/export").get_json()
    copy = client.post("/api/v1/games/import", json=document).get_json()
    assert copy["table_order"] == ["Ana", "Dan", "Bob", "Chloé"] and copy["dealer"] == "Dan"
    described = client.get("/api/v1/openapi.json").get_json()["paths"]["/games/{game_id}/players"]["post"]
    assert "after" in described["requestBody"]["content"]["application/json"]["schema"]["properties"]


def test_migration_0007_from_0006_seats_everybody_at_their_seat(tmp_path):
    """0006 → 0007: each player's place around the table is their seat (until then a newcomer
    always sat after the last), so the deal goes round as it did."""
    from sqlalchemy import text

    from .test_input_and_ops import upgraded

    database = upgraded(tmp_path, "0006")
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT seat, place FROM player ORDER BY seat")).all() == [(0, 0), (1, 1)]
    database.dispose()

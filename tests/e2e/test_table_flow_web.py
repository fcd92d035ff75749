"""The table flow through HTTP (issue 14): Undo after a save, an edit or a deletion (plain form and
htmx), edit and delete in one tap from a history row, a player joining or leaving (web and API),
the game file carrying them, and the end of the game's table.

Classique table (SPEC §2): 8 and joker 50, A 2 J 20, K Q 10, other cards their face value; in
penalty mode everyone but the player who went out adds their hand's value.
"""

from __future__ import annotations

import re

import pytest

from .test_web_games import game_page, new_game, post_manche, totals_shown


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def undo_form(page: str) -> dict:
    form = re.search(r'<form method="post" action="([^"]+/undo)".*?</form>', page, re.S)
    assert form, "no Undo on the page"
    fields = dict(re.findall(r'name="(kind|number|revision)" value="([^"]*)"', form.group(0)))
    return {"action": form.group(1), **fields}


def undo(client, page: str, headers=None):
    form = undo_form(page)
    return client.post(form.pop("action"), data=form, headers=headers or {})


def test_undo_a_save_an_edit_and_a_deletion_with_plain_forms(client):
    game_id = new_game(client)
    # Manche 1: Ana out, Bob types 12, Chloé 5 → 0 / 12 / 5
    post_manche(client, game_id, {"winner": "0", "p1-typed": "12", "p2-typed": "5"})
    # Manche 2: Bob out, Ana 3, Chloé 4 → 3 / 12 / 9
    saved = post_manche(client, game_id, {"winner": "1", "p0-typed": "3", "p2-typed": "4"})
    page = game_page(client, game_id, "?" + saved.headers["Location"].split("?")[1])
    assert totals_shown(page) == {"Ana": 3, "Bob": 12, "Chloé": 9}
    form = undo_form(page)
    first = undo(client, page)
    assert first.status_code == 303 and first.headers["Location"].endswith("?undone=2")
    page = game_page(client, game_id, "?undone=2")
    assert totals_shown(page) == {"Ana": 0, "Bob": 12, "Chloé": 5}
    # manche 2 was taken out, not put back as it was
    assert "Undone: round 2 is removed." in page and "round 2 is back" not in page
    # The same Undo posted again (a double tap, a retry) undoes nothing more.
    again = client.post(form.pop("action"), data=form)
    assert again.status_code == 303
    assert totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 12, "Chloé": 5}

    # Edit manche 1 from its row (one tap: the round's number is the link), then undo.
    page = game_page(client, game_id)
    assert f'href="/games/{game_id}/manches/1/edit" aria-label="Edit round 1"' in page
    edited = client.post(f"/games/{game_id}/manches/1", data={"winner": "2", "p0-typed": "40", "p1-typed": "1"})
    assert edited.status_code == 303
    page = game_page(client, game_id, "?edited=1")
    assert totals_shown(page) == {"Ana": 40, "Bob": 1, "Chloé": 0}
    assert undo(client, page).status_code == 303
    assert totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 12, "Chloé": 5}

    # Delete the last manche from its row in one tap (no checkbox), then undo: it comes back at 1.
    page = game_page(client, game_id)
    row_delete = re.search(r'<form method="post" action="(/games/[^"]+/manches/1/delete)">(.*?)</form>', page, re.S)
    assert row_delete and 'name="confirm" value="1"' in row_delete.group(2) and "data-delete-row" in row_delete.group(2)
    assert client.post(row_delete.group(1), data={"confirm": "1"}).status_code == 303
    page = game_page(client, game_id, "?deleted=1")
    assert "No round recorded yet." in page
    assert undo(client, page).status_code == 303
    page = game_page(client, game_id, "?undone=1")
    assert totals_shown(page) == {"Ana": 0, "Bob": 12, "Chloé": 5}
    assert "Undone: round 1 is back as it was." in page


def test_an_undo_after_another_write_is_a_409_and_changes_nothing(client):
    game_id = new_game(client)
    saved = post_manche(client, game_id, {"winner": "0", "p1-typed": "12", "p2-typed": "5"})
    page = game_page(client, game_id, "?" + saved.headers["Location"].split("?")[1])
    post_manche(client, game_id, {"winner": "1", "p0-typed": "3", "p2-typed": "4"})  # another phone
    refused = undo(client, page)
    assert refused.status_code == 409
    assert "can no longer be undone" in refused.get_data(as_text=True)
    assert totals_shown(game_page(client, game_id)) == {"Ana": 3, "Bob": 12, "Chloé": 9}
    # Through htmx the refusal replaces the page's main part (the headers say where).
    htmx = undo(client, page, headers={"HX-Request": "true"})
    assert htmx.status_code == 409 and htmx.headers["HX-Retarget"] == "#main"


def test_undo_through_htmx_answers_the_game_page(client):
    game_id = new_game(client)
    saved = post_manche(client, game_id, {"winner": "0", "p1-typed": "12", "p2-typed": "5"})
    page = game_page(client, game_id, "?" + saved.headers["Location"].split("?")[1])
    assert 'hx-post="/games/' in page and 'hx-select="#game"' in page
    answer = undo(client, page, headers={"HX-Request": "true"})
    assert answer.status_code == 303  # htmx follows it and swaps #game from the page
    followed = client.get(answer.headers["Location"], headers={"HX-Request": "true"})
    assert 'id="game"' in followed.get_data(as_text=True)
    assert "No round recorded yet." in followed.get_data(as_text=True)


def test_a_player_joins_at_manche_3_from_the_chosen_total_then_one_leaves(client):
    game_id = new_game(client)
    # Manche 1: Ana out, Bob 10, Chloé 25. Manche 2: Bob out, Ana 10, Chloé 15 → 10 / 10 / 40
    post_manche(client, game_id, {"winner": "0", "p1-typed": "10", "p2-typed": "25"})
    post_manche(client, game_id, {"winner": "1", "p0-typed": "10", "p2-typed": "15"})
    page = game_page(client, game_id)
    assert "A player joins or leaves" in page and "Add a player" in page
    # The choices as the core computes them: average (10 + 10 + 40) / 3 = 20, highest 40.
    assert "the average: 20" in page and "the highest total: 40" in page
    joined = client.post(f"/games/{game_id}/players", data={"name": "Dan", "start": "highest"})
    assert joined.status_code == 303 and joined.headers["Location"].endswith("?joined=3")
    page = game_page(client, game_id, "?joined=3")
    # Nobody said where Dan sits: after the last at the table, Chloé.
    assert "Dan joins the table after Chloé, starting from 40." in page
    assert totals_shown(page) == {"Ana": 10, "Bob": 10, "Chloé": 40, "Dan": 40}
    # Ana dealt manche 1, Bob manche 2: Chloé deals manche 3, Dan (on her left now) starts.
    assert "Chloé deals, Dan starts." in page
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert 'name="p3-typed"' in form
    # Manche 3: Dan out; Ana 1, Bob 2, Chloé 3 → 11 / 12 / 43 / 40
    post_manche(client, game_id, {"winner": "3", "p0-typed": "1", "p1-typed": "2", "p2-typed": "3"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana": 11, "Bob": 12, "Chloé": 43, "Dan": 40}
    assert "Dan deals, Ana starts." in page

    # Leaving asks first (issue 30, item 3): nothing changes until "Yes, Chloé leaves".
    asked = client.post(f"/games/{game_id}/players/leave", data={"seat": "2"})
    assert asked.status_code == 200 and "Does Chloé leave the table?" in asked.get_data(as_text=True)
    assert "Chloé left the table" not in game_page(client, game_id)
    left = client.post(f"/games/{game_id}/players/leave", data={"seat": "2", "confirm": "1"})
    assert left.status_code == 303
    page = game_page(client, game_id, "?left=2")
    assert "Chloé left the table; their total stays." in page and "left the table</span>" in page
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert 'name="p2-typed"' not in form and 'name="p3-typed"' in form
    # Dan still deals manche 4; then the deal skips Chloé's empty seat.
    assert "Dan deals, Ana starts." in game_page(client, game_id)
    # Manche 4 without Chloé: Ana out, Bob 5, Dan 6 → 11 / 17 / 43 / 46
    post_manche(client, game_id, {"winner": "0", "p1-typed": "5", "p3-typed": "6"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana": 11, "Bob": 17, "Dan": 46, "Chloé": 43}
    assert "Ana deals, Bob starts." in page


def test_joining_errors_are_worded_and_keep_what_was_typed(client):
    game_id = new_game(client)
    taken = client.post(f"/games/{game_id}/players", data={"name": "bob", "start": "average"})
    assert taken.status_code == 422
    body = taken.get_data(as_text=True)
    assert "Two players are called" in body and 'value="bob"' in body and 'id="players" open' in body
    teams = new_game(client, variant="les-huit", players=("Ana", "Bob", "Chloé", "Dan"), **{"opt-partners": "on"})
    refused = client.post(f"/games/{teams}/players", data={"name": "Eve"})
    assert refused.status_code == 422 and "break a partnership" in refused.get_data(as_text=True)
    assert client.post(f"/games/{teams}/players/leave", data={"seat": "1"}).status_code == 422


def test_the_api_joins_and_leaves_and_the_game_file_carries_it(client):
    created = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob", "Chloé"]}).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    url = f"/api/v1/games/{created['id']}"
    # Ana out, Bob 3♣ 3, Chloé K♦ 10 → 0 / 3 / 10
    client.post(f"{url}/manches", json={"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD"]}}, headers=auth)
    assert client.post(f"{url}/players", json={"name": "Dan"}).status_code == 401
    bad = client.post(f"{url}/players", json={"name": "Dan", "start": "lowest"}, headers=auth)
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "start"
    joined = client.post(f"{url}/players", json={"name": "Dan"}, headers=auth)
    assert joined.status_code == 201
    # The average: (0 + 3 + 10) / 3 = 4.33 → 4
    game = joined.get_json()
    assert game["totals"]["Dan"] == 4 and game["seated"] == ["Ana", "Bob", "Chloé", "Dan"]
    assert game["roster"] == [{"name": "Dan", "joined_after": 1, "left_after": None, "start_total": 4}]
    left = client.post(f"{url}/players/leave", json={"name": "Bob"}, headers=auth).get_json()
    assert left["seated"] == ["Ana", "Chloé", "Dan"]
    # Manche 2 without Bob: Dan out, Ana 7♣ 7, Chloé 2♦ 20 → 7 / 3 / 30 / 4
    client.post(f"{url}/manches", json={"winner": "Dan", "hands": {"Ana": ["7C"], "Chloé": ["2D"]}}, headers=auth)
    document = client.get(f"{url}/export").get_json()
    assert document["game"]["totals"] == {"Ana": 7, "Bob": 3, "Chloé": 30, "Dan": 4}
    copy = client.post("/api/v1/games/import", json=document)
    assert copy.status_code == 201, copy.get_json()
    copied = copy.get_json()
    assert copied["totals"] == document["game"]["totals"] and copied["seated"] == ["Ana", "Chloé", "Dan"]
    # A file written before players could join (no "roster") still imports.
    del document["game"]["roster"]
    del document["game"]["table_order"]
    document["game"]["players"] = ["Ana", "Bob", "Chloé"]
    document["game"]["manches"] = document["game"]["manches"][:1]
    document["game"]["totals"] = {"Ana": 0, "Bob": 3, "Chloé": 10}
    assert client.post("/api/v1/games/import", json=document).status_code == 201


def test_the_end_of_the_game_says_who_crossed_the_target_and_each_ones_numbers(client):
    game_id = new_game(client, target="100")
    # Manche 1: Ana out, Bob 30, Chloé 60. Manche 2: Bob out, Ana 20, Chloé 50 → 20 / 30 / 110.
    post_manche(client, game_id, {"winner": "0", "p1-typed": "30", "p2-typed": "60"})
    post_manche(client, game_id, {"winner": "1", "p0-typed": "20", "p2-typed": "50"})
    page = game_page(client, game_id)
    assert "Chloé reached the target of 100." in page and "Won by Ana" in page
    table = re.search(r"<table class=\"final-table\".*?</table>", page, re.S).group(0)
    rows = dict(re.findall(r'<tr data-side="([^"]+)">(.*?)</tr>', table, re.S))  # a row per player
    sides = list(rows)
    numbers: dict[str, dict[str, str]] = {}
    for side, cells in rows.items():
        for stat, value in re.findall(r'<td class="num" data-stat="(\w+)">([^<]+)</td>', cells):
            numbers.setdefault(stat, {})[side] = value
    # Manches won / best / worst / average (the fewest points are best here), by rank:
    # Ana 0 and 20: won 1, best 0, worst 20, average 10.0; Bob 30 and 0: 1, 0, 30, 15.0;
    # Chloé 60 and 50: 0, 50, 60, 55.0.
    assert sides == ["Ana", "Bob", "Chloé"]
    assert numbers == {
        "won": {"Ana": "1", "Bob": "1", "Chloé": "0"},
        "best": {"Ana": "0", "Bob": "0", "Chloé": "50"},
        "worst": {"Ana": "20", "Bob": "30", "Chloé": "60"},
        "average": {"Ana": "10.0", "Bob": "15.0", "Chloé": "55.0"},
    }
    assert "Play again" in page


def test_play_again_after_a_leave_seats_those_still_at_the_table(client, games):
    game_id = new_game(client, target="100")
    client.post(f"/games/{game_id}/players/leave", data={"seat": "0", "confirm": "1"})  # Ana leaves before a card
    # Manche 1 without Ana (Bob dealt it: Ana's seat is skipped): Bob out, Chloé 120 → 0 / 0 / 120, over.
    post_manche(client, game_id, {"winner": "1", "p2-typed": "120"})
    page = game_page(client, game_id)
    assert "Won by Bob" in page  # Ana, 0 too, left: she cannot win
    again = client.post(f"/games/{game_id}/replay")
    assert again.status_code == 303
    new = games.get(again.headers["Location"].rsplit("/", 1)[1])
    assert new.players == ["Bob", "Chloé"]
    # Bob dealt manche 1: Chloé, the next seat, deals first.
    assert new.dealer_name == "Chloé"

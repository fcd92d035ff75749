"""A retried manche never comes back, over HTTP (issue 27, item 3): the API's Idempotency-Key and
the form's nonce outlive the deletion and the undo of the manche they recorded.

Classique table (SPEC §2): K Q 10, other cards their face value; in penalty mode everyone but the
player who went out adds their hand's value.
"""

from __future__ import annotations

import html
import re

import pytest

from .test_table_flow_web import undo
from .test_web_games import game_page, manche_form, new_game, totals_shown

# Ana out; Bob K♠ 3♣ = 10 + 3 = 13; Chloé 4♥ = 4
MANCHE = {"winner": "Ana", "hands": {"Bob": ["KS", "3C"], "Chloé": ["4H"]}}
GONE = "Round 1 was saved from this very entry, then deleted: it is not saved a second time."


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def test_the_api_answers_a_retry_after_delete_with_a_409_and_after_undo_with_the_first_answer(client, games):
    made = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob", "Chloé"]}).get_json()
    url = f"/api/v1/games/{made['id']}/manches"
    headers = {"Authorization": f"Bearer {made['edit_token']}", "Idempotency-Key": "phone-7"}
    first = client.post(url, json=MANCHE, headers=headers)
    assert first.status_code == 201 and first.get_json()["totals"] == {"Ana": 0, "Bob": 13, "Chloé": 4}
    assert client.delete(f"{url}/1", headers=headers).status_code == 200

    retried = client.post(url, json=MANCHE, headers=headers)
    assert retried.status_code == 409
    error = retried.get_json()["error"]
    assert error["code"] == "conflict" and error["message"].startswith(GONE)
    assert client.get(f"/api/v1/games/{made['id']}").get_json()["manches"] == []

    deleted = games.get(made["id"])
    games.undo(deleted, "deleted", 1, deleted.revision)  # the Undo of the game page
    again = client.post(url, json=MANCHE, headers=headers)
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    assert len(client.get(f"/api/v1/games/{made['id']}").get_json()["manches"]) == 1


def test_the_form_retried_after_delete_shows_why_and_after_undo_lands_on_the_manche(client):
    game_id = new_game(client)
    # Manche 1: Ana out, Bob types 12, Chloé 5 → 0 / 12 / 5
    fields = {**manche_form(client, game_id), "winner": "0", "p1-typed": "12", "p2-typed": "5"}
    assert client.post(f"/games/{game_id}/manches", data=fields).status_code == 303
    assert client.post(f"/games/{game_id}/manches/1/delete", data={"confirm": "1"}).status_code == 303
    deleted_page = game_page(client, game_id, "?deleted=1")

    retried = client.post(f"/games/{game_id}/manches", data=fields)  # the same form, sent again
    assert retried.status_code == 409
    assert GONE in html.unescape(retried.get_data(as_text=True))
    assert "No round recorded yet." in game_page(client, game_id)

    assert undo(client, deleted_page).status_code == 303
    again = client.post(f"/games/{game_id}/manches", data=fields)
    assert again.status_code == 303 and again.headers["Location"].endswith("?saved=1")
    assert totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 12, "Chloé": 5}  # once


def test_a_correction_and_a_deletion_sent_again_with_their_nonce_count_once(client):
    """Issue 28: what a phone queued offline is sent again with its form's nonce — a correction
    answered as made (no collision with itself), a deletion made once (not a 404, not the manche
    before it)."""
    game_id = new_game(client)
    # Manche 1: Ana out, Bob 12, Chloé 5; manche 2: Bob out, Ana 3, Chloé 4
    for fields in (
        {"winner": "0", "p1-typed": "12", "p2-typed": "5"},
        {"winner": "1", "p0-typed": "3", "p2-typed": "4"},
    ):
        assert (
            client.post(f"/games/{game_id}/manches", data={**manche_form(client, game_id), **fields}).status_code == 303
        )
    page = client.get(f"/games/{game_id}/manches/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    # the correction: Bob 20 instead of 12
    edit = {"version": version, "nonce": "fix-one", "winner": "0", "p1-typed": "20", "p2-typed": "5", "save": "1"}
    for _ in range(2):  # sent, then sent again (the answer was lost)
        response = client.post(f"/games/{game_id}/manches/1", data=edit)
        assert response.status_code == 303 and response.headers["Location"].endswith("edited=1")
    for _ in range(2):
        response = client.post(f"/games/{game_id}/manches/2/delete", data={"confirm": "1", "nonce": "del-two"})
        assert response.status_code == 303 and response.headers["Location"].endswith("deleted=2")
    # only manche 1, corrected: Ana 0, Bob 20, Chloé 5
    assert totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 20, "Chloé": 5}

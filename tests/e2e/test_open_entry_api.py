"""The open entry over HTTP (issue 45): the JSON API (bearer token) and the manche entry's own
calls (its session cookie) read and change one shared entry; saving records one manche.

Classique (SPEC §2): K 10, 7 7, 8 50, 3 3; penalty mode: the others add their hands, the winner 0.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sqlalchemy import select

from models.services.db import OpenEntry
from models.services.feed import EntryChange
from models.services.open_entry import HandChange
from models.services.presence import Entering
from tests.e2e.test_api import THREE, assert_error, create
from tests.e2e.test_web_games import new_game
from views import entry_events
from views.entry_events import entry_messages, hands_counted
from views.texts import entering_said


def url(game, rest=""):
    return f"/api/v1/games/{game['id']}/entry{rest}"


def test_the_api_reads_and_changes_the_entry_and_saves_it_once(client):
    game, auth = create(client)
    empty = client.get(url(game), headers=auth).get_json()
    assert empty["number"] == 1 and empty["hands"] == [] and empty["missing"] == THREE
    answer = client.put(url(game, "/winner"), json={"number": 1, "winner": "Ana"}, headers=auth).get_json()
    assert answer["winner"] == "Ana" and answer["expected"] == ["Bob", "Chloé"]
    # Bob: K + 7 = 17
    answer = client.put(url(game, "/hands/1"), json={"number": 1, "cards": ["K", "7"], "done": True}, headers=auth)
    assert answer.status_code == 200 and answer.get_json()["hands"][0]["value"] == 17
    assert answer.get_json()["progress"] == {"done": 1, "of": 2}
    missing = client.post(url(game, "/save"), json={"number": 1}, headers={**auth, "Idempotency-Key": "k1"})
    assert_error(missing, 422, "missing_hand", field="hands", names="Chloé")
    # Chloé: 8 + 3 = 53
    client.put(url(game, "/hands/2"), json={"number": 1, "cards": ["8", "3"], "done": True}, headers=auth)
    for _ in range(2):  # a retry counts once
        saved = client.post(url(game, "/save"), json={"number": 1}, headers={**auth, "Idempotency-Key": "k1"})
        assert saved.status_code == 201 and saved.get_json()["number"] == 1
        assert saved.get_json()["totals"] == {"Ana": 0, "Bob": 17, "Chloé": 53}
    manches = client.get(f"/api/v1/games/{game['id']}", headers=auth).get_json()["manches"]
    assert len(manches) == 1
    assert client.get(url(game), headers=auth).get_json()["number"] == 2
    # another key, the manche saved already: told so, never a second manche
    late = client.post(url(game, "/save"), json={"number": 1}, headers={**auth, "Idempotency-Key": "k2"})
    assert_error(late, 409, "conflict", field="number")


def test_the_api_refuses_bad_input_with_a_4xx(client):
    game, auth = create(client)
    assert client.get(url(game)).status_code == 401
    assert_error(
        client.put(url(game, "/hands/9"), json={"number": 1, "cards": []}, headers=auth), 422, "validation_error"
    )
    assert_error(
        client.put(url(game, "/hands/1"), json={"number": 1, "cards": ["Z"]}, headers=auth), 422, "invalid_card"
    )
    bad = client.put(url(game, "/hands/1"), json={"number": 1, "cards": "K"}, headers=auth)
    assert_error(bad, 422, "validation_error", field="cards")
    assert_error(
        client.put(url(game, "/winner"), json={"number": 1, "winner": "Zoé"}, headers=auth), 422, "validation_error"
    )
    assert_error(client.put(url(game, "/hands/1"), json={"number": 3, "cards": []}, headers=auth), 409, "conflict")


def test_the_pages_calls_use_the_session_and_name_this_phone(client):
    game_id = new_game(client)  # this browser made it: it holds the rights in its session
    page = f"/games/{game_id}/entry"
    answer = client.put(page + "/hands/1", json={"number": 1, "cards": ["K"], "done": False, "me": "Bob"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    fields = answer.get_json()
    assert fields["hands"][0]["by"] == {"phone": fields["me"], "name": "Bob"}
    refused = client.put(page + "/hands/1", json={"number": 1, "cards": ["K"], "done": "yes"})
    assert_error(refused, 422, "validation_error", field="done")


@pytest.mark.parametrize("typed", ["abc", "-1", "797", "1234567890123", "²"])
def test_a_typed_total_the_page_sends_is_checked_once_against_the_most_a_hand_is_worth(client, typed):
    """The page sends a typed total as text: a whole number from 0 to the most one hand can be
    worth (Classique: the whole deck in one hand, 796), else one message naming that bound."""
    page = f"/games/{new_game(client)}/entry/hands/1"
    refused = client.put(page, json={"number": 1, "typed": typed}, headers={"Accept-Language": "en"})
    assert_error(refused, 422, "validation_error", field="typed")
    assert refused.get_json()["error"]["message"] == "A hand is worth a whole number from 0 to 796."
    for sent, kept in ((" 796 ", 796), ("0", 0), ("  ", None)):
        answer = client.put(page, json={"number": 1, "typed": sent}).get_json()
        assert answer["hands"][0]["typed"] == kept


def test_a_hand_is_named_by_the_phone_that_counts_it_never_by_a_cookie_an_api_client_carries(client):
    """This browser calls itself Zoé: its page's change of a hand, for no player, shows « Zoé »;
    the API's change of another hand, sent by the same client with its cookie, names nobody (the
    cookie's name is the browser's, not the API client's)."""
    game, auth = create(client)
    client.get(f"/join/{game['id']}/{game['edit_token']}")  # the page's rights, in the session
    with client.session_transaction() as session:
        session["phone_name"] = "Zoé"
    page = client.put(f"/games/{game['id']}/entry/hands/1", json={"number": 1, "cards": ["K"]}).get_json()
    assert page["hands"][0]["by"]["name"] == "Zoé"
    answer = client.put(url(game, "/hands/2"), json={"number": 1, "cards": ["7"]}, headers=auth).get_json()
    assert [hand["by"]["name"] for hand in answer["hands"]] == ["Zoé", None]


@pytest.mark.parametrize(
    "language, own, other",
    [
        ("fr", "Bob saisit sa main (manche 1)…", "Chloé compte pour Ana et Dan (manche 1)…"),
        ("en", "Bob is counting their own hand (round 1)…", "Chloé is counting for Ana and Dan (round 1)…"),
    ],
)
def test_the_presence_line_names_who_counts_which_hand(app, games, language, own, other):
    """Bob's phone counts Bob's hand; Chloé's (the scorekeeper's, counting for the table) counts
    Ana's and Dan's; Eve's has marked hers done: it is no longer counting, and is named by the
    player it said it is (neither Bob's nor Eve's phone gave itself a name): each phone on the
    presence line, as the table's streams say it."""
    game, _token = games.create_game("classique", ["Ana", "Bob", "Chloé", "Dan", "Eve"], first_dealer=0)
    entries = app.extensions["open_entries"]
    game = games.get(game.id)
    entries.change_hand(game, 1, 1, HandChange(["K"], None, False), "bob-phone", "Bob")
    for seat in (0, 3):
        entries.change_hand(game, 1, seat, HandChange(["7"], None, False), "chloe-phone", "Chloé")
    entries.change_hand(game, 1, 4, HandChange(["8"], None, True), "eve-phone", "Eve")
    change = EntryChange(game.id, entries.stored(game.id), tuple(game.players), game.next_number)
    entering = [Entering(phone, name, 1, False, 0.0) for phone, name in
                (("bob-phone", None), ("chloe-phone", "Chloé"), ("eve-phone", None))]  # fmt: skip
    with app.test_request_context(headers={"Accept-Language": language}):
        said = entering_said(entering, hands_counted(change)).replace("\u00a0", " ")
        waiting = "Eve saisit la manche 1…" if language == "fr" else "Eve is entering round 1…"
        assert said == " · ".join([own, other, waiting])


def test_the_entry_is_built_once_for_every_stream_that_tells_a_change(app, games, monkeypatch):
    """Eight phones on the entry, each with its stream, hear one change (Bob's K: 10): the entry's
    JSON is built once and each stream tells the same line; a stream given an equal change (one
    opening later) is told that line too."""
    game, _token = games.create_game("classique", THREE, first_dealer=0)
    entries = app.extensions["open_entries"]
    state = entries.change_hand(games.get(game.id), 1, 1, HandChange(["K"], None, False), "bob-phone", "Bob")
    built = []
    fields = entry_events.entry_fields
    monkeypatch.setattr(entry_events, "entry_fields", lambda *args: built.append(args) or fields(*args))
    change = EntryChange(game.id, state, tuple(game.players), game.next_number, tuple(game.seated))
    with app.test_request_context():
        told = [dict(entry_messages(change, on_entry=True)) for _ in range(8)]
        told.append(dict(entry_messages(replace(change), on_entry=True)))
    assert len(built) == 1
    assert all(each["entry"] == told[0]["entry"] for each in told)
    heard = json.loads(told[0]["entry"])
    assert (heard["version"], heard["hands"][0]["player"], heard["hands"][0]["value"]) == (state.version, "Bob", 10)


@pytest.mark.parametrize("seat", ["١", "٣", "０", " 1", "1 ", "+1", "1.0", "-1", "3", True, 1.0, [1], {"seat": 1}])
def test_a_seat_other_than_a_plain_whole_number_in_range_is_refused(app, client, seat):
    """The page sends the seat that went out: a whole number in plain digits (as text or a number)
    for a seat at the table, ``blocked``, or null; anything else is refused with words, and
    nothing is stored."""
    game_id = new_game(client)
    page = f"/games/{game_id}/entry/winner"
    refused = client.put(page, json={"number": 1, "seat": seat}, headers={"Accept-Language": "en"})
    assert_error(refused, 422, "validation_error", field="seat")
    assert stored_winner(app, game_id) is None


@pytest.mark.parametrize(("seat", "kept"), [("1", "1"), (2, "2"), ("02", "2"), ("blocked", None), (None, None)])
def test_a_seat_is_stored_as_the_whole_number_it_names(app, client, seat, kept):
    game_id = new_game(client)
    answer = client.put(f"/games/{game_id}/entry/winner", json={"number": 1, "seat": seat})
    if seat == "blocked":  # classique has no blocked rounds
        assert_error(answer, 422, "validation_error", field="winner")
        return
    assert answer.status_code == 200 and answer.get_json()["winner_seat"] == (None if kept is None else int(kept))
    assert stored_winner(app, game_id) == kept


def stored_winner(app, game_id):
    row = app.extensions["database"].first(select(OpenEntry.winner).where(OpenEntry.game_id == game_id))
    return None if row is None else row.winner


def test_a_write_to_a_finished_game_says_it_is_finished_at_every_door(client):
    """A game of one round, played: saving the entry (any number), changing a hand or the winner,
    by the page's calls or the API, is answered « the game is over » (409 game_finished); the
    final save sent again with its key answers as the first time."""
    game_id = new_game(client, end="rounds", rounds="1")
    page = f"/games/{game_id}/entry"
    client.put(page + "/winner", json={"number": 1, "seat": "0"})
    client.put(page + "/hands/1", json={"number": 1, "typed": "30", "done": True})
    client.put(page + "/hands/2", json={"number": 1, "typed": "12", "done": True})
    saved = client.post(page + "/save", json={"number": 1, "nonce": "last"})
    assert saved.status_code == 200 and saved.get_json()["number"] == 1
    assert client.post(page + "/save", json={"number": 1, "nonce": "last"}).get_json() == {**saved.get_json(),
                                                                                           "replayed": True}  # fmt: skip
    for number in (1, 2, 11):
        assert_error(client.post(page + "/save", json={"number": number}), 409, "game_finished")
        assert_error(client.put(page + "/winner", json={"number": number, "seat": "1"}), 409, "game_finished")
        assert_error(client.put(page + "/hands/1", json={"number": number, "cards": ["K"]}), 409, "game_finished")

    game, auth = create(client, "classique", ["Ana", "Bob"], target=50)
    client.post(f"/api/v1/games/{game['id']}/manches", json={"winner": "Ana", "hands": {"Bob": ["8H"]}}, headers=auth)
    for number in (1, 2, 11):
        keyed = {**auth, "Idempotency-Key": f"late-{number}"}
        assert_error(client.post(url(game, "/save"), json={"number": number}, headers=keyed), 409, "game_finished")
        assert_error(client.put(url(game, "/winner"), json={"number": number, "winner": "Bob"}, headers=auth), 409,
                     "game_finished")  # fmt: skip

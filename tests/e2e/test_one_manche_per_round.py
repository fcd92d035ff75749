"""One manche per round, whichever way it is saved (the whole-manche form, the open entry, the
API): a second phone saving the same manche is told whose phone saved it and, only where its
hands differ, offered them as a correction; a manche kept offline lands as the next; a phone that
counted with the open entry saves only once every hand is in, or without the absent ones (0 for
now); a saved manche closes the open entry, so no phone brings its hands back into the next one.

Classique (SPEC §2, seed 000: « Le Roi, la Dame et le Valet valent 10 points … l'As 20 points »),
penalty mode: the winner scores 0, each other player the value of the cards left in hand.
"""

from __future__ import annotations

import html
import re

import pytest

from models.services.open_entry import HandChange
from tests.e2e.test_share import other_client, own
from tests.e2e.test_web_games import manche_form, new_game

ANA, BOB, CHLOE = 0, 1, 2


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # assertions on English texts; French is the default
    return client


def phone(app, client, game_id, name):
    """A second phone of the table: this game's rights, and the name it gave itself."""
    other = other_client(app)
    with client.session_transaction() as session:
        token = dict(session["tokens"])[game_id]
    own(other, game_id, token)
    with other.session_transaction() as session:
        session["phone_name"] = name
    return other


def name_phone(client, name):
    with client.session_transaction() as session:
        session["phone_name"] = name


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.get_data(as_text=True)))


def api_manches(app, game_id):
    return app.extensions["games"].get(game_id).manches


def test_two_phones_saving_the_same_manche_record_it_once(app, client):
    game_id = new_game(client)
    name_phone(client, "Ana")
    bob = phone(app, client, game_id, "Bob")
    first, second = manche_form(client, game_id), manche_form(bob, game_id)
    assert first["number"] == second["number"] == "1"
    # Ana went out; Bob holds K (10), Chloé 3 (3)
    same = {"winner": str(ANA), "p1-n_K": "1", "p2-n_3": "1"}
    assert client.post(f"/games/{game_id}/manches", data={**first, **same}).status_code == 303
    answer = bob.post(f"/games/{game_id}/manches", data={**second, **same})
    assert answer.status_code == 409
    page = text(answer)
    assert "Round 1 was saved on Ana's phone." in page
    assert "Your hands are the same: nothing to correct." in page
    assert "Correct it with my hands" not in page
    assert len(api_manches(app, game_id)) == 1  # never a manche 2 of the same hands


def test_a_second_save_with_other_hands_is_offered_them_as_a_correction(app, client):
    game_id = new_game(client)
    name_phone(client, "Élodie")
    bob = phone(app, client, game_id, "Bob")
    first, second = manche_form(client, game_id), manche_form(bob, game_id)
    client.post(f"/games/{game_id}/manches", data={**first, "winner": str(ANA), "p1-n_K": "1", "p2-n_3": "1"})
    # Bob's phone counted Chloé's hand as an Ace (20) instead of a 3
    mine = {"winner": str(ANA), "p1-n_K": "1", "p2-n_A": "1"}
    answer = bob.post(f"/games/{game_id}/manches", data={**second, **mine})
    assert answer.status_code == 409
    page = text(answer)
    assert "saved on Élodie" in page and "Correct it with my hands" in page
    action = re.search(r'<form method="post" action="([^"]+)">', page).group(1)
    assert action == f"/games/{game_id}/manches/1"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
    assert "number" not in fields and fields["p2-n_A"] == "1" and fields["version"]
    corrected = bob.post(action, data={**fields, "save": "1"})
    assert corrected.status_code == 303
    manches = api_manches(app, game_id)
    assert len(manches) == 1 and manches[0].hands["Chloé"].value == 20
    assert manches[0].stored.saved_by == "Élodie"  # a correction keeps who saved it


def test_in_french_the_phone_is_named_with_its_article(app, client):
    client.set_cookie("lang", "fr")
    game_id = new_game(client)
    name_phone(client, "Élodie")
    bob = phone(app, client, game_id, "Bob")
    bob.set_cookie("lang", "fr")
    first, second = manche_form(client, game_id), manche_form(bob, game_id)
    same = {"winner": str(ANA), "p1-n_K": "1", "p2-n_3": "1"}
    client.post(f"/games/{game_id}/manches", data={**first, **same})
    page = text(bob.post(f"/games/{game_id}/manches", data={**second, **same}))
    assert "La manche 1 a été enregistrée par le téléphone d'Élodie." in page


def test_a_manche_kept_offline_lands_as_the_next(app, client):
    game_id = new_game(client)
    bob = phone(app, client, game_id, "Bob")
    queued = manche_form(bob, game_id)
    client.post(
        f"/games/{game_id}/manches",
        data={**manche_form(client, game_id), "winner": "0", "p1-typed": "5", "p2-typed": "7"},
    )
    sent = bob.post(
        f"/games/{game_id}/manches", data={**queued, "queued": "1", "winner": "1", "p0-typed": "4", "p2-typed": "6"}
    )
    assert sent.status_code == 303 and "saved=2" in sent.headers["Location"] and "shown=1" in sent.headers["Location"]
    assert len(api_manches(app, game_id)) == 2


def test_a_saved_manche_closes_the_open_entry_whichever_way_it_was_saved(app, client):
    game_id = new_game(client)
    entries, games = app.extensions["open_entries"], app.extensions["games"]
    game = games.get(game_id)
    entries.change_hand(game, 1, BOB, HandChange(["K", "7"], None, True), "phone-b", "Bob")
    saved = client.post(
        f"/games/{game_id}/manches",
        data={**manche_form(client, game_id), "winner": "0", "p1-typed": "17", "p2-typed": "3"},
    )
    assert saved.status_code == 303
    stored = entries.stored(game_id)
    assert stored.number == 2 and stored.hands == ()  # Bob's K and 7 never come back into manche 2


def test_a_phone_on_the_open_entry_saves_once_every_hand_is_in_or_without_the_absent_ones(app, client):
    game_id = new_game(client)
    entries, games = app.extensions["open_entries"], app.extensions["games"]
    game = games.get(game_id)
    entries.choose_winner(game, 1, str(ANA))
    entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    state = entries.change_hand(game, 1, CHLOE, HandChange(["3"], None, False), "phone-c", "Chloé")  # still counting
    form = {
        **manche_form(client, game_id),
        "winner": "0",
        "p1-n_K": "1",
        "p2-n_3": "1",
        "entry_version": str(state.version),
    }
    refused = client.post(f"/games/{game_id}/manches", data=form)
    assert refused.status_code == 422
    page = text(refused)
    assert "Still being counted: Chloé." in page
    button = re.search(
        r'<button class="button" type="submit" name="absent" value="([^"]+)" data-absent>(.*?)</button>', page
    )
    assert button.group(1) == str(CHLOE) and button.group(2).strip() == "Save without Chloé's hand (0 for now)"
    assert f'name="entry_version" value="{state.version}"' in page  # the way out keeps what the phone saw
    saved = client.post(f"/games/{game_id}/manches", data={**form, "absent": button.group(1)})
    assert saved.status_code == 303
    manche = api_manches(app, game_id)[0]
    assert manche.hands["Chloé"].typed == 0 and manche.hands["Bob"].value == 10  # Chloé 0 for now
    assert entries.stored(game_id).number == 2


def test_a_save_from_an_entry_another_phone_changed_since_is_drawn_again(app, client):
    game_id = new_game(client)
    entries, games = app.extensions["open_entries"], app.extensions["games"]
    game = games.get(game_id)
    entries.choose_winner(game, 1, str(ANA))
    seen = entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    entries.change_hand(game, 1, CHLOE, HandChange(["3"], None, True), "phone-c", "Chloé")  # after this phone drew it
    form = {**manche_form(client, game_id), "winner": "0", "p1-n_K": "1", "p2-n_3": "1"}
    form["entry_version"] = str(seen.version)
    moved = client.post(f"/games/{game_id}/manches", data=form)
    assert moved.status_code == 409 and "The hands changed on another phone meanwhile" in text(moved)
    assert api_manches(app, game_id) == []

"""The web pages of a game, through plain form posts (no JavaScript): new game, scoreboard,
manche entry, edit, delete, rights, the end of a game and "play again".

Expected totals are computed by hand from SPEC §2's tables:
classique — JK 50, 8 50, A 20, 2 20, J 20, K 10, Q 10, 3–7 and 9 face value, 10 is 10;
standard (les-huit) — JK 50, 8 50, A 1, 2 2, K/Q/J 10, others face value.
"""

from __future__ import annotations

import html
import re

import pytest

from models.services.games import MancheEntry


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # assertions on English texts; French is the default
    return client


def new_game(client, variant="classique", players=("Ana", "Bob", "Chloé"), **fields):
    data = {
        "variant": variant,
        "shown_variant": variant,
        "players": list(players),
        "end": "target",
        "first_dealer": "0",
        **fields,
    }
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def manche_form(client, game_id) -> dict:
    """The hidden fields of a new manche form (number and nonce), as a browser would send them."""
    page = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    return {
        "number": re.search(r'name="number" value="(\d+)"', page).group(1),
        "nonce": re.search(r'name="nonce" value="([^"]+)"', page).group(1),
    }


def post_manche(client, game_id, fields, expect=303):
    response = client.post(f"/games/{game_id}/manches", data={**manche_form(client, game_id), **fields})
    assert response.status_code == expect, response.get_data(as_text=True)
    return response


def totals_shown(page: str) -> dict:
    """{side: total} as the scoreboard shows them."""
    rows = re.findall(r'data-side="([^"]+)">.*?<td class="num total">(\d+)</td>', page, re.S)
    return {html.unescape(side): int(total) for side, total in rows}


def game_page(client, game_id, query="") -> str:
    response = client.get(f"/games/{game_id}{query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


# --- new game ------------------------------------------------------------------------------------


def test_new_game_form_shows_variants_options_and_known_names(client, games):
    game, _ = games.create_game("classique", ["Zoé", "Yann"])
    assert "Zoé" not in client.get("/games/new").get_data(as_text=True)  # another browser's game
    client.get(f"/games/{game.id}")  # opened here: its names are suggested
    page = client.get("/games/new").get_data(as_text=True)
    for variant in ("classique", "deux-jeux", "54-cartes", "huit-americain", "huit-elabore", "les-huit"):
        assert f'name="variant" value="{variant}"' in page
    assert '<option value="Zoé">' in page  # the datalist of earlier names
    assert 'name="opt-special_finish_forbidden"' in page  # classique's house options by default
    assert page.count('name="players"') == 5  # up to classique's 5 players

    les_huit = client.get("/games/new?variant=les-huit").get_data(as_text=True)
    assert re.search(r'id="opt-partners" name="opt-partners" value="on" checked', les_huit)
    assert les_huit.count('name="players"') == 4
    assert 'name="table"' not in les_huit
    assert 'name="table"' in client.get("/games/new?variant=deux-jeux").get_data(as_text=True)


def test_continue_reloads_the_form_for_the_new_variant_keeping_the_names(client):
    response = client.post(
        "/games/new", data={"variant": "deux-jeux", "shown_variant": "classique", "players": ["Ana", "Bob"]}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'name="shown_variant" value="deux-jeux"' in page
    assert 'value="Ana"' in page and 'value="Bob"' in page
    assert page.count('name="players"') == 10


def test_create_game_by_form_post(client, games):
    game_id = new_game(client, players=("Ana", "", "Bob", "Chloé", ""), first_dealer="2", target="300")
    game = games.get(game_id)
    assert game.players == ["Ana", "Bob", "Chloé"]  # empty lines ignored, order kept
    assert game.first_dealer == 1  # the third line is the second player
    assert game.ruleset.target == 300
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}
    assert "Bob deals, Chloé starts." in page
    assert "Deal 7 cards each" in page
    assert "to go to 300" not in page  # nothing to count down before the first manche
    assert f'href="/games/{game_id}/manches/new"' in page


def test_create_game_with_options_rounds_and_table(client, games):
    game_id = new_game(
        client,
        variant="deux-jeux",
        players=("Ana", "Bob"),
        table="classique",
        mode="winner",
        end="rounds",
        rounds="3",
        first_dealer="random",
    )
    game = games.get(game_id)
    assert (game.ruleset.table.id, game.ruleset.mode, game.ruleset.rounds, game.ruleset.target) == (
        "classique",
        "winner",
        3,
        None,
    )
    page = game_page(client, game_id)
    assert "Round 1 of 3" in page
    assert "to go to" not in page

    game_id = new_game(client, players=("Ana", "Bob"), **{"opt-special_finish_forbidden": "on", "opt-decks": "2"})
    game = games.get(game_id)
    assert game.ruleset.decks == 2 and game.ruleset.finish_forbidden == ("8", "JK")
    assert "Here, nobody goes out on an 8 or a Joker." in game_page(client, game_id)


def test_create_game_errors_are_shown_next_to_the_field_with_values_kept(client, games):
    response = client.post(
        "/games",
        data={
            "variant": "classique",
            "shown_variant": "classique",
            "players": ["Ana", "", "Bob", "ana"],
            "end": "target",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    # the duplicate is the fourth line of the form (the third name typed)
    assert re.search(r'id="player-3" name="players" value="ana"[^>]*aria-invalid="true"', page)
    assert 'id="err-players-3"' in page and "tell them apart" in page
    assert 'value="Ana"' in page and 'value="Bob"' in page

    response = client.post(
        "/games", data={"variant": "classique", "shown_variant": "classique", "players": ["Ana"], "end": "target"}
    )
    assert response.status_code == 422
    assert 'id="err-players"' in response.get_data(as_text=True)

    response = client.post(
        "/games",
        data={
            "variant": "classique",
            "shown_variant": "classique",
            "players": ["A", "B"],
            "end": "target",
            "target": "0",
        },
    )
    assert response.status_code == 422
    assert 'id="err-target"' in response.get_data(as_text=True)
    with games.db.reader.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM game").scalar() == 0


def test_create_game_after_a_variant_change_without_continue_asks_to_check(client, games):
    response = client.post(
        "/games", data={"variant": "les-huit", "shown_variant": "classique", "players": ["Ana", "Bob"], "end": "target"}
    )
    assert response.status_code == 422
    assert 'name="opt-partners"' in response.get_data(as_text=True)


# --- manches -------------------------------------------------------------------------------------


def test_record_manches_by_keypad_counts_and_typed_totals(client, games):
    game_id = new_game(client)
    # Manche 1: Ana goes out; Bob 8 JK K = 50+50+10 = 110; Chloé A 2 3 J = 20+20+3+20 = 63
    response = post_manche(
        client,
        game_id,
        {"winner": "0", "p1-n_8": "1", "p1-n_JK": "1", "p1-n_K": "1", "p2-n_A": "1", "p2-n_2": "1", "p2-n_3": "1"}
        | {"p2-n_J": "1"},
    )
    assert response.headers["Location"].endswith(f"/games/{game_id}?saved=1")
    page = game_page(client, game_id, "?saved=1")
    assert totals_shown(page) == {"Ana": 0, "Bob": 110, "Chloé": 63}
    assert "Round 1 recorded." in page
    assert f'action="/games/{game_id}/manches/1/delete"' in page  # the undo button

    # Manche 2: Bob goes out; Ana types 42; Chloé 10 10 Q 9 = 10+10+10+9 = 39
    post_manche(client, game_id, {"winner": "1", "p0-typed": "42", "p2-n_10": "2", "p2-n_Q": "1", "p2-n_9": "1"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana": 42, "Bob": 110, "Chloé": 102}
    assert list(totals_shown(page)) == ["Ana", "Chloé", "Bob"]  # ranked, lowest first
    assert "458 to go to 500" in page
    assert "Chloé deals, Ana starts." in page  # manche 3: the deal went round clockwise from Ana
    assert 'aria-label="Edit round 2"' in page and "typed total" in page  # the row, its number a link to edit it
    game = games.get(game_id)
    assert [m.points for m in game.manches] == [
        {"Ana": 0, "Bob": 110, "Chloé": 63},
        {"Ana": 42, "Bob": 0, "Chloé": 39},
    ]
    assert game.manches[1].hands["Ana"].typed == 42


def test_a_side_close_to_the_target_is_highlighted(client):
    game_id = new_game(client, target="100")
    # Bob 8 K K K = 50+30 = 80: within 20 % of 100; Chloé 3 is not
    post_manche(client, game_id, {"winner": "0", "p1-n_8": "1", "p1-n_K": "3", "p2-n_3": "1"})
    page = game_page(client, game_id)
    assert re.search(r'<tr class="close" data-side="Bob">', page)
    assert not re.search(r'class="close" data-side="Chloé"', page)
    assert "20 to go to 100" in page and "97 to go to 100" in page


def test_a_missing_hand_is_refused_next_to_the_player_and_nothing_is_saved(client, games):
    game_id = new_game(client)
    response = post_manche(client, game_id, {"winner": "0", "p1-n_K": "2"}, expect=422)
    page = response.get_data(as_text=True)
    error = re.search(
        r'<li class="hand[^"]*" id="hand-2".*?<p class="error" id="err-hand-2"[^>]*>([^<]+)</p>(?:(?!</li>).)*</li>',
        page,
        re.S,
    )
    assert error and "Chloé" in error.group(1)
    assert re.search(r'name="selected" value="2"', page)  # Chloé's hand on the keypad, to be entered
    assert "err-hand-1" not in page
    assert re.search(r'name="p1-n_K" value="2"', page)  # entered counts kept
    assert re.search(r'id="winner-0" name="winner" value="0"[^>]*checked', page)
    assert games.get(game_id).manches == []


def test_too_many_copies_and_a_forbidden_last_card_are_refused(client, games):
    game_id = new_game(client, **{"opt-special_finish_forbidden": "on"})
    response = post_manche(client, game_id, {"winner": "0", "p1-n_JK": "2", "p2-n_JK": "1"}, expect=422)
    assert 'id="err-hand-2"' in response.get_data(as_text=True)  # the third joker is Chloé's
    response = post_manche(client, game_id, {"winner": "0", "p1-n_K": "1", "p2-n_3": "1", "last_card": "8"}, expect=422)
    page = response.get_data(as_text=True)
    assert 'id="err-last-card"' in page
    assert re.search(r'id="last-8" name="last_card" value="8"\s*checked', page)
    assert games.get(game_id).manches == []
    post_manche(client, game_id, {"winner": "0", "p1-n_K": "1", "p2-n_3": "1", "last_card": "7"})
    assert games.get(game_id).manches[0].last_card == "7"


def test_the_last_card_is_asked_only_where_the_variant_restricts_finishing(client):
    plain = new_game(client)
    assert 'name="last_card"' not in client.get(f"/games/{plain}/manches/new").get_data(as_text=True)
    huit = new_game(client, variant="huit-americain", players=("Ana", "Bob"))
    page = client.get(f"/games/{huit}/manches/new").get_data(as_text=True)
    assert 'id="last-JK" name="last_card" value="JK"' in page
    assert 'id="last-8" name="last_card" value="8"' in page


def test_a_keypad_tap_without_javascript_redraws_the_form_and_saves_nothing(client, games):
    game_id = new_game(client)
    fields = manche_form(client, game_id)
    response = client.post(f"/games/{game_id}/manches", data={**fields, "winner": "0", "p1-n_8": "1", "p1-tap": "+8"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'name="p1-n_8" value="2"', page)
    assert "<span data-subtotal>100</span>" in page  # two 8s at 50
    # The one keypad is on Bob's hand, and a tap brings the page back on it, his name on top.
    assert 'name="selected" value="1"' in page
    assert re.search(r'id="keypad".*?data-entry-name>Bob<', page, re.S)
    assert f'name="p1-tap" value="+8" formaction="/games/{game_id}/manches#keypad"' in page
    assert f'name="nonce" value="{fields["nonce"]}"' in page  # the same manche, the same nonce
    assert games.get(game_id).manches == []


def entry_state(page: str) -> dict:
    """What the one-screen manche form shows: the seat on the keypad, the name on it, the hidden
    counts of every hand (non-zero only), each row's value, the typed totals."""
    counts = {
        (int(seat), token): int(n)
        for seat, token, n in re.findall(r'name="p(\d+)-n_(\w+)" value="(\d+)"', page)
        if n != "0"
    }
    return {
        "selected": int(re.search(r'name="selected" value="(\d+)"', page).group(1)),
        "name": html.unescape(re.search(r"data-entry-name>([^<]*)<", page).group(1)),
        "keys": set(re.findall(r'name="(p\d+)-tap" value="\+', page)),
        "counts": counts,
        "values": [int(v) for v in re.findall(r"<span data-hand-total>(\d+)</span>", page)],
        "pressed": re.findall(r'name="pick" value="(\d+)"[^>]*aria-pressed="true"', page),
    }


def test_the_manche_form_is_one_list_of_players_and_one_keypad(client):
    """One keypad (14 keys for classique: A 2 … K and JK), on the first seat until someone is
    chosen; every hand's counts are hidden fields; no "−" buttons before a card is there."""
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    state = entry_state(page)
    assert state["selected"] == 0 and state["name"] == "Ana" and state["keys"] == {"p0"}
    assert page.count('data-step="1"') == 14 and page.count('class="pick"') == 3
    # the badges ("one less"), hidden at 0; counted by their name, not by a value starting with
    # "-" (the form's random nonce starts with one, one time in 64)
    assert len(re.findall(r'name="p0-tap" value="-', page)) == 14
    assert page.count('data-step="-1" hidden') == 14
    for seat in range(3):
        assert len(re.findall(rf'type="hidden" name="p{seat}-n_\w+"', page)) == 14
        assert f'id="p{seat}-typed" name="p{seat}-typed"' in page
    assert page.count('data-typed-field="') == 3 and page.count('data-typed-field="0">') == 1  # only Ana's shown


def test_without_javascript_a_name_puts_that_hand_on_the_keypad_and_keeps_everything(client, games):
    """`pick` (a player's name pressed without JavaScript) re-renders the form with that player's
    hand on the keypad: the winner, the other counts and the typed totals come back as sent."""
    game_id = new_game(client)
    fields = manche_form(client, game_id)
    sent = {**fields, "winner": "1", "selected": "0", "p0-n_8": "2", "p2-typed": "17", "pick": "2"}
    response = client.post(f"/games/{game_id}/manches", data=sent)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    state = entry_state(page)
    assert state["selected"] == 2 and state["name"] == "Chloé" and state["keys"] == {"p2"}
    assert state["pressed"] == ["2"]
    assert state["counts"] == {(0, "8"): 2}
    assert state["values"] == [100, 0, 17]  # Ana two 8s at 50; Bob went out; Chloé typed 17
    assert re.search(r'id="winner-1" name="winner" value="1"[^>]*checked', page)
    assert re.search(r'id="p2-typed" name="p2-typed"[^>]*value="17"', page)
    assert games.get(game_id).manches == []
    # then the save button: recorded as entered
    response = client.post(f"/games/{game_id}/manches", data={**sent, "pick": "", "save": "1"})
    assert response.status_code == 303
    assert games.get(game_id).totals == {"Ana": 100, "Bob": 0, "Chloé": 17}


def test_after_the_winner_the_next_hand_to_enter_is_on_the_keypad(client):
    """No seat chosen yet (or the winner's): the next seat after the winner whose hand is still
    to enter. Four players, Chloé (seat 2) went out: Dan (3) next; Dan entered: Ana (0)."""
    game_id = new_game(client, players=("Ana", "Bob", "Chloé", "Dan"))
    fields = manche_form(client, game_id)
    page = client.post(f"/games/{game_id}/manches", data={**fields, "winner": "2", "pick": "2"}).get_data(as_text=True)
    assert entry_state(page)["selected"] == 3
    page = client.post(
        f"/games/{game_id}/manches", data={**fields, "winner": "2", "selected": "2", "p3-n_K": "1", "p3-tap": "+K"}
    ).get_data(as_text=True)
    assert entry_state(page)["selected"] == 3  # a tap keeps the keypad on the hand tapped
    page = client.post(
        f"/games/{game_id}/manches", data={**fields, "winner": "2", "p3-n_K": "1", "pick": "2"}
    ).get_data(as_text=True)
    assert entry_state(page)["selected"] == 0


def test_les_huit_skips_the_winners_partner_for_the_next_hand(client):
    """les-huit at four: partners sit opposite (Ana & Chloé, Bob & Dan). Ana went out: Bob (1)
    next, then Dan (3) — Chloé's hand is not counted, so never chosen for you."""
    game_id = new_game(client, variant="les-huit", players=("Ana", "Bob", "Chloé", "Dan"), **{"opt-partners": "on"})
    page = client.post(f"/games/{game_id}/manches", data={"winner": "0", "pick": "0"}).get_data(as_text=True)
    assert entry_state(page)["selected"] == 1
    page = client.post(f"/games/{game_id}/manches", data={"winner": "0", "p1-n_5": "1", "pick": "0"}).get_data(
        as_text=True
    )
    assert entry_state(page)["selected"] == 3
    assert re.search(r'id="hand-2"(?:(?!</li>).)*data-partner-note>', page, re.S)  # "not counted", shown without JS
    assert not re.search(r'id="hand-3"(?:(?!</li>).)*data-partner-note>', page, re.S)


def test_a_double_post_with_the_same_nonce_records_once(client, games):
    game_id = new_game(client)
    fields = {**manche_form(client, game_id), "winner": "2", "p0-n_5": "1", "p1-n_6": "1"}
    first = client.post(f"/games/{game_id}/manches", data=fields)
    again = client.post(f"/games/{game_id}/manches", data=fields)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    game = games.get(game_id)
    assert len(game.manches) == 1
    assert game.totals == {"Ana": 5, "Bob": 6, "Chloé": 0}


def test_an_entry_for_a_manche_another_phone_recorded_is_told_so_and_kept_offline_lands_as_the_next(client, games):
    """A phone whose entry showed manche 1 while another phone recorded manche 1 records no manche
    2 of its own: it is told, with both versions (its hands differ). The same entry kept offline
    and sent back when the network returns (``queued``) lands as manche 2, and says so.
    Classique (SPEC §2): 4 and 9 count their value."""
    game_id = new_game(client)
    fields = manche_form(client, game_id)  # this phone opened the entry of manche 1
    post_manche(client, game_id, {"winner": "0", "p1-n_4": "1", "p2-n_4": "1"})  # the other phone: Bob 4, Chloé 4
    mine = {**fields, "nonce": "this-phone", "winner": "1", "p0-n_9": "1", "p2-n_9": "1"}  # Ana 9, Chloé 9
    told = client.post(f"/games/{game_id}/manches", data=mine)
    assert told.status_code == 409
    assert "Round 1 was saved on another phone." in html.unescape(told.get_data(as_text=True))
    assert [m.number for m in games.get(game_id).manches] == [1]
    response = client.post(f"/games/{game_id}/manches", data={**mine, "queued": "1"})
    assert response.status_code == 303 and response.headers["Location"].endswith("?saved=2&shown=1")
    page = game_page(client, game_id, "?saved=2&shown=1")
    assert "Round 2 recorded: another phone had recorded round 1 meanwhile, so your entry became round 2." in page
    assert totals_shown(page) == {"Ana": 9, "Bob": 4, "Chloé": 13}
    assert [m.number for m in games.get(game_id).manches] == [1, 2]
    # The same form sent again (a retry) records nothing more, and says nothing of a renumbering.
    again = client.post(f"/games/{game_id}/manches", data={**mine, "queued": "1"})
    assert again.headers["Location"].endswith("?saved=2") and len(games.get(game_id).manches) == 2


def test_two_phones_correcting_the_same_manche_see_both_versions_and_choose(client, app, games):
    """Issue 24: the one conflict left. Phone A opens manche 1 to correct it; phone B corrects it
    first; A's save shows both versions (nothing of A's lost) and lets A save theirs anyway.
    Classique (SPEC §2): 4, 9 and 5 count their value; K 10."""
    game_id = new_game(client)
    post_manche(client, game_id, {"winner": "0", "p1-n_4": "1", "p2-n_4": "1"})  # Bob 4, Chloé 4
    page = client.get(f"/games/{game_id}/manches/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)
    # Meanwhile another phone records manche 2: manche 1's version does not move.
    games.record_manche(game_id, MancheEntry("Bob", {"Ana": ["5H"], "Chloé": ["5C"]}))
    assert games.get(game_id).rows.manche_version(1) == version
    # ... then corrects manche 1: Chloé went out, Ana K = 10, Bob 9.
    games.edit_manche(game_id, 1, MancheEntry("Chloé", {"Ana": ["KD"], "Bob": ["9C"]}))
    mine = {"version": version, "winner": "1", "p0-n_9": "1", "p2-n_9": "1"}  # A's: Bob out, Ana 9, Chloé 9
    answer = client.post(f"/games/{game_id}/manches/1", data=mine)
    assert answer.status_code == 409
    shown = answer.get_data(as_text=True)
    assert "Round 1 was corrected on another phone while you were correcting it." in shown
    assert "Bob went out." in shown and "Chloé went out." in shown  # both versions
    assert re.search(r"Ana <strong>9</strong>", shown) and re.search(r"Ana <strong>10</strong>", shown)
    assert [m.winner for m in games.get(game_id).manches] == ["Chloé", "Bob"]  # nothing of A's saved yet
    # "Save mine instead": the same fields, against the manche as it now stands.
    again = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', shown))
    assert again["version"] != version and again["winner"] == "1"
    assert client.post(f"/games/{game_id}/manches/1", data=again).status_code == 303
    # Manche 1 is A's: Bob out, Ana 9, Chloé 9; manche 2: Bob out, Ana 5, Chloé 5
    assert games.get(game_id).totals == {"Ana": 14, "Bob": 0, "Chloé": 14}

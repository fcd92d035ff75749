"""Words as a reader reads them, in French and English (issue 58, round four): who won a game said
without a word that agrees with them, plurals that follow their number, undo notices that say
what was undone.

Worked by hand from SPEC §2's table for classique: an 8 is worth 50.
"""

from __future__ import annotations

import html
import re

import pytest

from tests.e2e.test_groups import join_link, make_group, phone
from tests.e2e.test_night_byes import night_with_byes
from tests.e2e.test_nights import proposed, start, table_games
from tests.e2e.test_web_games import game_page, manche_form, new_game, post_manche


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [("fr", "Remportée par Élodie", "Remportée par Élodie et Ana"), ("en", "Won by Élodie", "Won by Élodie and Ana")],
)
def test_who_won_a_game_is_said_without_a_word_agreeing_with_them(client, lang, one, two):
    client.set_cookie("lang", lang)
    # Élodie goes out (0); Bob's two 8s are 2 × 50 = 100, the target; Chloé keeps 3: Élodie wins alone
    alone = new_game(client, players=("Élodie", "Bob", "Chloé"), target="100")
    post_manche(client, alone, {"winner": "0", "p1-n_8": "2", "p2-n_3": "1"})
    # the same, Ana typed 0: Élodie and Ana share the lowest total
    shared = new_game(client, players=("Élodie", "Bob", "Ana"), target="100")
    post_manche(client, shared, {"winner": "0", "p1-n_8": "2", "p2-typed": "0"})
    for game_id, said in ((alone, one), (shared, two)):
        page = text_of(game_page(client, game_id))
        assert said in page
        assert not re.search(r"gagnant|winners?:", page, re.I), page
    for listing in ("/games", "/players/Élodie"):  # the games of this phone, a player's games
        page = text_of(client.get(listing).get_data(as_text=True))
        assert one in page and two in page, listing


@pytest.mark.parametrize(
    ("lang", "wins", "points"),
    [
        # French says a figure below 2 in the singular, English only 1 (CLDR's plural rules).
        (
            "fr",
            ["1 table gagnée par table", "0,5 table gagnée par table"],
            ["0 point par table", "1,5 point par table"],
        ),
        ("en", ["1 win per table", "0.5 wins per table"], ["0 points per table", "1.5 points per table"]),
    ],
)
def test_a_figure_per_table_on_the_podium_takes_the_plural_of_its_number(app, lang, wins, points):
    ana, _client, _bearer, night_id = night_with_byes(app)
    ana.set_cookie("lang", lang)
    # night_with_byes: Ana 2 wins in 2 tables (1 a table, 0 points), Dan 1 in 1 (1, 0), Bob 1 in 2
    # (0.5 a table, 3 points: 1.5 a table) — the podium: Ana, Dan, Bob.
    assert ana.post(f"/nights/{night_id}/ranking", data={"method": "wins_per_table"}).status_code == 303
    ana.post(f"/nights/{night_id}/end")
    for method, said in (("wins_per_table", wins), ("points_per_table", points)):
        assert ana.post(f"/nights/{night_id}/ranking", data={"method": method}).status_code == 303
        night = ana.get(f"/nights/{night_id}").get_data(as_text=True)
        podium = text_of(night.split("data-podium>", 1)[1].split("</ol>", 1)[0])
        assert all(figure in podium for figure in said), podium


@pytest.mark.parametrize(("lang", "said"), [("fr", "Aucune soirée de club"), ("en", "No club night")])
def test_a_night_not_found_names_the_night_on_the_page_its_stream_and_the_api(app, lang, said):
    _ana, _client, _bearer, night_id = night_with_byes(app)
    # A phone of another group: a member there, a stranger to the night's group.
    stranger, api = phone(app), app.test_client()
    stranger.set_cookie("lang", lang)
    elsewhere = make_group(stranger, "Vendredi")
    invite = join_link(stranger, elsewhere).rsplit("/", 1)[1]
    joined = api.post(f"/api/v1/groups/{elsewhere}/members", json={"invite": invite, "name": "Tablet"})
    bearer = {"Authorization": f"Bearer {joined.get_json()['member_token']}", "Accept-Language": lang}
    for answer in (
        stranger.get(f"/nights/{night_id}"),
        stranger.get(f"/nights/{night_id}/sheet"),
        stranger.get(f"/nights/{night_id}/events"),
        stranger.post(f"/nights/{night_id}/end"),
        stranger.get("/nights/no-such-night"),
        api.get(f"/api/v1/nights/{night_id}", headers=bearer),
        api.get("/api/v1/nights/no-such-night", headers=bearer),
    ):
        text = text_of(answer.get_data(as_text=True))
        assert answer.status_code == 404 and said in text, text
        assert not re.search(r"tablée|group with", text, re.I), text


@pytest.mark.parametrize(
    ("lang", "waits"),
    [
        ("fr", "Le tour 2 pourra commencer quand toutes les tables du tour 1 auront fini leur partie."),
        ("en", "Turn 2 can start once every table of turn 1 has finished its game."),
    ],
)
def test_the_next_turn_is_offered_once_every_table_of_the_turn_has_finished(app, lang, waits):
    client = phone(app)
    client.set_cookie("lang", lang)
    group_id = make_group(client)
    night_id = start(client, group_id, proposed(client, group_id))  # 5 players at 2 tables, one round a game
    games = table_games(app, night_id)

    def offered() -> bool:
        text = client.get(f"/nights/{night_id}").get_data(as_text=True)
        said = waits in text_of(text)
        assert said != ("data-start-round>" in text), "the button and the words say the same"
        return not said

    assert not offered()  # not begun
    for table, then in ((1, False), (2, True)):  # table 1's game over, table 2 still playing; then both
        seated = app.extensions["games"].get(games[(1, table)]).players
        post_manche(client, games[(1, table)], {"winner": "0", **{f"p{s}-typed": "12" for s in range(1, len(seated))}})
        assert offered() is then, table


@pytest.mark.parametrize(
    ("lang", "done", "done_one"),
    [
        ("fr", "{name}\u00a0: {points} pts ✓", "{name}\u00a0: {points} pt ✓"),
        ("en", "{name}: {points} pts ✓", "{name}: {points} pt ✓"),
    ],
)
def test_the_entry_page_holds_both_forms_of_a_sentence_with_points(client, lang, done, done_one):
    """hands.js picks the singular (data-w-done-one) where the language says the number so."""
    client.set_cookie("lang", lang)
    game_id = new_game(client)
    text = html.unescape(client.get(f"/games/{game_id}/manches/new").get_data(as_text=True))
    assert f'data-w-done="{done}"' in text and f'data-w-done-one="{done_one}"' in text
    assert "data-w-replaced-one=" in text


def test_the_winner_collects_mode_is_named_without_a_word_agreeing_with_the_winner(client):
    """The game's header names its mode; in French « Qui sort ramasse », neither « le gagnant » nor « la gagnante »."""
    game_id = new_game(client, players=("Élodie", "Bob"), mode="winner", end="rounds", rounds="3")
    page = text_of(game_page(client, game_id))
    assert "Qui sort ramasse" in page and "gagnant" not in page.lower()


@pytest.mark.parametrize(("lang", "zero", "one"), [("fr", "0 pt", "1 pt"), ("en", "0 pts", "1 pt")])
def test_both_versions_of_a_round_saved_twice_say_each_hand_with_its_unit(client, lang, zero, one):
    """Classique (SPEC §2): a 4 counts 4; totals typed count as typed."""
    client.set_cookie("lang", lang)
    game_id = new_game(client)
    fields = manche_form(client, game_id)  # this phone opened the entry of round 1
    post_manche(client, game_id, {"winner": "0", "p1-n_4": "1", "p2-n_4": "1"})  # another phone: Bob 4, Chloé 4
    mine = {**fields, "nonce": "this-phone", "winner": "1", "p0-typed": "1", "p2-typed": "0"}  # Ana 1, Chloé 0
    told = client.post(f"/games/{game_id}/manches", data=mine)
    assert told.status_code == 409
    shown = text_of(told.get_data(as_text=True))
    assert f"Ana {one} Chloé {zero}" in shown and "Bob 4 pts Chloé 4 pts" in shown, shown

"""« Continuer ensemble » (issue 42) from a finished game's page, with and without JavaScript: the
game's owner makes a group from it (its name prefilled from the players, the game in it) or adds
it to one of this phone's groups; a member of the game's group is offered the group; anyone else
gets a 404."""

from __future__ import annotations

import html

from tests.e2e.test_groups import cells, join, join_link, make_group, new_group_game, page, phone
from tests.e2e.test_web_games import post_manche


def finished_game(client, players=("Ana", "Bob", "Chloé"), group_id="") -> str:
    """A game of two manches, over: Ana 0+5, Bob 30+0, Chloé 12+20 (Ana wins with 5)."""
    game_id = new_group_game(client, group_id, players)
    post_manche(client, game_id, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    post_manche(client, game_id, {"winner": "1", "p0-typed": "5", "p2-typed": "20"})
    return game_id


def test_the_owner_makes_a_group_from_a_finished_game(app):
    ana = phone(app)
    game_id = finished_game(ana)
    game_page = page(ana, f"/games/{game_id}")
    assert f'href="/games/{game_id}/together"' in game_page  # a plain link: works without JS
    assert f'hx-get="/games/{game_id}/together"' in game_page

    choices = page(ana, f"/games/{game_id}/together")  # the whole page, without JS
    assert "<h1" in choices and 'value="Ana, Bob, Chloé"' in html.unescape(choices)
    assert "data-together-groups" not in choices  # this phone has no group yet

    response = ana.post("/groups", data={"name": "Ana, Bob, Chloé", "game": game_id})
    assert response.status_code == 303
    group_id = response.headers["Location"].rsplit("/", 1)[1]
    text = page(ana, f"/groups/{group_id}")
    assert game_id in text
    # Its one game counts: Ana 5, Bob 30, Chloé 32 — Ana won it.
    assert cells(text, "standings")["Ana"] == {"won": "1", "played": "1", "rate": "100", "run": "1"}

    # Now a member: « Continuer ensemble » offers the group, and a new game in it.
    fragment = ana.get(f"/games/{game_id}/together", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment and "data-together-choices" in fragment
    assert f"/games/new?group={group_id}" in fragment


def test_a_game_goes_into_one_of_the_phones_groups(app):
    ana = phone(app)
    sunday = make_group(ana, "Dimanche")
    friday = make_group(ana, "Vendredi")
    game_id = finished_game(ana)
    choices = page(ana, f"/games/{game_id}/together")
    assert "Dimanche" in choices and "Vendredi" in choices
    assert f'action="/groups/{friday}/games"' in choices
    assert ana.post(f"/groups/{friday}/games", data={"game": game_id}).status_code == 303
    assert game_id in page(ana, f"/groups/{friday}")
    assert game_id not in page(ana, f"/groups/{sunday}")


def test_continue_together_is_nothing_to_anyone_else(app):
    ana, bob, eve = phone(app), phone(app), phone(app)
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    in_group = finished_game(ana, group_id=group_id)
    alone = finished_game(ana)
    # Bob is a member of the group: its game's choices are his too; Ana's own game is not his.
    assert f"/groups/{group_id}" in page(bob, f"/games/{in_group}/together")
    assert bob.get(f"/games/{alone}/together").status_code == 404
    assert eve.get(f"/games/{in_group}/together").status_code == 404  # a watcher of the game
    assert eve.get("/games/nosuchgame000000000000/together").status_code == 404
    # Nor may Eve put Ana's game in a group of hers.
    response = eve.post("/groups", data={"name": "Eve's", "game": alone})
    assert response.status_code == 404

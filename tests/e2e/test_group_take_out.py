"""A game taken out of a group from its page and through the API (#55 item 5): by the group's
owner or the phone that made the game, said in a notice with its undo; the score sheet's game
numbers stay continuous; anyone else is refused and told who may.

Classique in penalty mode, two manches a game (tests/e2e/test_groups.py's games).
"""

from __future__ import annotations

import csv
import html
import io
import re

from models.services.games import MancheEntry
from tests.e2e.test_groups import join, join_link, make_group, new_group_game, page, phone


def sheet_games(client, group_id) -> list[str]:
    """The game numbers of the group's score sheet, each once, in order."""
    text = client.get(f"/groups/{group_id}/export.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))[1:]
    return list(dict.fromkeys(row[0] for row in rows))


def listed(client, group_id) -> list[str]:
    return re.findall(r'href="/games/([\w-]+)"', page(client, f"/groups/{group_id}").split('id="games"', 1)[1])


def test_the_owner_or_the_maker_takes_a_game_out_and_undoes_it(app):
    ana, bob, chloe = phone(app), phone(app), phone(app)
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    join(bob, link, "Bob's phone")
    join(chloe, link, "Chloé's phone")
    first, second, third = new_group_game(ana, group_id), new_group_game(bob, group_id), new_group_game(ana, group_id)
    for game_id in (first, second, third):  # a manche each: Ana goes out, Bob keeps 3♣, Chloé 4♣
        app.extensions["games"].record_manche(game_id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["4C"]}))
    assert sheet_games(ana, group_id) == ["1", "2", "3"]

    # Chloé neither owns the group nor made Bob's game: refused, and told who may.
    refused = chloe.post(f"/groups/{group_id}/games/{second}/out")
    assert refused.status_code == 403
    assert "Only the group's owner or the phone that made this game" in html.unescape(refused.get_data(as_text=True))
    assert "data-take-out" not in page(chloe, f"/groups/{group_id}")  # no button she cannot use
    # Bob made it: he may.
    answer = bob.post(f"/groups/{group_id}/games/{second}/out")
    assert answer.status_code == 303 and f"out={second}" in answer.headers["Location"]
    text = page(bob, answer.headers["Location"])
    assert "Game taken out of the group: Classic, Ana, Bob, Chloé. Its phone keeps it." in html.unescape(text)
    assert sorted(listed(bob, group_id)) == sorted([first, third])
    # Its own phone keeps it; the group's other members may no longer record it.
    assert f"/games/{second}/manches/new" in page(bob, f"/games/{second}")
    assert chloe.get(f"/games/{second}/manches/new").status_code == 401  # no rights on it
    # The score sheet numbers the games left 1 and 2: no gap where Bob's game was.
    assert sheet_games(ana, group_id) == ["1", "2"]

    undo = re.search(r'action="(/groups/[^"]+/back)"', text).group(1)
    back = bob.post(undo)
    assert back.status_code == 303
    assert "Undone: the game is back in the group." in page(bob, back.headers["Location"])
    assert sheet_games(ana, group_id) == ["1", "2", "3"]
    assert bob.post(undo).status_code == 409  # nothing left to undo

    # The owner may take out any game of the group.
    assert ana.post(f"/groups/{group_id}/games/{second}/out").status_code == 303
    assert sorted(listed(ana, group_id)) == sorted([first, third])


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}", "Accept-Language": "en"}


def test_the_api_takes_a_game_out_and_puts_it_back(app):
    groups, client = app.extensions["groups"], app.test_client()
    group_id, owner = groups.create("Dimanche")
    invite = groups.create_invite(group_id, by=next(m.id for m in groups.members(group_id) if m.owner))
    member = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite}).get_json()["member_token"]
    game, maker = app.extensions["games"].create_game(
        "classique", ["Ana", "Bob"], rounds=1, first_dealer=0, group=group_id
    )
    url = f"/api/v1/groups/{group_id}/games/{game.id}"

    refused = client.delete(url, headers=bearer(member))  # a member, neither the owner nor the maker
    assert refused.status_code == 403
    assert "Only the group's owner or the phone that made this game" in refused.get_json()["error"]["message"]
    assert client.delete(url).status_code == 404  # no token: the group says nothing
    # The game's own token (its maker) takes it out.
    taken = client.delete(url, headers=bearer(maker))
    assert taken.status_code == 200
    assert taken.get_json() == {"id": game.id, "group": None, "taken_from": group_id}
    games = client.get(f"/api/v1/groups/{group_id}", headers=bearer(member)).get_json()["games"]
    assert games == []
    # The owner puts it back (the undo); a second time there is nothing to undo.
    back = client.put(url, json={}, headers=bearer(owner))
    assert back.status_code == 200 and back.get_json()["group"] == group_id
    assert client.put(url, json={}, headers=bearer(owner)).status_code == 409
    games = client.get(f"/api/v1/groups/{group_id}", headers=bearer(member)).get_json()["games"]
    assert [g["id"] for g in games] == [game.id]

    wrong = client.post(url, json={}, headers=bearer(owner))
    assert wrong.status_code == 405
    assert set(wrong.headers["Allow"].replace(" ", "").split(",")) >= {"DELETE", "PUT"}

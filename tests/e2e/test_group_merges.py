"""Two spellings of one person merged by a group's owner (issue 42): shown before it is done
(which games, which names), counted as one person in the standings, undone; each game keeps its
names. Every figure worked out by hand from the manches below (classique, penalty points)."""

from __future__ import annotations

import html
import re

from tests.e2e.test_groups import cells, join, join_link, make_group, new_group_game, page, phone
from tests.e2e.test_web_games import post_manche


def two_games(client, group_id) -> tuple[str, str]:
    """Game 1: Ana, Bob, Chloé — Bob 30 and Chloé 12, then Ana 5 and Chloé 20: Ana 5, Bob 30,
    Chloé 32, Ana wins. Game 2, Bob written "Robert" on another phone: Ana 8 and Chloé 9, then
    Ana 4 and Chloé 2: Ana 12, Robert 0, Chloé 11, Robert wins."""
    first = new_group_game(client, group_id)
    post_manche(client, first, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    post_manche(client, first, {"winner": "1", "p0-typed": "5", "p2-typed": "20"})
    second = new_group_game(client, group_id, ("Ana", "Robert", "Chloé"))
    post_manche(client, second, {"winner": "1", "p0-typed": "8", "p2-typed": "9"})
    post_manche(client, second, {"winner": "1", "p0-typed": "4", "p2-typed": "2"})
    return first, second


def test_two_spellings_are_merged_then_unmerged(app):
    ana, bob = phone(app), phone(app)
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    first, second = two_games(ana, group_id)

    won = cells(page(ana, f"/groups/{group_id}"), "standings")
    # Apart: Robert 1 of 1 (100 %), Ana 1 of 2 (50 %), Bob 0 of 1, Chloé 0 of 2.
    assert list(won) == ["Robert", "Ana", "Bob", "Chloé"]

    preview = html.unescape(page(ana, f"/groups/{group_id}/merge?a=Bob&b=Robert"))
    assert "Robert will count as Bob" in preview
    assert re.search(rf'data-merge-games="1">.*?/games/{first}".*?as “Bob”', preview, re.S)
    assert re.search(rf'data-merge-games="2">.*?/games/{second}".*?as “Robert”', preview, re.S)
    assert cells(page(ana, f"/groups/{group_id}"), "standings")["Robert"]["played"] == "1"  # not done yet

    assert ana.post(f"/groups/{group_id}/merges", data={"a": "Bob", "b": "Robert"}).status_code == 303
    text = page(bob, f"/groups/{group_id}")  # every member sees it
    won, rounds = cells(text, "standings"), cells(text, "rounds")
    # One person, shown by the latest spelling (game 2's "Robert"): 2 played, 1 won (game 2) = 50 %;
    # Ana 1 of 2 = 50 % too, and "Ana" comes before "Robert"; Chloé 0 of 2.
    assert list(won) == ["Ana", "Robert", "Chloé"]
    assert won["Robert"] == {"won": "1", "played": "2", "rate": "50", "run": "1"}
    # Manches 30, 0 (game 1) and 0, 0 (game 2) = 30 over 4 = 7.5; best 0, worst 30.
    assert rounds["Robert"] == {"total": "30", "average": "7.5", "best": "0", "worst": "30"}
    assert "“Robert” counts as Bob" in html.unescape(text)  # the merge, said with both spellings
    # Each game keeps its names.
    assert "Bob" in page(ana, f"/games/{first}") and "Robert" not in page(ana, f"/games/{first}")

    alias_id = re.search(rf"/groups/{group_id}/merges/([\w-]+)/undo", page(ana, f"/groups/{group_id}")).group(1)
    assert bob.post(f"/groups/{group_id}/merges/{alias_id}/undo").status_code == 403  # the owner's only
    assert ana.post(f"/groups/{group_id}/merges/{alias_id}/undo").status_code == 303
    assert list(cells(page(ana, f"/groups/{group_id}"), "standings")) == ["Robert", "Ana", "Bob", "Chloé"]
    assert ana.post(f"/groups/{group_id}/merges/{alias_id}/undo").status_code == 404  # undone already


def test_a_merge_refused_says_why(app):
    ana, bob, eve = phone(app), phone(app), phone(app)
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    two_games(ana, group_id)
    # Ana and Chloé sat at the same games: two people.
    response = ana.get(f"/groups/{group_id}/merge?a=Ana&b=Chlo%C3%A9")
    assert response.status_code == 422
    assert "two people" in response.get_data(as_text=True)
    # the refusal leads back to the group, not only home
    assert f'<a class="button primary" href="/groups/{group_id}">Back to the group</a>' in response.get_data(
        as_text=True
    )
    assert ana.post(f"/groups/{group_id}/merges", data={"a": "Ana", "b": "Chloé"}).status_code == 422
    assert ana.get(f"/groups/{group_id}/merge?a=Ana&b=Zoé").status_code == 422  # no such player
    assert ana.get(f"/groups/{group_id}/merge?a=Ana&b=ana").status_code == 422  # one person already
    assert ana.get(f"/groups/{group_id}/merge").status_code == 422
    assert bob.get(f"/groups/{group_id}/merge?a=Bob&b=Robert").status_code == 403  # a member, not the owner
    assert eve.get(f"/groups/{group_id}/merge?a=Bob&b=Robert").status_code == 404  # not a member
    assert eve.post(f"/groups/{group_id}/merges", data={"a": "Bob", "b": "Robert"}).status_code == 404
    # Merged once, Robert cannot be merged again (he is Bob now).
    assert ana.post(f"/groups/{group_id}/merges", data={"a": "Bob", "b": "Robert"}).status_code == 303
    assert ana.post(f"/groups/{group_id}/merges", data={"a": "Chloé", "b": "Robert"}).status_code == 422

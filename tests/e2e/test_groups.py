"""Groups (issue 42) through plain form posts: a group made, phones joining by its link, games
of the group seen and recorded from every member phone, the standings, a phone removed and locked
out at once; a group says nothing to a phone that is not a member (404).

Classique in penalty mode: the manche's winner scores 0, every other player the total typed for
their hand; the lowest total wins the game. Every game here is played over two manches.
"""

from __future__ import annotations

import html
import re
import time

import pytest

from tests.e2e.test_web_games import post_manche
from views.groups import STILL_SECONDS


def phone(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


@pytest.fixture
def phones(app):
    return phone(app), phone(app), phone(app)


def make_group(client, name="Dimanche") -> str:
    response = client.post("/groups", data={"name": name, "phone": "Ana's phone"})
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def join_link(client, group_id, **form) -> str:
    response = client.post(f"/groups/{group_id}/invites", data=form)
    assert response.status_code == 201
    url = re.search(r"data-join-link>([^<]+)<", response.get_data(as_text=True)).group(1)
    return "/" + html.unescape(url).split("/", 3)[3]


def join(client, link, name):
    assert client.get(link).status_code == 200
    assert client.post(link, data={"phone": name}).status_code == 303


def new_group_game(client, group_id, players=("Ana", "Bob", "Chloé")) -> str:
    data = {"variant": "classique", "shown_variant": "classique", "players": list(players), "end": "rounds",
            "rounds": "2", "first_dealer": "0", "group": group_id}  # fmt: skip
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def cells(text: str, table: str) -> dict:
    """{player: {column: text}} of one of the standings tables (data-standings, or data-rounds:
    the first table of points; ``rounds="won"`` the table of one kind)."""
    body = re.split(rf'data-{table}(?:="[^"]*")?>', text, maxsplit=1)[1].split("</table>", 1)[0]
    rows = {}
    for name, row in re.findall(r'<tr data-person="([^"]+)">(.*?)</tr>', body, re.S):
        rows[html.unescape(name)] = dict(re.findall(r"data-(\w+)>([^<]*)<", row))
    return rows


def test_a_group_is_played_from_every_member_phone(phones):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    assert bob.get(f"/groups/{group_id}").status_code == 404  # not a member: nothing to see
    link = join_link(ana, group_id)
    join(bob, link, "Bob's phone")
    join(chloe, link, "Chloé's phone")

    # Game 1, made on Ana's phone; its manches recorded from Bob's and Chloé's.
    first = new_group_game(ana, group_id)
    post_manche(bob, first, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    post_manche(chloe, first, {"winner": "1", "p0-typed": "5", "p2-typed": "20"})
    # Game 2, made on Bob's phone with Ana written "ana".
    second = new_group_game(bob, group_id, ("ana", "Bob", "Chloé"))
    post_manche(ana, second, {"winner": "2", "p0-typed": "40", "p1-typed": "10"})
    post_manche(bob, second, {"winner": "2", "p0-typed": "8", "p1-typed": "6"})
    # Game 3, made on Chloé's phone.
    third = new_group_game(chloe, group_id)
    post_manche(chloe, third, {"winner": "0", "p1-typed": "7", "p2-typed": "9"})
    post_manche(ana, third, {"winner": "0", "p1-typed": "3", "p2-typed": "1"})

    for client in phones:  # every game on every member phone, in /games too
        listed = page(client, "/games")
        assert all(game in listed for game in (first, second, third))
        text = page(client, f"/groups/{group_id}")
        assert all(game in text for game in (first, second, third))

    text = page(bob, f"/groups/{group_id}")
    won = cells(text, "standings")
    # Game 1: Ana 0+5 = 5, Bob 30+0 = 30, Chloé 12+20 = 32: Ana wins.
    # Game 2: ana 40+8 = 48, Bob 10+6 = 16, Chloé 0+0 = 0: Chloé wins.
    # Game 3: Ana 0+0 = 0, Bob 7+3 = 10, Chloé 9+1 = 10: Ana wins.
    assert list(won) == ["Ana", "Chloé", "Bob"]  # 2 wins, 1, 0; "ana" is Ana
    # Run: Ana won G1, lost G2, won G3: 1; Chloé one win; Bob none.
    assert won["Ana"] == {"won": "2", "played": "3", "rate": "67", "run": "1"}  # 2/3 = 66.7 %
    assert won["Chloé"] == {"won": "1", "played": "3", "rate": "33", "run": "1"}
    assert won["Bob"] == {"won": "0", "played": "3", "rate": "0", "run": "0"}
    rounds = cells(text, "rounds")
    # Ana: 0, 5, 40, 8, 0, 0 = 53 over 6 = 8.8; best 0, worst 40.
    assert rounds["Ana"] == {"total": "53", "average": "8.8", "best": "0", "worst": "40"}
    # Bob: 30, 0, 10, 6, 7, 3 = 56 over 6 = 9.3; best 0, worst 30.
    assert rounds["Bob"] == {"total": "56", "average": "9.3", "best": "0", "worst": "30"}
    # Chloé: 12, 20, 0, 0, 9, 1 = 42 over 6 = 7 (shown "7.0", one decimal as the others); best 0,
    # worst 20.
    assert rounds["Chloé"] == {"total": "42", "average": "7.0", "best": "0", "worst": "20"}
    versus = page(bob, f"/groups/{group_id}?a=ana&b=Chlo%C3%A9")
    # Both played the three games: Ana won 1 and 3, Chloé 2.
    assert "3 games together: Ana won 2, Chloé won 1, someone else 0." in html.unescape(versus)


def test_head_to_head_says_one_game_in_the_singular(phones):
    ana, bob, _ = phones
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    game = new_group_game(ana, group_id)
    # A game of two manches (new_group_game), Ana out in both: Ana 0, Bob 10 + 5, Chloé 3 + 4.
    post_manche(ana, game, {"winner": "0", "p1-typed": "10", "p2-typed": "3"})
    post_manche(ana, game, {"winner": "0", "p1-typed": "5", "p2-typed": "4"})
    versus = html.unescape(page(bob, f"/groups/{group_id}?a=Ana&b=Bob"))
    assert "1 game together: Ana won 1, Bob won 0, someone else 0." in versus


def test_a_removed_phone_is_locked_out_at_once(phones):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    game = new_group_game(ana, group_id)
    post_manche(bob, game, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    member_id = re.search(r"/members/([^/]+)/remove", page(ana, f"/groups/{group_id}")).group(1)
    assert ana.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 303
    assert bob.get(f"/groups/{group_id}").status_code == 404
    response = bob.post(f"/games/{game}/manches", data={"winner": "1", "p0-typed": "5", "p2-typed": "20"})
    assert response.status_code in (401, 403)
    assert game not in page(bob, "/games")  # nor does it list the group's games any more
    assert chloe.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 404


REMOVED_EN = "This phone was removed from the group"
REMOVED_FR = "Ce téléphone a été retiré de la tablée"


def test_an_open_group_page_asks_whether_its_phone_is_still_a_member(phones):
    """The group page's question (``/groups/<id>/still?revision=R``): 204 while the group has not
    moved; the group moved (a phone joined), the question again with the new revision; the phone
    removed, the notice in place of the page and no more asking (286); without the revision, the
    membership is asked at once. The owner's list then names the phone removed, with its date."""
    ana, bob, chloe = phones
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob")
    still = html.unescape(re.search(r'hx-get="([^"]+/still[^"]+)"', page(bob, f"/groups/{group_id}")).group(1))
    assert bob.get(still).status_code == 204
    join(chloe, join_link(ana, group_id), "Chloé")
    time.sleep(STILL_SECONDS / 2 + 0.1)  # the revision kept in memory is read again
    moved = bob.get(still)
    again = html.unescape(re.search(r'hx-get="([^"]+)"', moved.get_data(as_text=True)).group(1))
    assert moved.status_code == 200 and again != still and bob.get(again).status_code == 204
    assert ana.post(f"/groups/{group_id}/members/{member_ids(ana, group_id)[0]}/remove").status_code == 303
    told = bob.get(f"/groups/{group_id}/still")
    assert told.status_code == 286 and told.headers["HX-Retarget"] == "#main"
    assert REMOVED_EN in told.get_data(as_text=True)
    never = phone(ana.application).get(f"/groups/{group_id}/still")  # a phone that never joined
    assert never.status_code == 286 and never.get_data(as_text=True) == "" and "HX-Retarget" not in never.headers
    removed = page(ana, f"/groups/{group_id}").split("data-removed", 1)[1].split("</ul>", 1)[0]
    assert "Bob" in removed and "removed on" in removed and "Chloé" not in removed


def test_a_removed_phone_is_told_why_its_next_write_is_refused(phones):
    """« Enter round 1 » and a round saved from a removed phone's open game page: refused as removed
    from the group (not as « only the phone that created this game »), in the page's language;
    what it had entered stays on screen."""
    ana, bob, _ = phones
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob")
    game = new_group_game(ana, group_id)
    assert bob.get(f"/games/{game}/manches/new").status_code == 200
    assert ana.post(f"/groups/{group_id}/members/{member_ids(ana, group_id)[0]}/remove").status_code == 303
    entry = bob.get(f"/games/{game}/manches/new")
    assert entry.status_code == 403 and REMOVED_EN in entry.get_data(as_text=True)
    saved = bob.post(f"/games/{game}/manches", data={"number": "1", "winner": "0", "p1-typed": "30",
                                                     "p2-typed": "12"})  # fmt: skip
    text = saved.get_data(as_text=True)
    assert saved.status_code == 403 and REMOVED_EN in text and "Only the phone that created" not in text
    assert "data-revoked" in text and ">30<" in text  # what Bob had typed, kept on screen
    bob.set_cookie("lang", "fr")
    text = bob.get(f"/games/{game}/manches/new").get_data(as_text=True)
    assert REMOVED_FR in html.unescape(text) and "Seul le téléphone qui a créé" not in html.unescape(text)
    assert page(ana, f"/games/{game}").count("data-manche=") == 0  # nothing was saved


def test_invites_revoked_and_owner_only_writes(phones):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    join(bob, link, "Bob")
    # Bob, a member, may not remove or revoke: only the owner may.
    member_id = re.search(r"/members/([^/]+)/remove", page(ana, f"/groups/{group_id}")).group(1)
    assert bob.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 403
    invite_id = re.search(r"/invites/([^/]+)/revoke", page(ana, f"/groups/{group_id}")).group(1)
    assert ana.post(f"/groups/{group_id}/invites/{invite_id}/revoke").status_code == 303
    # The link's line, drawn as the game's invites are (parts/invites.html): when it was made, in
    # the phone's time with JavaScript, and revoked (no form left); a join link keeps no last use.
    line = page(ana, f"/groups/{group_id}").split('class="invite-list">', 1)[1].split("</li>", 1)[0]
    assert re.search(r'Made on <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local>', line)
    assert "revoked" in line and "<form" not in line and "data-last-used" not in line
    assert chloe.get(link).status_code == 404
    assert chloe.post(link).status_code == 404
    # The owner hands the group over to Bob, who may then remove phones.
    bob_id = re.search(r'<option value="([^"]+)">Bob</option>', page(ana, f"/groups/{group_id}")).group(1)
    assert ana.post(f"/groups/{group_id}/owner", data={"member": bob_id}).status_code == 303
    assert "data-remove=" in page(bob, f"/groups/{group_id}")
    assert "data-remove=" not in page(ana, f"/groups/{group_id}")


def member_ids(client, group_id) -> list[str]:
    """The ids of the phones the owner may remove, in the members' list's order."""
    return re.findall(r"/members/([^/]+)/remove", page(client, f"/groups/{group_id}"))


def invite_lines(client, group_id) -> list[str]:
    text = page(client, f"/groups/{group_id}").split('class="invite-list">', 1)[1].split("</ul>", 1)[0]
    return text.split("</li>")[:-1]


def test_a_removed_phone_cannot_come_back_through_the_link_it_used(phones, app):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    join(bob, link, "Bob")
    join(chloe, link, "Chloé")
    # The owner sees how many phones joined through the link.
    assert re.search(r"data-uses>2 phones joined<", invite_lines(ana, group_id)[0])
    assert ana.post(f"/groups/{group_id}/members/{member_ids(ana, group_id)[1]}/remove").status_code == 303
    # Chloé's phone opens the same link again and taps « Join the group »: refused, and told why.
    for response in (chloe.get(link), chloe.post(link, data={"phone": "Chloé"})):
        assert response.status_code == 403
        assert "A phone that joined through this link was removed from the group" in response.get_data(as_text=True)
    assert chloe.get(f"/groups/{group_id}").status_code == 404
    french = app.test_client()
    french.set_cookie("lang", "fr")
    refused = french.post(link, data={"phone": "Chloé"}).get_data(as_text=True)
    assert "Un téléphone qui a rejoint la tablée par ce lien en a été retiré" in refused
    # The owner's list says so, and a new link made for Chloé lets her back.
    line = invite_lines(ana, group_id)[0]
    assert "data-closed" in line and "<form" not in line and "2 phones joined" in line
    join(chloe, join_link(ana, group_id), "Chloé")
    assert chloe.get(f"/groups/{group_id}").status_code == 200
    assert len(member_ids(ana, group_id)) == 2  # Bob and Chloé again


def test_a_link_for_one_phone_opens_once(phones):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    assert join_link(ana, group_id) != (link := join_link(ana, group_id, uses="1"))
    join(bob, link, "Bob")
    for response in (chloe.get(link), chloe.post(link, data={"phone": "Chloé"})):
        assert response.status_code == 403
        assert "This link was for one phone, and it has joined" in response.get_data(as_text=True)
    assert chloe.get(f"/groups/{group_id}").status_code == 404
    assert re.search(r"data-uses>1 phone joined<", invite_lines(ana, group_id)[1])
    assert bob.get(link).status_code == 303  # Bob, a member, goes to the group's page


def test_a_phone_that_gave_no_name_is_told_apart_by_its_order_and_join_date(phones, app):
    ana, bob, chloe = phones
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    # through the API, a phone may still join without a name (the page asks for one)
    for client in (bob, chloe):
        invite = link.rsplit("/", 1)[1]
        answer = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "  "})
        assert answer.status_code == 201
    dave = phone(app)
    join(dave, link, "Dave")
    text = page(ana, f"/groups/{group_id}")
    members = text.split("data-members>", 1)[1].split("</ul>", 1)[0]
    assert "A phone<" not in members and ">A phone" not in members
    # Each unnamed phone by its place in the order of joining (the owner's is 1) and its join date.
    joined = re.findall(r"<strong>(Phone \d+)</strong> <span class=\"hint\" data-joined>joined on <time", members)
    assert joined == ["Phone 2", "Phone 3"]
    options = re.findall(r'<option value="[^"]+">([^<]+)</option>', text)
    assert [o.split(",")[0] for o in options] == ["Phone 2", "Phone 3", "Dave"]
    assert all(re.search(r"joined on \d\d?/\d\d?/\d{2,4},? \d\d?:\d\d", o) for o in options[:2])
    # Phone 2 removed, Phone 3 keeps its number.
    assert ana.post(f"/groups/{group_id}/members/{member_ids(ana, group_id)[0]}/remove").status_code == 303
    assert re.findall(r'<option value="[^"]+">(Phone \d+)', page(ana, f"/groups/{group_id}")) == ["Phone 3"]


def test_the_join_form_holds_the_name_this_phone_gave_already(phones):
    ana, bob, _ = phones
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    assert (
        'id="join-phone"' in page(bob, link)
        and 'value="' not in page(bob, link).split('id="join-phone"')[1].split(">")[0]
    )  # no name given yet: empty
    assert bob.post("/phone/name", data={"name": "Bob"}).status_code == 303
    assert re.search(r'<input id="join-phone" name="phone"[^>]* value="Bob"', page(bob, link))


def test_a_game_made_before_is_added_by_its_owner(phones, games):
    ana, bob, _ = phones
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob")
    made = ana.post("/games", data={"variant": "classique", "shown_variant": "classique", "players": ["Ana", "Bob"],
                                    "end": "target", "first_dealer": "0"})  # fmt: skip
    game = made.headers["Location"].rsplit("/", 1)[1]
    assert bob.post(f"/groups/{group_id}/games", data={"game": game}).status_code == 404  # not Bob's game
    assert ana.post(f"/groups/{group_id}/games", data={"game": game}).status_code == 303
    assert game in page(bob, "/games")


def test_a_group_is_not_found_for_others_and_bad_input_is_4xx(phones):
    ana, bob, _ = phones
    group_id = make_group(ana)
    for url in (f"/groups/{group_id}", "/groups/nope", "/groups/%00"):
        assert bob.get(url).status_code == 404
    assert bob.post(f"/groups/{group_id}/invites").status_code == 404
    assert ana.post("/groups", data={"name": "  "}).status_code == 422
    assert ana.post("/groups", data={"name": "x" * 61}).status_code == 422
    response = bob.post("/games", data={"variant": "classique", "shown_variant": "classique",
                                        "players": ["A", "B"], "end": "target", "group": group_id})  # fmt: skip
    assert response.status_code in (404, 422)  # not a member: no game in that group

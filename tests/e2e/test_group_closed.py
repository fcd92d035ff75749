"""A group's game is read by those it belongs to, never by its id alone.

Ana's group « Dimanche », joined by Bob's phone (the screens) and by a tablet (the API, its
member token); one game of the group with one manche: Ana goes out, Bob holds 8H 3C (50 + 3 =
53), Chloé KS 7D (10 + 7 = 17), as the ``classique`` table counts them. Who reads it,
counted by hand, every read by id of the game (its page and parts, its stream, its files, its
rules and referee, its entry page, the API's game and export):
- Ana (the group's owner and the game's: its edit token) and Bob (a member): 200;
- Dan, a scorekeeper Ana invited to this game only (the game's own rights, no group): 200;
- the tablet's bearer token (a member token) and Ana's edit token as a bearer: 200;
- Eve, who never joined (no rights at all, or a bearer token of another game): 404, the 404 of
  a game that does not exist (the id alone does not tell it exists), in the page's language or
  the API's JSON error;
- Bob once Ana removed him: 404 on every read; his next write is still told why (removed);
- Eve through the game's share link ``/s/<share_id>``: 200;
- a game outside any group: Eve reads it by its id, as before (its id is its address).
"""

from __future__ import annotations

import re

from tests.e2e.test_groups import join, join_link, make_group, new_group_game, phone
from tests.e2e.test_sql_counts import StatementCounter

PLAIN_GAME = {"variant": "classique", "shown_variant": "classique", "players": ["Ana", "Bob"], "end": "rounds",
              "rounds": "2", "first_dealer": "0"}  # fmt: skip
HAND = {"winner": "Ana", "hands": {"Bob": ["8H", "3C"], "Chloé": ["KS", "7D"]}}
# Every page, part and file a phone reads by the game's id ({id}: the game's).
READS = (
    "/games/{id}",
    "/games/{id}/rounds",
    "/games/{id}/live",
    "/games/{id}/export.json",
    "/games/{id}/export.csv",
    "/games/{id}/rules",
    "/games/{id}/referee",
    "/rules/classique?game={id}",
)
API_READS = ("/api/v1/games/{id}", "/api/v1/games/{id}/export")
NOT_FOUND_EN = "No game with this id."
NOT_FOUND_FR = "Aucune partie ne porte cet identifiant."


def statuses(client, game_id: str, paths, **kwargs) -> dict:
    return {path: client.get(path.format(id=game_id), **kwargs).status_code for path in paths}


def table(app):
    """Ana's group and game (one manche), Bob's phone and the tablet's member token joined."""
    ana, bob, tablet = phone(app), phone(app), app.test_client()
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob")
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    member_token = tablet.post(
        f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"}
    ).get_json()["member_token"]
    game_id = new_group_game(ana, group_id)
    bearer = {"Authorization": f"Bearer {member_token}"}
    assert tablet.post(f"/api/v1/games/{game_id}/manches", json=HAND, headers=bearer).status_code == 201
    return ana, bob, group_id, game_id, bearer


def remove(ana, group_id: str, name: str) -> None:
    """The owner's « Remove » of the phone named ``name`` on the group's page."""
    text = ana.get(f"/groups/{group_id}").get_data(as_text=True)
    found = re.search(rf'action="[^"]*/members/([^/"]+)/remove">\s*<button[^>]*data-remove="{re.escape(name)}"', text)
    assert ana.post(f"/groups/{group_id}/members/{found.group(1)}/remove").status_code == 303


def test_a_group_game_is_read_by_its_members_and_its_own_rights(app):
    ana, bob, _group_id, game_id, bearer = table(app)
    assert statuses(ana, game_id, READS) == dict.fromkeys(READS, 200)
    assert statuses(bob, game_id, READS) == dict.fromkeys(READS, 200)
    assert "Bob" in bob.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    assert bob.get(f"/games/{game_id}/manches/new").status_code == 200  # a member records
    tablet = app.test_client()
    assert statuses(tablet, game_id, API_READS, headers=bearer) == dict.fromkeys(API_READS, 200)
    assert tablet.get(f"/api/v1/games/{game_id}", headers=bearer).get_json()["totals"] == {
        "Ana": 0,
        "Bob": 53,
        "Chloé": 17,
    }
    # Dan holds an invite of this game only: the game's own rights read it.
    created = ana.post(f"/games/{game_id}/invites")
    dan = phone(app)
    assert (
        dan.get(
            re.search(r'<a class="invite-url" href="http://[^/]+([^"]+)"', created.get_data(as_text=True)).group(1)
        ).status_code
        == 303
    )
    assert statuses(dan, game_id, READS) == dict.fromkeys(READS, 200)
    with ana.session_transaction() as session:
        edit_token = dict(session["tokens"])[game_id]
    owner_bearer = {"Authorization": f"Bearer {edit_token}"}
    assert statuses(tablet, game_id, API_READS, headers=owner_bearer) == dict.fromkeys(API_READS, 200)


def test_the_id_alone_opens_nothing_of_a_group_game(app):
    _ana, _bob, _group_id, game_id, _bearer = table(app)
    eve = phone(app)
    closed = ("/games/{id}/events", "/games/{id}/manches/new", "/games/{id}/manches/1/edit", "/games/{id}/players",
              "/games/{id}/invites", "/games/{id}/together")  # fmt: skip
    assert statuses(eve, game_id, READS + closed) == dict.fromkeys(READS + closed, 404)
    page = eve.get(f"/games/{game_id}")
    assert NOT_FOUND_EN in page.get_data(as_text=True)
    french = app.test_client().get(f"/games/{game_id}", headers={"Accept-Language": "fr"})
    assert french.status_code == 404 and NOT_FOUND_FR in french.get_data(as_text=True)
    # The API answers as for a game that does not exist: without a token, or with another game's.
    api = app.test_client()
    for headers in ({}, {"Authorization": "Bearer " + "x" * 32}):
        for path in API_READS:
            answer = api.get(path.format(id=game_id), headers=headers)
            assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found", path
        refused = api.post(f"/api/v1/games/{game_id}/manches", json=HAND, headers=headers)
        assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "not_found"
    # Its share link still opens it to anyone who has it.
    share_id = app.extensions["games"].get(game_id).share_id
    for path in (f"/s/{share_id}", f"/s/{share_id}/game.json", f"/s/{share_id}/live"):
        assert eve.get(path).status_code == 200, path
    assert eve.get(f"/s/{share_id}/game.json").get_json()["totals"] == {"Ana": 0, "Bob": 53, "Chloé": 17}


def test_a_removed_phone_reads_the_group_s_game_no_more(app):
    ana, bob, group_id, game_id, _bearer = table(app)
    assert bob.get(f"/games/{game_id}").status_code == 200  # in its page cache and its browser's
    etag = bob.get(f"/games/{game_id}/live").headers["ETag"]
    remove(ana, group_id, "Bob")
    assert statuses(bob, game_id, READS) == dict.fromkeys(READS, 404)
    assert bob.get(f"/games/{game_id}/live", headers={"If-None-Match": etag}).status_code == 404  # not a 304
    refused = bob.get(f"/games/{game_id}/manches/new")  # a write is told why, as before
    assert refused.status_code == 403 and "removed from the group" in refused.get_data(as_text=True)
    assert statuses(ana, game_id, READS) == dict.fromkeys(READS, 200)  # the owner still reads it


def test_a_removed_member_token_reads_the_game_no_more(app):
    ana, _bob, group_id, game_id, bearer = table(app)
    remove(ana, group_id, "Tablet")
    tablet = app.test_client()
    for path in API_READS:
        answer = tablet.get(path.format(id=game_id), headers=bearer)
        assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found", path


def test_a_game_outside_any_group_is_read_by_its_id_as_before(app):
    ana, eve = phone(app), phone(app)
    game_id = ana.post("/games", data=PLAIN_GAME).headers["Location"].rsplit("/", 1)[1]
    paths = tuple(p for p in READS if "rounds" not in p)  # no manche yet: no history page
    assert statuses(eve, game_id, paths + API_READS) == dict.fromkeys(paths + API_READS, 200)


def test_the_closed_game_page_asks_one_statement_as_any_game_page(app):
    """A member's game page, from the page cache, asks one statement (its revision and rights,
    and whether it is a group's game), as a game page outside any group does; the id alone is
    refused on that same statement, before the page cache is looked at."""
    ana, bob, _group_id, game_id, _bearer = table(app)
    outside = ana.post("/games", data=PLAIN_GAME).headers["Location"].rsplit("/", 1)[1]
    eve = phone(app)
    database = app.extensions["database"]
    for client, path, status in (
        (bob, f"/games/{game_id}", 200),
        (eve, f"/games/{outside}", 200),
        (eve, f"/games/{game_id}", 404),
    ):
        assert client.get(path).status_code == status  # the page kept, the session settled
        with StatementCounter(database) as counter:
            assert client.get(path).status_code == status
        assert counter.count == 1, (path, status)

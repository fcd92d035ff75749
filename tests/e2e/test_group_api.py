"""A group in the JSON API: a client joins by an invite's token and reads the group, its
standings and its score sheet with its member token as bearer token; a group is a 404 to anyone else."""

from __future__ import annotations

import csv
import io
import re

from tests.e2e.test_group_merges import two_games
from tests.e2e.test_groups import join_link, make_group, new_group_game, phone


def test_a_member_reads_the_group_and_its_standings(app):
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    first, second = two_games(ana, group_id)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]

    response = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    assert response.status_code == 201
    bearer = {"Authorization": f"Bearer {response.get_json()['member_token']}"}

    group = client.get(f"/api/v1/groups/{group_id}", headers=bearer).get_json()
    assert (group["id"], group["name"]) == (group_id, "Dimanche")
    assert [g["id"] for g in group["games"]] == [second, first]  # newest first
    assert group["games"][1] == {**group["games"][1], "status": "finished", "winners": ["Ana"]}

    answer = client.get(f"/api/v1/groups/{group_id}/standings", headers=bearer).get_json()
    assert answer["kinds"] == ["penalty"]  # classique: "the lowest total wins"
    lines = answer["lines"]
    # Game 1: Ana 5, Bob 30, Chloé 32 (Ana wins); game 2: Ana 12, Robert 0, Chloé 11 (Robert wins).
    robert, ana_line = lines[0], lines[1]
    assert (robert["name"], robert["won"], robert["played"], robert["win_rate"]) == ("Robert", 1, 1, 100)
    # Ana: 0, 5 then 8, 4 = 17 over 4 = 4.25 → 4.2 (half to even); best 0, worst 8.
    assert ana_line == {"name": "Ana", "won": 1, "played": 2, "win_rate": 50, "longest_run": 1,
                        "points": {"penalty": {"rounds": 4, "total": 17, "average": 4.2, "best": 0, "worst": 8}}}  # fmt: skip
    by_month = client.get(f"/api/v1/groups/{group_id}/standings?period=month&variant=nope", headers=bearer)
    assert by_month.get_json()["lines"] == []  # no game of that variant


def test_a_group_is_a_404_to_anyone_else(app):
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    for path in (f"/api/v1/groups/{group_id}", f"/api/v1/groups/{group_id}/standings"):
        assert client.get(path).status_code == 404
        response = client.get(path, headers={"Authorization": "Bearer not-a-member-token-at-all"})
        assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"
    wrong = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": "made-up-invite-token"})
    assert wrong.status_code == 404
    assert client.post(f"/api/v1/groups/{group_id}/members", json=["not", "an", "object"]).status_code == 422
    assert client.get("/api/v1/groups/nosuchgroup0000000000/standings").status_code == 404


def test_a_link_gives_no_member_token_again_after_a_phone_that_used_it_is_removed(app):
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    joined = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    assert joined.status_code == 201
    text = ana.get(f"/groups/{group_id}").get_data(as_text=True)
    member_id = re.search(r'/members/([^/"]+)/remove"', text).group(1)
    assert ana.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 303
    again = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    assert again.status_code == 403 and "member_token" not in again.get_json()
    assert again.get_json()["error"]["code"] == "forbidden"
    assert "par ce lien en a été retiré" in again.get_json()["error"]["message"]  # French first


def test_a_removed_member_token_is_told_it_was_removed(app):
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    game = new_group_game(ana, group_id)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    token = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite}).get_json()["member_token"]
    text = ana.get(f"/groups/{group_id}").get_data(as_text=True)
    member_id = re.search(r'/members/([^/"]+)/remove"', text).group(1)
    assert ana.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 303
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
    hand = {"winner": "Ana", "hands": {"Bob": {"typed": 30}, "Chloé": {"typed": 12}}}
    refused = client.post(f"/api/v1/games/{game}/manches", json=hand, headers=headers)
    assert refused.status_code == 403
    assert refused.get_json()["error"]["message"].startswith("This phone was removed from the group")


def sheet(response) -> list[list[str]]:
    """The rows of a score sheet answer: UTF-8 text that opens with a byte-order mark."""
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_a_member_downloads_the_score_sheet_of_hands_entered_as_cards(app):
    """A small group's sheet by hand. Game 1 (classique, 2 manches), its hands entered as cards
    through the API with the member's bearer token; SPEC §2, the ``classique`` table: 8 is worth 50,
    A, 2 and J 20, K 10, 3 to 7, 9 and 10 their face value. "penalty — each player other than the
    manche's winner adds the value of their own hand; the winner adds 0", and in a game of a fixed
    number of manches "the best total wins (lowest in penalty mode)":
    manche 1, Ana goes out: Bob 8H 3C = 50 + 3 = 53, Chloé KS 7D = 10 + 7 = 17;
    manche 2, Chloé goes out: Ana AS = 20, Bob 2C 10H = 20 + 10 = 30.
    Totals Ana 20, Bob 83, Chloé 17: Chloé wins, alone. Game 2, in progress, "chloe" written
    without capital or accent: manche 1, Bob goes out: Ana JH = 20, chloe 9S = 9; no winner yet."""
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    token = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite}).get_json()["member_token"]
    bearer = {"Authorization": f"Bearer {token}"}
    first, second = new_group_game(ana, group_id), new_group_game(ana, group_id, ("Ana", "Bob", "chloe"))
    for game_id, manche in (
        (first, {"winner": "Ana", "hands": {"Bob": ["8H", "3C"], "Chloé": ["KS", "7D"]}}),
        (first, {"winner": "Chloé", "hands": {"Ana": ["AS"], "Bob": ["2C", "10H"]}}),
        (second, {"winner": "Bob", "hands": {"Ana": ["JH"], "chloe": ["9S"]}}),
    ):
        assert client.post(f"/api/v1/games/{game_id}/manches", json=manche, headers=bearer).status_code == 201
    assert client.get(f"/api/v1/games/{first}", headers=bearer).get_json()["totals"] == {
        "Ana": 20,
        "Bob": 83,
        "Chloé": 17,
    }

    response = client.get(f"/api/v1/groups/{group_id}/export.csv", headers=bearer)  # French by default (SPEC §4)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="carte-group-')
    days = {
        g["id"]: g["created_at"][:10]
        for g in client.get(f"/api/v1/groups/{group_id}", headers=bearer).get_json()["games"]
    }
    one, two = days[first], days[second]
    # The person is who the standings count: "chloe" is Chloé, spelled as in the finished game.
    assert sheet(response) == [
        ["Partie", "Date", "Variante", "Manche", "Nom joué", "Personne", "Points", "A gagné la partie"],
        ["1", one, "Classique", "1", "Ana", "Ana", "0", "0"],
        ["1", one, "Classique", "1", "Bob", "Bob", "53", "0"],
        ["1", one, "Classique", "1", "Chloé", "Chloé", "17", "1"],
        ["1", one, "Classique", "2", "Ana", "Ana", "20", "0"],
        ["1", one, "Classique", "2", "Bob", "Bob", "30", "0"],
        ["1", one, "Classique", "2", "Chloé", "Chloé", "0", "1"],
        ["2", two, "Classique", "1", "Ana", "Ana", "20", ""],
        ["2", two, "Classique", "1", "Bob", "Bob", "0", ""],
        ["2", two, "Classique", "1", "chloe", "Chloé", "9", ""],
    ]
    # In English, the same file as the member's phone downloads from the group's page.
    english = client.get(f"/api/v1/groups/{group_id}/export.csv", headers={**bearer, "Accept-Language": "en"})
    assert sheet(english)[0] == ["Game", "Date", "Variant", "Round", "Name played", "Person", "Points", "Won the game"]
    assert sheet(english)[1] == ["1", one, "Classic", "1", "Ana", "Ana", "0", "0"]
    from_page = ana.get(f"/groups/{group_id}/export.csv")
    assert (
        from_page.data == english.data
        and from_page.headers["Content-Disposition"] == english.headers["Content-Disposition"]
    )


def test_the_score_sheet_is_a_404_to_a_token_that_does_not_know_the_group(app):
    ana, client = phone(app), app.test_client()
    group_id, other_id = make_group(ana), make_group(ana, "Lundi")
    invite = join_link(ana, other_id).rsplit("/", 1)[1]
    other = client.post(f"/api/v1/groups/{other_id}/members", json={"invite": invite}).get_json()["member_token"]
    path = f"/api/v1/groups/{group_id}/export.csv"
    for headers in ({}, {"Authorization": "Bearer not-a-member-token-at-all"}, {"Authorization": f"Bearer {other}"}):
        response = client.get(path, headers=headers)  # a member of another group: not found, not forbidden
        assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"
    assert (
        client.get(f"/api/v1/groups/{other_id}/export.csv", headers={"Authorization": f"Bearer {other}"}).status_code
        == 200
    )
    nowhere = client.get(
        "/api/v1/groups/nosuchgroup0000000000/export.csv", headers={"Authorization": f"Bearer {other}"}
    )
    assert nowhere.status_code == 404

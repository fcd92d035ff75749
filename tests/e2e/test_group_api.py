"""A group in the JSON API (issue 42): a client joins by an invite's token and reads the group and
its standings with its member token as bearer token; a group is a 404 to anyone else."""

from __future__ import annotations

from tests.e2e.test_group_merges import two_games
from tests.e2e.test_groups import join_link, make_group, phone


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

    lines = client.get(f"/api/v1/groups/{group_id}/standings", headers=bearer).get_json()["lines"]
    # Game 1: Ana 5, Bob 30, Chloé 32 (Ana wins); game 2: Ana 12, Robert 0, Chloé 11 (Robert wins).
    robert, ana_line = lines[0], lines[1]
    assert (robert["name"], robert["won"], robert["played"], robert["win_rate"]) == ("Robert", 1, 1, 100)
    # Ana: 0, 5 then 8, 4 = 17 over 4 = 4.25 → 4.2 (half to even); best 0, worst 8.
    assert ana_line == {"name": "Ana", "won": 1, "played": 2, "win_rate": 50, "average": 4.2, "best": 0,
                        "worst": 8, "longest_run": 1}  # fmt: skip
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

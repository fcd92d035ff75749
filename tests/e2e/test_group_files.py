"""A group's archive (``carte-group/1``) and score sheet (CSV), downloaded by a member, and the group
rebuilt from the archive on another phone: once (the same file again answers the group it made),
all or nothing (a damaged file writes nothing and says what is wrong), on the pages and in the
JSON API. Every figure is worked out by hand from ``two_games`` (its docstring)."""

from __future__ import annotations

import csv
import html
import io
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from models.services import group_file
from models.services.db import Game, GroupAlias, PlayGroup
from tests.e2e.test_group_merges import two_games
from tests.e2e.test_groups import cells, join, join_link, make_group, new_group_game, page, phone
from tests.e2e.test_import_undo_fuzz import JSON_VALUES, paths_of, replaced
from tests.e2e.test_web_games import post_manche

SECRET = b"test-secret"


def counts(app) -> tuple[int, int, int]:
    """How many groups, games and merges the database holds."""
    database = app.extensions["database"]
    return tuple(database.first(select(func.count()).select_from(t))[0] for t in (PlayGroup, Game, GroupAlias))


def played_group(app):
    """Ana's group: ``two_games`` (Bob written "Robert" in the second, merged into Bob), and a
    third game in progress (one manche: Bob 7, Chloé 3). Bob's phone is a member."""
    ana, bob = phone(app), phone(app)
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob's phone")
    first, second = two_games(ana, group_id)
    assert ana.post(f"/groups/{group_id}/merges", data={"a": "Bob", "b": "Robert"}).status_code == 303
    third = new_group_game(ana, group_id)
    post_manche(ana, third, {"winner": "0", "p1-typed": "7", "p2-typed": "3"})
    return ana, bob, group_id, (first, second, third)


def upload(client, body: bytes, lang="en"):
    data = {"file": (io.BytesIO(body), "group.json")}
    return client.post("/groups/import", data=data, headers={"Accept-Language": lang})


def imported_id(response) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]


def test_a_member_downloads_the_archive_and_another_phone_rebuilds_the_group(app):
    ana, bob, group_id, (first, second, third) = played_group(app)
    eve, dan = phone(app), phone(app)
    assert eve.get(f"/groups/{group_id}/export.json").status_code == 404  # not a member
    assert eve.get(f"/groups/{group_id}/export.csv").status_code == 404
    response = bob.get(f"/groups/{group_id}/export.json")  # any member, not only the owner
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-store"
    assert "attachment" in response.headers["Content-Disposition"]
    archive = json.loads(response.data)
    assert archive["format"] == "carte-group/1" and archive["group"]["name"] == "Dimanche"
    # Its games in the game file's shape, oldest first; the merge by person; no phone, no token.
    assert [g["format"] for g in archive["games"]] == ["carte-game/2"] * 3
    assert [g["game"]["players"] for g in archive["games"]] == [["Ana", "Bob", "Chloé"], ["Ana", "Robert", "Chloé"],
                                                                ["Ana", "Bob", "Chloé"]]  # fmt: skip
    assert archive["merges"] == [{"person": "robert", "counted_as": "bob"}]
    assert "token" not in response.get_data(as_text=True) and "Bob's phone" not in response.get_data(as_text=True)
    before = counts(app)

    new_id = imported_id(upload(dan, response.data))
    assert new_id != group_id
    assert counts(app) == (before[0] + 1, before[1] + 3, before[2] + 1)
    text = page(dan, f"/groups/{new_id}")
    # The same standings as Ana's group, merge included: Ana 1 of 2, Robert (Bob) 1 of 2, Chloé 0 of 2;
    # the game in progress counts in none of them.
    assert cells(text, "standings") == cells(page(ana, f"/groups/{group_id}"), "standings")
    assert cells(text, "standings")["Robert"] == {"won": "1", "played": "2", "rate": "50", "run": "1"}
    assert "data-remove=" not in text  # Dan's phone is its owner, alone: no other phone to remove
    # The game in progress is one of the new group's, recordable from its phone: Ana 0, Bob 7, Chloé 3.
    rebuilt = json.loads(dan.get(f"/groups/{new_id}/export.json").data)
    assert rebuilt["games"][2]["game"]["totals"] == {"Ana": 0, "Bob": 7, "Chloé": 3}
    assert [g["game"]["created_at"] for g in rebuilt["games"]] == [g["game"]["created_at"] for g in archive["games"]]
    assert rebuilt["merges"] == archive["merges"]
    assert ana.get(f"/groups/{new_id}").status_code == 404  # Ana is not a member of Dan's copy


def test_the_same_file_imported_twice_makes_one_group(app):
    ana, _bob, group_id, _ = played_group(app)
    body = ana.get(f"/groups/{group_id}/export.json").data
    dan, eve = phone(app), phone(app)
    made = imported_id(upload(dan, body))
    before = counts(app)
    # The same file, written another way (other spacing, other key order), by the same phone.
    again = upload(dan, json.dumps(json.loads(body), indent=4, sort_keys=True).encode())
    assert again.status_code == 200 and counts(app) == before
    said = html.unescape(again.get_data(as_text=True)).split("data-imported-again>", 1)[1].split("</p>", 1)[0]
    assert "This file was imported already" in said and f'href="/groups/{made}"' in said
    # Another phone importing it makes its own group.
    assert imported_id(upload(eve, body)) not in (made, group_id)


def test_a_phone_that_lost_the_first_answer_gets_its_group_back(app, games):
    """The service's side: the first answer (its member token) lost, the same import again gives the
    same member the same token, which still opens the group; another importer's is another."""
    ana, _bob, group_id, _ = played_group(app)
    document = json.loads(ana.get(f"/groups/{group_id}/export.json").data)
    database, groups = app.extensions["database"], app.extensions["groups"]
    first = group_file.import_archive(database, games, document, "phone:lost", (), secret=SECRET)
    second = group_file.import_archive(database, games, document, "phone:lost", (), secret=SECRET)
    assert second == group_file.Imported(first.group_id, first.member_token, True)
    assert groups.membership(first.group_id, [first.member_token]).owner
    third = group_file.import_archive(database, games, document, "phone:lost", (second.member_token,), secret=SECRET)
    assert third == group_file.Imported(first.group_id, None, True)  # it holds its token: nothing new
    other = group_file.import_archive(database, games, document, "phone:other", (), secret=SECRET)
    assert other.member_token != first.member_token and groups.membership(other.group_id, [first.member_token]) is None


def test_the_same_import_at_the_same_moment_makes_one_group(app, games):
    """Two requests of one phone with one file, at once: one group; the other answers it."""
    ana, _bob, group_id, _ = played_group(app)
    document = json.loads(ana.get(f"/groups/{group_id}/export.json").data)
    database, before = app.extensions["database"], counts(app)
    start, answers = threading.Barrier(2), []

    def importing():
        start.wait()
        answers.append(group_file.import_archive(database, games, document, "phone:twice", (), secret=SECRET))

    threads = [threading.Thread(target=importing) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(answers) == 2 and answers[0].group_id == answers[1].group_id
    assert sorted(a.again for a in answers) == [False, True]
    assert counts(app) == (before[0] + 1, before[1] + 3, before[2] + 1)


def test_the_score_sheet_has_one_row_per_manche_per_player(app):
    ana, bob, group_id, _ = played_group(app)
    response = bob.get(f"/groups/{group_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == ["Game", "Date", "Variant", "Round", "Name played", "Person", "Points", "Won the game"]
    body = [row[:1] + row[2:] for row in rows[1:]]  # the date is today's
    # Game 1 (Ana wins): Bob 30, Chloé 12, then Ana 5, Chloé 20; Bob counts as Robert, the merged
    # person's latest spelling. Game 2 (Robert wins). Game 3, in progress: no winner yet.
    assert body[:6] == [
        ["1", "Classic", "1", "Ana", "Ana", "0", "1"],
        ["1", "Classic", "1", "Bob", "Robert", "30", "0"],
        ["1", "Classic", "1", "Chloé", "Chloé", "12", "0"],
        ["1", "Classic", "2", "Ana", "Ana", "5", "1"],
        ["1", "Classic", "2", "Bob", "Robert", "0", "0"],
        ["1", "Classic", "2", "Chloé", "Chloé", "20", "0"],
    ]
    assert ["2", "Classic", "2", "Robert", "Robert", "0", "1"] in body
    assert body[-3:] == [["3", "Classic", "1", "Ana", "Ana", "0", ""], ["3", "Classic", "1", "Bob", "Robert", "7", ""],
                         ["3", "Classic", "1", "Chloé", "Chloé", "3", ""]]  # fmt: skip
    assert len(body) == 3 * 2 + 3 * 2 + 3
    french = app.test_client().get("/", headers={"Accept-Language": "fr"})  # a phone in French
    assert french.status_code == 200


def broken_archives(archive: dict) -> list[tuple[dict | str, str]]:
    """Damaged files, each with the words (in French) the page says about it."""
    games = archive["games"]
    wrong_totals = json.loads(json.dumps(archive))
    wrong_totals["games"][1]["game"]["totals"] = {"Ana": 1, "Robert": 2, "Chloé": 3}
    return [
        ("not json at all {", "n'est pas un fichier de tablée"),
        ({**archive, "format": "carte-game/2"}, "n'est pas un fichier de tablée"),
        ({**archive, "games": {"0": games[0]}}, "les parties ne sont pas une liste"),
        ({**archive, "group": None}, "la tablée manque"),
        ({**archive, "group": {"name": "  "}}, "Donnez un nom à la tablée"),
        (wrong_totals, "Partie 2 du fichier\u00a0: Le fichier est abîmé\u00a0: ses totaux"),
        ({**archive, "games": [games[0], {"format": "carte-game/2"}]}, "Partie 2 du fichier"),
        ({**archive, "merges": [{"person": "Robert", "counted_as": "bob"}]}, "joueurs réunis sont illisibles"),
        ({**archive, "merges": [{"person": "bob", "counted_as": "bob"}]}, "joueurs réunis sont illisibles"),
        (
            {
                **archive,
                "merges": [{"person": "robert", "counted_as": "bob"}, {"person": "bob", "counted_as": "robert"}],
            },
            "comptent l'un pour l'autre en boucle",
        ),
        (
            {
                **archive,
                "merges": [
                    {"person": "robert", "counted_as": "bob"},
                    {"person": "bob", "counted_as": "ana"},
                    {"person": "ana", "counted_as": "robert"},
                ],
            },
            "comptent l'un pour l'autre en boucle",
        ),
        *[
            (
                {**archive, "games": [games[0], {**games[1], "game": {**games[1]["game"], "created_at": when}}]},
                "quand la partie 2 a commencé",
            )
            for when in ("hier", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00", 20261128)
        ],
    ]


def test_a_damaged_file_says_what_is_wrong_and_writes_nothing(app):
    ana, _bob, group_id, _ = played_group(app)
    archive = json.loads(ana.get(f"/groups/{group_id}/export.json").data)
    dan = app.test_client()  # a phone in French
    before = counts(app)
    for broken, said in broken_archives(archive):
        body = broken.encode() if isinstance(broken, str) else json.dumps(broken).encode()
        response = upload(dan, body, lang="fr")
        assert response.status_code == 422, said
        assert said in html.unescape(response.get_data(as_text=True)), said
        assert counts(app) == before, said  # game 1 of a file whose game 2 is damaged is not kept
    assert upload(dan, b"").status_code == 422
    no_file = dan.post("/groups/import", data={}, headers={"Accept-Language": "fr"})
    assert no_file.status_code == 422 and "Choisissez un fichier de tablée" in html.unescape(no_file.get_data(True))
    assert page(dan, "/groups/import").count('type="file"') == 1


@pytest.fixture
def archive_of(app):
    ana, _bob, group_id, _ = played_group(app)
    return json.loads(ana.get(f"/groups/{group_id}/export.json").data)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_field_of_an_archive_takes_any_value_without_5xx_or_a_half_written_group(app, archive_of, data):
    path = data.draw(st.sampled_from(paths_of(archive_of)), label="field")
    remove = data.draw(st.booleans(), label="remove") if isinstance(path[-1], str) else False
    broken = replaced(archive_of, path, None if remove else data.draw(JSON_VALUES, label="value"), remove)
    client, before = phone(app), counts(app)
    response = upload(client, json.dumps(broken).encode())
    assert response.status_code in (303, 422), (path, response.status_code, response.get_data(True)[:400])
    if response.status_code == 422:
        assert 'role="alert"' in response.get_data(as_text=True)
        assert counts(app) == before, path
    else:  # a change the import may take (a date, a name): the whole group, or nothing
        assert counts(app)[0] == before[0] + 1 and counts(app)[1] == before[1] + len(broken["games"])
    api = app.test_client().post("/api/v1/groups/import", json=broken, headers={"Idempotency-Key": "fuzz-" + str(path)})
    assert api.status_code in (200, 201, 422), (path, api.status_code)
    if api.status_code == 422:
        assert api.get_json()["error"]["message"]


def moment_aside(archive: dict) -> dict:
    """An archive without the moment it was made (the group's and each game's)."""
    games = [{**game, "exported_at": None} for game in archive["games"]]
    return {**archive, "exported_at": None, "games": games}


def test_the_api_exports_and_imports_a_group_once_per_key(app):
    ana, _bob, group_id, _ = played_group(app)
    client = app.test_client()
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    member = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite}).get_json()["member_token"]
    bearer = {"Authorization": f"Bearer {member}"}
    assert client.get(f"/api/v1/groups/{group_id}/export").status_code == 404
    assert client.get(f"/api/v1/groups/{group_id}/export", headers={"Authorization": "Bearer nope"}).status_code == 404
    exported = client.get(f"/api/v1/groups/{group_id}/export", headers=bearer)
    archive = exported.get_json()
    assert archive["format"] == "carte-group/1" and len(archive["games"]) == 3
    # One moment for the whole archive: each game's is the group's.
    assert {game["exported_at"] for game in archive["games"]} == {archive["exported_at"]}
    # The page's download, the same file under the same name (only the moment it was made may
    # differ: the two downloads may fall on either side of a second).
    from_page = ana.get(f"/groups/{group_id}/export.json")
    assert moment_aside(json.loads(from_page.data)) == moment_aside(archive)
    assert exported.headers["Content-Disposition"] == from_page.headers["Content-Disposition"]
    assert exported.headers["Cache-Control"] == "private, no-store"

    missing = client.post("/api/v1/groups/import", json=archive)
    assert missing.status_code == 422 and missing.get_json()["error"]["field"] == "Idempotency-Key"
    before = counts(app)
    made = client.post("/api/v1/groups/import", json=archive, headers={"Idempotency-Key": "copy-1"})
    assert made.status_code == 201 and made.get_json()["imported_before"] is False
    new_id, token = made.get_json()["group"], made.get_json()["member_token"]
    assert made.headers["Location"] == f"/api/v1/groups/{new_id}"
    standings = client.get(f"/api/v1/groups/{new_id}/standings", headers={"Authorization": f"Bearer {token}"})
    assert [line["name"] for line in standings.get_json()["lines"]] == ["Ana", "Robert", "Chloé"]
    # The same key and file again, with the token it holds: the same group, nothing new.
    again = client.post("/api/v1/groups/import", json=archive,
                        headers={"Idempotency-Key": "copy-1", "Authorization": f"Bearer {token}"})  # fmt: skip
    assert again.status_code == 200 and again.get_json() == {"group": new_id, "member_token": None,
                                                              "imported_before": True}  # fmt: skip
    assert counts(app) == (before[0] + 1, before[1] + 3, before[2] + 1)
    damaged = client.post("/api/v1/groups/import", json={**archive, "games": 3}, headers={"Idempotency-Key": "k2",
                                                                                         "Accept-Language": "fr"})  # fmt: skip
    assert damaged.status_code == 422 and "les parties ne sont pas une liste" in damaged.get_json()["error"]["message"]


def test_an_archive_larger_than_other_requests_is_taken_whole(app):
    """An archive may be far larger than the 256 KB any other request may be: 80 copies of the
    three games are 240 games, imported in one transaction."""
    ana, _bob, group_id, _ = played_group(app)
    archive = json.loads(ana.get(f"/groups/{group_id}/export.json").data)
    big = {**archive, "games": archive["games"] * 80}
    body = json.dumps(big).encode()
    assert len(body) > 256 * 1024
    before, dan = counts(app), phone(app)
    new_id = imported_id(upload(dan, body))
    assert counts(app) == (before[0] + 1, before[1] + 240, before[2] + 1)
    # Each copy: game 1 won by Ana, game 2 by Robert (Bob), game 3 in progress: 160 finished games.
    won = cells(page(dan, f"/groups/{new_id}"), "standings")
    assert (won["Ana"]["won"], won["Ana"]["played"], won["Ana"]["rate"]) == ("80", "160", "50")
    assert won["Robert"]["won"] == "80"
    made = app.test_client().post("/api/v1/groups/import", data=body, content_type="application/json",
                                  headers={"Idempotency-Key": "big-one"})  # fmt: skip
    assert made.status_code == 201 and made.get_json()["group"] != new_id


def test_a_file_over_the_size_a_group_may_have_is_refused(app):
    client = phone(app)
    huge = b'{"format": "carte-group/1", "games": [' + b" " * group_file.MAX_FILE_BYTES + b"]}"
    response = upload(client, huge)
    assert response.status_code == 413
    assert client.post("/api/v1/groups/import", data=huge, content_type="application/json",
                       headers={"Idempotency-Key": "big"}).status_code == 413  # fmt: skip

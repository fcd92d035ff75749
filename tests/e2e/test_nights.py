"""Club nights over HTTP: a night made from the group's pages (players present, tables, turn 1's
seating proposed then started in one post), its page, the next turn proposed and started once,
a 404 for a phone that is not a member, a watcher who sees and cannot start, clear 4xx answers to
bad input, a constant number of SQL statements whatever the number of tables, and the night's
stream hearing every table and a turn started on another phone.

Classique in penalty mode, one manche a game (``end=rounds``, ``rounds=1``): the player who goes
out scores 0, the others the total typed for their hand; the lowest total wins the table.
"""

from __future__ import annotations

import html
import re
import threading
from urllib.parse import urlencode

import pytest
from werkzeug.serving import make_server

from app import create_app
from models.services.games import MancheEntry
from tests.e2e.test_budget import BUDGET, weight
from tests.e2e.test_groups import cells, join, join_link, make_group, page, phone
from tests.e2e.test_sql_counts import statements
from tests.e2e.test_web_games import post_manche

from .sse_client import open_stream

FIVE = ["Ana", "Bob", "Chloé", "Dan", "Eve"]


def proposed(client, group_id: str, players=FIVE, tables: int = 2, seed: int = 7) -> dict:
    """Turn 1's seating as the page proposes it: the form's fields, ready to post."""
    query = {"name": "Mardi soir", "variant": "classique", "end": "rounds", "rounds": "1", "players": list(players),
             "tables": str(tables), "seed": str(seed)}  # fmt: skip
    return seating_form(page(client, f"/groups/{group_id}/nights/new?" + encode(query)))


def encode(query: dict) -> str:
    return urlencode(query, doseq=True)


def seating_form(text: str) -> dict:
    """The seating form's fields as the page holds them (each player's table as selected)."""
    form = text.split('night-start"', 1)[1]
    data = {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)}
    players = [html.unescape(v) for v in re.findall(r'<input type="hidden" name="players" value="([^"]*)"', form)]
    data["players"] = players
    for index in range(len(players)):
        options = re.search(rf'name="table-{index}"[^>]*>(.*?)</select>', form, re.S).group(1)
        data[f"table-{index}"] = re.search(r'value="(\d+)" selected', options).group(1)
    return data


def tables_of(data: dict) -> dict:
    seated: dict = {}
    for index, name in enumerate(data["players"]):
        seated.setdefault(data[f"table-{index}"], []).append(name)
    return seated


def said_tied(text: str) -> set:
    """The players whose line of the night's ranking says they are tied."""
    body = text.split("data-night-ranking>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-person="([^"]+)">(.*?)</tr>', body, re.S)
    return {html.unescape(name) for name, row in rows if 'class="tied"' in row}


def start(client, group_id: str, data: dict) -> str:
    response = client.post(f"/groups/{group_id}/nights", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


@pytest.fixture
def night(app):
    """Ana's phone, its group, and a night of two tables (3 and 2 players) started from the pages."""
    client = phone(app)
    group_id = make_group(client)
    data = proposed(client, group_id)
    return client, group_id, start(client, group_id, data), data


def table_games(app, night_id: str) -> dict:
    state = app.extensions["nights"].state(night_id)
    return {(t.round, t.table): t.game_id for t in state.tables}


def test_a_night_is_proposed_started_once_and_shown(app, night):
    client, group_id, night_id, data = night
    assert sorted(len(names) for names in tables_of(data).values()) == [2, 3]  # 5 at 2 tables: 3 and 2
    assert start(client, group_id, data) == night_id  # the same form again: the same night
    games = table_games(app, night_id)
    assert sorted(games) == [(1, 1), (1, 2)]
    text = page(client, f"/nights/{night_id}")
    assert "Turn 1" in text and text.count("data-table=") >= 2
    assert f'href="/groups/{group_id}/nights"' in text
    assert "Mardi soir" in page(client, f"/groups/{group_id}/nights")
    assert "data-club-nights" in page(client, f"/groups/{group_id}")


def test_the_ranking_and_the_next_turn_started_in_one_post(app, night):
    client, _group_id, night_id, data = night
    seated = tables_of(data)
    games = table_games(app, night_id)
    big, small = (seated["1"], seated["2"]) if len(seated["1"]) == 3 else (seated["2"], seated["1"])
    big_game = games[(1, 1)] if len(seated["1"]) == 3 else games[(1, 2)]
    small_game = games[(1, 2)] if big_game == games[(1, 1)] else games[(1, 1)]
    # The three-player table: its first player goes out, the second keeps 12, the third 30. The
    # two-player table: its first player goes out, the other keeps 12. Winners: the first of each
    # (1 table, 0 points: tied first); then the two on 12 points (tied third); then 30 (fifth).
    post_manche(client, big_game, {"winner": "0", "p1-typed": "12", "p2-typed": "30"})
    post_manche(client, small_game, {"winner": "0", "p1-typed": "12"})
    ranking = cells(page(client, f"/nights/{night_id}"), "night-ranking")
    expected = {big[0]: ("1", "1", "0"), small[0]: ("1", "1", "0"), big[1]: ("3", "0", "12"),
                small[1]: ("3", "0", "12"), big[2]: ("5", "0", "30")}  # fmt: skip
    assert {name: (row["place"].split()[0], row["wins"], row["points"]) for name, row in ranking.items()} == expected
    text = page(client, f"/nights/{night_id}?method=together&tables=2")
    # Wins first, then fewest points, equals said as ties: the two winners (1 win, 0 points) and the
    # two on 12 (0 wins) are said tied; the one on 30 is alone in fifth place.
    assert said_tied(text) == {big[0], small[0], big[1], small[1]}
    form = seating_form(text)
    # Together: the five in the ranking's order (ties by name) in chunks of 3 and 2.
    order = sorted([big[0], small[0]], key=str.casefold) + sorted([big[1], small[1]], key=str.casefold) + [big[2]]
    assert tables_of(form) == {"1": order[:3], "2": order[3:]}
    response = client.post(f"/nights/{night_id}/rounds", data=form)
    assert response.status_code == 303
    assert client.post(f"/nights/{night_id}/rounds", data=form).status_code == 303  # sent again
    assert sorted(table_games(app, night_id)) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert "Turn 2" in page(client, f"/nights/{night_id}")


def test_a_phone_not_in_the_group_gets_404_everywhere(app, night):
    _client, group_id, night_id, data = night
    stranger = phone(app)
    for url in (f"/nights/{night_id}", f"/nights/{night_id}/live", f"/nights/{night_id}/events",
                f"/groups/{group_id}/nights", f"/groups/{group_id}/nights/new"):  # fmt: skip
        assert stranger.get(url).status_code == 404, url
    assert stranger.post(f"/nights/{night_id}/rounds", data={"round": "2"}).status_code == 404
    assert stranger.post(f"/groups/{group_id}/nights", data=data).status_code == 404
    assert stranger.get("/nights/not-a-night").status_code == 404


def test_a_removed_phone_starting_a_turn_is_told_it_was_removed(app, night):
    client, group_id, night_id, _data = night
    bob = phone(app)
    join(bob, join_link(client, group_id), "Bob's phone")
    form = seating_form(page(bob, f"/nights/{night_id}"))
    member_id = re.search(r"/members/([^/]+)/remove", page(client, f"/groups/{group_id}")).group(1)
    assert client.post(f"/groups/{group_id}/members/{member_id}/remove").status_code == 303
    refused = bob.post(f"/nights/{night_id}/rounds", data=form)
    assert refused.status_code == 403
    assert "This phone was removed from the group" in refused.get_data(as_text=True)
    bob.set_cookie("lang", "fr")
    refused = bob.post(f"/nights/{night_id}/rounds", data=form)
    assert "Ce téléphone a été retiré de la tablée" in html.unescape(refused.get_data(as_text=True))
    assert sorted(table_games(app, night_id)) == [(1, 1), (1, 2)]  # no turn 2


def test_a_member_starts_a_turn_and_a_watcher_only_sees(app, night):
    client, group_id, night_id, _data = night
    bob = phone(app)
    join(bob, join_link(client, group_id), "Bob's phone")
    # turn 1 not over: turn 2 is not offered yet, the page says when it will be
    waiting = page(bob, f"/nights/{night_id}")
    assert "data-start-round hidden" in waiting and "once every table of turn 1 has finished its game" in waiting
    for table in (1, 2):  # one round a game: each table's game ends with its round
        game_id = table_games(app, night_id)[(1, table)]
        seated = app.extensions["games"].get(game_id).players
        post_manche(bob, game_id, {"winner": "0", **{f"p{seat}-typed": "12" for seat in range(1, len(seated))}})
    begun = page(bob, f"/nights/{night_id}")
    assert "data-start-round>" in begun and "data-turn-waits" not in begun
    form = seating_form(begun)
    assert bob.post(f"/nights/{night_id}/rounds", data=form).status_code == 303
    watch_id = app.extensions["groups"].group(group_id).watch_id
    watcher = phone(app)
    text = page(watcher, f"/w/{watch_id}/nights/{night_id}")
    assert "data-night-ranking" in text and 'data-table="1"' in text
    assert "data-start-round" not in text and "/rounds" not in text
    assert night_id in page(watcher, f"/w/{watch_id}/nights")
    assert watcher.get(f"/w/{watch_id}/nights/{night_id}/live").status_code == 200
    other_group = make_group(phone(app), "Autre")
    other_watch = app.extensions["groups"].group(other_group).watch_id
    assert watcher.get(f"/w/{other_watch}/nights/{night_id}").status_code == 404  # not that group's night


@pytest.mark.parametrize(
    "change",
    [
        {"table-0": "x"},
        {"table-0": "-1"},
        {"players": ["Ana"], "table-0": "1"},
        {"name": ""},
        {"nonce": ""},
        {"variant": "no-such-variant"},
        {"rounds": "zero"},
        {"table-0": "3"},
    ],
)
def test_bad_input_to_a_new_night_is_a_clear_422_and_writes_nothing(app, change):
    client = phone(app)
    group_id = make_group(client)
    data = {**proposed(client, group_id), **change}
    response = client.post(f"/groups/{group_id}/nights", data=data)
    if change.get("variant"):  # an unknown variant falls back to the first one: still a night
        assert response.status_code == 303
        return
    assert response.status_code == 422, response.get_data(as_text=True)
    assert 'role="alert"' in response.get_data(as_text=True)
    assert app.extensions["nights"].nights(group_id) == []


@pytest.mark.parametrize("query", ["tables=0", "tables=9", "tables=x", "players=Ana&tables=1", "tables=2"])
def test_a_seating_that_cannot_be_is_said_not_a_500(app, query):
    client = phone(app)
    group_id = make_group(client)
    response = client.get(f"/groups/{group_id}/nights/new?variant=classique&{query}")
    assert response.status_code == 422
    assert 'role="alert"' in response.get_data(as_text=True)


def test_bad_input_to_the_next_turn_is_a_422(app, night):
    client, _group_id, night_id, _data = night
    for form in ({"round": "7"}, {"round": "x"}, {"round": "2", "players": ["Ana"], "table-0": "1"}):
        response = client.post(f"/nights/{night_id}/rounds", data=form)
        assert response.status_code == 422, form
    assert sorted(table_games(app, night_id)) == [(1, 1), (1, 2)]
    assert client.get(f"/nights/{night_id}?method=nonsense&tables=99").status_code == 200  # said, not failed


def night_of(app, client, tables: int) -> str:
    group_id = make_group(client, f"Club {tables}")
    players = [f"P{i}" for i in range(2 * tables)]
    return start(client, group_id, proposed(client, group_id, players, tables))


def test_the_night_page_costs_the_same_statements_for_2_tables_and_5(app):
    client = phone(app)
    small, large = night_of(app, client, 2), night_of(app, client, 5)
    cold = statements(app, client, f"/nights/{small}"), statements(app, client, f"/nights/{large}")
    assert cold[0] == cold[1], cold
    warm = statements(app, client, f"/nights/{small}"), statements(app, client, f"/nights/{large}")
    assert warm[0] == warm[1], warm
    assert warm[0] < cold[0]  # 7 the first time (the games summed up), 3 again: membership, night, group


@pytest.fixture
def dev_server(app_config):
    app = create_app({**app_config, "LIVE_HEARTBEAT_SECONDS": 1})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    app.extensions["feed"].close()
    server.shutdown()
    thread.join(timeout=10)
    app.extensions["database"].dispose()


def test_the_night_stream_hears_every_table_and_a_turn_started_elsewhere(dev_server):
    app, url = dev_server
    groups, nights, games = app.extensions["groups"], app.extensions["nights"], app.extensions["games"]
    group_id, _ = groups.create("Mardi")
    night_id, _ = nights.start(group_id, "Soirée", "classique", None, 1, [["Ana", "Bob"], ["Chloé", "Dan"]], "k")
    state = nights.state(night_id)
    watch = groups.group(group_id).watch_id
    stream = open_stream(url, f"/w/{watch}/nights/{night_id}/events?since={state.stamp}", {"Accept-Language": "en"})
    assert stream.status == 200
    second = state.current[1].game_id
    games.record_manche(second, MancheEntry("Chloé", {"Dan": ["3C"]}))
    said = stream.events_until("said", timeout=10)
    assert [e.event for e in said][-2:] == ["tables", "said"]
    assert said[-1].data.startswith("Table 2: ")
    nights.next_round(nights.state(night_id).night, 2, [["Ana", "Chloé"], ["Bob", "Dan"]])
    assert stream.events_until("turn", timeout=10)[-1].data == "2"  # heard at its next look
    third = nights.state(night_id).current[0].game_id
    games.record_manche(third, MancheEntry("Ana", {"Chloé": ["3C"]}))
    assert stream.events_until("said", timeout=10)[-1].data.startswith("Table 1: ")
    stream.close()
    stale = open_stream(url, f"/w/{watch}/nights/{night_id}/events?since=old")
    # a state it does not show: told the one it should, at once
    assert stale.events_until("tables", timeout=5)[-1].data == str(nights.state(night_id).stamp)
    stale.close()


def test_the_night_pages_load_within_the_page_budget(app, night):
    client, group_id, night_id, _data = night
    for path in (f"/nights/{night_id}", f"/groups/{group_id}/nights"):
        total, _assets = weight(client, path)
        assert total <= BUDGET, (path, total)


def test_a_refused_seating_comes_back_as_it_was_sent(app):
    client = phone(app)
    group_id = make_group(client)
    data = {**proposed(client, group_id), "name": ""}
    response = client.post(f"/groups/{group_id}/nights", data=data)
    assert response.status_code == 422
    again = seating_form(response.get_data(as_text=True))
    assert tables_of(again) == tables_of(data) and again["nonce"] == data["nonce"]

"""A club night's byes, its players who leave, and its ranking per table played, on the pages and
in the API: a turn whose tables cannot seat everyone seats the ones over out in turn (shown on the
seating and counted in the ranking); the organiser marks a player gone (and back), who is seated no
more and keeps the tables they played; the night is ranked by total or per table played, and its
podium, sheet and CSV follow. Bad input is a clear 422.

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0, every
other player their hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20); the lowest total wins the table.
Les huit seats 2 to 4 a table.
"""

from __future__ import annotations

import csv
import io
import re

from models.services.games import MancheEntry
from tests.e2e.test_groups import cells, join_link, make_group, page, phone
from tests.e2e.test_nights import encode, seating_form, start

NINE = ["Ana", "Bob", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo", "Inès"]


def sitting_out(text: str) -> list[str]:
    """The names the page's seating has sitting the turn out."""
    return re.findall(r'<p class="seat" data-bye="([^"]+)">', text)


def test_nine_at_two_tables_of_four_sit_out_one_each_turn_on_the_pages(app):
    ana = phone(app)
    group_id = make_group(ana)
    query = {"name": "Jeudi", "variant": "les-huit", "end": "rounds", "rounds": "1", "players": NINE,
             "tables": "2", "seed": "3"}  # fmt: skip
    proposal = page(ana, f"/groups/{group_id}/nights/new?" + encode(query))
    first_out = sitting_out(proposal)
    assert len(first_out) == 1 and "Sitting this turn out" in proposal  # 9 players, 8 seats
    night_id = start(ana, group_id, seating_form(proposal))
    nights = app.extensions["nights"]
    state = nights.state(night_id)
    assert state.byes == ((1, first_out[0]),)
    assert sorted(
        len(nights.summaries(app.extensions["summaries"], state)[t.game_id].players) for t in state.current
    ) == [4, 4]

    night = page(ana, f"/nights/{night_id}")
    ranked = cells(night, "night-ranking")
    assert ranked[first_out[0]]["byes"] == "1 bye" and ranked[first_out[0]]["tables"] == "0 tables"
    assert sum("byes" not in line for line in ranked.values()) == 8
    # Turn 2: the one who sat out plays; another, who played turn 1, sits out.
    second_out = sitting_out(night)
    assert len(second_out) == 1 and second_out != first_out
    assert ana.post(f"/nights/{night_id}/rounds", data=seating_form(night)).status_code == 303
    assert nights.state(night_id).byes == ((1, first_out[0]), (2, second_out[0]))
    third = sitting_out(page(ana, f"/nights/{night_id}"))
    assert third and third[0] not in first_out + second_out  # nobody twice while another has not sat out


def night_with_byes(app):
    """Ana's phone, a member client's bearer header and a night of two turns with a bye each:
    turn 1: Ana 0 (out), Bob 3♣ 3; Dan 0 (out), Chloé K♦ 10; Eve sits out.
    turn 2: Ana 0 (out), Eve 3♣ 3; Bob 0 (out), Chloé 2♠ 20; Dan sits out."""
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    joined = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    bearer = {"Authorization": f"Bearer {joined.get_json()['member_token']}"}
    nights, games = app.extensions["nights"], app.extensions["games"]
    one = [["Ana", "Bob"], ["Chloé", "Dan"]]
    night_id, _ = nights.start(group_id, "Mardi", "classique", None, 1, one, "k", byes=["Eve"])
    first, second = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(first, MancheEntry("Ana", {"Bob": ["3C"]}))
    games.record_manche(second, MancheEntry("Dan", {"Chloé": ["KD"]}))
    body = {"turn": 2, "seating": [["Ana", "Eve"], ["Bob", "Chloé"]], "byes": ["Dan"]}
    assert client.post(f"/api/v1/nights/{night_id}/rounds", json=body, headers=bearer).status_code == 201
    first, second = (t.game_id for t in nights.state(night_id).current)
    games.record_manche(first, MancheEntry("Ana", {"Eve": ["3C"]}))
    games.record_manche(second, MancheEntry("Bob", {"Chloé": ["2S"]}))
    return ana, client, bearer, night_id


def test_the_ranking_per_table_played_is_fair_to_a_bye_and_the_podium_sheet_and_csv_follow(app):
    ana, client, bearer, night_id = night_with_byes(app)
    # Ana 2 wins, 0 points, 2 tables; Bob 1, 3, 2; Chloé 0, 30, 2; Dan 1, 0, 1 (a bye);
    # Eve 0, 3, 1 (a bye).
    # By total: Ana (2 wins) first; Dan (1 win, 0) second, Bob (1 win, 3) third; Eve 3, Chloé 30.
    night = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()
    assert night["ranking_method"] == "total"
    assert [(p["place"], p["name"], p["byes"]) for p in night["ranking"]] == [
        (1, "Ana", 0), (2, "Dan", 1), (3, "Bob", 0), (4, "Eve", 1), (5, "Chloé", 0),
    ]  # fmt: skip
    # Per table played, wins: Ana 2/2 = 1 and Dan 1/1 = 1, equal on points per table too (0): tied
    # first — Dan's bye no longer costs him a win; Bob 1/2 third; Eve 0 wins (3 a table) before
    # Chloé (15 a table).
    answer = client.put(f"/api/v1/nights/{night_id}/ranking", json={"method": "wins_per_table"}, headers=bearer)
    assert answer.status_code == 200 and answer.get_json()["ranking_method"] == "wins_per_table"
    night = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()
    assert [(p["place"], p["name"], p["tied"], p["wins_per_table"]) for p in night["ranking"]] == [
        (1, "Ana", True, 1.0), (1, "Dan", True, 1.0), (3, "Bob", False, 0.5), (4, "Eve", False, 0.0),
        (5, "Chloé", False, 0.0),
    ]  # fmt: skip
    assert [p["points_per_table"] for p in night["ranking"]] == [0.0, 0.0, 1.5, 3.0, 15.0]

    ana.post(f"/nights/{night_id}/end")
    podium = page(ana, f"/nights/{night_id}").split("data-podium>", 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'data-podium-place="(\d)"><span class="badge">\d</span> <strong>(\w+)', podium) == [
        ("1", "Ana"), ("1", "Dan"), ("3", "Bob"),
    ]  # fmt: skip
    assert "1 win per table" in podium and "0.5 wins per table" in podium
    sheet = page(ana, f"/nights/{night_id}/sheet")
    assert "Per table" in sheet and "Byes" in sheet and "the most tables won per table played" in sheet.lower()
    rows = list(csv.reader(io.StringIO(ana.get(f"/nights/{night_id}/results.csv").get_data(as_text=True)[1:])))
    assert rows[0] == ["Place", "Player", "Wins", "Points", "Tables", "Byes", "Left", "Wins per table"]
    assert rows[1:3] == [["1", "Ana", "2", "0", "2", "0", "", "1"], ["1", "Dan", "1", "0", "1", "1", "", "1"]]
    assert rows[3] == ["3", "Bob", "1", "3", "2", "0", "", "0.5"]

    # The page's form: by points per table (Ana and Dan 0 a table, equal on wins per table: tied).
    assert ana.post(f"/nights/{night_id}/ranking", data={"method": "points_per_table"}).status_code == 303
    text = page(ana, f"/nights/{night_id}")
    assert 'data-ranked-by="points_per_table"' in text and "1.5" in text


def test_a_player_leaves_is_seated_no_more_and_comes_back(app):
    ana, client, bearer, night_id = night_with_byes(app)
    assert ana.post(f"/nights/{night_id}/gone", data={"name": "bob"}).status_code == 303  # any spelling
    assert ana.post(f"/nights/{night_id}/gone", data={"name": "Bob"}).status_code == 303  # twice: no change
    text = page(ana, f"/nights/{night_id}")
    ranked = cells(text, "night-ranking")
    assert ranked["Bob"]["gone"] == "left" and ranked["Bob"]["tables"] == "2 tables"  # keeps what he played
    seated = seating_form(text)["players"]
    assert "Bob" not in seated and sorted(seated) == ["Ana", "Chloé", "Dan", "Eve"]
    night = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()
    assert [p["name"] for p in night["ranking"] if p["gone"]] == ["Bob"]
    assert "Bob" not in sum(night["proposal"]["seating"], []) and night["proposal"]["byes"] == []
    # Seated all the same, sent by the API: refused, said.
    body = {"turn": 3, "seating": [["Ana", "Bob"], ["Chloé", "Dan"]], "byes": ["Eve"]}
    refused = client.post(f"/api/v1/nights/{night_id}/rounds", json=body, headers=bearer)
    assert refused.status_code == 422
    assert (
        refused.get_json()["error"]["message"]
        == "Bob a quitté la soirée\u00a0: indiquez son retour avant de l'asseoir."
    )
    assert app.extensions["nights"].state(night_id).night.round == 2  # asked inside the write: nothing started
    # Back (the undo), through the API: seated again in the proposal.
    back = client.post(f"/api/v1/nights/{night_id}/gone", json={"name": "Bob", "gone": False}, headers=bearer)
    assert back.status_code == 200 and back.get_json() == {"name": "Bob", "gone": False}
    assert "Bob" in seating_form(page(ana, f"/nights/{night_id}"))["players"]


def test_marking_someone_who_is_not_at_the_night_is_a_clear_422(app):
    ana, client, bearer, night_id = night_with_byes(app)
    refused = ana.post(f"/nights/{night_id}/gone", data={"name": "Zoé"})
    assert refused.status_code == 422 and "“Zoé” is not playing in this night." in refused.get_data(as_text=True)
    for body, message in (
        ({"name": "Zoé"}, "«\u00a0Zoé\u00a0» ne joue pas dans cette soirée."),
        ({"name": "Bob", "gone": "yes"}, "Dites si le joueur est parti (true) ou revenu (false)."),
        ({"name": 7}, "«\u00a07\u00a0» ne joue pas dans cette soirée."),
    ):
        answer = client.post(f"/api/v1/nights/{night_id}/gone", json=body, headers=bearer)
        assert answer.status_code == 422 and answer.get_json()["error"]["message"] == message, body
    bad = client.put(f"/api/v1/nights/{night_id}/ranking", json={"method": "best"}, headers=bearer)
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "ranking"
    assert ana.post(f"/nights/{night_id}/ranking", data={"method": "best"}).status_code == 422
    for byes in ("Dan", [""], ["x" * 41]):
        body = {"turn": 3, "seating": [["Ana", "Bob"], ["Chloé", "Eve"]], "byes": byes}
        answer = client.post(f"/api/v1/nights/{night_id}/rounds", json=body, headers=bearer)
        assert answer.status_code == 422 and answer.get_json()["error"]["field"] == "byes", byes
    both = {"turn": 3, "seating": [["Ana", "Bob"], ["Chloé", "Dan"]], "byes": ["Dan", "Eve"]}
    answer = client.post(f"/api/v1/nights/{night_id}/rounds", json=both, headers=bearer)
    assert (
        answer.status_code == 422
        and answer.get_json()["error"]["message"] == "Dan est à une table et exempt à la fois."
    )
    assert phone(app).post(f"/nights/{night_id}/gone", data={"name": "Bob"}).status_code == 404  # not a member
    assert app.extensions["nights"].state(night_id).gone == ()  # nothing written


def test_an_ended_night_page_listens_for_its_reopening(app):
    """The next turn's place is on the page of an ended night too, fetched again when the stream
    says ``turn``: another phone reopening the night brings the form back without a reload."""
    ana, _client, _bearer, night_id = night_with_byes(app)
    ana.post(f"/nights/{night_id}/end")
    ended = page(ana, f"/nights/{night_id}")
    slot = re.search(r'<div id="next-turn-slot"[^>]*>', ended).group(0)
    assert 'hx-trigger="sse:turn"' in slot and 'hx-select="#next-turn-slot"' in slot
    assert 'id="next-turn"' not in ended
    ana.post(f"/nights/{night_id}/reopen")
    assert 'id="next-turn"' in page(ana, f"/nights/{night_id}").split('id="next-turn-slot"', 1)[1]

"""A club night ended (« Terminer la soirée »): its podium on its page, its result sheet to print
and its ranking as a CSV, no turn started after it (on the page and in the API, even from a page
drawn before the end), and its undo (« Rouvrir la soirée »).

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0, every
other player their hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20). A night ranks tables won first, then
the fewest points (the night page's own rule, said under its ranking).
"""

from __future__ import annotations

import csv
import io

import pytest

from tests.e2e.test_groups import page, phone
from tests.e2e.test_night_api import played_night
from tests.e2e.test_nights import seating_form


@pytest.fixture
def played(app):
    """Ana's phone, a member's API client and a night whose turn 1 is over (``test_night_api``):
    table 1 Ana goes out, Bob keeps 3♣ (3); table 2 Chloé goes out, Dan keeps K♦ 2♠ (30)."""
    ana, client, bearer, _group_id, night_id, _games = played_night(app)
    return ana, client, bearer, night_id


# Ana and Chloé won a table each with 0 points: tied first; Bob 3 points, third; Dan 30, fourth.
RANKING = [("1", "Ana", "1", "0", "1"), ("1", "Chloé", "1", "0", "1"), ("3", "Bob", "0", "3", "1"),
           ("4", "Dan", "0", "30", "1")]  # fmt: skip


def test_an_ended_night_shows_its_podium_and_starts_no_turn(app, played):
    ana, _client, _bearer, night_id = played
    before = page(ana, f"/nights/{night_id}")
    assert "End the night" in before and "data-podium" not in before
    turn_two = seating_form(before)  # the next turn's form, as a page drawn before the end holds it

    assert ana.post(f"/nights/{night_id}/end").status_code == 303
    assert ana.post(f"/nights/{night_id}/end").status_code == 303  # sent again: still ended, once
    text = page(ana, f"/nights/{night_id}")
    podium = text.split("data-podium>", 1)[1].split("</ol>", 1)[0]
    # The podium: places 1 to 3, the two tied first both there, Dan (fourth) not.
    assert [p for p in ("Ana", "Chloé", "Bob", "Dan") if f"<strong>{p}</strong>" in podium] == ["Ana", "Chloé", "Bob"]
    assert "1 table won · 0 points" in podium and "0 tables won · 3 points" in podium
    assert "Start turn 2" not in text and "End the night" not in text and "Reopen the night" in text

    refused = ana.post(f"/nights/{night_id}/rounds", data=turn_two)
    assert refused.status_code == 409
    assert "This night is over: reopen it to start another turn." in refused.get_data(as_text=True)
    assert len(app.extensions["nights"].state(night_id).tables) == 2  # no game of turn 2

    assert ana.post(f"/nights/{night_id}/reopen").status_code == 303
    again = page(ana, f"/nights/{night_id}")
    assert "data-podium" not in again and "End the night" in again
    assert ana.post(f"/nights/{night_id}/rounds", data=turn_two).status_code == 303
    assert len(app.extensions["nights"].state(night_id).tables) == 4


def test_the_result_sheet_and_the_csv_say_the_ranking(app, played):
    ana, client, bearer, night_id = played
    ana.post(f"/nights/{night_id}/end")
    sheet = page(ana, f"/nights/{night_id}/sheet")
    assert "Final ranking" in sheet and "Turn 1" in sheet and sheet.count("data-sheet-table=") == 2
    english = ana.get(f"/nights/{night_id}/results.csv")  # Ana's phone reads English
    french = client.get(f"/api/v1/nights/{night_id}/results.csv", headers=bearer)  # French first
    for answer, heading in ((english, ["Place", "Player", "Wins", "Points", "Tables", "Byes", "Left"]),
                            (french, ["Place", "Joueur", "Gagnées", "Points", "Tables", "Exemptions", "A quitté"])):  # fmt: skip
        assert answer.status_code == 200 and answer.mimetype == "text/csv"
        assert answer.headers["Content-Disposition"].startswith('attachment; filename="carte-night-')
        text = answer.get_data(as_text=True)
        assert text.startswith("\ufeff")
        assert list(csv.reader(io.StringIO(text[1:]))) == [heading, *([*line, "0", ""] for line in RANKING)]
    assert phone(app).get(f"/nights/{night_id}/results.csv").status_code == 404  # not a member
    assert phone(app).get(f"/nights/{night_id}/sheet").status_code == 404


def test_the_api_ends_and_reopens_a_night(app, played):
    _ana, client, bearer, night_id = played
    ended = client.post(f"/api/v1/nights/{night_id}/end", json={}, headers=bearer)
    assert ended.status_code == 200 and ended.get_json()["ended_at"]
    again = client.post(f"/api/v1/nights/{night_id}/end", json={}, headers=bearer).get_json()
    assert again["ended_at"] == ended.get_json()["ended_at"]  # the first end stands
    refused = client.post(
        f"/api/v1/nights/{night_id}/rounds", json={"turn": 2, "seating": [["Ana", "Bob"]]}, headers=bearer
    )
    assert refused.status_code == 409
    said = refused.get_json()["error"]["message"]  # the API speaks French first
    assert said == "Cette soirée est terminée\u00a0: rouvrez-la pour lancer un autre tour."
    reopened = client.delete(f"/api/v1/nights/{night_id}/end", headers=bearer)
    assert reopened.status_code == 200 and reopened.get_json()["ended_at"] is None
    assert client.post(f"/api/v1/nights/{night_id}/end", json={}).status_code == 404  # no member token

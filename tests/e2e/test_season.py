"""A club season (« le championnat des soirées »): three nights of a group, 8 to 11 players at 2 or
3 tables, each ended with its podium; the championship of their places, worked out by hand below,
is the same on the group's page, in its CSV and in the API. A night still going counts for nothing.

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0 and
wins the table, every other player their hand (SPEC §2: 3 to 7 and 9 their face value, K 10). A
night ranks tables won first, then the fewest points; equal on both share a place (1, 1, 3): the
night's own ranking, the one its podium shows (``club_night.ranking``).

Each night is data (``NIGHTS``): its players present and, turn by turn, each table as the player
who goes out and the cards the others keep. A turn seats whom it names: a player present who sits
out a turn, or one who leaves after a turn, is a night of the same shape with fewer names in that
turn.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

from sqlalchemy import update

from models.services.db import ClubNight
from models.services.games import MancheEntry
from tests.e2e.test_groups import cells, join_link, make_group, page, phone
from tests.e2e.test_sql_counts import statements

TODAY = datetime(2026, 11, 28, 12, tzinfo=UTC)

# (name, day of November, turns: each a list of tables, each (who goes out, {player: cards kept})).
NIGHTS = [
    # Night 1, 8 players at 2 tables of 4, two turns.
    # Turn 1: Ana out, Bob 3, Chloé 4, Dan 5; Élise out, Farid 6, Gus 7, Hana 9.
    # Turn 2: Bob out, Ana 3, Élise 10 (K), Farid 4; Hana out, Chloé 5, Dan 3, Gus 6.
    # Ana 1 win, 0 + 3 = 3; Bob 1 win, 3 + 0 = 3; Hana 1 win, 9 + 0 = 9; Élise 1 win, 0 + 10 = 10;
    # Dan 0 win, 5 + 3 = 8; Chloé 4 + 5 = 9; Farid 6 + 4 = 10; Gus 7 + 6 = 13.
    # Places: Ana 1, Bob 1 (tied), Hana 3, Élise 4, Dan 5, Chloé 6, Farid 7, Gus 8.
    ("Soirée 1", 6, [
        [("Ana", {"Bob": ["3C"], "Chloé": ["4C"], "Dan": ["5C"]}),
         ("Élise", {"Farid": ["6C"], "Gus": ["7C"], "Hana": ["9C"]})],
        [("Bob", {"Ana": ["3D"], "Élise": ["KC"], "Farid": ["4D"]}),
         ("Hana", {"Chloé": ["5D"], "Dan": ["3H"], "Gus": ["6D"]})],
    ]),
    # Night 2, 11 players at 3 tables (4, 4, 3), one turn.
    # Chloé out, Ana 7, Bob 5, Dan 4; Gus out, Élise 5, Farid 3, Hana 9; Ines out, Jules 4, Kim 10.
    # Places: Chloé, Gus, Ines 1 (tied, 1 win, 0 points); Farid 4 (3); Dan and Jules 5 (4, tied);
    # Bob and Élise 7 (5, tied); Ana 9 (7); Hana 10 (9); Kim 11 (10).
    ("Soirée 2", 13, [
        [("Chloé", {"Ana": ["7C"], "Bob": ["5H"], "Dan": ["4H"]}),
         ("Gus", {"Élise": ["5S"], "Farid": ["3S"], "Hana": ["9D"]}),
         ("Ines", {"Jules": ["4S"], "Kim": ["KD"]})],
    ]),
    # Night 3, 9 players (Gus and Hana away) at 3 tables of 3, one turn.
    # Ana out, Dan 6, Ines 3; Jules out, Bob 9, Élise 4; Kim out, Chloé 3, Farid 7.
    # Places: Ana, Jules, Kim 1 (tied); Chloé and Ines 4 (3, tied); Élise 6 (4); Dan 7 (6);
    # Farid 8 (7); Bob 9 (9).
    ("Soirée 3", 20, [
        [("Ana", {"Dan": ["6H"], "Ines": ["3C"]}),
         ("Jules", {"Bob": ["9C"], "Élise": ["4C"]}),
         ("Kim", {"Chloé": ["3C"], "Farid": ["7C"]})],
    ]),
]  # fmt: skip

# The championship, 10-8-6-5-4-3-2-1 (the default): 1st 10, 2nd 8, 3rd 6, 4th 5, 5th 4, 6th 3,
# 7th 2, 8th 1, further down or a night missed 0; tied players both score their shared place.
#   Ana    N1 1st 10 + N2 9th 0 + N3 1st 10 = 20
#   Chloé  N1 6th 3 + N2 1st 10 + N3 4th 5 = 18
#   Ines   missed 0 + N2 1st 10 + N3 4th 5 = 15
#   Jules  missed 0 + N2 5th 4 + N3 1st 10 = 14
#   Bob    N1 1st 10 + N2 7th 2 + N3 9th 0 = 12
#   Gus    N1 8th 1 + N2 1st 10 + missed 0 = 11
#   Dan    N1 5th 4 + N2 5th 4 + N3 7th 2 = 10
#   Élise  N1 4th 5 + N2 7th 2 + N3 6th 3 = 10
#   Kim    missed 0 + N2 11th 0 + N3 1st 10 = 10
#   Farid  N1 7th 2 + N2 4th 5 + N3 8th 1 = 8
#   Hana   N1 3rd 6 + N2 10th 0 + missed 0 = 6
# Dan, Élise and Kim share 7th; the next is 10th. (place, name, points, nights played)
SEASON = [(1, "Ana", 20, 3), (2, "Chloé", 18, 3), (3, "Ines", 15, 2), (4, "Jules", 14, 2), (5, "Bob", 12, 3),
          (6, "Gus", 11, 2), (7, "Dan", 10, 3), (7, "Élise", 10, 3), (7, "Kim", 10, 2), (10, "Farid", 8, 3),
          (11, "Hana", 6, 2)]  # fmt: skip
# Each player's place in nights 1, 2, 3 (None: missed), as the CSV and the API give them.
PLACES = {"Ana": (1, 9, 1), "Chloé": (6, 1, 4), "Ines": (None, 1, 4), "Jules": (None, 5, 1), "Bob": (1, 7, 9),
          "Gus": (8, 1, None), "Dan": (5, 5, 7), "Élise": (4, 7, 6), "Kim": (None, 11, 1), "Farid": (7, 4, 8),
          "Hana": (3, 10, None)}  # fmt: skip

# The best 2 nights only: Ana 10 + 10 = 20; Chloé 10 + 5 = 15; Ines 10 + 5 = 15; Jules 10 + 4 = 14;
# Bob 10 + 2 = 12; Gus 10 + 1 = 11; Kim 10 + 0 = 10 (her 11th place, 0, counted before a night
# missed); Dan 4 + 4 = 8; Élise 5 + 3 = 8; Farid 5 + 2 = 7; Hana 6 + 0 = 6.
BEST_TWO = [(1, "Ana", 20), (2, "Chloé", 15), (2, "Ines", 15), (4, "Jules", 14), (5, "Bob", 12), (6, "Gus", 11),
            (7, "Kim", 10), (8, "Dan", 8), (8, "Élise", 8), (10, "Farid", 7), (11, "Hana", 6)]  # fmt: skip

# The sum of places, fewer is better; a night missed counts as its players plus one (N1 9, N2 12,
# N3 10). Ana 1 + 9 + 1 = 11; Chloé 6 + 1 + 4 = 11; Ines 9 + 1 + 4 = 14;
# Jules 9 + 5 + 1 = 15; Bob 1 + 7 + 9 = 17; Dan 5 + 5 + 7 = 17; Élise 4 + 7 + 6 = 17;
# Farid 7 + 4 + 8 = 19; Gus 8 + 1 + 10 = 19; Kim 9 + 11 + 1 = 21; Hana 3 + 10 + 10 = 23.
PLACES_SUM = [(1, "Ana", 11), (1, "Chloé", 11), (3, "Ines", 14), (4, "Jules", 15), (5, "Bob", 17), (5, "Dan", 17),
              (5, "Élise", 17), (8, "Farid", 19), (8, "Gus", 19), (10, "Kim", 21), (11, "Hana", 23)]  # fmt: skip


def play(app, group_id: str, number: int, night) -> str:
    """One night of ``NIGHTS`` played turn by turn, started on its November day; its id."""
    name, day, turns = night
    service, games = app.extensions["nights"], app.extensions["games"]
    seating = lambda turn: [[out, *kept] for out, kept in turn]  # noqa: E731
    night_id, _ = service.start(group_id, name, "classique", None, 1, seating(turns[0]), f"night-{number}")
    for turn_number, turn in enumerate(turns, start=1):
        if turn_number > 1:
            assert service.next_round(service.state(night_id).night, turn_number, seating(turn))
        tables = service.state(night_id).current
        for table, (out, kept) in zip(tables, turn, strict=True):
            games.record_manche(table.game_id, MancheEntry(out, kept))
    with app.extensions["database"].writer.begin() as connection:
        connection.execute(update(ClubNight).where(ClubNight.id == night_id)
                           .values(created_at=datetime(2026, 11, day, 20, tzinfo=UTC)))  # fmt: skip
    return night_id


def season_rows(text: str) -> list[tuple]:
    return [
        (int(row["place"].strip()), name, int(row["total"]), row["nights"])
        for name, row in cells(text, "season").items()
    ]


def test_a_club_season_is_the_same_on_the_page_in_the_csv_and_in_the_api(app):
    app.extensions["clock"] = lambda: TODAY
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana, "Club du mardi")
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    joined = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablette"})
    bearer = {"Authorization": f"Bearer {joined.get_json()['member_token']}"}
    ids = [play(app, group_id, number, night) for number, night in enumerate(NIGHTS, start=1)]
    # A fourth night, played but not ended: its places are not final, it counts for nothing.
    going = play(app, group_id, 4, ("Soirée 4", 27, [[("Hana", {"Ana": ["KC"], "Bob": ["KD"]})]]))
    for night_id in ids[:2]:
        assert ana.post(f"/nights/{night_id}/end").status_code == 303
        podium = page(ana, f"/nights/{night_id}")
        assert "data-podium" in podium
    before = page(ana, f"/groups/{group_id}")  # kept per revision of the group
    assert statements(app, ana, f"/groups/{group_id}") == 1
    assert [row[1] for row in season_rows(before)].count("Kim") == 1  # night 2 only, so far
    assert ana.post(f"/nights/{ids[2]}/end").status_code == 303  # ending a night moves the group's page

    # The night's own ranking places them as worked out above (night 2: the podium's three tied).
    night_two = client.get(f"/api/v1/nights/{ids[1]}", headers=bearer).get_json()["ranking"]
    assert [(p["place"], p["name"]) for p in night_two][:4] == [(1, "Chloé"), (1, "Gus"), (1, "Ines"), (4, "Farid")]

    # The page.
    text = page(ana, f"/groups/{group_id}")
    assert "Club nights championship" in text
    assert season_rows(text) == [(place, name, points, str(played)) for place, name, points, played in SEASON]
    assert "3 nights: Soirée 1" in text and "Soirée 4" not in text
    assert "Players sharing a place in a night both score that place." in text

    # The CSV (Ana's phone reads English) and the API's (French first): the same table.
    csv_url = re.search(r'href="([^"]+)" download data-season-csv', text).group(1).replace("&amp;", "&")
    english = ana.get(csv_url)
    assert english.status_code == 200 and english.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(english.get_data(as_text=True)[1:])))
    assert rows[0][:5] == ["Place", "Player", "Points", "Nights played", "Nights counted"]
    assert [heading.split(" ", 1)[1] for heading in rows[0][5:]] == ["Soirée 1", "Soirée 2", "Soirée 3"]
    expected = [[str(place), name, str(points), str(played), "3", *("" if p is None else str(p) for p in PLACES[name])]
                for place, name, points, played in SEASON]  # fmt: skip
    assert rows[1:] == expected
    french = client.get(f"/api/v1/groups/{group_id}/season.csv", headers=bearer).get_data(as_text=True)
    assert list(csv.reader(io.StringIO(french[1:])))[0][:3] == ["Place", "Joueur", "Points"]
    assert list(csv.reader(io.StringIO(french[1:])))[1:] == expected

    # The API.
    season = client.get(f"/api/v1/groups/{group_id}/season", headers=bearer).get_json()
    assert (season["scale"], season["best"], season["lower_is_better"]) == ("10-8-6-5-4-3-2-1", None, False)
    assert [n["id"] for n in season["nights"]] == ids and [n["players"] for n in season["nights"]] == [8, 11, 9]
    assert [(line["place"], line["name"], line["total"], line["played"]) for line in season["lines"]] == SEASON
    assert {line["name"]: tuple(n["place"] for n in line["nights"]) for line in season["lines"]} == PLACES
    assert [line["tied"] for line in season["lines"]] == [False] * 6 + [True] * 3 + [False] * 2

    document = client.get("/api/v1/openapi.json").get_json()
    said = document["paths"]["/groups/{group_id}/season"]["get"]["responses"]["200"]["content"]["application/json"]
    schema = said["schema"]  # the answer holds what the document says it holds, and nothing else
    assert set(schema["required"]) == set(season) == set(schema["properties"])
    line_schema = schema["properties"]["lines"]["items"]
    assert set(line_schema["required"]) == set(season["lines"][0]) == set(line_schema["properties"])
    assert set(line_schema["properties"]["nights"]["items"]["required"]) == set(season["lines"][0]["nights"][0])
    assert "/groups/{group_id}/season.csv" in document["paths"]

    # The best two nights, and the sum of places: the page and the API agree.
    best = client.get(f"/api/v1/groups/{group_id}/season?best=2", headers=bearer).get_json()
    assert [(line["place"], line["name"], line["total"]) for line in best["lines"]] == BEST_TWO
    kim = next(line for line in best["lines"] if line["name"] == "Kim")
    assert [n["counted"] for n in kim["nights"]] == [False, True, True]
    shown = season_rows(page(ana, f"/groups/{group_id}?best=2"))
    assert [row[:3] for row in shown] == BEST_TWO and shown[0][3] == "2 of 3"
    summed = client.get(f"/api/v1/groups/{group_id}/season?scale=places", headers=bearer).get_json()
    assert [(line["place"], line["name"], line["total"]) for line in summed["lines"]] == PLACES_SUM
    assert [row[:3] for row in season_rows(page(ana, f"/groups/{group_id}?scale=10-8&own=places"))] == PLACES_SUM

    # Asked wrong: said, never a 500; a phone that is not a member finds nothing.
    wrong = ana.get(f"/groups/{group_id}?own=8-10")
    assert wrong.status_code == 422 and "10-8-6-5-4-3-2-1" in wrong.get_data(as_text=True)
    refused = client.get(f"/api/v1/groups/{group_id}/season?best=0", headers=bearer)
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "best"
    assert phone(app).get(f"/groups/{group_id}/season.csv").status_code == 404
    assert client.get(f"/api/v1/groups/{group_id}/season").status_code == 404
    assert going not in [n["id"] for n in season["nights"]]

"""A club season (« le championnat des soirées »): three nights of a group, 8 to 11 players at 2 or
3 tables, each ended with its podium — one seated by « avoiding opponents met already » (fresh),
one with a player leaving after a turn, one with a player sitting a turn out (a bye) each turn;
the championship of their places, worked out by hand below, is the same on the group's page, in
its CSV and in the API. A night still going counts for nothing.

Classique in penalty mode, one manche a game (``rounds=1``; 2 to 5 players a table): the player
who goes out scores 0 and wins the table, every other player their hand (SPEC §2: 3 to 7 and 9
their face value, K 10). The night's own ranking, the one its podium shows (``club_night.ranking``,
by total, the default): "by wins first (most), then by points (fewest when points count against),
over every table a player sat at; players equal on both are tied (« ex æquo ») and share a place,
the next place skipping as many (1, 1, 3)". "A bye … adds no win, no point and no table …; ranked
by total, it leaves them a table short". "A player who *left* the night keeps every table they
played and is seated no more." Tied players are listed by name.

Each night is data (``NIGHTS``): its players present and, turn by turn, each table as the player
who goes out and the cards the others keep; then who sits each turn out (``byes``, given to
``NightService.start`` and ``next_round`` as the page and the API give them), who leaves after
a turn (``NightService.leave``, the page's « Départ »), and which turns are seated as the API
proposes them (``asked``: the proposal's tables and byes must be the turn's).
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from itertools import combinations
from typing import NamedTuple

from sqlalchemy import update

from models.services.db import ClubNight
from models.services.games import MancheEntry
from tests.e2e.test_groups import cells, join_link, make_group, page, phone
from tests.e2e.test_sql_counts import statements

TODAY = datetime(2026, 11, 28, 12, tzinfo=UTC)

# (name, day of November, turns: each a list of tables, each (who goes out, {player: cards kept}),
#  {"byes": {turn: [names]}, "gone": {after turn: name}, "asked": {turn: the API's query}}).
NIGHTS = [
    # Night 1, 8 players at 2 tables of 4, two turns; turn 2 seated « avoiding opponents met ».
    # Turn 1: Ana out, Bob 3, Chloé 4, Dan 5; Élise out, Farid 6, Gus 7, Hana 9.
    # Its ranking: Ana and Élise 1 win, 0 (Ana first by name), Bob 3, Chloé 4, Dan 5, Farid 6,
    # Gus 7, Hana 9. Spread over 2 tables (a snake, 1 2 2 1 1 2 2 1) it would seat Ana, Chloé,
    # Dan, Hana / Élise, Bob, Farid, Gus: 6 pairs who met in turn 1 (Ana–Chloé, Ana–Dan, Chloé–Dan,
    # Élise–Farid, Élise–Gus, Farid–Gus). Fresh: "no pair meets twice while another seating avoids
    # it" — two of each turn-1 table at each table is the fewest, 4 pairs (1 + 1 a table); its search
    # places each player in the ranking's order where they add the fewest repeats, the emptier
    # table first on a draw: Ana T1, Élise T2 (0, emptier), Bob T2 (0), Chloé T1 (1 either way,
    # emptier), Dan T2 (1 against 2), Farid T1 (0), Gus T1 (1 either way, T1 first), Hana T2:
    # Ana, Chloé, Farid, Gus / Élise, Bob, Dan, Hana (Ana–Chloé, Farid–Gus, Bob–Dan, Élise–Hana).
    # Turn 2: Chloé out, Ana 3, Farid 4, Gus 6; Dan out, Élise 10 (K), Bob 5, Hana 3.
    # Ana 1 win, 0 + 3 = 3; Chloé 1, 4 + 0 = 4; Dan 1, 5 + 0 = 5; Élise 1, 0 + 10 = 10;
    # Bob 0, 3 + 5 = 8; Farid 6 + 4 = 10; Hana 9 + 3 = 12; Gus 7 + 6 = 13.
    # Places: Ana 1, Chloé 2, Dan 3, Élise 4, Bob 5, Farid 6, Hana 7, Gus 8.
    ("Soirée 1", 6, [
        [("Ana", {"Bob": ["3C"], "Chloé": ["4C"], "Dan": ["5C"]}),
         ("Élise", {"Farid": ["6C"], "Gus": ["7C"], "Hana": ["9C"]})],
        [("Chloé", {"Ana": ["3D"], "Farid": ["4D"], "Gus": ["6D"]}),
         ("Dan", {"Élise": ["KC"], "Bob": ["5H"], "Hana": ["3H"]})],
    ], {"asked": {2: "method=fresh&tables=2"}}),
    # Night 2, 11 players at 3 tables (4, 4, 3), then Kim leaves: 10 at 2 tables of 5.
    # Turn 1: Chloé out, Ana 7, Bob 5, Dan 4; Gus out, Élise 5, Farid 3, Hana 9; Ines out,
    # Jules 4, Kim 10 (K). Kim leaves.
    # Turn 2: Ana out, Bob 3, Chloé 4, Dan 6, Élise 3; Farid out, Gus 4, Hana 5, Ines 4, Jules 3.
    # Farid 1 win, 3 + 0 = 3; Chloé, Gus, Ines 1 win, 0 + 4 = 4; Ana 1 win, 7 + 0 = 7;
    # Jules 0, 4 + 3 = 7; Bob 5 + 3 = 8; Élise 5 + 3 = 8; Dan 4 + 6 = 10; Kim 10, one table
    # (left, Kim keeps it: tied with Dan); Hana 9 + 5 = 14.
    # Places: Farid 1; Chloé, Gus, Ines 2 (tied); Ana 5; Jules 6; Bob and Élise 7; Dan and Kim 9;
    # Hana 11.
    ("Soirée 2", 13, [
        [("Chloé", {"Ana": ["7C"], "Bob": ["5H"], "Dan": ["4H"]}),
         ("Gus", {"Élise": ["5S"], "Farid": ["3S"], "Hana": ["9D"]}),
         ("Ines", {"Jules": ["4S"], "Kim": ["KD"]})],
        [("Ana", {"Bob": ["3C"], "Chloé": ["4C"], "Dan": ["6C"], "Élise": ["3D"]}),
         ("Farid", {"Gus": ["4D"], "Hana": ["5C"], "Ines": ["4H"], "Jules": ["3H"]})],
    ], {"gone": {1: "Kim"}}),
    # Night 3, 11 players at 2 tables of 5 (10 seats): one sits each turn out. Turn 1: Hana.
    # Ana out, Dan 6, Ines 3, Bob 9, Élise 4; Kim out, Chloé 3, Farid 7, Jules 5, Gus 10 (K).
    # Its ranking: Ana and Kim 1 win, 0; Chloé and Ines 3; Élise 4; Jules 5; Dan 6; Farid 7;
    # Bob 9; Gus 10; Hana, no table yet ("ranked after every player who did").
    # Turn 2 as the API proposes it (spread, 2 tables): who sits out is "the fewest byes so far
    # first …; among those, the most tables played, then the last in the order given": Gus (Hana
    # sat out already). The other ten in a snake: Ana, Ines, Élise, Farid, Bob / Kim, Chloé,
    # Jules, Dan, Hana.
    # Turn 2: Ines out, Ana 4, Élise 7, Farid 3, Bob 6; Hana out, Kim 6, Chloé 3, Jules 5, Dan 5.
    # Hana 1 win, 0 (one table: her bye adds nothing); Ines 1 win, 3 + 0 = 3; Ana 1 win, 0 + 4 = 4;
    # Kim 1 win, 0 + 6 = 6; Chloé 0, 3 + 3 = 6; Farid 7 + 3 = 10; Gus 10 (one table, a bye);
    # Jules 5 + 5 = 10; Dan 6 + 5 = 11; Élise 4 + 7 = 11; Bob 9 + 6 = 15.
    # Places: Hana 1, Ines 2, Ana 3, Kim 4, Chloé 5; Farid, Gus, Jules 6 (tied); Dan and Élise 9;
    # Bob 11.
    ("Soirée 3", 20, [
        [("Ana", {"Dan": ["6H"], "Ines": ["3C"], "Bob": ["9C"], "Élise": ["4C"]}),
         ("Kim", {"Chloé": ["3S"], "Farid": ["7C"], "Jules": ["5C"], "Gus": ["KD"]})],
        [("Ines", {"Ana": ["4H"], "Élise": ["7H"], "Farid": ["3H"], "Bob": ["6S"]}),
         ("Hana", {"Kim": ["6C"], "Chloé": ["3D"], "Jules": ["5D"], "Dan": ["5H"]})],
    ], {"byes": {1: ["Hana"], 2: ["Gus"]}, "asked": {2: "tables=2"}}),
]  # fmt: skip

# The championship, 10-8-6-5-4-3-2-1 (the default): 1st 10, 2nd 8, 3rd 6, 4th 5, 5th 4, 6th 3,
# 7th 2, 8th 1, further down or a night missed 0; "players sharing a place in a night … both
# score that shared place"; equal totals share a place, the next skipping as many.
#   Ana    N1 1st 10 + N2 5th 4 + N3 3rd 6 = 20
#   Chloé  N1 2nd 8 + N2 2nd 8 + N3 5th 4 = 20
#   Farid  N1 6th 3 + N2 1st 10 + N3 6th 3 = 16
#   Ines   missed 0 + N2 2nd 8 + N3 2nd 8 = 16
#   Gus    N1 8th 1 + N2 2nd 8 + N3 6th 3 = 12
#   Hana   N1 7th 2 + N2 11th 0 + N3 1st 10 = 12
#   Élise  N1 4th 5 + N2 7th 2 + N3 9th 0 = 7
#   Bob    N1 5th 4 + N2 7th 2 + N3 11th 0 = 6
#   Dan    N1 3rd 6 + N2 9th 0 + N3 9th 0 = 6
#   Jules  missed 0 + N2 6th 3 + N3 6th 3 = 6
#   Kim    missed 0 + N2 9th 0 + N3 4th 5 = 5
# (place, name, points, nights played); tied players listed by name.
SEASON = [(1, "Ana", 20, 3), (1, "Chloé", 20, 3), (3, "Farid", 16, 3), (3, "Ines", 16, 2), (5, "Gus", 12, 3),
          (5, "Hana", 12, 3), (7, "Élise", 7, 3), (8, "Bob", 6, 3), (8, "Dan", 6, 3), (8, "Jules", 6, 2),
          (11, "Kim", 5, 2)]  # fmt: skip
# Each player's place in nights 1, 2, 3 (None: missed), as the CSV and the API give them.
PLACES = {"Ana": (1, 5, 3), "Chloé": (2, 2, 5), "Farid": (6, 1, 6), "Ines": (None, 2, 2), "Gus": (8, 2, 6),
          "Hana": (7, 11, 1), "Élise": (4, 7, 9), "Bob": (5, 7, 11), "Dan": (3, 9, 9), "Jules": (None, 6, 6),
          "Kim": (None, 9, 4)}  # fmt: skip

# The best 2 nights only ("among equal ones a night played before a night missed, then the
# earliest"): Ana 10 + 6 = 16; Chloé 8 + 8 = 16; Ines 8 + 8 = 16; Farid 10 + 3 = 13; Hana 10 + 2 =
# 12; Gus 8 + 3 = 11; Élise 5 + 2 = 7; Bob 4 + 2 = 6; Dan 6 + 0 = 6; Jules 3 + 3 = 6; Kim 5 + 0 = 5
# (Kim's 9th place, 0, counted before the night missed).
BEST_TWO = [(1, "Ana", 16), (1, "Chloé", 16), (1, "Ines", 16), (4, "Farid", 13), (5, "Hana", 12), (6, "Gus", 11),
            (7, "Élise", 7), (8, "Bob", 6), (8, "Dan", 6), (8, "Jules", 6), (11, "Kim", 5)]  # fmt: skip

# The sum of places, fewer is better; a night missed counts as its players plus one (N1 9, N2 12,
# N3 12). Ana 1 + 5 + 3 = 9; Chloé 2 + 2 + 5 = 9; Farid 6 + 1 + 6 = 13; Ines 9 + 2 + 2 = 13;
# Gus 8 + 2 + 6 = 16; Hana 7 + 11 + 1 = 19; Élise 4 + 7 + 9 = 20; Dan 3 + 9 + 9 = 21;
# Jules 9 + 6 + 6 = 21; Kim 9 + 9 + 4 = 22; Bob 5 + 7 + 11 = 23.
PLACES_SUM = [(1, "Ana", 9), (1, "Chloé", 9), (3, "Farid", 13), (3, "Ines", 13), (5, "Gus", 16), (6, "Hana", 19),
              (7, "Élise", 20), (8, "Dan", 21), (8, "Jules", 21), (10, "Kim", 22), (11, "Bob", 23)]  # fmt: skip


def play(app, group_id: str, number: int, night, propose=None) -> str:
    """One night of ``NIGHTS`` played turn by turn, started on its November day; its id.
    ``propose(night_id, query)``: the API's proposal for the next turn, checked against the turn
    where the night's data asks it."""
    name, day, turns, *more = night
    extra = more[0] if more else {}
    byes, gone, asked = extra.get("byes", {}), extra.get("gone", {}), extra.get("asked", {})
    service, games = app.extensions["nights"], app.extensions["games"]
    seating = lambda turn: [[out, *kept] for out, kept in turn]  # noqa: E731
    night_id, _ = service.start(
        group_id, name, "classique", None, 1, seating(turns[0]), f"night-{number}", byes=byes.get(1, [])
    )
    for turn_number, turn in enumerate(turns, start=1):
        if turn_number in asked and propose is not None:
            proposal = propose(night_id, asked[turn_number])
            assert [set(table) for table in proposal["seating"]] == [set(table) for table in seating(turn)]
            assert proposal["byes"] == byes.get(turn_number, [])
        if turn_number > 1:
            state = service.state(night_id)
            assert service.next_round(state.night, turn_number, seating(turn), byes=byes.get(turn_number, []))
        tables = service.state(night_id).current
        for table, (out, kept) in zip(tables, turn, strict=True):
            games.record_manche(table.game_id, MancheEntry(out, kept))
        if turn_number in gone:
            assert service.leave(night_id, gone[turn_number]) == gone[turn_number]
    with app.extensions["database"].writer.begin() as connection:
        connection.execute(update(ClubNight).where(ClubNight.id == night_id)
                           .values(created_at=datetime(2026, 11, day, 20, tzinfo=UTC)))  # fmt: skip
    return night_id


def repeats(seating, turn) -> int:
    """How many pairs seated together in ``seating`` shared a table of ``turn`` already."""
    met = {frozenset(pair) for out, kept in turn for pair in combinations([out, *kept], 2)}
    return sum(frozenset(pair) in met for table in seating for pair in combinations(table, 2))


def podium(ana, night_id: str) -> list[tuple[str, str]]:
    """The places and names the ended night's podium shows."""
    shown = page(ana, f"/nights/{night_id}").split("data-podium>", 1)[1].split("</ol>", 1)[0]
    return re.findall(r'data-podium-place="(\d)"><span class="badge">\d</span> <strong>(\w+)', shown)


def season_rows(text: str) -> list[tuple]:
    return [
        (int(row["place"].strip()), name, int(row["total"]), row["nights"])
        for name, row in cells(text, "season").items()
    ]


class Club(NamedTuple):
    """The season played: the owner's phone, a program's client and its bearer token, the group,
    the three nights ended (``ids``), the fourth still going, the proposals the API made."""

    ana: object
    client: object
    bearer: dict
    group_id: str
    ids: list
    going: str
    proposals: dict


def played_season(app) -> Club:
    """The three nights of ``NIGHTS`` played (the first two ended here, the third in the test) and
    a fourth played but never ended."""
    app.extensions["clock"] = lambda: TODAY
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana, "Club du mardi")
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    joined = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablette"})
    bearer = {"Authorization": f"Bearer {joined.get_json()['member_token']}"}
    proposals: dict = {}

    def propose(night_id: str, query: str) -> dict:
        proposals[night_id, query] = client.get(f"/api/v1/nights/{night_id}?{query}", headers=bearer).get_json()
        return proposals[night_id, query]["proposal"]

    ids = [play(app, group_id, number, night, propose) for number, night in enumerate(NIGHTS, start=1)]
    # A fourth night, played but not ended: its places are not final, it counts for nothing.
    going = play(app, group_id, 4, ("Soirée 4", 27, [[("Hana", {"Ana": ["KC"], "Bob": ["KD"]})]]))

    return Club(ana, client, bearer, group_id, ids, going, proposals)


def test_a_club_season_is_the_same_on_the_page_in_the_csv_and_in_the_api(app):
    club = played_season(app)
    ana, client, bearer, group_id, ids, going, proposals = club
    # Night 1's second turn, as the fresh seating gave it (the same tables, in this order, checked
    # in ``play``): 4 pairs who met in turn 1 against spread's 6.
    fresh = proposals[ids[0], "method=fresh&tables=2"]["proposal"]
    assert fresh["method"] == "fresh"
    assert fresh["seating"] == [["Ana", "Chloé", "Farid", "Gus"], ["Élise", "Bob", "Dan", "Hana"]]
    assert repeats(fresh["seating"], NIGHTS[0][2][0]) == 4
    assert repeats([["Ana", "Chloé", "Dan", "Hana"], ["Élise", "Bob", "Farid", "Gus"]], NIGHTS[0][2][0]) == 6
    # Night 3's second turn: Gus sits it out, as proposed (checked in ``play``); Hana sat turn 1 out.
    assert proposals[ids[2], "tables=2"]["proposal"]["byes"] == ["Gus"]

    for night_id in ids[:2]:
        assert ana.post(f"/nights/{night_id}/end").status_code == 303
    assert podium(ana, ids[0]) == [("1", "Ana"), ("2", "Chloé"), ("3", "Dan")]
    assert podium(ana, ids[1]) == [("1", "Farid"), ("2", "Chloé"), ("2", "Gus"), ("2", "Ines")]
    before = page(ana, f"/groups/{group_id}")  # kept per revision of the group
    assert statements(app, ana, f"/groups/{group_id}") == 1
    assert [row[1] for row in season_rows(before)].count("Kim") == 1  # night 2 only, so far
    assert ana.post(f"/nights/{ids[2]}/end").status_code == 303  # ending a night moves the group's page
    assert podium(ana, ids[2]) == [("1", "Hana"), ("2", "Ines"), ("3", "Ana")]

    # The nights' own rankings place them as worked out above: night 2's leaver keeps the table played,
    # night 3's byes are counted, one each.
    def ranking(night_id: str) -> list[tuple]:
        night = client.get(f"/api/v1/nights/{night_id}", headers=bearer).get_json()
        return [(p["place"], p["name"], p["wins"], p["points"], p["tables"], p["byes"], p["gone"])
                for p in night["ranking"]]  # fmt: skip

    assert ranking(ids[0]) == [
        (1, "Ana", 1, 3, 2, 0, False), (2, "Chloé", 1, 4, 2, 0, False), (3, "Dan", 1, 5, 2, 0, False),
        (4, "Élise", 1, 10, 2, 0, False), (5, "Bob", 0, 8, 2, 0, False), (6, "Farid", 0, 10, 2, 0, False),
        (7, "Hana", 0, 12, 2, 0, False), (8, "Gus", 0, 13, 2, 0, False),
    ]  # fmt: skip
    assert ranking(ids[1]) == [
        (1, "Farid", 1, 3, 2, 0, False), (2, "Chloé", 1, 4, 2, 0, False), (2, "Gus", 1, 4, 2, 0, False),
        (2, "Ines", 1, 4, 2, 0, False), (5, "Ana", 1, 7, 2, 0, False), (6, "Jules", 0, 7, 2, 0, False),
        (7, "Bob", 0, 8, 2, 0, False), (7, "Élise", 0, 8, 2, 0, False), (9, "Dan", 0, 10, 2, 0, False),
        (9, "Kim", 0, 10, 1, 0, True), (11, "Hana", 0, 14, 2, 0, False),
    ]  # fmt: skip
    assert ranking(ids[2]) == [
        (1, "Hana", 1, 0, 1, 1, False), (2, "Ines", 1, 3, 2, 0, False), (3, "Ana", 1, 4, 2, 0, False),
        (4, "Kim", 1, 6, 2, 0, False), (5, "Chloé", 0, 6, 2, 0, False), (6, "Farid", 0, 10, 2, 0, False),
        (6, "Gus", 0, 10, 1, 1, False), (6, "Jules", 0, 10, 2, 0, False), (9, "Dan", 0, 11, 2, 0, False),
        (9, "Élise", 0, 11, 2, 0, False), (11, "Bob", 0, 15, 2, 0, False),
    ]  # fmt: skip

    season_on_the_page_and_in_the_csv(club)
    season_in_the_api(club)
    other_scales_and_refusals(app, club)


def season_on_the_page_and_in_the_csv(club: Club) -> None:
    ana, client, bearer, group_id = club.ana, club.client, club.bearer, club.group_id
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


def season_in_the_api(club: Club) -> None:
    client, bearer, group_id, ids = club.client, club.bearer, club.group_id, club.ids
    # The API.
    season = client.get(f"/api/v1/groups/{group_id}/season", headers=bearer).get_json()
    assert (season["scale"], season["best"], season["lower_is_better"]) == ("10-8-6-5-4-3-2-1", None, False)
    assert club.going not in [n["id"] for n in season["nights"]]  # not ended: it counts for nothing
    assert [n["id"] for n in season["nights"]] == ids and [n["players"] for n in season["nights"]] == [8, 11, 11]
    assert [(line["place"], line["name"], line["total"], line["played"]) for line in season["lines"]] == SEASON
    assert {line["name"]: tuple(n["place"] for n in line["nights"]) for line in season["lines"]} == PLACES
    assert [line["tied"] for line in season["lines"]] == [True] * 6 + [False] + [True] * 3 + [False]

    document = client.get("/api/v1/openapi.json").get_json()
    said = document["paths"]["/groups/{group_id}/season"]["get"]["responses"]["200"]["content"]["application/json"]
    schema = said["schema"]  # the answer holds what the document says it holds, and nothing else
    assert set(schema["required"]) == set(season) == set(schema["properties"])
    line_schema = schema["properties"]["lines"]["items"]
    assert set(line_schema["required"]) == set(season["lines"][0]) == set(line_schema["properties"])
    assert set(line_schema["properties"]["nights"]["items"]["required"]) == set(season["lines"][0]["nights"][0])
    assert "/groups/{group_id}/season.csv" in document["paths"]


def other_scales_and_refusals(app, club: Club) -> None:
    ana, client, bearer, group_id = club.ana, club.client, club.bearer, club.group_id
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

"""The drift test (issue 25 item 5): the phone's provisional scorer (static/js/score.js, an
interpreter of the game page's offline copy: ``models/services/game_json.py`` ``scorer_fields``,
the rules as data from ``models/core/scorer_data.py``) agrees with the core's
``models.core.scoring.play_through`` — the same points for every manche, the same dealers, totals,
standing and next dealer — on games made up by hypothesis for each of the six built-in variants
and a house variant (its own table with a suit exception, its own mode): every mode, a target or
a number of manches, teams, blocked manches, "the loser deals", games played past their end,
players joining (at any seat of the table) and leaving, teams named as a script could misread
("12" would come first among an object's keys).

Hands are entered as the keypad enters them (a count per key) or as typed totals: the phone values
the keys by the document's points, the core values the same cards by its scoring table.
It runs in Chromium, fed the document the game page embeds."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.core import house_rules, rules, scoring
from models.core.cards import JOKER, Card, parse_card
from models.core.variant import MODES, resolve
from models.services.game_json import scorer_fields, seats_fields

CATALOG = rules.catalog()
# Names a script could mistake for something else: a number, a property every object has.
NAMES = ["Ana", "Bob", "12", "constructor", "Éloïse", "Fred", "Gus", "__proto__", "Inès", "Jo"]
TEAM_NAMES = ["7", "__proto__", "constructor", "Nous", "Eux", "12"]
HOUSE = house_rules.compile_document(
    house_rules.normalize(
        {
            "base": "classique",
            "name": "Maison",
            "scoring": {
                "mode": "winner",
                "target": 300,
                "table": {
                    "ranks": {"JK": 40, "8": 30, "A": 11, "2": 2, "K": 4, "Q": 3, "J": 2}
                    | {str(n): n for n in (3, 4, 5, 6, 7, 9, 10)},
                    "cards": {"QS": 25},
                },
            },
        }
    ),
    "h0000000000000abc",
)
VARIANTS = {**CATALOG.variants, "house": HOUSE}


def card_of(token: str) -> Card:
    return Card(JOKER) if token == JOKER else parse_card(token)


@st.composite
def rulesets(draw, variant_id):
    variant = VARIANTS[variant_id]
    options = {}
    for option in variant.options:
        if option.sets == "loser_deals":
            options[option.id] = draw(st.booleans())
        if option.sets == "partners":
            options[option.id] = draw(st.booleans())
    mode = draw(st.sampled_from(list(MODES)))
    by_rounds = draw(st.booleans())
    rounds = draw(st.integers(1, 8)) if by_rounds else None
    target = None if by_rounds else draw(st.integers(1, 150))
    return resolve(CATALOG.tables, variant, options, None, mode, target, rounds)


@st.composite
def team_layouts(draw, ruleset, players):
    """The default pairing, or teams named and paired by the players: listed, as a stored game
    lists them (``game_view.build_view``), in the order of their first member's seat."""
    teams = scoring.team_layout(ruleset, players, None)
    if teams is None or not draw(st.booleans()):
        return teams
    partner = draw(st.sampled_from(players[1:]))
    first, second = draw(st.lists(st.sampled_from(TEAM_NAMES), min_size=2, max_size=2, unique=True))
    return scoring.team_layout(
        ruleset, players, {first: [players[0], partner], second: [p for p in players[1:] if p != partner]}
    )


def document(ruleset, players, teams, first_dealer, roster=None, order=None, manches=()) -> dict:
    """The game page's offline copy of such a game."""
    table_order = [players[seat] for seat in scoring.ring(len(players), order)]
    return scorer_fields(ruleset, first_dealer, seats_fields(players, teams, roster, table_order), manches)


@st.composite
def seats(draw, players, teams, manches):
    """Who joined or left, and where each sits (a newcomer may sit anywhere round the table)."""
    roster, order = {}, None
    if teams is None and len(players) > 2 and draw(st.booleans()):
        for name in players[1:]:  # the first player stays all along
            if draw(st.booleans()):
                joined = draw(st.integers(0, manches))
                left = draw(st.none() | st.integers(joined, manches + 1))
                roster[name] = scoring.Seat(joined, left, draw(st.integers(0, 200)) if joined else 0)
    if draw(st.booleans()):
        order = draw(st.permutations(range(len(players))))
    return roster, order


@st.composite
def hands(draw, ruleset, at_table, side_of, winner):
    """Each hand as entered: {"counts": {token: n}} on the keypad or {"typed": total}; the core's value."""
    keys = [key.token for key in scoring.keypad(ruleset)]
    entered, values = {}, {}
    for name in at_table:
        if winner is not None and side_of[name] == side_of[winner]:
            if draw(st.booleans()):  # the winner's empty hand, or a partner's, entered but not counted
                entered[name], values[name] = {"typed": 0 if name == winner else draw(st.integers(0, 60))}, None
            continue
        if draw(st.booleans()):
            total = draw(st.integers(0, 120))
            entered[name], values[name] = {"typed": total}, total
        else:
            counts = draw(st.dictionaries(st.sampled_from(keys), st.integers(1, 3), max_size=4))
            cards = [card_of(token) for token, n in counts.items() for _ in range(n)]
            entered[name], values[name] = {"counts": counts}, scoring.hand_value(cards, ruleset.table)
    for name, value in list(values.items()):
        if value is None:
            values[name] = entered[name]["typed"]
    return entered, values


@st.composite
def games(draw, variant_id):
    ruleset = draw(rulesets(variant_id))
    variant = ruleset.variant
    count = draw(st.integers(variant.min_players, variant.max_players))
    players = NAMES[:count]
    teams = draw(team_layouts(ruleset, players))
    manches = draw(st.integers(0, 10))
    roster, order = draw(seats(players, teams, manches))
    results, entries = [], []
    for number in range(1, manches + 1):
        at_table = scoring.seated(players, roster, number)
        side_of = scoring.sides_of(at_table, teams if len(at_table) == count else None)
        blocked = draw(st.booleans()) and draw(st.booleans())
        winner = None if blocked else draw(st.sampled_from(at_table))
        entered, values = draw(hands(ruleset, at_table, side_of, winner))
        results.append((winner, values))
        entries.append([winner, entered])
    first_dealer = draw(st.integers(0, count - 1))
    doc = document(ruleset, players, teams, first_dealer, roster, order)
    progress = scoring.play_through(ruleset, players, teams, first_dealer, results, roster, order=order)
    expected = {
        "points": progress.points,
        "dealers": progress.dealers,
        "counted": progress.counted,
        "totals": progress.totals,
        "finished": progress.standing.finished,
        "winners": progress.standing.winners,
        "ranking": [list(r) for r in progress.standing.ranking],
        "next_dealer": progress.next_dealer,
        "starter": scoring.starter(players, roster, progress.counted + 1, progress.next_dealer, order),
    }
    return doc, entries, expected


# The phone's own way: each hand valued from its keys (or typed), then the game played through.
SCORE_ALL = """text => JSON.stringify(JSON.parse(text).map(([m, entries]) => {
  const manches = entries.map(([winner, entered], index) => {
    const values = Object.create(null);
    for (const [name, hand] of Object.entries(entered)) {
      values[name] = "typed" in hand ? hand.typed : CarteScore.handValue(m, hand.counts);
    }
    return {number: index + 1, winner, values};
  });
  const p = CarteScore.playThrough(m, manches);
  return {points: p.points, dealers: p.dealers, counted: p.counted, totals: p.totals,
          finished: p.standing.finished, winners: p.standing.winners, ranking: p.standing.ranking,
          next_dealer: p.next_dealer, starter: CarteScore.starter(m, p.counted + 1, p.next_dealer)};
}))"""


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_phone_scores_as_play_through(live_server, page, variant_id):
    page.goto(f"{live_server.url}/calculette")
    page.add_script_tag(url="/static/js/score.js")
    assert page.evaluate("typeof CarteScore") == "object"
    checked = []

    @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(games(variant_id), min_size=30, max_size=30))
    def agree(cases):
        # through JSON both ways, as the page reads its document: names are never taken for anything else
        got = json.loads(page.evaluate(SCORE_ALL, json.dumps([[doc, entries] for doc, entries, _ in cases])))
        for (doc, entries, expected), actual in zip(cases, got, strict=True):
            assert actual == expected, (doc, entries)
        checked.extend(cases)

    agree()
    assert len(checked) >= 180


def test_the_document_is_the_games(live_server, page):
    """The page embeds the document of its game: the classique table's keys (SPEC §2: 8 = 50,
    K = 10, JK = 50), penalty mode's numbers (the winner adds 0, the others their own hands), the
    seats and manches named as the API names them."""
    ruleset = CATALOG.resolve("classique")
    doc = document(
        ruleset, ["Ana", "Bob"], None, 1, order=(1, 0), manches=[{"number": 1, "winner": "Ana", "values": {"Bob": 60}}]
    )
    assert doc["mode"] == {"pays": 1, "collects": 0, "bonus": 0, "tie": "share", "low_wins": True}
    assert doc["keys"]["8"] == 50 and doc["keys"]["K"] == 10 and doc["keys"]["JK"] == 50
    assert doc["deal"] == {"first": 1, "loser_deals": False}
    assert doc["players"] == ["Ana", "Bob"] and doc["teams"] is None and doc["roster"] == []
    assert doc["table_order"] == ["Bob", "Ana"]
    assert doc["manches"] == [{"number": 1, "winner": "Ana", "values": {"Bob": 60}}] and doc["after_end"] == []


HAND_WORKED = """m => {
  const p = CarteScore.playThrough(m, [{number: 1, winner: null, values: {Ana: 5, Bob: 9, Chloé: 20}},
                                       {number: 2, winner: "Bob", values: {Ana: 12, Chloé: 30}}]);
  return JSON.stringify({points: p.points, totals: p.totals, dealers: p.dealers, next: p.next_dealer,
                         ranking: p.standing.ranking, finished: p.standing.finished,
                         starter: CarteScore.starter(m, 3, p.next_dealer)});
}"""


def test_the_phone_scores_a_winner_collects_game_worked_by_hand(live_server, page):
    """Winner collects (SPEC §2), to 100. Manche 1 blocked — source 004: « Le gagnant est celui qui
    a le moins de points. Il marque la différence » — Ana 5 is lowest and scores (9 − 5) + (20 − 5)
    = 19. Manche 2: Bob goes out and collects Ana's 12 + Chloé's 30 = 42. The deal passes to the
    left: Ana, Bob, then Chloé deals and Ana starts. The highest total leads: Bob 42, Ana 19, Chloé 0."""
    page.goto(f"{live_server.url}/calculette")
    page.add_script_tag(url="/static/js/score.js")
    ruleset = CATALOG.resolve("classique", mode="winner", target=100)
    got = json.loads(page.evaluate(HAND_WORKED, document(ruleset, ["Ana", "Bob", "Chloé"], None, 0)))
    assert got == {
        "points": [{"Ana": 19, "Bob": 0, "Chloé": 0}, {"Ana": 0, "Bob": 42, "Chloé": 0}],
        "totals": {"Ana": 19, "Bob": 42, "Chloé": 0},
        "dealers": [0, 1],
        "next": 2,
        "ranking": [[1, "Bob", 42], [2, "Ana", 19], [3, "Chloé", 0]],
        "finished": False,
        "starter": "Ana",
    }
    # the house table's queen of spades: QS 25, the other queens 3 — one Q♠ and two Q♥ are 31
    house = document(resolve(CATALOG.tables, HOUSE), ["Ana", "Bob"], None, 0)
    assert page.evaluate("m => CarteScore.handValue(m, {QS: 1, QH: 2})", house) == 31


def test_teams_keep_their_order_whatever_their_names(live_server, page):
    """Teams listed "Nous" then "7": an object's keys would put "7" first, and the two teams tied
    at 0 would be ranked the other way round than on the server."""
    page.goto(f"{live_server.url}/calculette")
    page.add_script_tag(url="/static/js/score.js")
    ruleset = CATALOG.resolve("les-huit", options={"partners": True})
    players = ["Ana", "Bob", "Chloé", "Dan"]
    teams = scoring.team_layout(ruleset, players, {"Nous": ["Ana", "Chloé"], "7": ["Bob", "Dan"]})
    expected = scoring.play_through(ruleset, players, teams, 0, []).standing.ranking
    assert [list(row) for row in expected] == [[1, "Nous", 0], [1, "7", 0]]
    text = json.dumps(document(ruleset, players, teams, 0))
    got = page.evaluate("text => CarteScore.playThrough(JSON.parse(text), []).standing.ranking", text)
    assert got == [[1, "Nous", 0], [1, "7", 0]]

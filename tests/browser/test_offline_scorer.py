"""The drift test (issue 25 item 5): the phone's provisional scorer (static/js/score.js, an
interpreter of ``models/core/scorer_data.py``'s document) agrees with the core's
``models.core.scoring.play_through`` — the same points for every manche, the same dealers, totals,
standing and next dealer — on games made up by hypothesis for each of the six built-in variants
and a house variant (its own table with a suit exception, its own mode): every mode, a target or
a number of manches, teams, blocked manches, "the loser deals", games played past their end,
players joining (at any seat of the table) and leaving.

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
from models.core.scorer_data import scorer_data
from models.core.variant import MODES, resolve

CATALOG = rules.catalog()
# Names a script could mistake for something else: a number, a property every object has.
NAMES = ["Ana", "Bob", "12", "constructor", "Éloïse", "Fred", "Gus", "__proto__", "Inès", "Jo"]
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
    teams = scoring.team_layout(ruleset, players, None)
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
    document = scorer_data(ruleset, players, teams, first_dealer, (), roster, order)
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
    return document, entries, expected


# The phone's own way: each hand valued from its keys (or typed), then the game played through.
SCORE_ALL = """text => JSON.stringify(JSON.parse(text).map(([m, entries]) => {
  const results = entries.map(([winner, entered]) => {
    const values = Object.create(null);
    for (const [name, hand] of Object.entries(entered)) {
      values[name] = "typed" in hand ? hand.typed : CarteScore.handValue(m, hand.counts);
    }
    return [winner, values];
  });
  const p = CarteScore.playThrough(m, results);
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
        got = json.loads(page.evaluate(SCORE_ALL, json.dumps([[document, entries] for document, entries, _ in cases])))
        for (document, entries, expected), actual in zip(cases, got, strict=True):
            assert actual == expected, (document, entries)
        checked.extend(cases)

    agree()
    assert len(checked) >= 180


def test_the_document_is_the_games(live_server, page):
    """The page embeds the document of its game: the classique table's keys (SPEC §2: 8 = 50,
    K = 10, JK = 50), penalty mode's numbers (the winner adds 0, the others their own hands)."""
    ruleset = CATALOG.resolve("classique")
    document = scorer_data(ruleset, ["Ana", "Bob"], None, 1, [("Ana", {"Bob": 60})])
    assert document["mode"] == {"pays": 1, "collects": 0, "bonus": 0, "tie": "share", "low_wins": True}
    assert document["keys"]["8"] == 50 and document["keys"]["K"] == 10 and document["keys"]["JK"] == 50
    assert document["deal"] == {"first": 1, "loser_deals": False}
    assert document["order"] == [0, 1] and document["results"] == [["Ana", {"Bob": 60}]]


HAND_WORKED = """m => {
  const p = CarteScore.playThrough(m, [[null, {Ana: 5, Bob: 9, Chloé: 20}], ["Bob", {Ana: 12, Chloé: 30}]]);
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
    document = scorer_data(ruleset, ["Ana", "Bob", "Chloé"], None, 0)
    got = json.loads(page.evaluate(HAND_WORKED, document))
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
    house = scorer_data(resolve(CATALOG.tables, HOUSE), ["Ana", "Bob"], None, 0)
    assert page.evaluate("m => CarteScore.handValue(m, {QS: 1, QH: 2})", house) == 31

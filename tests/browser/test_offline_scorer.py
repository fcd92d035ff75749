"""The phone's provisional scorer (static/js/offline.js, CarteScore.playThrough) agrees with the
core's ``models.core.scoring.play_through`` on many games made up by hypothesis: every mode, a target
or a number of manches, teams, blocked manches, "the loser deals", games played past their end, players joining and
leaving.
It runs in Chromium, fed the same data the game page embeds (``views/offline.offline_model``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.core import rules, scoring
from models.core.variant import resolve

CATALOG = rules.catalog()
NAMES = ["Ana", "Bob", "Chloé", "Dan", "Éloïse", "Fred"]


@st.composite
def games(draw):
    variant = draw(st.sampled_from(["classique", "les-huit", "huit-americain"]))
    count = draw(st.integers(2, 6 if variant == "classique" else 4))
    players = NAMES[:count]
    options = {"loser_deals": draw(st.booleans())} if variant == "classique" else {}
    mode = draw(st.sampled_from(["penalty", "winner", "wins"]))
    by_rounds = draw(st.booleans())
    rounds = draw(st.integers(1, 8)) if by_rounds else None
    target = None if by_rounds else draw(st.integers(1, 150))
    ruleset = resolve(CATALOG.tables, CATALOG.variant(variant), options, None, mode, target, rounds)
    teams = scoring.team_layout(ruleset, players, None)
    manches = draw(st.integers(0, 10))
    roster = {}
    if teams is None and count > 2 and draw(st.booleans()):
        # players joining or leaving mid-game (never in a team game): the first player stays all along
        for name in players[1:]:
            if draw(st.booleans()):
                joined = draw(st.integers(0, manches))
                left = draw(st.none() | st.integers(joined, manches + 1))
                roster[name] = scoring.Seat(joined, left, draw(st.integers(0, 200)) if joined else 0)
    results = []
    for number in range(1, manches + 1):
        at_table = scoring.seated(players, roster, number)
        side_of = scoring.sides_of(at_table, teams if len(at_table) == count else None)
        blocked = draw(st.booleans()) and draw(st.booleans())
        winner = None if blocked else draw(st.sampled_from(at_table))
        values = {}
        for name in at_table:
            if winner is not None and side_of[name] == side_of[winner]:
                if name == winner and draw(st.booleans()):
                    values[name] = 0  # the winner's empty hand, entered
                elif name != winner and draw(st.booleans()):
                    values[name] = draw(st.integers(0, 60))  # a partner's hand, entered but not counted
                continue
            values[name] = draw(st.integers(0, 120))
        results.append((winner, values))
    first_dealer = draw(st.integers(0, count - 1))
    model = {
        "mode": ruleset.mode,
        "target": ruleset.target,
        "rounds": ruleset.rounds,
        "loser_deals": ruleset.loser_deals,
        "players": players,
        "teams": teams,
        "first_dealer": first_dealer,
        "roster": {name: [seat.joined, seat.left, seat.start] for name, seat in roster.items()},
    }
    progress = scoring.play_through(ruleset, players, teams, first_dealer, results, roster)
    expected = {
        "points": progress.points,
        "dealers": progress.dealers,
        "counted": progress.counted,
        "totals": progress.totals,
        "finished": progress.standing.finished,
        "winners": progress.standing.winners,
        "ranking": [list(r) for r in progress.standing.ranking],
        "next_dealer": progress.next_dealer,
    }
    return model, [[w, v] for w, v in results], expected


SCORE_ALL = """cases => cases.map(([model, results]) => {
  const p = CarteScore.playThrough(model, results);
  return {points: p.points, dealers: p.dealers, counted: p.counted, totals: p.totals,
          finished: p.standing.finished, winners: p.standing.winners, ranking: p.standing.ranking,
          next_dealer: p.next_dealer};
})"""


def test_the_js_scorer_agrees_with_play_through(live_server, page):
    page.goto(f"{live_server.url}/calculette")
    page.add_script_tag(url="/static/js/offline.js")
    page.wait_for_timeout(100)
    assert page.evaluate("typeof CarteScore") == "object"
    checked = []

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(games(), min_size=40, max_size=40))
    def agree(cases):
        got = page.evaluate(SCORE_ALL, [[model, results] for model, results, _ in cases])
        for (model, results, expected), actual in zip(cases, got, strict=True):
            assert actual == expected, (model, results)
        checked.extend(cases)

    agree()
    assert len(checked) >= 400

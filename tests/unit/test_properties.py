"""Property tests: hand values, totals and the card notation round trip."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from models.core.cards import JOKER, RANKS, SUITS, Card, format_card, format_cards, parse_card, parse_cards
from models.core.rules import load_catalog
from models.core.scoring import card_points, hand_value, play_through, score_manche, side_points, standing

CAT = load_catalog()
TABLES = CAT.tables

suited_cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
rank_only_cards = st.builds(Card, st.sampled_from(RANKS))
jokers = st.just(Card(JOKER))
any_card = st.one_of(suited_cards, rank_only_cards, jokers)


def scorable(table_id):
    """Cards a table can score: no joker where it has none, no rank-alone 2 under 54-cartes."""

    def ok(card):
        if card.is_joker:
            return TABLES[table_id].has_joker()
        return not (card.is_rank_only and TABLES[table_id].distinguishes_suits(card.rank))

    return any_card.filter(ok)


@st.composite
def table_and_hand(draw):
    table_id = draw(st.sampled_from(sorted(TABLES)))
    hand = draw(st.lists(scorable(table_id), max_size=20))
    return table_id, hand


@given(table_and_hand(), st.randoms())
def test_hand_value_is_independent_of_order(case, rnd):
    table_id, hand = case
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    table = TABLES[table_id]
    assert hand_value(shuffled, table) == hand_value(hand, table)
    assert hand_value(list(reversed(hand)), table) == hand_value(hand, table)


@given(table_and_hand())
def test_hand_value_is_the_sum_of_card_points(case):
    table_id, hand = case
    table = TABLES[table_id]
    assert hand_value(hand, table) == sum(card_points(c, table) for c in hand)
    assert hand_value(hand + hand, table) == 2 * hand_value(hand, table)


# --- totals equal the sum of manche points (play_through: the totals the game pages show) ----------

PLAYERS = ["Ana", "Bob", "Chloé"]


@st.composite
def games(draw, rounds=None):
    """A classique game of a few manches, each dealt from a shuffled deck (so no card is duplicated);
    with ``rounds``, played over that many manches (none of them falls after the end)."""
    mode = draw(st.sampled_from(["penalty", "winner", "wins"]))
    ruleset = CAT.resolve("classique", mode=mode, rounds=rounds)
    manches = []
    for _ in range(draw(st.integers(min_value=1, max_value=rounds or 12))):
        deck = draw(st.permutations(ruleset.deck.cards()))
        winner = draw(st.sampled_from(PLAYERS))
        sizes = [draw(st.integers(min_value=0, max_value=7)) for _ in PLAYERS]
        hands, start = {}, 0
        for player, size in zip(PLAYERS, sizes, strict=True):
            hands[player] = [] if player == winner else deck[start : start + size]
            start += size
        manches.append((winner, hands))
    return ruleset, manches


def played(ruleset, manches):
    """Each manche scored by the core, then the game played through as the game pages do."""
    scored = [score_manche(ruleset, PLAYERS, None, winner, {p: format_cards(h) for p, h in hands.items()})
              for winner, hands in manches]  # fmt: skip
    return scored, play_through(ruleset, PLAYERS, None, 0, [(s.winner, s.values) for s in scored])


@given(games(rounds=12))
def test_totals_are_the_sum_of_manche_points(game):
    ruleset, manches = game
    scored, progress = played(ruleset, manches)
    expected = dict.fromkeys(PLAYERS, 0)
    for number, ((winner, hands), result) in enumerate(zip(manches, scored, strict=True), start=1):
        opponents = sum(hand_value(h, ruleset.table) for p, h in hands.items() if p != winner)
        for player in PLAYERS:
            if ruleset.mode == "penalty":
                points = 0 if player == winner else hand_value(hands[player], ruleset.table)
            elif ruleset.mode == "winner":
                points = opponents if player == winner else 0
            else:
                points = 1 if player == winner else 0
            assert result.points[player] == points
            assert progress.points[number - 1][player] == points
            expected[player] += points
        assert progress.progression[number - 1] == expected
    assert progress.counted == len(manches)
    assert progress.totals == expected


@given(games())
def test_no_manche_after_the_end_counts(game):
    """SPEC §2: the game ends after the manche in which a total reaches the target; a manche
    stored after that (an edit of an older version could leave one) is never added."""
    ruleset, manches = game
    scored, progress = played(ruleset, manches)
    running, end = dict.fromkeys(PLAYERS, 0), len(manches)
    for number, result in enumerate(scored, start=1):
        running = {p: running[p] + result.points[p] for p in PLAYERS}
        if standing(ruleset, running, number).finished:
            end = number
            break
    assert progress.counted == end
    assert progress.totals == running
    assert progress.standing.finished == standing(ruleset, running, end).finished


@given(
    st.lists(
        st.tuples(
            st.sampled_from(PLAYERS),
            st.fixed_dictionaries({p: st.integers(min_value=0, max_value=1000) for p in PLAYERS}),
        ),
        max_size=20,
    )
)
def test_totals_add_up_each_side(results):
    ruleset = CAT.resolve("classique", rounds=1000)
    results = [(winner, {**values, winner: 0}) for winner, values in results]
    progress = play_through(ruleset, PLAYERS, None, 0, results)
    for player in PLAYERS:
        assert progress.totals[player] == sum(side_points(ruleset, PLAYERS, None, w, v)[player] for w, v in results)


@given(games(), st.booleans(), st.integers(min_value=0, max_value=2), st.data())
def test_going_on_from_a_progress_is_playing_through(game, loser_deals, first_dealer, data):
    """A write goes on from the game's progress instead of playing it through again (issue 17):
    whatever the split, the totals, dealers, standing and what comes after the end are the same."""
    ruleset, manches = game
    ruleset = replace(ruleset, loser_deals=loser_deals)
    scored, _ = played(ruleset, manches)
    results = [(s.winner, s.values) for s in scored]
    whole = play_through(ruleset, PLAYERS, None, first_dealer, results)
    split = data.draw(st.integers(min_value=0, max_value=len(results)))
    head = play_through(ruleset, PLAYERS, None, first_dealer, results[:split])
    assert play_through(ruleset, PLAYERS, None, first_dealer, results[split:], since=head) == whole
    one_by_one = play_through(ruleset, PLAYERS, None, first_dealer, [])
    for result in results:
        one_by_one = play_through(ruleset, PLAYERS, None, first_dealer, [result], since=one_by_one)
    assert one_by_one == whole


# --- parse ∘ format is the identity -------------------------------------------------------------------


@given(any_card, st.booleans())
def test_parse_format_card(card, symbols):
    assert parse_card(format_card(card, symbols=symbols)) == card


@given(any_card, st.booleans())
def test_parse_format_card_lowercase(card, symbols):
    assert parse_card(format_card(card, symbols=symbols).lower()) == card


@given(st.lists(any_card, max_size=30), st.booleans())
def test_parse_format_cards(cards, symbols):
    text = format_cards(cards, symbols=symbols)
    assert parse_cards(text) == cards
    assert parse_cards(text.replace(" ", ", ")) == cards
    assert parse_cards(text.split()) == cards

"""Scoring around the table (SPEC §2): partners at les-huit, the blocked manche, the deal, the keypad.

Every expected number below is computed by hand from SPEC §2's scoring table.
"""

import pytest

from models.core.errors import (
    MissingHand,
    ValidationError,
)
from models.core.scoring import (
    default_teams,
    keypad,
    manche_loser,
    max_hand_value,
    play_through,
    score_manche,
    team_layout,
)
from tests.unit.test_scoring import CAT, FOUR, TEAM_AC, TEAM_BD, THREE, manche

# --- partners (les-huit at 4) ------------------------------------------------------------------------


def test_default_teams_seats_one_and_three():
    expected = {TEAM_AC: ["Ana", "Chloé"], TEAM_BD: ["Bob", "Dan"]}
    assert default_teams(FOUR) == expected
    assert team_layout(CAT.resolve("les-huit"), FOUR, None) == expected


def test_no_teams_at_three_or_with_partners_off_or_other_variants():
    assert team_layout(CAT.resolve("les-huit"), THREE, None) is None
    assert team_layout(CAT.resolve("les-huit", options={"partners": False}), FOUR, None) is None
    assert team_layout(CAT.resolve("classique"), FOUR, None) is None


def test_teams_refused_where_not_played_in_teams():
    with pytest.raises(ValidationError) as info:
        team_layout(CAT.resolve("classique"), FOUR, {"X": ["Ana", "Chloé"], "Y": ["Bob", "Dan"]})
    assert info.value.field == "teams"


def test_custom_teams():
    teams = {"Nord": ["Ana", "Bob"], "Sud": ["Chloé", "Dan"]}
    assert team_layout(CAT.resolve("les-huit"), FOUR, teams) == teams


def les_huit_teams(**kwargs):
    rs = CAT.resolve("les-huit")
    return score_manche(rs, FOUR, team_layout(rs, FOUR, None), **kwargs)


def test_partners_winner_team_scores_the_opponents_hands():
    # standard: Bob 8H 50 + KS 10 = 60; Dan AC 1 + 3D 3 = 4 → 64; Chloé (partner) omitted
    result = les_huit_teams(winner="Ana", hands={"Bob": "8H KS", "Dan": "AC 3D"})
    assert result.points == {TEAM_AC: 64, TEAM_BD: 0}
    assert result.winning_side == TEAM_AC


def test_partners_hand_is_not_counted():
    # Chloé's QH JH (20) is entered but not counted: still 64
    result = les_huit_teams(winner="Ana", hands={"Bob": "8H KS", "Dan": "AC 3D", "Chloé": "QH JH"})
    assert result.points == {TEAM_AC: 64, TEAM_BD: 0}


def test_partners_other_team_wins():
    # Ana 7S 7 + Chloé 10S 10 = 17 for Bob & Dan
    result = les_huit_teams(winner="Bob", hands={"Ana": "7S", "Chloé": "10S"})
    assert result.points == {TEAM_AC: 0, TEAM_BD: 17}


def test_partners_opponent_hand_still_required():
    with pytest.raises(MissingHand) as info:
        les_huit_teams(winner="Ana", hands={"Bob": "8H KS"})
    assert info.value.field == "hands.Dan"


def test_partners_off_each_for_themselves():
    rs = CAT.resolve("les-huit", options={"partners": False})
    # Ana collects Bob 60 + Chloé (QH 10 + JH 10) 20 + Dan 4 = 84
    result = score_manche(rs, FOUR, None, "Ana", {"Bob": "8H KS", "Chloé": "QH JH", "Dan": "AC 3D"})
    assert result.points == {"Ana": 84, "Bob": 0, "Chloé": 0, "Dan": 0}
    with pytest.raises(MissingHand):
        score_manche(rs, FOUR, None, "Ana", {"Bob": "8H KS", "Dan": "AC 3D"})


# --- blocked manche (les-huit) ---------------------------------------------------------------------------


def test_blocked_manche_lowest_scores_the_differences():
    # standard: Ana AH 1 + 2C 2 = 3; Bob KS 10 + 4D 4 = 14; Chloé 8S 50
    # Ana lowest: (14 − 3) + (50 − 3) = 11 + 47 → 58
    result = manche("les-huit", winner=None, blocked=True, hands={"Ana": "AH 2C", "Bob": "KS 4D", "Chloé": "8S"})
    assert result.blocked
    assert result.points == {"Ana": 58, "Bob": 0, "Chloé": 0}


def test_blocked_manche_tie_for_lowest_scores_nothing():
    # Ana 1 + 2 = 3; Bob 3; Chloé 9 → tie at 3
    result = manche("les-huit", winner=None, blocked=True, hands={"Ana": "AH 2C", "Bob": "3S", "Chloé": "9D"})
    assert result.points == {"Ana": 0, "Bob": 0, "Chloé": 0}


def test_blocked_manche_in_penalty_mode_the_lowest_hand_adds_nothing():
    """Issue 16. A les-huit game switched to penalty points: the lowest hand wins the blocked manche
    (004: « Le gagnant est celui qui a le moins de points »), so it adds 0 like any winner, and the
    others add their own hands (interpretation, marked on the rule page)."""
    # standard: Ana AH 1 + 2C 2 = 3 (lowest); Bob KS 10 + 4D 4 = 14; Chloé 8S 50
    result = manche(
        "les-huit", mode="penalty", winner=None, blocked=True, hands={"Ana": "AH 2C", "Bob": "KS 4D", "Chloé": "8S"}
    )
    assert result.points == {"Ana": 0, "Bob": 14, "Chloé": 50}
    # a tie for the lowest (Ana 3, Bob 3S 3): the tied hands add 0, Chloé 9D adds 9
    result = manche(
        "les-huit", mode="penalty", winner=None, blocked=True, hands={"Ana": "AH 2C", "Bob": "3S", "Chloé": "9D"}
    )
    assert result.points == {"Ana": 0, "Bob": 0, "Chloé": 9}


def test_blocked_manche_in_penalty_mode_with_teams():
    # Ana & Chloé: 2H 2 + 3H 3 = 5 (lowest, adds 0); Bob & Dan: KS 10 + 4C 4 = 14
    ruleset = CAT.resolve("les-huit", mode="penalty")
    teams = default_teams(FOUR)
    hands = {"Ana": "2H", "Chloé": "3H", "Bob": "KS", "Dan": "4C"}
    result = score_manche(ruleset, FOUR, teams, None, hands=hands, blocked=True)
    assert result.points == {TEAM_AC: 0, TEAM_BD: 14}


def test_typed_totals_cannot_add_up_to_more_than_the_deck():
    """Issue 16: the hands of one manche are checked together, typed totals included. classique, one
    pack + 2 Jokers (000: « 8 et Joker : 50 points », « Valet, As, 2 : 20 points », « Roi ou Dame :
    10 points », the rest at face value, the 10 at 10): 4 × 174 + 2 × 50 = 796 for the whole deck."""
    assert max_hand_value(CAT.resolve("classique")) == 796
    with pytest.raises(ValidationError) as info:
        manche(typed={"Bob": 796, "Chloé": 796})  # 1592 > 796
    assert info.value.field == "points" and info.value.params == {"total": 1592, "high": 796}
    with pytest.raises(ValidationError):
        manche(hands={"Bob": "JK"}, typed={"Chloé": 747})  # 50 + 747 = 797 > 796
    assert manche(hands={"Bob": "JK"}, typed={"Chloé": 746}).points == {"Ana": 0, "Bob": 50, "Chloé": 746}


def test_blocked_manche_with_teams_sums_each_team():
    # Ana & Chloé: 2 + 3 = 5; Bob & Dan: K 10 + 4 = 14 → Ana & Chloé score 14 − 5 = 9
    result = les_huit_teams(winner=None, blocked=True, hands={"Ana": "2H", "Chloé": "3H", "Bob": "KS", "Dan": "4C"})
    assert result.points == {TEAM_AC: 9, TEAM_BD: 0}


def test_blocked_manche_needs_every_hand():
    with pytest.raises(MissingHand) as info:
        les_huit_teams(winner=None, blocked=True, hands={"Ana": "2H", "Bob": "KS", "Dan": "4C"})
    assert info.value.field == "hands.Chloé"


def test_blocked_manche_has_no_winner():
    with pytest.raises(ValidationError) as info:
        manche("les-huit", winner="Ana", blocked=True, hands={"Ana": "", "Bob": "3S", "Chloé": "9D"})
    assert info.value.field == "winner"


def test_blocked_manche_only_in_les_huit():
    with pytest.raises(ValidationError) as info:
        manche("classique", winner=None, blocked=True, hands={"Ana": "2H", "Bob": "3S", "Chloé": "9D"})
    assert info.value.field == "blocked"


# --- the deal ------------------------------------------------------------------------------------------------


def test_dealer_passes_to_the_next_seat():
    """Interpretation (the sources say who starts, not who deals next): the deal passes left, one
    seat a manche. Four players, seat 0 deals first: 0, 1, 2, 3, then 0 again; three players from
    seat 2: 2, 0, 1, then 2 for the next manche."""
    rs = CAT.resolve("classique")
    quiet = [("Ana", {"Bob": 1, "Chloé": 1, "Dan": 1})] * 5
    progress = play_through(rs, FOUR, None, 0, quiet)
    assert progress.dealers == [0, 1, 2, 3, 0]
    assert progress.next_dealer == 1
    progress = play_through(rs, THREE, None, 2, [("Ana", {"Bob": 1, "Chloé": 1})] * 3)
    assert progress.dealers == [2, 0, 1]
    assert progress.next_dealer == 2


def test_loser_deals():
    """Classique's house option (000: « celui qui a perdu la manche précédente » distribue): the
    one left with the highest hand deals next. Manche 1 dealt by seat 0, Dan (seat 3) holds the
    most (40); manche 2 dealt by Dan, Bob (seat 1) holds the most (30): Bob deals manche 3."""
    rs = CAT.resolve("classique", options={"loser_deals": True})
    results = [("Ana", {"Bob": 5, "Chloé": 10, "Dan": 40}), ("Chloé", {"Ana": 2, "Bob": 30, "Dan": 3})]
    progress = play_through(rs, FOUR, None, 0, results)
    assert progress.dealers == [0, 3]
    assert progress.next_dealer == 1


def test_manche_loser_is_the_highest_hand():
    assert manche_loser(THREE, {"Ana": 0, "Bob": 53, "Chloé": 60}) == 2
    assert manche_loser(THREE, {"Ana": 0, "Bob": 60, "Chloé": 60}) == 1  # tie: first clockwise
    assert manche_loser(THREE, {}) is None


def test_manche_loser_tie_goes_left_from_the_dealer():
    """Issue 16 (interpretation, classique's "loser deals"; 000: « celui qui a perdu la manche
    précédente »): on a tie for the highest hand, the first tied player going left from the dealer."""
    tie = {"Ana": 60, "Bob": 0, "Chloé": 60}
    assert manche_loser(THREE, tie, dealer=0) == 2  # Ana dealt: Bob, then Chloé → Chloé
    assert manche_loser(THREE, tie, dealer=2) == 0  # Chloé dealt: Ana comes first
    assert manche_loser(THREE, tie, dealer=1) == 2  # Bob dealt: Chloé comes first


# --- keypad ------------------------------------------------------------------------------------------------


def test_keypad_splits_the_two_in_54_cartes_only():
    tokens = [k.token for k in keypad(CAT.resolve("54-cartes"))]
    assert {"2S", "2H", "2D", "2C", "JK", "8"} <= set(tokens)
    assert "2" not in tokens
    classique = {k.token: k.points for k in keypad(CAT.resolve("classique"))}
    assert classique["2"] == 20
    assert classique["JK"] == 50
    assert "JK" not in {k.token for k in keypad(CAT.resolve("les-huit"))}

"""Scoring (SPEC §2): card values per table, manche points in every mode, totals, end of game.

Every expected number below is computed by hand from SPEC §2's scoring table.
"""

import pytest

from models.core.cards import JOKER, Card, parse_card, parse_cards
from models.core.errors import (
    AmbiguousCard,
    FinishForbidden,
    InvalidCard,
    MissingHand,
    TooManyCopies,
    UnknownPlayer,
    ValidationError,
)
from models.core.rules import load_catalog
from models.core.scoring import (
    card_points,
    hand_value,
    manche_points,
    max_hand_value,
    play_through,
    score_manche,
    standing,
)
from models.core.text import plain

CAT = load_catalog()
TABLES = CAT.tables
THREE = ["Ana", "Bob", "Chloé"]
FOUR = ["Ana", "Bob", "Chloé", "Dan"]
TEAM_AC, TEAM_BD = "Ana & Chloé", "Bob & Dan"


def value(table_id, text):
    return hand_value(parse_cards(text), TABLES[table_id])


# --- every rank under every table (SPEC §2 "Scoring tables") ------------------------------------

# Copied by hand from the SPEC table; None = the table has no joker.
SPEC_POINTS = {
    "classique": {"JK": 50, "8": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 20,
                  "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "9": 9, "10": 10},
    "54-cartes": {"JK": 50, "8": 25, "A": 15, "2": 15, "K": 10, "Q": 10, "J": 10,
                  "3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "9": 5, "10": 5},
    "huit-americain": {"JK": 50, "8": 32, "A": 20, "2": 2, "K": 10, "Q": 10, "J": 10,
                       "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "9": 9, "10": 10},
    "huit-elabore": {"JK": None, "8": 15, "A": 11, "2": 10, "K": 3, "Q": 2, "J": 1,
                     "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "9": 9, "10": 10},
    "standard": {"JK": 50, "8": 50, "A": 1, "2": 2, "K": 10, "Q": 10, "J": 10,
                 "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "9": 9, "10": 10},
}  # fmt: skip
# 54-cartes: 2S is 25, the other 2s 15 (the 15 above).
SUITED = [
    (table, rank, suit)
    for table, ranks in SPEC_POINTS.items()
    for rank in ranks
    if rank != "JK"
    for suit in "SHDC"
    if not (table == "54-cartes" and rank == "2" and suit == "S")
]


@pytest.mark.parametrize(("table", "rank", "suit"), SUITED)
def test_every_card_of_every_table(table, rank, suit):
    assert card_points(Card(rank, suit), TABLES[table]) == SPEC_POINTS[table][rank]


@pytest.mark.parametrize("table", [t for t in SPEC_POINTS if SPEC_POINTS[t]["JK"] is not None])
def test_joker_is_50(table):
    assert card_points(Card(JOKER), TABLES[table]) == 50


def test_huit_elabore_table_has_no_joker():
    with pytest.raises(InvalidCard) as info:
        card_points(Card(JOKER), TABLES["huit-elabore"])
    assert info.value.code == "invalid_card"


def test_classique_ten_is_a_plain_card():
    assert card_points(Card("10", "H"), TABLES["classique"]) == 10
    assert card_points(Card("10"), TABLES["classique"]) == 10


def test_54_cartes_two_of_spades():
    table = TABLES["54-cartes"]
    assert card_points(Card("2", "S"), table) == 25
    assert card_points(Card("2", "H"), table) == 15
    assert card_points(Card("2", "D"), table) == 15
    assert card_points(Card("2", "C"), table) == 15


def test_54_cartes_rank_alone_two_is_ambiguous():
    with pytest.raises(AmbiguousCard) as info:
        card_points(Card("2"), TABLES["54-cartes"])
    assert info.value.code == "ambiguous_card"
    for choice in ("2S", "2H", "2D", "2C"):
        assert choice in str(info.value)


def test_54_cartes_other_ranks_alone_are_fine():
    assert card_points(Card("8"), TABLES["54-cartes"]) == 25
    assert card_points(Card("A"), TABLES["54-cartes"]) == 15
    assert card_points(Card("7"), TABLES["54-cartes"]) == 5


@pytest.mark.parametrize(("table", "points"), [("classique", 20), ("huit-americain", 2), ("huit-elabore", 10),
                                               ("standard", 2)])  # fmt: skip
def test_rank_alone_two_is_fine_in_other_tables(table, points):
    assert card_points(Card("2"), TABLES[table]) == points


def test_standard_ace_is_one():
    assert card_points(Card("A", "S"), TABLES["standard"]) == 1


@pytest.mark.parametrize(
    ("table", "hand", "expected"),
    [
        ("classique", "8H JK 10S", 110),  # 8=50 + JK=50 + 10=10 → 110
        ("classique", "AS 2D JC QH KS", 80),  # A=20 + 2=20 + J=20 + Q=10 + K=10 → 80
        ("classique", "3C 4D 5H 6S 7C 9D", 34),  # 3+4+5+6+7+9 → 34
        ("classique", "8 K", 60),  # ranks alone: 8=50 + K=10 → 60
        ("54-cartes", "2S 2H 2D 2C", 70),  # 2S=25 + 3×15=45 → 70
        ("54-cartes", "8C JK AS", 90),  # 8=25 + JK=50 + A=15 → 90
        ("54-cartes", "3H 4H 5H 6H 7H 9H 10H", 35),  # 7 plain cards × 5 → 35
        ("54-cartes", "JH QH KH", 30),  # 10+10+10 → 30
        ("huit-americain", "8S 8S JK JK", 164),  # 32+32 + 50+50 → 164
        ("huit-americain", "AH 2H 10H", 32),  # A=20 + 2=2 + 10=10 → 32
        ("huit-americain", "JD QD KD 7C", 37),  # 10+10+10 + 7 → 37
        ("huit-elabore", "8H AH 2H", 36),  # 8=15 + A=11 + 2=10 → 36
        ("huit-elabore", "JH QH KH", 6),  # J=1 + Q=2 + K=3 → 6
        ("huit-elabore", "9C 10C 3C", 22),  # 9+10+3 → 22
        ("standard", "AS AH 2C 10D", 14),  # A=1 + A=1 + 2=2 + 10=10 → 14
        ("standard", "8D JK KS", 110),  # 8=50 + JK=50 + K=10 → 110
        ("standard", "", 0),  # empty hand
    ],
)
def test_hand_values(table, hand, expected):
    assert value(table, hand) == expected


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("classique", 174),  # A20 + 2:20 + (3..7)=25 + 8:50 + 9 + 10 + J20 + Q10 + K10 = 174
        ("54-cartes", 120),  # A15 + 2H:15 + (3..7)=5×5=25 + 8:25 + 9:5 + 10:5 + J10 + Q10 + K10 = 120
        ("huit-americain", 128),  # A20 + 2:2 + 25 + 8:32 + 9 + 10 + J10 + Q10 + K10 = 128
        ("huit-elabore", 86),  # A11 + 2:10 + 25 + 8:15 + 9 + 10 + J1 + Q2 + K3 = 86
        ("standard", 127),  # A1 + 2:2 + 25 + 8:50 + 9 + 10 + J10 + Q10 + K10 = 127
    ],
)
def test_whole_suit_of_hearts(table, expected):
    assert value(table, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH") == expected


def test_hand_value_ignores_order():
    assert value("classique", "JK 3C 8H") == value("classique", "8H JK 3C") == 103  # 50+3+50


# --- max hand value (the ceiling of a typed total) --------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "options", "expected"),
    [
        ("classique", {}, 796),  # 4 suits × 174 = 696 + 2 JK × 50 = 796
        ("classique", {"decks": 2}, 1592),  # 2 × 696 + 4 JK × 50 = 1392 + 200
        ("les-huit", {}, 508),  # 4 × 127 (standard, no joker)
        ("huit-elabore", {}, 344),  # 4 × 86
        ("54-cartes", {}, 590),  # 4 × 120 + 10 (2S is 25 not 15) + 2 JK × 50 = 480 + 10 + 100
        ("huit-americain", {}, 1124),  # 2 decks × 4 × 128 = 1024 + 2 JK × 50
        ("deux-jeux", {}, 1016),  # 2 decks × 4 × 127 (standard, no joker)
    ],
)
def test_max_hand_value(variant_id, options, expected):
    assert max_hand_value(CAT.resolve(variant_id, options=options)) == expected


# --- manche_points: each mode from the side values --------------------------------------------------


def test_manche_points_penalty():
    assert manche_points("penalty", ["A", "B", "C"], {"B": 12, "C": 30}, "A") == {"A": 0, "B": 12, "C": 30}


def test_manche_points_winner_collects():
    # A collects 12 + 30 → 42
    assert manche_points("winner", ["A", "B", "C"], {"B": 12, "C": 30}, "A") == {"A": 42, "B": 0, "C": 0}


def test_manche_points_wins():
    assert manche_points("wins", ["A", "B", "C"], {"B": 12, "C": 30}, "B") == {"A": 0, "B": 1, "C": 0}


def test_manche_points_blocked():
    # lowest is A (5): (9 − 5) + (20 − 5) = 4 + 15 → 19
    assert manche_points("winner", ["A", "B", "C"], {"A": 5, "B": 9, "C": 20}, None) == {"A": 19, "B": 0, "C": 0}


def test_manche_points_blocked_tie_scores_nothing():
    assert manche_points("winner", ["A", "B", "C"], {"A": 5, "B": 5, "C": 20}, None) == {"A": 0, "B": 0, "C": 0}


# --- score_manche in every mode -------------------------------------------------------------------


def manche(variant_id="classique", players=THREE, teams=None, winner="Ana", options=None, mode=None, **kwargs):
    ruleset = CAT.resolve(variant_id, options=options, mode=mode)
    return score_manche(ruleset, players, teams, winner, **kwargs)


HANDS = {"Bob": "8H 3C", "Chloé": "JK KS"}  # classique: Bob 50+3 = 53; Chloé 50+10 = 60


def test_penalty_mode():
    result = manche(hands=HANDS)
    assert result.values == {"Bob": 53, "Chloé": 60}
    assert result.points == {"Ana": 0, "Bob": 53, "Chloé": 60}
    assert result.winner == result.winning_side == "Ana"


def test_winner_collects_mode():
    result = manche(mode="winner", hands=HANDS)
    assert result.points == {"Ana": 113, "Bob": 0, "Chloé": 0}  # 53 + 60


def test_wins_mode():
    result = manche(mode="wins", hands=HANDS)
    assert result.points == {"Ana": 1, "Bob": 0, "Chloé": 0}


def test_les_huit_default_mode_is_winner_collects():
    # standard table: Bob 9+K10 = 19; Chloé A1+2 = 3 → Ana collects 22
    result = manche("les-huit", hands={"Bob": "9S KD", "Chloé": ["AC", "2H"]})
    assert result.points == {"Ana": 22, "Bob": 0, "Chloé": 0}


def test_penalty_in_54_cartes():
    # Bob: 2S 25 + 2H 15 = 40; Chloé: 8 25 + JK 50 = 75
    result = manche("54-cartes", hands={"Bob": "2S 2H", "Chloé": "8 JK"})
    assert result.points == {"Ana": 0, "Bob": 40, "Chloé": 75}


def test_rank_alone_two_is_ambiguous_in_a_54_cartes_manche():
    with pytest.raises(AmbiguousCard) as info:
        manche("54-cartes", hands={"Bob": "2 3H", "Chloé": "4H"})
    assert info.value.code == "ambiguous_card"
    assert info.value.field == "hands.Bob"


def test_winners_empty_hand_is_accepted():
    result = manche(hands={"Ana": "", "Bob": "3C", "Chloé": []})
    assert result.points == {"Ana": 0, "Bob": 3, "Chloé": 0}


def test_winners_non_empty_hand_is_refused():
    with pytest.raises(ValidationError) as info:
        manche(hands={"Ana": "3H", **HANDS})
    assert info.value.code == "validation_error"
    assert info.value.field == "hands.Ana"


def test_missing_hand():
    with pytest.raises(MissingHand) as info:
        manche(hands={"Bob": "3C"})
    assert info.value.code == "missing_hand"
    assert info.value.field == "hands.Chloé"


def test_unknown_player_in_hands():
    with pytest.raises(UnknownPlayer) as info:
        manche(hands={**HANDS, "Zoé": "3H"})
    assert info.value.code == "unknown_player"
    assert info.value.field == "hands.Zoé"


def test_unknown_player_in_typed_points():
    with pytest.raises(UnknownPlayer) as info:
        manche(hands=HANDS, typed={"Zoé": 3})
    assert info.value.field == "points.Zoé"


def test_unknown_winner():
    with pytest.raises(UnknownPlayer) as info:
        manche(winner="Zoé", hands=HANDS)
    assert info.value.code == "unknown_player"
    assert info.value.field == "winner"


def test_no_winner_without_a_blocked_manche():
    with pytest.raises(ValidationError) as info:
        manche(winner=None, hands=HANDS)
    assert info.value.field == "winner"


def test_invalid_card_names_the_hand():
    with pytest.raises(InvalidCard) as info:
        manche(hands={"Bob": "8H 11C", "Chloé": "3D"})
    assert info.value.code == "invalid_card"
    assert info.value.field == "hands.Bob"
    assert "11C" in str(info.value)


# --- typed totals ----------------------------------------------------------------------------------


def test_typed_total_replaces_cards():
    result = manche(hands={"Bob": "8H 3C"}, typed={"Chloé": 45})  # Bob 53, Chloé typed 45
    assert result.points == {"Ana": 0, "Bob": 53, "Chloé": 45}
    assert result.typed == {"Chloé": 45}


@pytest.mark.parametrize("text", ["45", "²", "١٢", "⁵"])
def test_typed_total_as_text_is_refused(text):
    """The pure core takes ints: the manche form converts what was typed (views/numbers.py)."""
    with pytest.raises(ValidationError) as info:
        manche(hands={"Bob": "3C"}, typed={"Chloé": text})
    assert info.value.field == "points.Chloé"


def test_typed_total_bounds_classique():
    # most a classique hand can be worth: 4 × 174 + 2 × 50 = 796
    assert manche(typed={"Bob": 0, "Chloé": 796}).points == {"Ana": 0, "Bob": 0, "Chloé": 796}
    with pytest.raises(ValidationError) as info:
        manche(typed={"Bob": 0, "Chloé": 797})
    assert info.value.code == "validation_error"
    assert info.value.field == "points.Chloé"


def test_typed_total_bounds_les_huit():
    # standard table, one deck without jokers: 4 × 127 = 508
    assert manche("les-huit", typed={"Bob": 508, "Chloé": 0}).points["Ana"] == 508
    with pytest.raises(ValidationError):
        manche("les-huit", typed={"Bob": 509, "Chloé": 0})


@pytest.mark.parametrize("bad", [-1, "-3", 2.5, "abc", True, None])
def test_typed_total_must_be_a_whole_number(bad):
    with pytest.raises(ValidationError) as info:
        manche(hands={"Bob": "3C"}, typed={"Chloé": bad})
    assert info.value.field == "points.Chloé"


def test_cards_and_typed_total_for_the_same_player():
    with pytest.raises(ValidationError):
        manche(hands=HANDS, typed={"Bob": 10})


# --- deck check across the hands of one manche ---------------------------------------------------


def test_too_many_copies_across_hands():
    with pytest.raises(TooManyCopies) as info:
        manche(hands={"Bob": "8H 3C", "Chloé": "8H"})  # one deck holds one 8H
    assert info.value.code == "too_many_copies"
    assert info.value.field == "hands.Chloé"


def test_two_decks_allow_two_copies_across_hands():
    result = manche("huit-americain", players=FOUR, hands={"Bob": "8H", "Chloé": "8H", "Dan": "3C"})
    assert result.points == {"Ana": 0, "Bob": 32, "Chloé": 32, "Dan": 3}
    with pytest.raises(TooManyCopies):
        manche("huit-americain", players=FOUR, hands={"Bob": "8H", "Chloé": "8H", "Dan": "8H"})


def test_too_many_jokers_across_hands():
    with pytest.raises(TooManyCopies):
        manche(hands={"Bob": "JK JK", "Chloé": "JK"})  # classique: 2 jokers


def test_rank_alone_counts_across_hands():
    with pytest.raises(TooManyCopies):
        manche(hands={"Bob": "K K K", "Chloé": "KS KH"})  # 5 kings > 4


def test_joker_in_a_deck_without_jokers():
    for variant_id in ("deux-jeux", "huit-elabore", "les-huit"):
        with pytest.raises(InvalidCard) as info:
            manche(variant_id, hands={"Bob": "JK", "Chloé": "3C"})
        assert info.value.code == "invalid_card"


# --- finishing restrictions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "options", "card"),
    [
        ("huit-americain", None, "8H"),
        ("huit-americain", None, "JK"),
        ("deux-jeux", None, "10S"),
        ("huit-elabore", None, "8C"),
        ("huit-elabore", None, "9D"),
        ("classique", {"special_finish_forbidden": True}, "8S"),
        ("classique", {"special_finish_forbidden": True}, "JK"),
    ],
)
def test_finish_forbidden(variant_id, options, card):
    with pytest.raises(FinishForbidden) as info:
        manche(variant_id, options=options, hands={"Bob": "3C", "Chloé": "4D"}, last_card=card)
    assert info.value.code == "finish_forbidden"
    assert info.value.field == "last_card"
    # the message says what the rule makes the player do (French by default)
    assert CAT.variant(variant_id).finish_rule["fr"] in str(info.value)


def test_finish_forbidden_message_carries_the_rule_in_both_languages():
    """The core knows no language: the refusal carries the card and the variant's finishing rule
    as data, which the web layer words in the reader's language."""
    with pytest.raises(FinishForbidden) as info:
        manche("deux-jeux", hands={"Bob": "3C", "Chloé": "4D"}, last_card="10S")
    assert info.value.params["token"] == "10♠"
    assert info.value.params["rule"].text == CAT.variant("deux-jeux").finish_rule
    assert CAT.variant("deux-jeux").finish_rule["en"] in plain(info.value.text)


@pytest.mark.parametrize(
    ("variant_id", "options", "card"),
    [
        ("huit-americain", None, "7H"),
        ("deux-jeux", None, "9S"),
        ("deux-jeux", None, "8S"),
        ("huit-elabore", None, "10C"),
        ("classique", None, "8H"),
        ("classique", None, "JK"),
        ("classique", {"special_finish_forbidden": True}, "10H"),
        ("54-cartes", None, "8H"),
        ("54-cartes", None, "JK"),
        ("les-huit", None, "8H"),
    ],
)
def test_finish_allowed(variant_id, options, card):
    result = manche(variant_id, options=options, hands={"Bob": "3C", "Chloé": "4D"}, last_card=card)
    assert result.last_card == parse_card(card)
    # 3 + 4 = 7 in every table but 54-cartes, where both are plain cards: 5 + 5 = 10
    assert result.values == ({"Bob": 5, "Chloé": 5} if variant_id == "54-cartes" else {"Bob": 3, "Chloé": 4})


# --- totals and the end of the game --------------------------------------------------------------------


def test_totals_over_several_manches():
    rs = CAT.resolve("classique")
    m1 = score_manche(rs, THREE, None, "Ana", {"Bob": "8H 3C", "Chloé": "JK KS"})  # Bob 53, Chloé 60
    m2 = score_manche(rs, THREE, None, "Bob", {"Ana": "QD 7S", "Chloé": "AS 2D"})  # Ana 10+7=17, Chloé 20+20=40
    m3 = score_manche(rs, THREE, None, "Chloé", {"Ana": "9H", "Bob": "JC 10C"})  # Ana 9, Bob 20+10=30
    game = play_through(rs, THREE, None, 0, [(m.winner, m.values) for m in (m1, m2, m3)]).totals
    assert game == {"Ana": 26, "Bob": 83, "Chloé": 100}  # Ana 0+17+9; Bob 53+0+30; Chloé 60+40+0
    result = standing(rs, game, 3)
    assert not result.finished
    assert result.winners == []
    assert [(place, side) for place, side, _ in result.ranking] == [(1, "Ana"), (2, "Bob"), (3, "Chloé")]


def test_totals_with_no_manche():
    assert play_through(CAT.resolve("classique"), THREE, None, 0, []).totals == {"Ana": 0, "Bob": 0, "Chloé": 0}


def test_penalty_game_ends_at_the_target_and_lowest_wins():
    rs = CAT.resolve("classique")
    assert not standing(rs, {"Ana": 499, "Bob": 120, "Chloé": 300}, 5).finished
    result = standing(rs, {"Ana": 500, "Bob": 120, "Chloé": 300}, 6)
    assert result.finished
    assert result.winners == ["Bob"]
    assert result.ranking == [(1, "Bob", 120), (2, "Chloé", 300), (3, "Ana", 500)]


def test_penalty_target_override():
    rs = CAT.resolve("classique", target=200)
    assert not standing(rs, {"Ana": 199, "Bob": 0}, 3).finished
    assert standing(rs, {"Ana": 230, "Bob": 0}, 3).finished


def test_penalty_tie_for_lowest_shares_the_win():
    result = standing(CAT.resolve("classique"), {"Ana": 510, "Bob": 100, "Chloé": 100}, 7)
    assert result.finished
    assert sorted(result.winners) == ["Bob", "Chloé"]
    assert sorted(result.ranking) == [(1, "Bob", 100), (1, "Chloé", 100), (3, "Ana", 510)]


def test_winner_collects_game_ends_at_the_target_and_highest_wins():
    rs = CAT.resolve("les-huit")  # target 100
    assert not standing(rs, {"Ana": 99, "Bob": 40}, 4).finished
    result = standing(rs, {"Ana": 100, "Bob": 40}, 5)
    assert result.finished
    assert result.winners == ["Ana"]


def test_wins_mode_game():
    rs = CAT.resolve("classique", mode="wins", target=3)
    assert not standing(rs, {"Ana": 2, "Bob": 2}, 4).finished
    result = standing(rs, {"Ana": 3, "Bob": 2}, 5)
    assert result.finished
    assert result.winners == ["Ana"]


def test_no_manche_no_end():
    assert not standing(CAT.resolve("classique"), {"Ana": 0, "Bob": 0}, 0).finished


def test_fixed_number_of_manches_penalty():
    rs = CAT.resolve("huit-americain", rounds=3)
    # the target no longer ends the game: 600 after 2 manches is not the end
    assert not standing(rs, {"Ana": 600, "Bob": 30}, 2).finished
    result = standing(rs, {"Ana": 640, "Bob": 30}, 3)
    assert result.finished
    assert result.winners == ["Bob"]  # lowest in penalty mode


def test_fixed_number_of_manches_highest_wins_otherwise():
    rs = CAT.resolve("les-huit", rounds=2)
    assert not standing(rs, {"Ana": 150, "Bob": 30}, 1).finished
    result = standing(rs, {"Ana": 20, "Bob": 30}, 2)
    assert result.finished
    assert result.winners == ["Bob"]


def test_fixed_number_of_manches_tie_shared():
    rs = CAT.resolve("classique", mode="wins", rounds=4)
    result = standing(rs, {"Ana": 2, "Bob": 2, "Chloé": 0}, 4)
    assert sorted(result.winners) == ["Ana", "Bob"]

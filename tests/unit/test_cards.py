"""Card notation and the deck check (SPEC §1)."""

import pytest

from models.core.cards import (
    JOKER,
    RANKS,
    SUITS,
    Card,
    Deck,
    check_deck,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from models.core.errors import InvalidCard, TooManyCopies
from models.core.text import plain

# --- parse_card ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_every_rank_with_every_suit_letter(rank, suit):
    assert parse_card(rank + suit) == Card(rank, suit)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("8♠", Card("8", "S")),
        ("8♥", Card("8", "H")),
        ("8♦", Card("8", "D")),
        ("8♣", Card("8", "C")),
        ("10♠", Card("10", "S")),
        ("Q♥", Card("Q", "H")),
        ("a♣", Card("A", "C")),
    ],
)
def test_suit_symbols(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("8h", Card("8", "H")),
        ("qs", Card("Q", "S")),
        ("Qs", Card("Q", "S")),
        ("10d", Card("10", "D")),
        ("jc", Card("J", "C")),
        ("aH", Card("A", "H")),
        ("k", Card("K")),
    ],
)
def test_case_insensitive(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["JK", "jk", "Jk", "JOKER", "joker", "Joker"])
def test_joker_spellings(token):
    card = parse_card(token)
    assert card == Card(JOKER)
    assert card.is_joker
    assert card.suit is None
    assert not card.is_rank_only


@pytest.mark.parametrize("rank", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
def test_rank_alone(rank):
    card = parse_card(rank)
    assert card == Card(rank, None)
    assert card.is_rank_only
    assert not card.is_joker


def test_jack_of_spades_is_not_a_joker():
    assert parse_card("JS") == Card("J", "S")
    assert not parse_card("JS").is_joker


def test_surrounding_spaces_are_ignored():
    assert parse_card("  10S ") == Card("10", "S")


@pytest.mark.parametrize("token", ["1H", "11S", "8X", "ZZ", "0", "1", "S", "♠", "HS", "8HH", "JKS", "10 10", "B♠"])
def test_invalid_token(token):
    with pytest.raises(InvalidCard) as info:
        parse_card(token)
    assert info.value.code == "invalid_card"
    assert token in str(info.value)
    assert token in plain(info.value.text)


def test_empty_token_is_invalid():
    with pytest.raises(InvalidCard) as info:
        parse_card("")
    assert info.value.code == "invalid_card"


# --- parse_cards ----------------------------------------------------------------------------------


def test_parse_cards_separated_by_spaces():
    assert parse_cards("8H 10S JK") == [Card("8", "H"), Card("10", "S"), Card(JOKER)]


def test_parse_cards_separated_by_commas():
    assert parse_cards("8H,10S,JK") == [Card("8", "H"), Card("10", "S"), Card(JOKER)]


def test_parse_cards_mixed_separators_and_notations():
    assert parse_cards("8h, 10♠  qs,joker 7") == [
        Card("8", "H"),
        Card("10", "S"),
        Card("Q", "S"),
        Card(JOKER),
        Card("7"),
    ]


def test_parse_cards_keeps_duplicates_and_order():
    assert parse_cards("KS 2C KS") == [Card("K", "S"), Card("2", "C"), Card("K", "S")]


def test_parse_cards_from_a_list_of_tokens():
    assert parse_cards(["8H", "10♠", "JK", "A"]) == [Card("8", "H"), Card("10", "S"), Card(JOKER), Card("A")]


def test_parse_cards_empty_text_is_an_empty_hand():
    assert parse_cards("") == []
    assert parse_cards("  ,  ") == []
    assert parse_cards([]) == []


def test_parse_cards_names_the_bad_token():
    with pytest.raises(InvalidCard) as info:
        parse_cards("8H 12S KD")
    assert info.value.code == "invalid_card"
    assert "12S" in str(info.value)


def test_parse_cards_rejects_a_non_text_item():
    with pytest.raises(InvalidCard) as info:
        parse_cards(["8H", 7])
    assert info.value.code == "invalid_card"


# --- format -------------------------------------------------------------------------------------


def test_format_card():
    assert format_card(Card("8", "H")) == "8H"
    assert format_card(Card("10", "S")) == "10S"
    assert format_card(Card("Q", "S")) == "QS"
    assert format_card(Card(JOKER)) == "JK"
    assert format_card(Card("K")) == "K"


def test_format_card_with_symbols():
    assert format_card(Card("8", "H"), symbols=True) == "8♥"
    assert format_card(Card("10", "S"), symbols=True) == "10♠"
    assert format_card(Card("A", "D"), symbols=True) == "A♦"
    assert format_card(Card("2", "C"), symbols=True) == "2♣"
    assert format_card(Card(JOKER), symbols=True) == "JK"
    assert format_card(Card("9"), symbols=True) == "9"


def test_format_cards():
    cards = [Card("8", "H"), Card(JOKER), Card("10", "C")]
    assert format_cards(cards) == "8H JK 10C"
    assert format_cards(cards, symbols=True) == "8♥ JK 10♣"
    assert str(Card("J", "D")) == "JD"


# --- Deck -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "jokers", "size"),
    [
        (1, 0, 52),  # 1×52 + 0
        (1, 2, 54),  # 1×52 + 2
        (2, 0, 104),  # 2×52 + 0
        (2, 2, 106),  # 2×52 + 2
        (2, 4, 108),  # 2×52 + 4
    ],
)
def test_deck_size(decks, jokers, size):
    deck = Deck(decks, jokers)
    assert deck.size == size
    assert len(deck.cards()) == size


def test_deck_copies():
    assert Deck(1, 0).copies_of_card() == 1
    assert Deck(1, 0).copies_of_rank() == 4
    assert Deck(2, 0).copies_of_card() == 2
    assert Deck(2, 0).copies_of_rank() == 8


def test_deck_cards_hold_each_card_d_times():
    cards = Deck(2, 2).cards()
    assert cards.count(Card("8", "H")) == 2
    assert cards.count(Card(JOKER)) == 2
    assert sum(1 for c in cards if c.rank == "Q") == 8
    assert {c for c in cards if not c.is_joker} == {Card(r, s) for r in RANKS for s in SUITS}


# --- check_deck ---------------------------------------------------------------------------------------


def hands(*texts):
    return [parse_cards(t) for t in texts]


def test_whole_deck_passes():
    check_deck([Deck(1, 2).cards()], Deck(1, 2))
    check_deck([Deck(2, 0).cards()], Deck(2, 0))


def test_one_deck_refuses_a_card_twice():
    with pytest.raises(TooManyCopies) as info:
        check_deck(hands("8H 3C", "8H"), Deck(1, 0))
    assert info.value.code == "too_many_copies"
    assert "8H" in str(info.value)


def test_two_decks_allow_a_card_twice_but_not_three_times():
    check_deck(hands("8H 3C", "8H"), Deck(2, 0))
    with pytest.raises(TooManyCopies):
        check_deck(hands("8H", "8H", "8H"), Deck(2, 0))


def test_same_card_different_suits_is_fine_with_one_deck():
    check_deck(hands("8H 8S", "8D 8C"), Deck(1, 0))


def test_jokers_within_the_deck():
    check_deck(hands("JK", "JK"), Deck(1, 2))
    with pytest.raises(TooManyCopies) as info:
        check_deck(hands("JK", "JK JK"), Deck(1, 2))
    assert info.value.code == "too_many_copies"


def test_two_decks_with_four_jokers():
    check_deck(hands("JK JK", "JK JK"), Deck(2, 4))
    with pytest.raises(TooManyCopies):
        check_deck(hands("JK JK JK", "JK JK"), Deck(2, 4))


def test_joker_in_a_deck_without_jokers_is_invalid():
    with pytest.raises(InvalidCard) as info:
        check_deck(hands("8H", "JK"), Deck(1, 0))
    assert info.value.code == "invalid_card"
    with pytest.raises(InvalidCard):
        check_deck(hands("joker"), Deck(2, 0))


def test_rank_alone_counts_against_four_per_deck():
    check_deck(hands("8 8", "8 8"), Deck(1, 0))  # 4 eights: the whole deck's
    with pytest.raises(TooManyCopies) as info:
        check_deck(hands("8 8 8", "8 8"), Deck(1, 0))  # 5 > 4
    assert info.value.code == "too_many_copies"


def test_rank_alone_and_full_cards_count_together():
    check_deck(hands("KS K", "K KD"), Deck(1, 0))  # 4 kings
    with pytest.raises(TooManyCopies):
        check_deck(hands("KS KH KD KC", "K"), Deck(1, 0))  # 5 kings > 4


def test_rank_alone_with_two_decks():
    check_deck(hands("5 5 5 5", "5 5 5 5"), Deck(2, 0))  # 8 = 4×2
    with pytest.raises(TooManyCopies):
        check_deck(hands("5 5 5 5", "5 5 5 5 5H"), Deck(2, 0))  # 9 > 8

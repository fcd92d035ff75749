"""Card notation (SPEC §1): parse, format, deck composition and the deck check.

Canonical text: rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` followed by a suit ``S H D C`` (or
``♠ ♥ ♦ ♣``), or ``JK`` / ``JOKER`` for a joker; case-insensitive; tokens separated by spaces
or commas. A rank alone (``8``) stands for "an 8 of some suit": it is accepted where the suit
changes nothing, and the scoring layer refuses it where the table tells suits apart.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .errors import N_, InvalidCard, Nn_, TooManyCopies

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# Emoji presentation selectors and similar invisible marks phones add after a suit symbol.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200d"), None)
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True)
class Card:
    """A card: ``rank`` in RANKS or ``JK``; ``suit`` in SUITS, or None (joker, or rank alone)."""

    rank: str
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_rank_only(self) -> bool:
        return self.suit is None and not self.is_joker

    def __str__(self) -> str:
        return format_card(self)


def parse_card(token: str) -> Card:
    """Parse one token (``8H``, ``10♠``, ``qs``, ``JK``, ``Joker``, ``K``) into a Card."""
    return _card_of(token) if isinstance(token, str) else _card_of.__wrapped__(token)


@lru_cache(maxsize=1024)
def _card_of(token) -> Card:
    """``parse_card``, each token parsed once per worker (a Card is immutable; a token that is
    not a card raises every time: errors are not kept)."""
    raw = token
    text = str(token).translate(_INVISIBLE).strip().upper()
    if not text:
        raise InvalidCard(N_("Empty card."), token=raw)
    if text in (JOKER, "JOKER"):
        return Card(JOKER)
    suit = None
    last = text[-1]
    if last in _SYMBOL_TO_SUIT:
        suit = _SYMBOL_TO_SUIT[last]
        text = text[:-1].strip()
    elif len(text) >= 2 and last in SUITS and text[:-1] in RANKS:
        suit = last
        text = text[:-1]
    if text not in RANKS:
        raise InvalidCard(
            N_("“%(token)s” is not a card: write a rank (A, 2–10, J, Q, K) and a suit (S, H, D, C), or JK."),
            token=raw,
        )
    return Card(text, suit)


def split_tokens(text: str) -> list[str]:
    """Split a free text of cards on spaces and commas."""
    return [t for t in _SEPARATORS.split(str(text)) if t]


def parse_cards(cards) -> list[Card]:
    """Parse a text (``"8H, 10S JK"``) or a list of tokens into a list of cards.

    A list item may itself hold several tokens separated by spaces or commas.
    """
    if isinstance(cards, str):
        tokens = split_tokens(cards)
    else:
        tokens = []
        for item in cards:
            if not isinstance(item, str):
                raise InvalidCard(N_("“%(token)s” is not a card."), token=str(item))
            parts = split_tokens(item)
            if not parts:
                raise InvalidCard(N_("Empty card."), token=item)
            tokens.extend(parts)
    return [parse_card(t) for t in tokens]


def format_card(card: Card, symbols: bool = False) -> str:
    """The canonical text of a card (``8H``; ``8♥`` with symbols; ``JK``; ``8`` for a rank alone)."""
    if card.is_joker or card.suit is None:
        return card.rank
    return card.rank + (SUIT_SYMBOLS[card.suit] if symbols else card.suit)


def format_cards(cards, symbols: bool = False) -> str:
    return " ".join(format_card(c, symbols) for c in cards)


@dataclass(frozen=True)
class Deck:
    """``decks`` packs of 52 cards, less the ranks ``without`` (taken out of every pack), plus
    ``jokers`` jokers in all. The one answer to "which cards does this game use?": scoring, the
    deck check, the keypads, the referee and the rule pages all read it from ``Ruleset.deck``."""

    decks: int = 1
    jokers: int = 0
    without: tuple = ()  # ranks taken out of each pack, in RANKS order

    @property
    def ranks(self) -> tuple:
        return tuple(r for r in RANKS if r not in self.without)

    @property
    def size(self) -> int:
        return 4 * len(self.ranks) * self.decks + self.jokers

    def copies_of_card(self) -> int:
        return self.decks

    def copies_of_rank(self) -> int:
        return 4 * self.decks

    def holds(self, card: Card) -> bool:
        """Whether the deck has this card at all (a joker, or a rank not taken out)."""
        return self.jokers > 0 if card.is_joker else card.rank not in self.without

    def cards(self) -> list[Card]:
        """Every card of the deck, each as many times as it exists."""
        return list(_deck_cards(self.decks, self.jokers, self.without))


@lru_cache(maxsize=16)
def _deck_cards(decks: int, jokers: int, without: tuple = ()) -> tuple:
    """The cards of a deck, made once per kind of deck (every manche entered asks)."""
    one = [Card(r, s) for s in SUITS for r in RANKS if r not in without]
    return tuple(one * decks + [Card(JOKER)] * jokers)


def refuse_missing(card: Card, deck: Deck, field: str | None = None) -> None:
    """Refuse a card the deck does not have: a joker in a deck without, a rank taken out."""
    if deck.holds(card):
        return
    if card.is_joker:
        raise InvalidCard(N_("This deck has no joker."), field=field, token=JOKER)
    raise InvalidCard(
        N_("%(card)s is not in this deck: that rank was taken out of it."),
        field=field,
        forms={"card": "the"},
        token=format_card(card),
        card=card,
    )


def check_deck(hands, deck: Deck) -> None:
    """Refuse hands that together hold a card the deck lacks or more copies than it holds.

    ``hands`` is an iterable of card lists (all the hands of one manche). With ``d`` decks each
    card exists ``d`` times and each rank ``4d`` times (a rank alone counts against its rank);
    jokers are limited to the deck's jokers, and refused in a deck that has none, like the ranks
    taken out of the deck.
    """
    cards = [card for hand in hands for card in hand]
    for card in cards:
        refuse_missing(card, deck)
    by_rank = Counter(card.rank for card in cards)
    jokers = by_rank.pop(JOKER, 0)
    by_card = Counter(card for card in cards if card.suit)  # a joker has no suit
    if jokers > deck.jokers:
        raise TooManyCopies(
            N_("%(count)s Jokers entered, but the deck holds only %(limit)s."),
            token=JOKER,
            count=jokers,
            limit=deck.jokers,
        )
    card_limit, rank_limit = deck.copies_of_card(), deck.copies_of_rank()
    over = [item for item in by_card.items() if item[1] > card_limit]  # sorted only when there are some
    if over:
        card, count = min(over)
        raise TooManyCopies(
            Nn_(
                "%(card)s entered %(count)s times, but the deck holds only %(limit)s copy of it.",
                "%(card)s entered %(count)s times, but the deck holds only %(limit)s copies of it.",
            ),
            plural_by="limit",
            forms={"card": "the"},
            token=format_card(card),
            card=card,
            count=count,
            limit=card_limit,
        )
    over_ranks = [rank for rank, count in by_rank.items() if count > rank_limit]
    if over_ranks:
        rank = min(over_ranks, key=RANKS.index)  # the first in the order of ranks
        raise TooManyCopies(
            N_("%(count)s cards of rank %(rank)s entered, but the deck holds only %(limit)s."),
            token=rank,
            rank=Card(rank),
            count=by_rank[rank],
            limit=rank_limit,
        )

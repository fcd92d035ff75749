"""The variants side by side (the comparison page): one row per fact, per special card, per
scoring detail; one cell per variant. Pure: no Flask.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JOKER, RANKS, SUITS, Card, parse_card
from .effects import cost_facts
from .rulepage import (
    MODE_NAMES,
    card_entries,
    deal_message,
    deck_message,
    end_short,
    finish_message,
    not_on_message,
    players_message,
    points_summary,
)
from .text import N_, Message
from .variant import Variant, resolve

# --- the comparison ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompareRow:
    label: Message | None  # None for a card row (the card is the label)
    card: Card | None
    cells: tuple  # one tuple of items (Message, data text or str) per variant
    anchor: str = ""  # the section of each variant's page this row is about (generated kind)


def _card_sort_key(text: str):
    card = parse_card(text)
    order = (*RANKS, JOKER).index(card.rank)
    return (0 if card.rank == "8" else 1 if card.is_joker else 2, order, SUITS.index(card.suit) if card.suit else -1)


def comparison(variants: list[Variant], tables) -> tuple:
    """The variants side by side: rows of (label, cells), one cell per variant in the order given
    (``tables``: the built-in tables their defaults are resolved with)."""
    defaults = [resolve(tables, v) for v in variants]
    rows = [
        CompareRow(Message(N_("Cards")), None, tuple(deck_message(r) for r in defaults)),
        CompareRow(Message(N_("Players")), None, tuple(players_message(v) for v in variants)),
        CompareRow(Message(N_("Deal")), None, tuple(deal_message(v) for v in variants)),
    ]
    specs = sorted({rule.card for v in variants for rule in v.cards}, key=_card_sort_key)
    for spec in specs:
        cells = []
        for variant, ruleset in zip(variants, defaults, strict=True):
            rule = next((r for r in variant.cards if r.card == spec), None)
            if rule is None:
                card = parse_card(spec)
                rank_rule = card.suit and variant.card_rule(card)  # A♠ in a variant with a rule for every A
                cells.append((Message(N_("like any %(card)s"), {"card": Card(card.rank)}),) if rank_rule else ())
                continue
            entry = next(e for e in card_entries(ruleset) if e.rule is rule)
            items = [entry.play] if rule.play == "any" or rule.out_of_turn else []
            items += list(entry.effects)
            if entry.two_players:
                items.append(Message(N_("With two players:")))
                items += list(entry.two_players)
            if entry.not_on:
                items.append(not_on_message(entry))
            cells.append(tuple(items))
        rows.append(CompareRow(None, parse_card(spec), tuple(cells), "cards"))
    rows += [
        CompareRow(
            Message(N_("Scoring table")), None, tuple((Message(MODE_NAMES[r.mode]), r.table.name) for r in defaults)
        ),
        CompareRow(
            Message(N_("Points")), None, tuple(points_summary(r.table, bool(r.jokers)) for r in defaults), "scoring"
        ),
        CompareRow(Message(N_("End of the game")), None, tuple((end_short(r),) for r in defaults), "end"),
        CompareRow(Message(N_("Going out")), None, tuple((finish_message(r),) for r in defaults), "finish"),
        CompareRow(Message(N_("Wrong card")), None, tuple(cost_facts(v.penalty) for v in variants)),
        CompareRow(
            Message(N_("House options")),
            None,
            tuple(tuple(o.label for o in v.options) for v in variants),
            "options",
        ),
    ]
    return tuple(rows)

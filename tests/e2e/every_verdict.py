"""Every distinct answer of the dispute checker, for the wording tests (own words, articles, the
reason never the rule again): each built-in variant with its default options and with every
yes/no house option on, every rank on a few top cards (each rank of hearts and the Joker), every
card played (hearts and spades), two player counts, pending or not, last card or not, the card
under an 8 that counts as the card it covers, a draw already sent on, and no suit named after a
card that names one (the error that asks for it)."""

from __future__ import annotations

import itertools
from functools import lru_cache

from models.core import referee
from models.core.cards import RANKS, parse_card
from models.core.errors import DomainError
from models.core.rules import catalog


def _rulesets(cat, variant):
    bools = [o.id for o in variant.options if o.kind == "bool"]
    return [cat.resolve(variant.id)] + ([cat.resolve(variant.id, options=dict.fromkeys(bools, True))] if bools else [])


def _asks(variant):
    """(top, card) pairs of a variant: every rank on top (hearts, and the Joker where the deck has
    one), every card played (the same, and every rank of spades)."""
    ranks = list(RANKS) + (["JK"] if variant.jokers_per_deck else [])
    tops = [r if r == "JK" else r + "H" for r in ranks]
    return itertools.product(tops, tops + [r + "S" for r in RANKS])


@lru_cache(maxsize=1)
def every_verdict() -> tuple[tuple, tuple]:
    """(verdicts, errors): each distinct ``Verdict`` with the question that gave it, and each
    distinct ``DomainError`` the checker raised."""
    cat = catalog()
    verdicts, errors = {}, {}
    for variant in cat.variants.values():
        counts = sorted({variant.min_players, min(4, variant.max_players)})
        for ruleset, (top, card), players, pending, last, suit in itertools.product(
            _rulesets(cat, variant), _asks(variant), counts, (False, True), (False, True), ("S", None)
        ):
            rule = variant.card_rule(parse_card(top))
            covers = (None, "KH", "3C") if rule and rule.takes_rank else (None,)
            draws = (None, 6) if pending and rule and (rule.chain or rule.answers_with) else (None,)
            for covered, due in itertools.product(covers, draws):
                question = (variant.id, top, card, players, pending, last, suit, covered, due)
                try:
                    verdict = referee.check(
                        ruleset,
                        top,
                        card,
                        players=players,
                        active_suit=suit,
                        pending=pending,
                        last_card=last,
                        covered=covered,
                        pending_draw=due,
                    )
                except DomainError as error:
                    errors.setdefault(repr((error.template, error.params)), error)
                    continue
                verdicts.setdefault(repr(verdict), (question, verdict))
    return tuple(verdicts.values()), tuple(errors.values())

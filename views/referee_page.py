"""The dispute checker screen, "Litige ?": pick the top card and the card played on
card keypads, say whether a penalty is pending and whether it is the last card, read the verdict.

A plain form (works without JavaScript); htmx swaps only the verdict. The answer comes from
``models.core.referee.check``, worded by ``views/texts.py`` as for the JSON API.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, request

from models.core import referee
from models.core import rulepage as facts
from models.core.cards import JOKER, SUITS, Card, parse_card
from models.core.errors import N_, DomainError
from models.core.text import Message
from models.core.variant import Variant, resolve

from .kit import fragment_or_page, games, registry
from .numbers import number_or_text, whole_number
from .rights import reads_game
from .texts import error_message, say

bp = Blueprint("referee", __name__)


@dataclass
class CheckForm:
    """The checker form as entered; ranks and suits kept only when they are real ones."""

    variant: Variant
    options: dict = field(default_factory=dict)
    players: int = 4
    top_rank: str = ""
    top_suit: str = ""
    active_suit: str = ""
    card_rank: str = ""
    card_suit: str = ""
    covered_rank: str = ""  # the rank of the card under a card that counts as the card it covers
    pending: bool = False
    pending_draw: object = None  # the cards a pending draw counts so far (None: the top card's own)
    last_card: bool = False
    submitted: bool = False

    @property
    def ranks(self) -> list[str]:
        """The keys of the card keypads: the deck's ranks (less any taken out), and JK where the
        deck has jokers (the variant's own deck: ``Variant.deck``)."""
        deck = self.variant.deck
        return list(deck.ranks) + ([JOKER] if deck.jokers else [])

    @staticmethod
    def card(rank: str, suit: str) -> str | None:
        if rank == JOKER:
            return JOKER
        return rank + suit if rank and suit else None

    @property
    def top(self) -> str | None:
        return self.card(self.top_rank, self.top_suit)

    @property
    def played(self) -> str | None:
        return self.card(self.card_rank, self.card_suit)

    @property
    def names_suit(self) -> bool:
        """Whether a suit is named after the top card (then it is asked before any verdict)."""
        top = self.top
        return bool(top) and any(parse_card(top).rank == c or top == c for c in facts.suit_naming_cards(self.variant))

    @property
    def covers(self) -> bool:
        """Whether the top card counts as the card it covers (then the card under it is asked)."""
        rule = self.variant.card_rule(parse_card(self.top)) if self.top else None
        return bool(rule and rule.takes_rank)

    @property
    def covered_settles(self) -> bool:
        """Whether the card under the top card already answers (the card played has its rank): then
        no suit named is asked."""
        if not (self.covers and self.covered_rank and self.card_rank):
            return False
        return referee.covered_decides(
            self.variant, parse_card(self.top), Card(self.card_rank), Card(self.covered_rank)
        )

    def missing(self) -> Message | None:
        """What is still to pick before the question can be asked, or None. The suit named after
        an 8 or a Joker is asked for right after the top card, before any verdict."""
        if not self.top_rank:
            return Message(N_("Pick the top card of the pile."))
        if not self.top:
            return Message(N_("Pick the suit of the top card."))
        if self.names_suit and not self.active_suit and not self.covered_settles:
            return Message(N_("Pick the suit named after %(card)s."), {"card": parse_card(self.top)}, {"card": "the"})
        if not self.card_rank:
            return Message(N_("Pick the card the player wants to play."))
        if not self.played:
            return Message(N_("Pick the suit of the card played."))
        return None


def read_form(data, game=None) -> CheckForm:
    """The form from the request; on first display, the game's settings (or the variant's defaults)."""
    if game is not None:
        variant = game.variant
    else:
        variant = registry().find(data.get("variant", "")) or next(iter(registry().builtins.variants.values()))
    submitted = data.get("checked") == "1"
    form = CheckForm(variant=variant, submitted=submitted)
    form.options = dict(game.ruleset.options) if game is not None else variant.default_options()
    if submitted:
        for option in facts.referee_options(variant):
            if option.kind == "bool":
                form.options[option.id] = f"opt-{option.id}" in data
            elif data.get(f"opt-{option.id}") is not None:
                form.options[option.id] = data.get(f"opt-{option.id}")
    default_players = len(game.players) if game is not None else facts.sample_players(variant)
    players = whole_number(data.get("players"))
    form.players = min(max(default_players if players is None else players, variant.min_players), variant.max_players)
    ranks = form.ranks
    form.top_rank = data.get("top_rank", "") if data.get("top_rank") in ranks else ""
    form.card_rank = data.get("card_rank", "") if data.get("card_rank") in ranks else ""
    form.top_suit = data.get("top_suit", "") if data.get("top_suit") in SUITS else ""
    form.card_suit = data.get("card_suit", "") if data.get("card_suit") in SUITS else ""
    form.active_suit = data.get("active_suit", "") if data.get("active_suit") in SUITS else ""
    form.covered_rank = data.get("covered_rank", "") if data.get("covered_rank") in ranks else ""
    form.pending = bool(data.get("pending"))
    form.pending_draw = number_or_text(data.get("pending_draw"))
    form.last_card = bool(data.get("last_card"))
    return form


def verdict_for(form: CheckForm, game=None):
    """(verdict, error message) for a complete form; (None, what to pick) otherwise."""
    missing = form.missing()
    if missing:
        return None, say(missing) if form.submitted else None
    try:
        ruleset = resolve(registry().tables, form.variant, options=form.options)
        verdict = referee.check(
            ruleset,
            form.top,
            form.played,
            players=form.players,
            active_suit=form.active_suit or None,
            pending=form.pending,
            last_card=form.last_card,
            covered=form.covered_rank if form.covers else None,
            pending_draw=form.pending_draw if form.pending else None,
        )
    except DomainError as error:
        return None, error_message(error)
    return verdict, None


def render_checker(game=None):
    form = read_form(request.form if request.method == "POST" else request.args, game)
    verdict, error = verdict_for(form, game)
    context = {
        "form": form,
        "game": game,
        "verdict": verdict,
        "error": error,
        "variants": registry().all(),
        "options": facts.referee_options(form.variant),
        "suit_naming": facts.suit_naming_cards(form.variant),
        "covering": facts.covering_cards(form.variant),
        "answered_attacks": facts.answered_attacks(form.variant),
    }
    return fragment_or_page("referee/_verdict.html", "referee/checker.html", **context)


@bp.route("/referee", methods=["GET", "POST"])
def checker():
    return render_checker()


@bp.route("/games/<game_id>/referee", methods=["GET", "POST"])
@reads_game
def game_checker(game_id):
    return render_checker(games().get(game_id))

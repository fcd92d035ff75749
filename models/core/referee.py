"""The dispute checker (SPEC §3): may this card be played here, why, what happens next, and what a
card laid against the rules costs.

Driven by the variant's card rules and penalty (``Variant.cards``, ``Variant.penalty``, from the
variant files) and the game's house options; no per-variant branches. The answer's texts are
messages (``models/core/text.py``): an English template and its parameters as data, worded in the
reader's language by the web layer. The effects of a card, as the rule pages show them too, are in
``models/core/effects.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUITS, Card, parse_card, refuse_missing
from .effects import (
    again_cost,
    answers_to,
    chain_effects,
    cost_of,
    due_after,
    effects_of,
    own_draw,
    pays_with_turn,
    penalty_of_attack,
    play_rule,
    skips_next,
)
from .errors import N_, DomainError, ValidationError
from .text import DataText, Message, SuitRef
from .variant import CardRule, Ruleset, card_spec

__all__ = ["Verdict", "check", "effects_of", "play_rule"]

MAX_PENDING_DRAW = 100


@dataclass(frozen=True)
class Verdict:
    """The checker's answer. ``turn_lost``: the player asking loses the turn (a pending skip or
    an attack they must pay with the turn). ``depends_on``: the answer hangs on an input not given
    (``"covered"``: the card under an 8 that counts as the card it covers). ``cost``: what the card
    costs if it was laid against the rules anyway (the variant's penalty; illegal verdicts only)."""

    legal: bool
    reason: Message
    rule: Message
    effects: tuple = ()  # of Message: what happens next
    next_suit: str | None = None  # the suit to follow after the play (None: the player names it)
    turn_lost: bool = False
    depends_on: str | None = None
    cost: tuple = ()  # of Message


@dataclass(frozen=True)
class Play:
    """One question, its inputs read: the rules, the two cards and their rules, the suit to follow,
    how many players, and the draw a pending attack counts so far (None: the top card's own)."""

    ruleset: Ruleset
    top: Card
    card: Card
    top_rule: CardRule | None
    card_rule: CardRule | None
    suit: str | None
    players: int
    due: int | None = None

    @property
    def names(self) -> dict:
        return {"card": self.card, "top": self.top}

    @property
    def cost(self) -> tuple:
        """What a card the pile refuses costs."""
        return cost_of(self.ruleset.variant.penalty)

    @property
    def rule_cost(self) -> tuple:
        """What breaking another rule costs (out of turn, a forbidden last card): only a penalty
        for any rule broken covers it (001), else none is stated."""
        return cost_of(self.ruleset.variant.penalty.for_case(unfit=False))

    def effects(self) -> tuple:
        return tuple(effects_of(self.card_rule, self.card, self.ruleset, self.players))

    @property
    def next_suit(self) -> str | None:
        return None if self.card_rule and self.card_rule.names_suit else self.card.suit


THE = {"card": "the", "top": "the"}


def _card(value, name: str, rank_alone: bool = False) -> Card:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValidationError(N_("Give one card, such as 9H."), field=name)
    try:
        card = parse_card(value)
    except DomainError as e:
        e.field = name
        raise
    if card.is_rank_only and not rank_alone:
        raise ValidationError(N_("Say the suit of this card too, such as 9H."), field=name)
    return card


def _suit(value) -> str | None:
    if value in (None, ""):
        return None
    text = str(value).strip().upper()
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    text = symbols.get(text, text)
    if text not in SUITS:
        raise ValidationError(N_("The suit is one of S, H, D, C."), field="active_suit")
    return text


def _is_among(card: Card, texts) -> bool:
    for text in texts:
        spec = card_spec(text)
        if (spec.suit and spec == card) or (not spec.suit and spec.rank == card.rank):
            return True
    return False


def _players(variant, players) -> int:
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not (variant.min_players <= players <= variant.max_players)
    ):
        raise ValidationError(
            N_("This variant is played by %(min)s to %(max)s players."),
            field="players",
            min=variant.min_players,
            max=variant.max_players,
        )
    return players


def _suit_to_follow(top: Card, top_rule: CardRule | None, active_suit, settled: bool = False) -> str | None:
    """The suit the next card follows: the one named after a card that names one (asked for when
    missing, the card named in words, unless the card it covers ``settled`` the question), else
    the top card's own."""
    if settled and active_suit in (None, ""):
        return None
    if (top_rule and top_rule.names_suit) or top.is_joker:
        suit = _suit(active_suit)
        if suit is None and top.is_joker and not (top_rule and top_rule.names_suit):
            raise ValidationError(N_("Say which suit is to be followed after the Joker."), field="active_suit")
        if suit is None:
            raise ValidationError(
                N_("Say which suit was named after %(card)s."), field="active_suit", forms={"card": "the"}, card=top
            )
        return suit
    _suit(active_suit)  # a named suit only matters after an 8 or a Joker; still refuse nonsense
    return top.suit


def covered_decides(variant, top: Card, card: Card, covered: Card | None) -> bool:
    """Whether the card under the top card settles the question alone: the top card counts as the
    card it covers and the card played has that card's rank (source 004: the 8 is « semblable à la
    carte qu'il vient recouvrir »), so the suit named after it changes nothing."""
    rule = variant.card_rule(top)
    return bool(rule and rule.takes_rank and covered is not None and card.rank == covered.rank)


def _pending_draw(value, top_rule: CardRule | None) -> int | None:
    """The cards a pending attack counts so far (an answered chain counts more than its top
    card): a whole number, at least the top card's own draw; None when not given."""
    if value in (None, ""):
        return None
    low = own_draw(top_rule) if top_rule else 1
    if isinstance(value, bool) or not isinstance(value, int) or not max(low, 1) <= value <= MAX_PENDING_DRAW:
        raise ValidationError(
            N_("The pending draw is a whole number of cards from %(low)s to %(high)s."),
            field="pending_draw",
            low=max(low, 1),
            high=MAX_PENDING_DRAW,
        )
    return value


def check(
    ruleset: Ruleset,
    top,
    card,
    players: int = 4,
    active_suit=None,
    pending: bool = False,
    last_card: bool = False,
    covered=None,
    pending_draw=None,
) -> Verdict:
    """May ``card`` be played on ``top`` under ``ruleset``?

    ``active_suit``: the suit named after an 8 or a Joker (needed when the top card names one).
    ``pending``: the top card's effect (a draw, a chain, a skip) has not been applied yet to the
    player now to play. On a pending skip that player is the one skipped: nothing they play is
    legal, they lose the turn. ``pending_draw``: how many cards that pending draw counts so far
    (a chain already answered counts more than the top card; by default the top card's own).
    ``last_card``: the card would be the player's last. ``covered``: the card under the top card,
    when the top card counts as the card it covers (les-huit's 8, source 004); a rank alone is
    enough. Without it, a card that only the covered card could allow gets a verdict that
    ``depends_on`` it. A card the deck does not hold (a joker, a rank taken out) is refused.
    """
    variant = ruleset.variant
    top, card = _card(top, "top"), _card(card, "card")
    under = None if covered in (None, "") else _card(covered, "covered", rank_alone=True)
    players = _players(variant, players)
    for name, c in (("top", top), ("card", card), ("covered", under)):
        if c is not None:
            refuse_missing(c, ruleset.deck, field=name)
    top_rule, card_rule = variant.card_rule(top), variant.card_rule(card)
    suit = _suit_to_follow(top, top_rule, active_suit, settled=covered_decides(variant, top, card, under))
    due = _pending_draw(pending_draw, top_rule)
    play = Play(ruleset, top, card, top_rule, card_rule, suit, players, due)
    if pending and skips_next(top_rule, ruleset, players):
        return _skipped(play)
    if last_card and ruleset.is_finish_forbidden(card):
        return _forbidden_finish(play)
    if pending and top_rule and top_rule.attacks:
        return _answer_attack(play)
    if card_rule and card_rule.not_on and _is_among(top, card_rule.not_on):
        return _never_on(play)
    if _matches(card, top, suit):
        return _matching(play)
    if card_rule and card_rule.play == "any":
        return _anywhere(play)
    if top_rule and top_rule.takes_rank:
        return _on_covering_card(play, under)
    return Verdict(
        False,
        Message(
            N_("%(card)s matches neither the suit in play (%(suit)s) nor the rank of %(top)s."),
            {**play.names, "suit": SuitRef(suit)},
            THE,
        ),
        play_rule(card_rule),
        (Message(N_("The player plays another card, or draws.")),),
        cost=play.cost,
    )


def _skipped(play: Play) -> Verdict:
    """The player whose turn a pending skip takes plays nothing (source 000 « Le Valet fait sauter
    le tour du joueur suivant »); laying a card anyway is playing out of turn."""
    return Verdict(
        False,
        Message(N_("%(top)s makes this player miss the turn: they play nothing, not even %(card)s."), play.names, THE),
        Message(N_("A player whose turn is skipped lays no card and draws none.")),
        (Message(N_("This player loses the turn; play goes on with the player after them.")),),
        turn_lost=True,
        cost=play.rule_cost,
    )


def _forbidden_finish(play: Play) -> Verdict:
    """A last card the rules forbid to go out on: the reason says this card would end the hand,
    the rule why such a card may not. A card that makes its player play again is no breach when
    laid (001's 10, 003's 9): it stays, and the round goes on."""
    variant = play.ruleset.variant
    again = play.card_rule is not None and play.card_rule.play_again
    rule = (
        Message(N_("At the end of a round, %(rule)s"), {"rule": DataText(variant.finish_rule, inside=True)})
        if variant.finish_rule
        else Message(N_("Nobody may go out on %(rank)s."), {"rank": Card(play.card.rank)}, {"rank": "a"})
    )
    return Verdict(
        False,
        Message(
            N_("%(card)s would be this player's last card, and here nobody goes out on %(rank)s."),
            {"card": play.card, "rank": Card(play.card.rank)},
            {"card": "the", "rank": "a"},
        ),
        rule,
        (Message(N_("The player keeps the card and plays another one, or draws.")),),
        cost=(again_cost(),) if again else play.rule_cost,
    )


def _never_on(play: Play) -> Verdict:
    """A card its rule keeps off some cards (huit-elabore's 2, source 003 « Pas de 2 sur un 9 »)."""
    rule = play.card_rule
    return Verdict(
        False,
        Message(N_("%(card)s may not go on %(top)s, whatever their suits."), play.names, THE),
        Message(
            N_("%(card)s never goes on %(cards)s."),
            {"card": Card(play.card.rank), "cards": [card_spec(c) for c in rule.not_on]},
            {"card": "a", "cards": "a"},
        ),
        (Message(N_("The player plays another card, or draws.")),),
        cost=play.cost,
    )


def _matching(play: Play) -> Verdict:
    card, suit = play.card, play.suit
    reason = (
        Message(N_("%(card)s follows the suit in play (%(suit)s)."), {"card": card, "suit": SuitRef(suit)}, THE)
        if card.suit == suit
        else Message(N_("%(card)s has the same rank as %(top)s."), play.names, THE)
    )
    return Verdict(True, reason, play_rule(play.card_rule), play.effects(), play.next_suit)


def _anywhere(play: Play) -> Verdict:
    """A card that goes on any card, played on one it does not match: the reason says so of this
    pair (the rule says it of the card in general)."""
    return Verdict(
        True,
        Message(
            N_(
                "%(card)s follows neither the suit in play (%(suit)s) nor the rank of %(top)s, and need not: "
                "this card goes on anything."
            ),
            {**play.names, "suit": SuitRef(play.suit)},
            THE,
        ),
        play_rule(play.card_rule),
        play.effects(),
        play.next_suit,
    )


def _answer_attack(play: Play) -> Verdict:
    """A card played on an attack not yet paid: an answer (it sends the draw on), a card that
    cancels it, a card that jumps in out of turn, or nothing (the player pays)."""
    top_rule, card_rule = play.top_rule, play.card_rule
    answers = answers_to(top_rule, play.ruleset)
    cancels = list(top_rule.chain.cancels) if top_rule.chain else []
    allowed = _allowed(answers, cancels)
    if _is_among(play.card, cancels):
        return Verdict(
            True,
            Message(N_("%(card)s cancels the chain of %(top)s: nobody draws."), play.names, THE),
            allowed,
            (Message(N_("The chain is cancelled: nobody draws.")), *play.effects()),
            play.next_suit,
        )
    if _is_among(play.card, answers):
        due = due_after(top_rule, card_rule, play.due)
        return Verdict(
            True,
            Message(
                N_("%(card)s answers %(top)s, which was still waiting to be answered or drawn for."), play.names, THE
            ),
            allowed,
            tuple(chain_effects(card_rule, play.card, play.ruleset, play.players, due)),
            play.next_suit,
        )
    if card_rule and card_rule.out_of_turn and _matches(play.card, play.top, play.suit):
        return Verdict(
            True,
            Message(
                N_(
                    "%(card)s may jump in, even on %(top)s that nobody has answered or drawn for yet: the player who had to draw is skipped and draws nothing."
                ),
                play.names,
                THE,
            ),
            play_rule(card_rule),
            play.effects(),
            play.next_suit,
        )
    return Verdict(
        False,
        Message(
            N_("%(top)s is still waiting to be answered or drawn for: %(card)s cannot answer it."), play.names, THE
        ),
        allowed,
        tuple(penalty_of_attack(top_rule, play.due)),
        turn_lost=pays_with_turn(top_rule),
        cost=play.cost,
    )


def _allowed(answers: list, cancels: list) -> Message:
    cards = [parse_card(a) for a in answers]
    if answers and cancels:
        return Message(
            N_("A pending chain may be answered only with %(answers)s, or cancelled with %(cancels)s."),
            {"answers": cards, "cancels": [parse_card(c) for c in cancels]},
            {"answers": "a", "cancels": "a"},
        )
    if answers:
        return Message(
            N_("A pending attack may be answered only with %(answers)s."), {"answers": cards}, {"answers": "a"}
        )
    return Message(N_("A pending attack cannot be answered: the player pays it."))


def _on_covering_card(play: Play, under: Card | None) -> Verdict:
    """A card that follows neither the named suit nor the top card's rank, on a card that counts
    as the card it covers (source 004: « semblable à la carte qu'il vient recouvrir »)."""
    top, card, suit = play.top, play.card, play.suit
    rule = Message(N_("%(top)s counts as the card it covers."), {"top": Card(top.rank)}, {"top": "a"})
    if under is None:
        return Verdict(
            False,
            Message(
                N_(
                    "%(card)s does not follow the suit named (%(suit)s): it is playable only if the card under "
                    "%(top)s is %(rank)s."
                ),
                {"card": card, "top": top, "suit": SuitRef(suit), "rank": Card(card.rank)},
                {"card": "the", "top": "the", "rank": "a"},
            ),
            rule,
            (
                Message(
                    N_("It depends on the card under %(top)s: say which card it covers."), {"top": top}, {"top": "the"}
                ),
            ),
            depends_on="covered",
        )
    if card.rank == under.rank:
        return Verdict(
            True,
            Message(
                N_("%(card)s has the rank of the card under %(top)s (%(covered)s), and %(top)s counts as that card."),
                {"card": card, "top": top, "covered": under},
                THE,
            ),
            rule,
            play.effects(),
            play.next_suit,
        )
    return Verdict(
        False,
        Message(
            N_("%(card)s matches neither the suit named (%(suit)s) nor the card under %(top)s (%(covered)s)."),
            {"card": card, "top": top, "suit": SuitRef(suit), "covered": under},
            THE,
        ),
        rule,
        (Message(N_("The player plays another card, or draws.")),),
        cost=play.cost,
    )


def _matches(card: Card, top: Card, suit: str | None) -> bool:
    return card.suit == suit or (not top.is_joker and card.rank == top.rank)

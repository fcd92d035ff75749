"""The dispute checker (SPEC §3): may this card be played here, why, and what happens next.

Driven by the variant's card rules (``Variant.cards``, from the variant files) and the game's
house options; no per-variant branches. The answer's texts are message templates with their
parameters (``Message``), translated by the web layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import SUITS, Card, format_card, parse_card
from .errors import N_, DomainError, InvalidCard, ValidationError
from .rules import CardRule, Ruleset, localized


@dataclass(frozen=True)
class SuitRef:
    """A suit as a message parameter (named in the reader's language)."""

    suit: str


@dataclass(frozen=True)
class Message:
    template: str
    params: dict = field(default_factory=dict)

    def render(self, translate=None, describe=None) -> str:
        """The text in the language of ``translate``; ``describe`` names cards, suits and lists of cards."""
        text = translate(self.template) if translate else self.template
        describe = describe or _plain
        params = {k: v if isinstance(v, (str, int)) else describe(v) for k, v in self.params.items()}
        return text % params if params else text


def _plain(value) -> str:
    if isinstance(value, Card):
        return format_card(value, symbols=True)
    if isinstance(value, SuitRef):
        return value.suit
    return " / ".join(_plain(v) for v in value)


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: Message
    rule: Message
    effects: tuple = ()  # of Message: what happens next
    next_suit: str | None = None  # the suit to follow after the play (None: the player names it)

    def as_text(self, translate=None, describe=None) -> dict:
        return {
            "legal": self.legal,
            "reason": self.reason.render(translate, describe),
            "rule": self.rule.render(translate, describe),
            "effect": " ".join(m.render(translate, describe) for m in self.effects),
        }


def _card(value, name: str) -> Card:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValidationError(N_("Give one card, such as 9H."), field=name)
    try:
        card = parse_card(value)
    except DomainError as e:
        e.field = name
        raise
    if card.is_rank_only:
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
        spec = parse_card(text)
        if (spec.suit and spec == card) or (not spec.suit and spec.rank == card.rank):
            return True
    return False


def play_rule(rule: CardRule | None) -> Message:
    """How a card may be played, in words."""
    if rule and rule.play == "any":
        return Message(N_("%(card)s may be played on any card."), {"card": parse_card(rule.card)})
    if rule and rule.out_of_turn:
        return Message(
            N_("%(card)s matches the suit or the rank of the top card, and may be played out of turn."),
            {"card": parse_card(rule.card)},
        )
    return Message(N_("A card must match the suit to follow or the rank of the top card."))


def effects_of(rule: CardRule | None, card: Card, ruleset: Ruleset, players: int) -> list[Message]:
    """What playing ``card`` makes happen, from its rule (and the two-player exceptions)."""
    if rule is None:
        return [
            Message(
                N_("Play passes to the next player, who follows %(suit)s or plays a %(rank)s."),
                {"suit": SuitRef(card.suit), "rank": Card(card.rank)},
            )
        ]
    out = []
    two = dict(rule.two_players)
    two_player_skip = False
    if players == 2 and two.get("none"):
        return [Message(N_("With two players this card has no effect: play simply goes on."))]
    if players == 2 and "option" in two:
        two_player_skip = two.get(str(ruleset.options.get(two["option"]))) == "skip"
    if rule.names_suit:
        out.append(Message(N_("The player names the suit to follow.")))
    if rule.takes_rank:
        out.append(Message(N_("It counts as the rank of the card it covers.")))
    if rule.chain:
        answers = [parse_card(a) for a in rule.chain.answers]
        params = {"answers": answers, "draw": rule.chain.draw}
        if rule.chain.per_card:
            out.append(
                Message(
                    N_(
                        "The next player must answer with %(answers)s, or draw %(draw)s cards for each card of the chain."
                    ),
                    params,
                )
            )
        else:
            out.append(Message(N_("The next player must answer with %(answers)s, or draw %(draw)s."), params))
        if rule.chain.skip:
            out.append(
                Message(N_("Whoever pays also loses the turn; play resumes in the suit of the last card of the chain."))
            )
    if rule.draw:
        out.append(Message(N_("The next player draws %(draw)s cards and loses the turn."), {"draw": rule.draw}))
        answers = [a for option, cards in rule.answers_with.items() if ruleset.options.get(option) for a in cards]
        if answers:
            out.append(
                Message(
                    N_("Unless they answer with %(answers)s (house rule)."),
                    {"answers": [parse_card(a) for a in dict.fromkeys(answers)]},
                )
            )
    elif rule.steal:
        out.append(Message(N_("The next player takes a card at random from this player's hand and loses the turn.")))
    elif rule.skip or two_player_skip:
        out.append(Message(N_("The next player loses the turn.")))
    if rule.reverse and not two_player_skip:
        out.append(Message(N_("The direction of play reverses.")))
    if rule.play_again:
        out.append(Message(N_("The same player plays again (or draws a card).")))
    if rule.swap_hands:
        out.append(Message(N_("The player may swap hands with anyone not at “Carte !”.")))
    if rule.out_of_turn:
        out.append(Message(N_("The player whose turn it was is skipped.")))
    if not out:
        out.append(Message(N_("Play passes to the next player.")))
    return out


def check(
    ruleset: Ruleset,
    top,
    card,
    players: int = 4,
    active_suit=None,
    pending: bool = False,
    last_card: bool = False,
    lang: str = "fr",
) -> Verdict:
    """May ``card`` be played on ``top`` under ``ruleset``?

    ``active_suit``: the suit named after an 8 or a Joker (needed when the top card names one).
    ``pending``: the top card's attack (draw, chain) has not been paid or answered yet by the
    player now to play. ``last_card``: the card would be the player's last.
    """
    variant = ruleset.variant
    top, card = _card(top, "top"), _card(card, "card")
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
    deck = ruleset.deck
    for name, c in (("top", top), ("card", card)):
        if c.is_joker and not deck.jokers:
            raise InvalidCard(N_("This deck has no joker."), field=name, token="JK")
    top_rule, card_rule = variant.card_rule(top), variant.card_rule(card)
    if (top_rule and top_rule.names_suit) or top.is_joker:
        suit = _suit(active_suit)
        if suit is None and top.is_joker and not (top_rule and top_rule.names_suit):
            raise ValidationError(N_("Say which suit is to be followed after the Joker."), field="active_suit")
        if suit is None:
            raise ValidationError(
                N_("Say which suit was named after %(card)s."), field="active_suit", card=format_card(top, True)
            )
    else:
        _suit(active_suit)  # a named suit only matters after an 8 or a Joker; still refuse nonsense
        suit = top.suit
    rule_text = play_rule(card_rule)
    effects = tuple(effects_of(card_rule, card, ruleset, players))
    next_suit = None if card_rule and card_rule.names_suit else card.suit

    if last_card and ruleset.is_finish_forbidden(card):
        return Verdict(
            False,
            Message(N_("Nobody may go out on %(card)s in this game."), {"card": card}),
            Message(N_("Finishing: %(rule)s"), {"rule": localized(variant.finish_rule, lang)})
            if variant.finish_rule
            else rule_text,
            (Message(N_("The player keeps the card and plays another one, or draws.")),),
        )

    if pending and top_rule and top_rule.attacks:
        answers = list(top_rule.chain.answers) if top_rule.chain else []
        answers += [a for option, cards in top_rule.answers_with.items() if ruleset.options.get(option) for a in cards]
        if _is_among(card, answers):
            return Verdict(
                True,
                Message(N_("%(card)s answers the pending %(top)s."), {"card": card, "top": top}),
                Message(
                    N_("A pending attack may be answered only with %(answers)s."),
                    {"answers": [parse_card(a) for a in answers]},
                ),
                effects,
                next_suit,
            )
        if card_rule and card_rule.out_of_turn and _matches(card, top, suit):
            return Verdict(
                True,
                Message(
                    N_(
                        "%(card)s may jump in, even on a pending %(top)s: the player who had to pay is skipped and pays nothing."
                    ),
                    {"card": card, "top": top},
                ),
                rule_text,
                effects,
                next_suit,
            )
        return Verdict(
            False,
            Message(N_("%(top)s has not been paid yet: %(card)s cannot answer it."), {"top": top, "card": card}),
            Message(
                N_("A pending attack may be answered only with %(answers)s."),
                {"answers": [parse_card(a) for a in answers]},
            )
            if answers
            else Message(N_("A pending attack cannot be answered: the player pays it.")),
            tuple(_penalty(top_rule)),
        )

    if card_rule and card_rule.not_on and _is_among(top, card_rule.not_on):
        return Verdict(
            False,
            Message(N_("%(card)s may not be played on %(top)s."), {"card": card, "top": top}),
            rule_text,
            (Message(N_("The player plays another card, or draws.")),),
        )
    if card_rule and card_rule.play == "any":
        return Verdict(
            True, Message(N_("%(card)s may be played on any card."), {"card": card}), rule_text, effects, next_suit
        )
    if _matches(card, top, suit):
        same = card.suit == suit
        reason = (
            Message(N_("%(card)s follows the suit in play (%(suit)s)."), {"card": card, "suit": SuitRef(suit)})
            if same
            else Message(N_("%(card)s has the same rank as %(top)s."), {"card": card, "top": top})
        )
        return Verdict(True, reason, rule_text, effects, next_suit)
    return Verdict(
        False,
        Message(
            N_("%(card)s matches neither the suit in play (%(suit)s) nor the rank of %(top)s."),
            {"card": card, "suit": SuitRef(suit), "top": top},
        ),
        rule_text,
        (Message(N_("The player plays another card, or draws.")),),
    )


def _matches(card: Card, top: Card, suit: str | None) -> bool:
    return card.suit == suit or (not top.is_joker and card.rank == top.rank)


def _penalty(rule: CardRule) -> list[Message]:
    if rule.chain:
        if rule.chain.per_card:
            return [
                Message(
                    N_("The player draws %(draw)s cards for each card of the chain and loses the turn."),
                    {"draw": rule.chain.draw},
                )
            ]
        return [Message(N_("The player draws %(draw)s and loses the turn."), {"draw": rule.chain.draw})]
    if rule.draw:
        return [Message(N_("The player draws %(draw)s cards and loses the turn."), {"draw": rule.draw})]
    return [Message(N_("The player takes a card at random from the previous player's hand and loses the turn."))]

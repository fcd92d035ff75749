"""The dispute checker (SPEC §3): may this card be played here, why, and what happens next.

Driven by the variant's card rules (``Variant.cards``, from the variant files) and the game's
house options; no per-variant branches. The answer's texts are messages (``models/core/text.py``): an
English template and its parameters as data, worded in the reader's language by the web layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUITS, Card, format_card, parse_card
from .errors import N_, DomainError, InvalidCard, ValidationError
from .text import DataText, Message, SuitRef
from .variant import CardRule, Ruleset, card_spec


@dataclass(frozen=True)
class Verdict:
    """The checker's answer. ``turn_lost``: the player asking loses the turn (a pending skip or
    an attack they must pay with the turn). ``depends_on``: the answer hangs on an input not given
    (``"covered"``: the card under an 8 that counts as the card it covers)."""

    legal: bool
    reason: Message
    rule: Message
    effects: tuple = ()  # of Message: what happens next
    next_suit: str | None = None  # the suit to follow after the play (None: the player names it)
    turn_lost: bool = False
    depends_on: str | None = None


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


def _cards(texts) -> list[Card]:
    return [parse_card(t) for t in texts]


def play_rule(rule: CardRule | None) -> Message:
    """How a card may be played, in words."""
    if rule and rule.play == "any":
        return Message(N_("%(card)s may be played on any card."), {"card": parse_card(rule.card)}, {"card": "the"})
    if rule and rule.out_of_turn:
        return Message(
            N_("%(card)s matches the suit or the rank of the top card, and may be played out of turn."),
            {"card": parse_card(rule.card)},
            {"card": "the"},
        )
    return Message(N_("A card must match the suit to follow or the rank of the top card."))


def two_player_skip(rule: CardRule, ruleset: Ruleset, players: int) -> bool:
    """With two players, a house option may turn the card's effect into a skip (classique's Ace)."""
    two = dict(rule.two_players)
    return players == 2 and "option" in two and two.get(str(ruleset.options.get(two["option"]))) == "skip"


def no_effect(rule: CardRule, players: int) -> bool:
    """With two players some cards do nothing at all (deux-jeux's 7 and Jack)."""
    return players == 2 and bool(dict(rule.two_players).get("none"))


def skips_next(rule: CardRule | None, ruleset: Ruleset, players: int) -> bool:
    """Whether the card makes the next player lose the turn without any draw (a Jack, a 7…)."""
    if rule is None or rule.attacks or no_effect(rule, players):
        return False
    return rule.skip or two_player_skip(rule, ruleset, players)


def effects_of(rule: CardRule | None, card: Card, ruleset: Ruleset, players: int) -> list[Message]:
    """What playing ``card`` makes happen, from its rule (and the two-player exceptions)."""
    if rule is None:
        return [
            Message(
                N_("Play passes to the next player, who follows %(suit)s or plays %(rank)s."),
                {"suit": SuitRef(card.suit), "rank": Card(card.rank)},
                {"rank": "a", "suit": "a"},
            )
        ]
    if no_effect(rule, players):
        return [Message(N_("With two players this card has no effect: play simply goes on."))]
    out = []
    skip_at_two = two_player_skip(rule, ruleset, players)
    if rule.names_suit:
        out.append(Message(N_("The player names the suit to follow.")))
    if rule.takes_rank:
        out.append(
            Message(
                N_(
                    "It counts as the card it covers: the next card may follow the suit named, or have the covered card's rank."
                )
            )
        )
    if rule.chain:
        params = {"answers": _cards(rule.chain.answers), "draw": rule.chain.draw}
        forms = {"answers": "a"}
        if rule.chain.per_card:
            out.append(
                Message(
                    N_(
                        "The next player must answer with %(answers)s, or draw %(draw)s cards for each card of the chain."
                    ),
                    params,
                    forms,
                )
            )
        elif rule.chain.draw == 1:
            out.append(
                Message(N_("The next player must answer with %(answers)s, or draw %(draw)s card."), params, forms)
            )
        else:
            out.append(
                Message(N_("The next player must answer with %(answers)s, or draw %(draw)s cards."), params, forms)
            )
        if rule.chain.cancels:
            out.append(
                Message(
                    N_("%(cancels)s cancels the chain instead: nobody draws."),
                    {"cancels": _cards(rule.chain.cancels)},
                    {"cancels": "a"},
                )
            )
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
                    {"answers": _cards(dict.fromkeys(answers))},
                    {"answers": "a"},
                )
            )
    elif rule.steal:
        out.append(Message(N_("The next player takes a card at random from this player's hand and loses the turn.")))
    elif rule.skip or skip_at_two:
        out.append(Message(N_("The next player loses the turn.")))
    if rule.reverse and not skip_at_two:
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
    covered=None,
) -> Verdict:
    """May ``card`` be played on ``top`` under ``ruleset``?

    ``active_suit``: the suit named after an 8 or a Joker (needed when the top card names one).
    ``pending``: the top card's effect (a draw, a chain, a skip) has not been applied yet to the
    player now to play. On a pending skip that player is the one skipped: nothing they play is
    legal, they lose the turn. ``last_card``: the card would be the player's last. ``covered``:
    the card under the top card, when the top card counts as the card it covers (les-huit's 8,
    source 004); a rank alone is enough. Without it, a card that only the covered card could
    allow gets a verdict that ``depends_on`` it.
    """
    variant = ruleset.variant
    top, card = _card(top, "top"), _card(card, "card")
    under = None if covered in (None, "") else _card(covered, "covered", rank_alone=True)
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
    for name, c in (("top", top), ("card", card), ("covered", under)):
        if c is not None and c.is_joker and not deck.jokers:
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
    names = {"card": card, "top": top}
    the = {"card": "the", "top": "the"}

    if pending and skips_next(top_rule, ruleset, players):
        return Verdict(
            False,
            Message(N_("%(top)s makes this player miss the turn: they play nothing, not even %(card)s."), names, the),
            Message(N_("A player whose turn is skipped lays no card and draws none.")),
            (Message(N_("This player loses the turn; play goes on with the player after them.")),),
            turn_lost=True,
        )

    if last_card and ruleset.is_finish_forbidden(card):
        return Verdict(
            False,
            Message(N_("Nobody may go out on %(card)s in this game."), {"card": Card(card.rank)}, {"card": "a"}),
            Message(N_("Finishing: %(rule)s"), {"rule": DataText(variant.finish_rule, inside=True)})
            if variant.finish_rule
            else rule_text,
            (Message(N_("The player keeps the card and plays another one, or draws.")),),
        )

    if pending and top_rule and top_rule.attacks:
        return _answer_attack(ruleset, top_rule, top, card, card_rule, suit, effects, next_suit, rule_text)

    if card_rule and card_rule.not_on and _is_among(top, card_rule.not_on):
        return Verdict(
            False,
            Message(N_("%(card)s may not be played on %(top)s."), names, {"card": "the", "top": "a"}),
            rule_text,
            (Message(N_("The player plays another card, or draws.")),),
        )
    if card_rule and card_rule.play == "any":
        return Verdict(
            True, Message(N_("%(card)s may be played on any card."), {"card": card}, the), rule_text, effects, next_suit
        )
    if _matches(card, top, suit):
        reason = (
            Message(N_("%(card)s follows the suit in play (%(suit)s)."), {"card": card, "suit": SuitRef(suit)}, the)
            if card.suit == suit
            else Message(N_("%(card)s has the same rank as %(top)s."), names, the)
        )
        return Verdict(True, reason, rule_text, effects, next_suit)
    if top_rule and top_rule.takes_rank:
        return _on_covering_card(top, card, under, suit, effects, next_suit)
    return Verdict(
        False,
        Message(
            N_("%(card)s matches neither the suit in play (%(suit)s) nor the rank of %(top)s."),
            {**names, "suit": SuitRef(suit)},
            the,
        ),
        rule_text,
        (Message(N_("The player plays another card, or draws.")),),
    )


def _answer_attack(ruleset, top_rule, top, card, card_rule, suit, effects, next_suit, rule_text) -> Verdict:
    """A card played on an attack not yet paid: an answer, a card that cancels it, a card that
    jumps in out of turn, or nothing (the player pays)."""
    chain = top_rule.chain
    answers = list(chain.answers) if chain else []
    answers += [a for option, cards in top_rule.answers_with.items() if ruleset.options.get(option) for a in cards]
    answers = list(dict.fromkeys(answers))
    cancels = list(chain.cancels) if chain else []
    names, the = {"card": card, "top": top}, {"card": "the", "top": "the"}
    if answers and cancels:
        allowed = Message(
            N_("A pending chain may be answered only with %(answers)s, or cancelled with %(cancels)s."),
            {"answers": _cards(answers), "cancels": _cards(cancels)},
            {"answers": "a", "cancels": "a"},
        )
    elif answers:
        allowed = Message(
            N_("A pending attack may be answered only with %(answers)s."),
            {"answers": _cards(answers)},
            {"answers": "a"},
        )
    else:
        allowed = Message(N_("A pending attack cannot be answered: the player pays it."))
    if _is_among(card, cancels):
        return Verdict(
            True,
            Message(N_("%(card)s cancels the chain of %(top)s: nobody draws."), names, the),
            allowed,
            (Message(N_("The chain is cancelled: nobody draws.")), *effects),
            next_suit,
        )
    if _is_among(card, answers):
        return Verdict(
            True,
            Message(N_("%(card)s answers %(top)s, which had not been paid yet."), names, the),
            allowed,
            effects,
            next_suit,
        )
    if card_rule and card_rule.out_of_turn and _matches(card, top, suit):
        return Verdict(
            True,
            Message(
                N_(
                    "%(card)s may jump in, even on %(top)s still to be paid: the player who had to pay is skipped and pays nothing."
                ),
                names,
                the,
            ),
            rule_text,
            effects,
            next_suit,
        )
    return Verdict(
        False,
        Message(N_("%(top)s has not been paid yet: %(card)s cannot answer it."), names, the),
        allowed,
        tuple(_penalty(top_rule)),
        turn_lost=_pays_with_turn(top_rule),
    )


def _on_covering_card(top, card, under, suit, effects, next_suit) -> Verdict:
    """A card that follows neither the named suit nor the top card's rank, on a card that counts
    as the card it covers (source 004: « semblable à la carte qu'il vient recouvrir »)."""
    rule = Message(N_("%(top)s counts as the card it covers."), {"top": Card(top.rank)}, {"top": "a"})
    the = {"card": "the", "top": "the"}
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
                the,
            ),
            rule,
            effects,
            next_suit,
        )
    return Verdict(
        False,
        Message(
            N_("%(card)s matches neither the suit named (%(suit)s) nor the card under %(top)s (%(covered)s)."),
            {"card": card, "top": top, "suit": SuitRef(suit), "covered": under},
            the,
        ),
        rule,
        (Message(N_("The player plays another card, or draws.")),),
    )


def _matches(card: Card, top: Card, suit: str | None) -> bool:
    return card.suit == suit or (not top.is_joker and card.rank == top.rank)


def _pays_with_turn(rule: CardRule) -> bool:
    return rule.chain.skip if rule.chain else bool(rule.skip or rule.steal)


def _penalty(rule: CardRule) -> list[Message]:
    """What the player who cannot answer an attack does: the draw, and the lost turn when the
    rule says so (the same words as the rule page)."""
    if rule.chain:
        chain, params = rule.chain, {"draw": rule.chain.draw}
        if chain.per_card:
            text = (
                N_("The player draws %(draw)s cards for each card of the chain and loses the turn.")
                if chain.skip
                else N_("The player draws %(draw)s cards for each card of the chain.")
            )
        elif chain.draw == 1:
            text = (
                N_("The player draws %(draw)s card and loses the turn.")
                if chain.skip
                else N_("The player draws %(draw)s card.")
            )
        else:
            text = (
                N_("The player draws %(draw)s cards and loses the turn.")
                if chain.skip
                else N_("The player draws %(draw)s cards.")
            )
        return [Message(text, params)]
    if rule.draw:
        return [Message(N_("The player draws %(draw)s cards and loses the turn."), {"draw": rule.draw})]
    return [Message(N_("The player takes a card at random from the previous player's hand and loses the turn."))]

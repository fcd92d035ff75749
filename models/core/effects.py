"""What a card does, as messages (SPEC §3): how it is played, what happens after it, what an
answered attack sends on to the next player, what the player who cannot answer pays, and what a
card laid against the rules costs. One source for the rule pages, the comparison and the dispute
checker (``models/core/referee.py``).

All of it comes from the variant data (``CardRule``, ``Penalty``) and the game's house options;
counts go through plural messages (``Nn_``), worded per language by the web layer.
"""

from __future__ import annotations

from .cards import Card, parse_card
from .text import N_, Message, Nn_, SuitRef
from .variant import CardRule, Penalty, Ruleset


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


def own_draw(rule: CardRule | None) -> int:
    """The cards one such card makes the next player draw (its chain's count per card)."""
    if rule is None:
        return 0
    return rule.chain.draw if rule.chain else rule.draw


def answers_to(rule: CardRule, ruleset: Ruleset) -> list[str]:
    """The cards that may answer this card's pending attack: its chain's, and those the game's
    house options add (000 « Empilement des +2 et +4 », « Contre Joker »)."""
    answers = list(rule.chain.answers) if rule.chain else []
    answers += [a for option, cards in rule.answers_with.items() if ruleset.options.get(option) for a in cards]
    return list(dict.fromkeys(answers))


def pays_with_turn(rule: CardRule) -> bool:
    """Whether the player who pays this card's attack also loses the turn."""
    return rule.chain.skip if rule.chain else bool(rule.skip or rule.steal)


def due_after(top_rule: CardRule, answer_rule: CardRule | None, due: int | None) -> int:
    """The cards a pending draw counts once answered: what it counted (``due``, by default the top
    card's own) plus the answer's own draw — 003 « deux cartes par As posé, c'est-à-dire quatre
    cartes », and the house stacking of 000 (interpretation: the draws add up). A chain that is
    not counted per card (huit-elabore's 6: « Jouera un 6 ou prendra une carte ») stays as it is."""
    before = own_draw(top_rule) if due is None else due
    if top_rule.chain and not top_rule.chain.per_card:
        return before
    return before + own_draw(answer_rule)


# --- what happens after a card ----------------------------------------------------------------------


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
    out = _before(rule) + _attack(rule, ruleset) + _after(rule, ruleset, players)
    return out or [Message(N_("Play passes to the next player."))]


def chain_effects(rule: CardRule | None, card: Card, ruleset: Ruleset, players: int, due: int) -> list[Message]:
    """What an answer to a pending attack makes happen: the draw goes on to the next player, now
    ``due`` cards (source 000 « renvoyer » la pioche au suivant), who may answer in turn or pays
    it all; then the card's other effects (a suit named…)."""
    out = [
        Message(
            Nn_(
                "%(card)s sends the draw on to the next player: it now counts %(count)s card.",
                "%(card)s sends the draw on to the next player: it now counts %(count)s cards.",
            ),
            {"card": card, "count": due},
            {"card": "the"},
            plural_by="count",
        )
    ]
    answers = [parse_card(a) for a in answers_to(rule, ruleset)] if rule else []
    cancels = [parse_card(c) for c in rule.chain.cancels] if rule and rule.chain else []
    turn = bool(rule) and pays_with_turn(rule)
    if answers and cancels:  # 001 « Le 8 annule le cumul des As »
        template = (
            N_(
                "The next player may send it on in turn with %(answers)s or cancel it with %(cancels)s; otherwise they "
                "draw it all and lose the turn."
            )
            if turn
            else N_(
                "The next player may send it on in turn with %(answers)s or cancel it with %(cancels)s; otherwise they "
                "draw it all."
            )
        )
        out.append(Message(template, {"answers": answers, "cancels": cancels}, {"answers": "a", "cancels": "a"}))
    elif answers:
        template = (
            N_("The next player may send it on in turn with %(answers)s; otherwise they draw it all and lose the turn.")
            if turn
            else N_("The next player may send it on in turn with %(answers)s; otherwise they draw it all.")
        )
        out.append(Message(template, {"answers": answers}, {"answers": "a"}))
    else:
        out.append(
            Message(N_("The next player draws it all and loses the turn."))
            if turn
            else Message(N_("The next player draws it all."))
        )
    return out + _resumes(rule, card) + _before(rule) + _after(rule, ruleset, players) if rule else out


def _resumes(rule: CardRule, card: Card) -> list[Message]:
    """Where play goes once a chain that costs the turn ends: in the suit of its last card, the one
    just played (003 « Le jeu repart avec la couleur de l'As posé en dernier »)."""
    if not (rule.chain and rule.chain.skip) or card.suit is None:
        return []
    return [
        Message(
            N_("Then play goes on in the suit of %(card)s, the last card of the chain: %(suit)s."),
            {"suit": SuitRef(card.suit), "card": card},
            {"card": "the"},
        )
    ]


def _before(rule: CardRule) -> list[Message]:
    out = []
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
    return out


def _attack(rule: CardRule, ruleset: Ruleset) -> list[Message]:
    """The draw a card makes the next player face, and what may answer it."""
    out = []
    if rule.chain:
        out += _chain(rule)
    if rule.draw:
        out.append(
            Message(
                Nn_(
                    "The next player draws %(draw)s card and loses the turn.",
                    "The next player draws %(draw)s cards and loses the turn.",
                ),
                {"draw": rule.draw},
                plural_by="draw",
            )
        )
        answers = [a for option, cards in rule.answers_with.items() if ruleset.options.get(option) for a in cards]
        if answers:
            out.append(
                Message(
                    N_("Unless they send it on with %(answers)s (house rule)."),
                    {"answers": [parse_card(a) for a in dict.fromkeys(answers)]},
                    {"answers": "a"},
                )
            )
    return out


def _chain(rule: CardRule) -> list[Message]:
    chain = rule.chain
    params = {"answers": [parse_card(a) for a in chain.answers], "draw": chain.draw}
    forms = {"answers": "a"}
    if chain.per_card:
        template = Nn_(
            "The next player must answer with %(answers)s, or draw %(draw)s card for each card of the chain.",
            "The next player must answer with %(answers)s, or draw %(draw)s cards for each card of the chain.",
        )
    else:
        template = Nn_(
            "The next player must answer with %(answers)s, or draw %(draw)s card.",
            "The next player must answer with %(answers)s, or draw %(draw)s cards.",
        )
    out = [Message(template, params, forms, plural_by="draw")]
    if chain.cancels:
        out.append(
            Message(
                N_("%(cancels)s cancels the chain instead: nobody draws."),
                {"cancels": [parse_card(c) for c in chain.cancels]},
                {"cancels": "a"},
            )
        )
    if chain.skip:
        out.append(
            Message(
                N_("Whoever draws them also loses the turn; play resumes in the suit of the last card of the chain.")
            )
        )
    return out


def _after(rule: CardRule, ruleset: Ruleset, players: int) -> list[Message]:
    out = []
    skip_at_two = two_player_skip(rule, ruleset, players)
    if rule.steal and not rule.draw:
        out.append(Message(N_("The next player takes a card at random from this player's hand and loses the turn.")))
    elif (rule.skip or skip_at_two) and not rule.draw:
        out.append(Message(N_("The next player loses the turn.")))
    if rule.reverse and not skip_at_two:
        out.append(Message(N_("The direction of play reverses.")))
    if rule.play_again:
        out.append(Message(N_("The same player plays again (or draws a card).")))
    if rule.swap_hands:
        out.append(Message(N_("The player may swap hands with anyone who is not down to one card.")))
    if rule.out_of_turn:
        out.append(Message(N_("The player whose turn it was is skipped.")))
    return out


# --- what is paid ------------------------------------------------------------------------------------


def penalty_of_attack(rule: CardRule, due: int | None = None) -> list[Message]:
    """What the player who cannot answer an attack does: the draw (``due`` cards when the pending
    draw's count is known), and the lost turn when the rule says so (the words of the rule page)."""
    turn = pays_with_turn(rule)
    if rule.chain and due is None and rule.chain.per_card:
        template = (
            Nn_(
                "The player draws %(draw)s card for each card of the chain and loses the turn.",
                "The player draws %(draw)s cards for each card of the chain and loses the turn.",
            )
            if turn
            else Nn_(
                "The player draws %(draw)s card for each card of the chain.",
                "The player draws %(draw)s cards for each card of the chain.",
            )
        )
        return [Message(template, {"draw": rule.chain.draw}, plural_by="draw")]
    if rule.chain or rule.draw:
        draw = own_draw(rule) if due is None else due
        template = (
            Nn_(
                "The player draws %(draw)s card and loses the turn.",
                "The player draws %(draw)s cards and loses the turn.",
            )
            if turn
            else Nn_("The player draws %(draw)s card.", "The player draws %(draw)s cards.")
        )
        return [Message(template, {"draw": draw}, plural_by="draw")]
    return [Message(N_("The player takes a card at random from the previous player's hand and loses the turn."))]


def cost_of(penalty: Penalty) -> tuple:
    """What a card laid against the rules costs, from the variant's ``[penalty]`` (001 « tout
    joueur qui … enfreint une règle pioche également deux cartes supplémentaires »; 003, autre
    variante, « toute carte inadéquate à la série doit être reprise », « pénalisé par la pioche
    d'une carte au talon »). Where the source sets none, that is said plainly."""
    back = (
        Message(N_("A card already laid goes back to the hand."))
        if penalty.take_back
        else Message(N_("A card already laid stays on the pile."))
    )
    if not penalty.stated:
        if penalty.take_back:
            return (Message(N_("The rules set no penalty: a card already laid simply goes back to the hand.")),)
        return (Message(N_("The rules set no penalty: a card already laid stays on the pile.")),)
    if not penalty.draw:
        return (Message(N_("Penalty: the player loses the turn.")), back)
    out = [
        Message(
            Nn_("Penalty: the player draws %(draw)s more card.", "Penalty: the player draws %(draw)s more cards."),
            {"draw": penalty.draw},
            plural_by="draw",
        )
    ]
    if penalty.turn_lost:
        out.append(Message(N_("They also lose the turn.")))
    return (*out, back)


def again_cost() -> Message:
    """A card that makes its player play again, laid as the last card: no penalty, the round
    goes on (001 « S'il ne peut pas, il est contraint de piocher, même s'il n'a plus de carte en
    main »; 003 « On ne peut finir sur un 9 (puisqu'il contraint de rejouer) »)."""
    return Message(
        N_("No penalty: laid as the last card, it stays, and the same player plays again or draws; the round goes on.")
    )


def cost_facts(penalty: Penalty) -> tuple:
    """The same cost in a few words, for a rule page's facts and the comparison ("Wrong card:
    taken back, 2 more cards to draw")."""
    out = [Message(N_("taken back")) if penalty.take_back else Message(N_("left on the pile"))]
    if not penalty.stated:
        out.append(Message(N_("no penalty set")))
    if penalty.draw:
        out.append(
            Message(
                Nn_("%(draw)s more card to draw", "%(draw)s more cards to draw"),
                {"draw": penalty.draw},
                plural_by="draw",
            )
        )
    if penalty.turn_lost:
        out.append(Message(N_("the turn lost")))
    if penalty.stated and penalty.applies_to == "any_rule":
        out.append(Message(N_("the same for any other rule broken")))
    return tuple(out)

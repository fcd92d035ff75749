"""What a rule page shows, as data: the facts of a variant (or of a game's settings), its special
cards and what they do, its points, how a game ends, how it may be finished, the house options.

Built from the variant data and the rule-page files (``models/core/rulebook.py``); every text is a
``Message`` or a text of the files, worded by the web layer. Pure: no Flask.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JOKER, RANKS, Card, parse_card
from .effects import cost_facts, effects_of, no_effect, play_rule
from .rulebook import Rulebook, VariantRules, rules_of
from .text import N_, Message, Nn_
from .variant import CardRule, Ruleset, ScoringTable, Variant, resolve

# --- the generated parts --------------------------------------------------------------------------

MODE_NAMES = {"penalty": N_("Penalty points"), "winner": N_("Winner collects"), "wins": N_("Rounds won")}


@dataclass(frozen=True)
class CardEntry:
    """One special card of a variant: how it is played and what it does."""

    card: Card
    slug: str  # for the anchor: section id + "-" + slug
    rule: CardRule
    play: Message
    effects: tuple  # of Message
    two_players: tuple = ()  # effects with two players, where they differ (rule page of a variant)
    not_on: tuple = ()  # of Card
    house: bool = False  # a game's options change it (compared with the variant's defaults)

    @property
    def never_on(self) -> Message | None:
        return not_on_message(self)


def sample_players(variant: Variant) -> int:
    """The player count the effects are described for on a variant's page (two-player cases aside)."""
    return min(max(3, variant.min_players), variant.max_players)


def card_entries(ruleset: Ruleset, players: int | None = None, default: Ruleset | None = None) -> list[CardEntry]:
    """The variant's special cards in file order; for a game (``players`` given) with the game's
    count, marked ``house`` where its options change the effect compared with ``default``."""
    entries = []
    count = players or sample_players(ruleset.variant)
    for rule in ruleset.variant.cards:
        card = parse_card(rule.card)
        effects = tuple(effects_of(rule, card, ruleset, count))
        two = ()
        if players is None and ruleset.variant.min_players <= 2 < count:
            at_two = tuple(effects_of(rule, card, ruleset, 2))
            if no_effect(rule, 2):  # shown after "With two players:", which need not be said twice
                at_two = (Message(N_("no effect, play simply goes on.")),)
            two = at_two if at_two != effects else ()
        house = default is not None and effects != tuple(effects_of(rule, card, default, count))
        entries.append(
            CardEntry(
                card=card,
                slug=rule.card.lower(),
                rule=rule,
                play=play_rule(rule),
                effects=effects,
                two_players=two,
                not_on=tuple(parse_card(c) for c in rule.not_on),
                house=house,
            )
        )
    return entries


def not_on_message(entry: CardEntry) -> Message | None:
    if not entry.not_on:
        return None
    return Message(N_("Never on %(cards)s."), {"cards": list(entry.not_on)}, {"cards": "a"})


def points_rows(table: ScoringTable, jokers: bool = True) -> list[tuple[Card, int]]:
    """Every card value of a table: the Joker first (where valued and in the deck), A … K, then
    suit exceptions."""
    rows = [(Card(JOKER), table.ranks[JOKER])] if table.has_joker() and jokers else []
    rows += [(Card(rank), table.ranks[rank]) for rank in RANKS]
    rows += [(parse_card(text), points) for text, points in table.cards.items()]
    return rows


FACE_RANKS = ("3", "4", "5", "6", "7", "9", "10")


def points_summary(table: ScoringTable, jokers: bool = True) -> tuple:
    """The values that tell tables apart, as messages: JK, 8, A, 2, K, Q, J, exceptions, the rest."""
    out = [
        Message(N_("%(card)s: %(points)s"), {"card": Card(rank), "points": table.ranks[rank]})
        for rank in (JOKER, "8", "A", "2", "K", "Q", "J")
        if rank in table.ranks and (jokers or rank != JOKER)
    ]
    out += [
        Message(N_("%(card)s: %(points)s"), {"card": parse_card(text), "points": points})
        for text, points in table.cards.items()
    ]
    values = {table.ranks[r] for r in FACE_RANKS}
    if all(table.ranks[r] == int(r) for r in FACE_RANKS):
        out.append(Message(N_("3–\u20607, 9, 10: face value")))  # a word joiner: the range never breaks
    elif len(values) == 1:
        out.append(Message(N_("3–\u20607, 9, 10: %(points)s"), {"points": values.pop()}))
    else:
        out += [Message(N_("%(card)s: %(points)s"), {"card": Card(r), "points": table.ranks[r]}) for r in FACE_RANKS]
    return tuple(out)


def deck_message(ruleset: Ruleset) -> tuple:
    """The deck the game uses (``Ruleset.deck``): packs, ranks taken out, jokers."""
    deck = ruleset.deck
    cards = 4 * len(deck.ranks)
    if deck.decks == 1:
        pack = Message(N_("One %(cards)s-card pack"), {"cards": cards})
    else:
        pack = Message(N_("%(decks)s packs of %(cards)s cards"), {"decks": deck.decks, "cards": cards})
    out = [pack]
    if deck.without:
        out.append(
            Message(N_("without the %(ranks)s"), {"ranks": [Card(r) for r in deck.without]}, {"ranks": "plural"})
        )
    if not deck.jokers:
        return (*out, Message(N_("no Joker")))
    jokers = Message(
        Nn_("plus %(jokers)s Joker", "plus %(jokers)s Jokers"), {"jokers": deck.jokers}, plural_by="jokers"
    )
    return (*out, jokers)


def players_message(variant: Variant) -> tuple:
    out = [Message(N_("%(min)s to %(max)s players"), {"min": variant.min_players, "max": variant.max_players})]
    if variant.partners_players:
        out.append(
            Message(
                N_("with %(players)s, two teams of partners sitting opposite"), {"players": variant.partners_players}
            )
        )
    return tuple(out)


def deal_message(variant: Variant) -> tuple:
    steps = variant.deal.by_players
    if len(steps) == 1:
        out = [Message(N_("%(cards)s cards each"), {"cards": steps[0][2]})]
    else:
        out = [
            Message(N_("%(cards)s cards each with %(low)s players"), {"cards": c, "low": lo})
            if lo == hi
            else Message(
                N_("%(cards)s cards each with %(low)s to %(high)s players"), {"cards": c, "low": lo, "high": hi}
            )
            for lo, hi, c in steps
        ]
    if variant.deal.more_allowed:
        out.append(Message(N_("the dealer may deal more")))
    return tuple(out)


def end_message(ruleset: Ruleset) -> Message:
    """How a game of these settings is counted and when it ends."""
    if ruleset.rounds:
        if ruleset.mode == "penalty":
            return Message(N_("Played over %(rounds)s rounds; then the lowest total wins."), {"rounds": ruleset.rounds})
        return Message(N_("Played over %(rounds)s rounds; then the highest total wins."), {"rounds": ruleset.rounds})
    params = {"target": ruleset.target}
    if ruleset.mode == "penalty":
        return Message(
            N_(
                "Everyone but the round's winner adds the value of their hand. The game ends after the round "
                "in which a total reaches %(target)s; the lowest total wins."
            ),
            params,
        )
    if ruleset.mode == "winner":
        return Message(
            N_("The round's winner scores the cards left in the other hands; the first to reach %(target)s wins."),
            params,
        )
    return Message(N_("The round's winner scores 1; the first to win %(target)s rounds wins the game."), params)


def end_short(ruleset: Ruleset) -> Message:
    if ruleset.rounds:
        if ruleset.mode == "penalty":
            return Message(N_("%(rounds)s rounds, lowest total wins"), {"rounds": ruleset.rounds})
        return Message(N_("%(rounds)s rounds, highest total wins"), {"rounds": ruleset.rounds})
    if ruleset.mode == "penalty":
        return Message(N_("to %(target)s points, lowest total wins"), {"target": ruleset.target})
    if ruleset.mode == "winner":
        return Message(N_("first to %(target)s points wins"), {"target": ruleset.target})
    return Message(N_("first to %(target)s rounds won"), {"target": ruleset.target})


def finish_message(ruleset: Ruleset) -> Message:
    if not ruleset.finish_forbidden:
        return Message(N_("Any card may be the last one."))
    return Message(
        N_("Nobody may go out on %(cards)s."), {"cards": [Card(r) for r in ruleset.finish_forbidden]}, {"cards": "a"}
    )


def differences(ruleset: Ruleset, default: Ruleset) -> frozenset:
    """What a game changes from its variant's defaults: "decks", "table", "mode", "target",
    "rounds", "finish", and "option:<id>" for each house option set otherwise."""
    out = {f"option:{key}" for key, value in ruleset.options.items() if default.options.get(key) != value}
    for name in ("decks", "mode", "target", "rounds", "finish_forbidden"):
        if getattr(ruleset, name) != getattr(default, name):
            out.add("finish" if name == "finish_forbidden" else name)
    if ruleset.table.id != default.table.id:
        out.add("table")
    return frozenset(out)


def option_value_label(option, value):
    """The shown value of a house option: a data text for a labelled choice, else a Message or text."""
    if option.kind == "bool":
        return Message(N_("yes")) if value else Message(N_("no"))
    label = option.choice_labels.get(str(value))
    return label if label else str(value)


def referee_options(variant: Variant) -> tuple:
    """The house options that change what the dispute checker answers (answers to an attack,
    two-player effects, finishing restrictions)."""
    used = set()
    for rule in variant.cards:
        used.update(rule.answers_with)
        if "option" in rule.two_players:
            used.add(rule.two_players["option"])
    return tuple(o for o in variant.options if o.id in used or o.finish_forbidden)


def covering_cards(variant: Variant) -> tuple:
    """The card texts that count as the card they cover (les-huit's 8): after them the dispute
    checker asks which card is underneath."""
    return tuple(r.card for r in variant.cards if r.takes_rank)


def answered_attacks(variant: Variant) -> tuple:
    """The card texts whose pending attack may be answered and sent on (a chain, or an answer a
    house option allows): after them the dispute checker asks how many cards the draw counts."""
    return tuple(r.card for r in variant.cards if r.chain or (r.attacks and r.answers_with))


def suit_naming_cards(variant: Variant) -> tuple:
    """The card texts after which a suit is named (a Joker, in a deck that has them, always leaves
    one to follow)."""
    out = [r.card for r in variant.cards if r.names_suit]
    return tuple(dict.fromkeys([*out, *([JOKER] if variant.jokers_per_deck else [])]))


# --- a rule page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulePage:
    variant: Variant
    rules: VariantRules
    ruleset: Ruleset
    default: Ruleset
    players: int | None  # a game's player count (None: the variant's page)
    cards: tuple
    points: tuple
    changed: frozenset  # differences(ruleset, default)
    facts: tuple  # (label Message, items, changed key or None)

    @property
    def is_game(self) -> bool:
        return self.players is not None

    @property
    def finish(self) -> Message:
        return finish_message(self.ruleset)

    @property
    def mode_name(self) -> Message:
        return Message(MODE_NAMES[self.ruleset.mode])

    @property
    def end(self) -> Message:
        return end_message(self.ruleset)


def rule_page(variant: Variant, tables, book: Rulebook, ruleset: Ruleset | None = None, players=None) -> RulePage:
    """Everything a variant's rule page shows; with a game's ``ruleset`` and ``players``, as that
    game plays. ``tables``: the built-in tables (a variant's defaults are resolved with them)."""
    default = resolve(tables, variant)
    ruleset = ruleset or default
    changed = differences(ruleset, default)
    table_name = ruleset.table.name
    facts = (
        (Message(N_("Cards")), deck_message(ruleset), "decks"),
        (Message(N_("Players")), players_message(variant), None),
        (Message(N_("Deal")), deal_message(variant), None),
        (
            Message(N_("Scoring")),
            (Message(MODE_NAMES[ruleset.mode]), table_name),
            "mode" if "mode" in changed else "table",
        ),
        (Message(N_("End of the game")), (end_short(ruleset),), "rounds" if "rounds" in changed else "target"),
        (Message(N_("Going out")), (finish_message(ruleset),), "finish"),
        (Message(N_("Wrong card")), cost_facts(variant.penalty), None),
    )
    return RulePage(
        variant=variant,
        rules=rules_of(book, variant),
        ruleset=ruleset,
        default=default,
        players=players,
        cards=tuple(card_entries(ruleset, players, default if players else None)),
        points=tuple(points_rows(ruleset.table, bool(ruleset.jokers))),
        changed=changed,
        facts=facts,
    )

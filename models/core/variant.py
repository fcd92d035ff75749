"""A variant and a game's rules as typed objects: what scoring and the referee work from.

``Variant`` (with its own ``ScoringTable``, special ``CardRule``s and ``HouseOption``s) is what a
variant file or a house-rules document describes once validated (``models/core/rules.py``,
``models/core/house_rules.py``). ``resolve`` applies a game's choices (house options, table, mode,
target or number of manches) over a variant's defaults and gives the ``Ruleset``. ``Catalog``
holds the built-in variants and tables. Pure: no Flask, no ORM.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import JOKER, RANKS, Card, Deck, parse_card
from .errors import N_, UnknownVariant, ValidationError

LANGUAGES = ("fr", "en")
MAX_TARGET = 100_000
# The most manches a game holds: recorded one by one, imported from a file, or set as the
# number of manches to play. One constant, stated in docs/hosting.md.
MAX_MANCHES = 1_000
# The most a card left in hand may be worth in any table (built-in or house rules). With the
# largest deck (4 packs of 52 and 4 jokers each) the fullest hand is worth at most 224,000:
# far inside the INTEGER column that keeps a hand's value (and a game's totals stay small).
MAX_CARD_POINTS = 1_000


@dataclass(frozen=True)
class Mode:
    """How a scoring mode turns the hands left into points, as numbers (SPEC §2): what
    ``scoring.manche_points`` reads, and the phone's offline scorer with it (static/js/score.js,
    fed by ``models/core/scorer_data.py``). The *winners* of a manche are the side that went out,
    or in a blocked manche the side with the lowest hands (source 004: « Le gagnant est celui
    qui a le moins de points. Il marque la différence… »).

    - ``pays``: each side that did not win adds this many times its own hands;
    - ``collects``: the winners add this many times the others' hands (in a blocked manche, each
      less the winners' own: « la différence »);
    - ``bonus``: the winners add this for winning;
    - ``tie``: a blocked manche where several sides hold the lowest hands: ``"share"`` (each of
      them is a winner) or ``"void"`` (nobody scores) — both interpretations;
    - ``low_wins``: the lowest total wins the game (else the highest)."""

    pays: int
    collects: int
    bonus: int
    tie: str
    low_wins: bool

    def as_dict(self) -> dict:
        return {
            "pays": self.pays,
            "collects": self.collects,
            "bonus": self.bonus,
            "tie": self.tie,
            "low_wins": self.low_wins,
        }


# penalty: the winner adds 0, every other side its own hands; winner (winner collects): the
# winner adds the others' hands; wins: the winner adds 1 (SPEC §2).
MODES = MappingProxyType(
    {
        "penalty": Mode(pays=1, collects=0, bonus=0, tie="share", low_wins=True),
        "winner": Mode(pays=0, collects=1, bonus=0, tie="void", low_wins=False),
        "wins": Mode(pays=0, collects=0, bonus=1, tie="void", low_wins=False),
    }
)


def localized(text: dict | str | None, lang: str) -> str:
    """Pick ``lang`` from a ``{"fr": …, "en": …}`` text (French when the language is missing)."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return text.get(lang) or text.get("fr") or ""


@dataclass(frozen=True)
class ScoringTable:
    """Points per card left in hand: a value per rank, with suit-specific exceptions."""

    id: str
    source: str
    name: dict
    ranks: MappingProxyType  # rank (or "JK") -> points
    cards: MappingProxyType  # full card text ("2S") -> points

    def has_joker(self) -> bool:
        return JOKER in self.ranks

    def distinguishes_suits(self, rank: str) -> bool:
        return any(parse_card(text).rank == rank for text in self.cards)

    def as_dict(self) -> dict:
        """Points per card as the API shows them: every rank, JK, then the suit exceptions."""
        out = {r: self.ranks[r] for r in (JOKER, *RANKS) if r in self.ranks}
        out.update(self.cards)
        return out


@dataclass(frozen=True)
class HouseOption:
    id: str
    kind: str
    default: object
    label: dict
    choices: tuple = ()
    choice_labels: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    sets: str | None = None
    finish_forbidden: tuple = ()

    def coerce(self, value, field_name: str):
        """The option's value from user input (JSON value or form text), or a ValidationError."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("1", "true", "on", "yes", "oui"):
                return True
            if isinstance(value, str) and value.lower() in ("0", "false", "off", "no", "non", ""):
                return False
            raise ValidationError(N_("Option %(option)s takes true or false."), field=field_name, option=self.id)
        for choice in self.choices:
            if value == choice or (isinstance(value, str) and value == str(choice)):
                return choice
        raise ValidationError(
            N_("Option %(option)s takes one of: %(choices)s."),
            field=field_name,
            option=self.id,
            choices=", ".join(map(str, self.choices)),
        )


@dataclass(frozen=True)
class DealRule:
    """Cards dealt to each player, possibly by player count; ``more_allowed``: the dealer may deal more."""

    by_players: tuple  # ((min, max, cards), ...)
    more_allowed: bool = False

    def cards_for(self, players: int, deck_size: int | None = None) -> int:
        """Cards per player; capped so that a card is left to turn over (interpretation: with a
        single pack a dealer cannot give 8 cards to 8 players, so each gets as many as fit)."""
        cards = self.by_players[-1][2]
        for low, high, count in self.by_players:
            if low <= players <= high:
                cards = count
                break
        if deck_size:
            cards = min(cards, (deck_size - 1) // max(players, 1))
        return cards

    def as_dict(self):
        if len(self.by_players) == 1:
            return self.by_players[0][2]
        return [{"min": lo, "max": hi, "cards": c} for lo, hi, c in self.by_players]


@dataclass(frozen=True)
class Chain:
    """An attack the next player must answer with one of ``answers`` or pay: ``draw`` cards
    (per card of the chain when ``per_card``), losing the turn when ``skip``. A card of
    ``cancels`` ends the chain instead: nobody draws (deux-jeux's 8, source 001)."""

    answers: tuple
    draw: int
    per_card: bool = True
    skip: bool = False
    cancels: tuple = ()


@dataclass(frozen=True)
class Penalty:
    """What a card played against the rules costs (``[penalty]`` of a variant file): ``draw``
    cards from the stock, the card taken back into the hand (``take_back``), the turn lost
    (``turn_lost``). ``applies_to``: "unfit_card", a card the pile refuses (003, autre variante,
    « toute carte inadéquate à la série »), or "any_rule", any rule broken, playing out of turn or
    going out on a forbidden card too (001 « qui joue lorsque ce n'est pas son tour ou qui
    enfreint une règle »). A variant whose source sets no penalty draws 0 and keeps the turn: then
    the referee says plainly that none is stated, and only the card goes back."""

    draw: int = 0
    take_back: bool = True
    turn_lost: bool = False
    applies_to: str = "unfit_card"

    @property
    def stated(self) -> bool:
        return bool(self.draw or self.turn_lost)

    def for_case(self, unfit: bool) -> Penalty:
        """The penalty of this case: a card the pile refuses (``unfit``) or another rule broken
        (out of turn, a forbidden last card), which only an "any_rule" penalty covers."""
        return self if unfit or self.applies_to == "any_rule" else Penalty()


@functools.lru_cache(maxsize=256)
def card_spec(text: str) -> Card:
    """A card text of the variant files, parsed once (the referee asks for card rules often)."""
    return parse_card(text)


@dataclass(frozen=True)
class CardRule:
    """How one special card (a rank such as "8", or one card such as "2S") is played, what it does.

    ``play``: "any" (on any card) or "matching" (same suit as the suit to follow, or same rank).
    Effects: ``names_suit``, ``draw`` N with ``skip``, ``skip``, ``reverse``, ``play_again``,
    ``chain`` (answer or pay), ``steal`` (take a random card from the player's hand),
    ``swap_hands``, ``out_of_turn``, ``takes_rank`` (counts as the rank it covers).
    ``not_on``: cards it may never be played on. ``answers_with``: house option -> cards that may
    answer its pending attack when the option is on. ``two_players``: with two players, either
    ``{"none": True}`` (no effect) or ``{"option": id, VALUE: "skip"}``.
    """

    card: str
    play: str = "matching"
    names_suit: bool = False
    draw: int = 0
    skip: bool = False
    reverse: bool = False
    play_again: bool = False
    chain: Chain | None = None
    steal: bool = False
    swap_hands: bool = False
    out_of_turn: bool = False
    takes_rank: bool = False
    not_on: tuple = ()
    answers_with: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    two_players: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    def matches(self, card: Card) -> bool:
        spec = card_spec(self.card)
        if spec.suit:
            return spec == card
        return spec.rank == card.rank

    @property
    def specific(self) -> bool:
        return card_spec(self.card).suit is not None

    @property
    def attacks(self) -> bool:
        return bool(self.draw or self.chain or self.steal)


@dataclass(frozen=True)
class Variant:
    id: str
    source: str
    order: int
    name: dict
    summary: dict
    interpretations: tuple
    decks: int
    jokers_per_deck: int
    min_players: int
    max_players: int
    deal: DealRule
    mode: str
    table: ScoringTable  # the variant's own table (a house variant's may be its own, inline)
    table_choice: bool
    target: int
    blocked: bool
    partners_players: int | None
    finish_forbidden: tuple
    finish_rule: dict
    options: tuple  # of HouseOption
    cards: tuple = ()  # of CardRule
    rounds: int | None = None  # a number of manches instead of the target, by default
    must_play: bool = False
    path: str = ""
    base: str | None = None  # house rules: the built-in variant they were built from
    without: tuple = ()  # ranks taken out of each pack
    penalty: Penalty = field(default_factory=Penalty)  # what a card played against the rules costs

    @property
    def house(self) -> bool:
        return self.base is not None

    def card_rule(self, card: Card) -> CardRule | None:
        """The rule of a card: the one naming this exact card first, else the one for its rank."""
        specific = [r for r in self.cards if r.specific and r.matches(card)]
        if specific:
            return specific[0]
        return next((r for r in self.cards if not r.specific and r.matches(card)), None)

    def option(self, option_id: str) -> HouseOption | None:
        return next((o for o in self.options if o.id == option_id), None)

    def default_options(self) -> dict:
        return {o.id: o.default for o in self.options}

    @property
    def deck(self) -> Deck:
        """The deck with the variant's own number of packs (a game's option may change it)."""
        return Deck(self.decks, self.decks * self.jokers_per_deck, self.without)


@dataclass(frozen=True)
class Ruleset:
    """A variant with a game's choices applied: what scoring and the referee work from."""

    variant: Variant
    options: MappingProxyType
    decks: int
    table: ScoringTable
    mode: str
    target: int | None
    rounds: int | None
    finish_forbidden: tuple
    partners: bool
    loser_deals: bool

    @property
    def jokers(self) -> int:
        return self.decks * self.variant.jokers_per_deck

    @property
    def deck(self) -> Deck:
        """The deck this game uses: its packs, the variant's ranks taken out, its jokers."""
        return Deck(self.decks, self.jokers, self.variant.without)

    def is_finish_forbidden(self, card: Card) -> bool:
        return card.rank in self.finish_forbidden

    def teams_apply(self, players: int) -> bool:
        return self.partners and self.variant.partners_players == players


@dataclass(frozen=True, eq=False)
class Catalog:
    """The built-in variants (in display order) and the built-in scoring tables (those a game may
    choose instead of its variant's own). House rules are not here: see ``models/services/registry.py``."""

    tables: MappingProxyType
    variants: MappingProxyType  # id -> Variant, in display order

    def variant(self, variant_id) -> Variant:
        try:
            return self.variants[variant_id]
        except (KeyError, TypeError):
            raise UnknownVariant(
                N_("Unknown variant “%(variant)s”. Known: %(known)s."),
                field="variant",
                variant=str(variant_id),
                known=", ".join(self.variants),
            ) from None

    def resolve(self, variant_id, options=None, table=None, mode=None, target=None, rounds=None) -> Ruleset:
        return resolve(self.tables, self.variant(variant_id), options, table, mode, target, rounds)


# --- a game's rules ------------------------------------------------------------------------------


def _table(tables, variant: Variant, table) -> ScoringTable:
    """The scoring table a game chose: the variant's own (the default) or a built-in one that
    values jokers when the deck has them."""
    known = {variant.table.id: variant.table, **{t: tables[t] for t in tables if t != variant.table.id}}
    table_id = variant.table.id if table in (None, "") else table
    if not isinstance(table_id, str) or table_id not in known:
        raise ValidationError(
            N_("Unknown scoring table “%(table)s”. Known: %(known)s."),
            field="table",
            table=str(table_id),
            known=", ".join(known),
        )
    scoring_table = known[table_id]
    if variant.jokers_per_deck and not scoring_table.has_joker():
        raise ValidationError(
            N_("The table “%(table)s” gives jokers no value, but this deck has jokers."), field="table", table=table_id
        )
    return scoring_table


def _end(variant: Variant, target, rounds) -> tuple:
    """(target, rounds): a number of manches instead of a target, else the game's target, else
    the variant's own end."""
    if rounds is not None:
        rounds = _whole(rounds, "rounds", 1, MAX_MANCHES)
        target = None
    elif target is not None:
        rounds, target = None, _whole(target, "target", 1, MAX_TARGET)
    elif variant.rounds:  # the variant itself is played over a number of manches (house rules)
        rounds, target = variant.rounds, None
    else:
        rounds, target = None, variant.target
    return target, rounds


def resolve(tables, variant: Variant, options=None, table=None, mode=None, target=None, rounds=None) -> Ruleset:
    """Apply a game's choices over the variant's defaults.

    ``options`` are the variant's house options (unknown ones are refused); ``table`` the
    variant's own table (the default) or one of ``tables``, the built-in ones (a table that values
    jokers when the deck has them); ``mode`` one of MODES;
    ``rounds`` a number of manches instead of a target (then ``target`` is None).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValidationError(N_("Options must be an object."), field="options")
    values = variant.default_options()
    for key, value in options.items():
        option = variant.option(key)
        if option is None:
            raise ValidationError(
                N_("Unknown option “%(option)s” for this variant."), field=f"options.{key}", option=str(key)
            )
        values[key] = option.coerce(value, f"options.{key}")
    settings = {"decks": variant.decks, "partners": variant.partners_players is not None, "loser_deals": False}
    forbidden = list(variant.finish_forbidden)
    for option in variant.options:
        value = values[option.id]
        if option.sets:
            settings[option.sets] = value
        if option.finish_forbidden and value is True:
            forbidden += [r for r in option.finish_forbidden if r not in forbidden]
    scoring_table = _table(tables, variant, table)
    mode = variant.mode if mode in (None, "") else mode
    if not isinstance(mode, str) or mode not in MODES:
        raise ValidationError(N_("Mode must be one of: %(choices)s."), field="mode", choices=", ".join(MODES))
    target, rounds = _end(variant, target, rounds)
    return Ruleset(
        variant=variant,
        options=MappingProxyType(values),
        decks=settings["decks"],
        table=scoring_table,
        mode=mode,
        target=target,
        rounds=rounds,
        finish_forbidden=tuple(forbidden),
        partners=bool(settings["partners"]),
        loser_deals=bool(settings["loser_deals"]),
    )


WHOLE_MESSAGES = {
    "target": N_("The target is a whole number of points from %(low)s to %(high)s."),
    "rounds": N_("The number of rounds is a whole number from %(low)s to %(high)s."),
}


def _whole(value, field_name: str, low: int, high: int) -> int:
    """An int (bool excluded) from ``low`` to ``high``; a string, even of digits, is refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(
            WHOLE_MESSAGES[field_name],
            field=field_name,
            low=low,
            high=high,
        )
    return value

"""Variants and scoring tables as data: load, validate, resolve a game's rules.

The variant files in ``models/variants/`` (one TOML file each, plus ``tables.toml``) are read and
validated here into frozen objects. A malformed file stops the app at start-up with a
``VariantFileError`` naming the file and the field. ``resolve`` applies a game's choices (house
options, table, mode, target or number of manches) over a variant's defaults and gives the
``Ruleset`` that scoring and the referee work from.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .cards import JOKER, RANKS, Card, Deck, format_card, parse_card
from .errors import N_, DomainError, UnknownVariant, ValidationError, VariantFileError

VARIANTS_DIR = Path(__file__).parent / "variants"
LANGUAGES = ("fr", "en")
MODES = ("penalty", "winner", "wins")
OPTION_KINDS = ("bool", "choice")
SETTABLE = ("decks", "partners", "loser_deals")
MAX_TARGET = 100_000
# The most manches a game holds: recorded one by one, imported from a file, or set as the
# number of manches to play. One constant, stated in the README.
MAX_MANCHES = 1_000
# The most a card left in hand may be worth in any table (built-in or house rules). With the
# largest deck (4 packs of 52 and 4 jokers each) the fullest hand is worth at most 224,000:
# far inside the INTEGER column that keeps a hand's value (and a game's totals stay small).
MAX_CARD_POINTS = 1_000


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

    def suited_ranks(self) -> list[str]:
        return [r for r in RANKS if self.distinguishes_suits(r)]

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
        return Deck(self.decks, self.decks * self.jokers_per_deck)


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
        return Deck(self.decks, self.jokers)

    def is_finish_forbidden(self, card: Card) -> bool:
        return card.rank in self.finish_forbidden

    def teams_apply(self, players: int) -> bool:
        return self.partners and self.variant.partners_players == players


@dataclass(frozen=True, eq=False)
class Catalog:
    """The built-in variants (in display order) and the built-in scoring tables (those a game may
    choose instead of its variant's own). House rules are not here: see ``models/registry.py``."""

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


# --- validation of the files -------------------------------------------------------------------


class FieldReader:
    """The one validator of rules documents (variant files, tables, rule-page files, house rules):
    reads fields from one parsed document, raising ``VariantFileError`` that names the document,
    the field and the problem (a code of ``models/problems.py`` with its parameters)."""

    def __init__(self, path: str, data: dict, prefix: str = ""):
        self.path, self.data, self.prefix = path, data, prefix

    def fail(self, name: str, code: str, **params):
        raise VariantFileError(self.path, self.prefix + name, code, **params)

    def get(self, name: str, kind, default=..., check=None):
        if name not in self.data:
            if default is ...:
                self.fail(name, "missing")
            return default
        value = self.data[name]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            self.fail(name, "wrong_type", expected=getattr(kind, "__name__", str(kind)), got=type(value).__name__)
        if check and not check(value):
            self.fail(name, "invalid_value", value=repr(value))
        return value

    def text(self, name: str, default=...):
        value = self.get(name, dict, default)
        if value is None:
            return None
        for lang in LANGUAGES:
            if not isinstance(value.get(lang), str) or not value[lang].strip():
                self.fail(f"{name}.{lang}", "missing_text")
        return dict(value)

    def bilingual(self, name: str, required: bool = True) -> dict | None:
        """A text in every language of the app (``{fr = …, en = …}``), stripped; None when absent
        and not ``required``."""
        value = self.data.get(name)
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            self.fail(name, "expected_texts")
        for lang in LANGUAGES:
            if not isinstance(value.get(lang), str) or not value[lang].strip():
                self.fail(f"{name}.{lang}", "missing_text")
        for key in value:
            if key not in LANGUAGES:
                self.fail(f"{name}.{key}", "unknown_language")
        return {lang: value[lang].strip() for lang in LANGUAGES}

    def sub(self, name: str, default=...) -> FieldReader:
        value = self.get(name, dict, {} if default is not ... else default)
        return FieldReader(self.path, value, f"{self.prefix}{name}.")

    def check_known(self, known: set):
        for key in self.data:
            if key not in known:
                self.fail(key, "unknown_field")


def _rank_list(reader: FieldReader, name: str, values) -> tuple:
    if not isinstance(values, list):
        reader.fail(name, "expected_ranks")
    out = []
    for v in values:
        if v not in RANKS and v != JOKER:
            reader.fail(name, "unknown_rank", rank=repr(v))
        out.append(v)
    return tuple(out)


def _card_points(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_CARD_POINTS


def validate_table(table_id: str, data: dict, path: str) -> ScoringTable:
    r = FieldReader(path, data, f"{table_id}.")
    r.check_known({"source", "name", "ranks", "cards"})
    ranks = r.get("ranks", dict)
    for rank in RANKS:
        if rank not in ranks:
            r.fail(f"ranks.{rank}", "missing")
    for key, value in ranks.items():
        if key not in RANKS and key != JOKER:
            r.fail(f"ranks.{key}", "unknown_rank")
        if not _card_points(value):
            r.fail(f"ranks.{key}", "points_range", max=MAX_CARD_POINTS)
    cards = {}
    for key, value in r.get("cards", dict, {}).items():
        try:
            card = parse_card(key)
        except DomainError:
            r.fail(f"cards.{key}", "not_a_card")
        if card.suit is None:
            r.fail(f"cards.{key}", "needs_full_card")
        if not _card_points(value):
            r.fail(f"cards.{key}", "points_range", max=MAX_CARD_POINTS)
        cards[format_card(card)] = value
    return ScoringTable(
        id=table_id,
        source=r.get("source", str),
        name=r.text("name"),
        ranks=MappingProxyType(dict(ranks)),
        cards=MappingProxyType(cards),
    )


def _validate_option(r: FieldReader, index: int, data) -> HouseOption:
    if not isinstance(data, dict):
        r.fail(f"options[{index}]", "expected_table")
    o = FieldReader(r.path, data, f"options[{index}].")
    o.check_known({"id", "kind", "choices", "default", "sets", "finish_forbidden", "label", "choice_labels"})
    option_id = o.get("id", str)
    kind = o.get("kind", str, check=lambda k: k in OPTION_KINDS)
    choices = ()
    if kind == "choice":
        choices = tuple(o.get("choices", list, check=lambda c: len(c) >= 2))
        default = o.get("default", (str, int), check=lambda d: d in choices)
    else:
        default = o.get("default", bool)
    sets = o.get("sets", str, None, check=lambda s: s in SETTABLE)
    if sets == "decks" and not all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 4 for c in choices):
        o.fail("choices", "decks_range")
    labels = o.get("choice_labels", dict, {})
    for choice in labels:
        if choice not in map(str, choices):
            o.fail(f"choice_labels.{choice}", "not_a_choice")
        o.sub("choice_labels").text(choice)
    return HouseOption(
        id=option_id,
        kind=kind,
        default=default,
        label=o.text("label"),
        choices=choices,
        choice_labels=MappingProxyType(dict(labels)),
        sets=sets,
        finish_forbidden=_rank_list(o, "finish_forbidden", o.get("finish_forbidden", list, [])),
    )


CARD_RULE_FIELDS = {
    "card", "play", "names_suit", "draw", "skip", "reverse", "play_again", "chain", "steal",
    "swap_hands", "out_of_turn", "takes_rank", "not_on", "answers_with", "two_players",
}  # fmt: skip


def _card_text(reader: FieldReader, name: str, value) -> str:
    try:
        return format_card(parse_card(value)) if isinstance(value, str) else reader.fail(name, "expected_card")
    except DomainError:
        reader.fail(name, "not_a_card", card=repr(value))


def _validate_card_rule(r: FieldReader, index: int, data, option_ids: dict) -> CardRule:
    if not isinstance(data, dict):
        r.fail(f"cards[{index}]", "expected_table")
    c = FieldReader(r.path, data, f"cards[{index}].")
    c.check_known(CARD_RULE_FIELDS)
    card = _card_text(c, "card", c.get("card", str))
    flags = {
        k: c.get(k, bool, False)
        for k in ("names_suit", "skip", "reverse", "play_again", "steal", "swap_hands", "out_of_turn", "takes_rank")
    }
    chain = None
    if "chain" in data:
        ch = c.sub("chain")
        ch.check_known({"answers", "draw", "per_card", "skip", "cancels"})
        chain = Chain(
            answers=tuple(_card_text(ch, "answers", a) for a in ch.get("answers", list, check=bool)),
            cancels=tuple(_card_text(ch, "cancels", a) for a in ch.get("cancels", list, [])),
            draw=ch.get("draw", int, check=lambda n: 0 <= n <= 20),
            per_card=ch.get("per_card", bool, True),
            skip=ch.get("skip", bool, False),
        )
    answers_with = {}
    for option_id, cards in c.get("answers_with", dict, {}).items():
        if option_ids.get(option_id) != "bool":
            c.fail(f"answers_with.{option_id}", "not_a_yes_no_option")
        if not isinstance(cards, list):
            c.fail(f"answers_with.{option_id}", "expected_cards")
        answers_with[option_id] = tuple(_card_text(c, f"answers_with.{option_id}", x) for x in cards)
    two = c.get("two_players", dict, {})
    if two and not (two == {"none": True} or ("option" in two and two["option"] in option_ids)):
        c.fail("two_players", "expected_two_players")
    return CardRule(
        card=card,
        play=c.get("play", str, "matching", check=lambda p: p in ("any", "matching")),
        draw=c.get("draw", int, 0, check=lambda n: 0 <= n <= 20),
        chain=chain,
        not_on=tuple(_card_text(c, "not_on", x) for x in c.get("not_on", list, [])),
        answers_with=MappingProxyType(answers_with),
        two_players=MappingProxyType(dict(two)),
        **flags,
    )


def validate_variant(data: dict, path: str, tables) -> Variant:
    """A Variant from one parsed file, or VariantFileError naming the file and the field."""
    r = FieldReader(path, data)
    r.check_known(
        {
            "id",
            "source",
            "order",
            "name",
            "summary",
            "interpretations",
            "deck",
            "players",
            "deal",
            "scoring",
            "partners",
            "finish",
            "options",
            "cards",
            "play",
            "base",
        }
    )
    variant_id = r.get("id", str, check=lambda s: s.replace("-", "").isalnum() and s == s.lower())
    deck = r.sub("deck")
    deck.check_known({"decks", "jokers_per_deck"})
    decks = deck.get("decks", int, check=lambda n: 1 <= n <= 4)
    jokers_per_deck = deck.get("jokers_per_deck", int, check=lambda n: 0 <= n <= 4)
    players = r.sub("players")
    players.check_known({"min", "max"})
    low = players.get("min", int, check=lambda n: n >= 2)
    high = players.get("max", int, check=lambda n: low <= n <= 12)
    deal = r.sub("deal")
    deal.check_known({"cards", "by_players", "more_allowed"})
    if "by_players" in deal.data:
        steps = []
        for i, step in enumerate(deal.get("by_players", list, check=bool)):
            s = FieldReader(path, step if isinstance(step, dict) else {}, f"deal.by_players[{i}].")
            steps.append((s.get("min", int), s.get("max", int), s.get("cards", int, check=lambda n: n >= 1)))
        covered = {p for lo, hi, _ in steps for p in range(lo, hi + 1)}
        if not set(range(low, high + 1)) <= covered:
            deal.fail("by_players", "deal_gap")
    else:
        steps = [(low, high, deal.get("cards", int, check=lambda n: n >= 1))]
    size = Deck(decks, decks * jokers_per_deck).size
    for lo, _hi, cards in steps:
        if cards * max(lo, low) >= size:
            deal.fail("cards", "deal_too_large", cards=cards, players=max(lo, low), size=size)
    scoring = r.sub("scoring")
    scoring.check_known({"mode", "table", "table_choice", "target", "rounds", "blocked"})
    table = tables[scoring.get("table", str, check=lambda t: t in tables)]
    if jokers_per_deck and not table.has_joker():
        scoring.fail("table", "jokers_without_value")
    partners = r.sub("partners", None) if "partners" in data else None
    if partners:
        partners.check_known({"players"})
    partners_players = partners.get("players", int, check=lambda n: n == 4 and low <= n <= high) if partners else None
    finish = r.sub("finish")
    finish.check_known({"forbidden", "rule"})
    forbidden = _rank_list(finish, "forbidden", finish.get("forbidden", list, []))
    options = tuple(_validate_option(r, i, o) for i, o in enumerate(r.get("options", list, [])))
    if len({o.id for o in options}) != len(options):
        r.fail("options", "duplicate_option")
    needs_rule = forbidden or any(o.finish_forbidden for o in options)
    option_kinds = {o.id: o.kind for o in options}
    cards = tuple(_validate_card_rule(r, i, c, option_kinds) for i, c in enumerate(r.get("cards", list, [])))
    if len({c.card for c in cards}) != len(cards):
        r.fail("cards", "duplicate_card_rule")
    play = r.sub("play", {})
    play.check_known({"must_play"})
    interpretations = []
    for i, item in enumerate(r.get("interpretations", list, [])):
        ir = FieldReader(path, item if isinstance(item, dict) else {}, f"interpretations[{i}].")
        ir.check_known({"about", "fr", "en"})
        interpretations.append({key: ir.get(key, str, check=str.strip) for key in ("about", "fr", "en")})
    return Variant(
        id=variant_id,
        source=r.get("source", str),
        order=r.get("order", int, 100),
        name=r.text("name"),
        summary=r.text("summary"),
        interpretations=tuple(interpretations),
        decks=decks,
        jokers_per_deck=jokers_per_deck,
        min_players=low,
        max_players=high,
        deal=DealRule(tuple(steps), deal.get("more_allowed", bool, False)),
        mode=scoring.get("mode", str, check=lambda m: m in MODES),
        table=table,
        table_choice=scoring.get("table_choice", bool, False),
        target=scoring.get("target", int, check=lambda n: 1 <= n <= MAX_TARGET),
        blocked=scoring.get("blocked", bool, False),
        partners_players=partners_players,
        finish_forbidden=forbidden,
        finish_rule=finish.text("rule") if needs_rule else (finish.text("rule", None) or {}),
        options=options,
        cards=cards,
        rounds=scoring.get("rounds", int, None, check=lambda n: 1 <= n <= MAX_MANCHES),
        must_play=play.get("must_play", bool, False),
        path=path,
        base=r.get("base", str, None),
    )


def read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise VariantFileError(str(path), "(syntax)", "syntax", detail=str(e)) from None


def load_catalog(directory: Path = VARIANTS_DIR) -> Catalog:
    """Read and validate every variant file and the tables; raise VariantFileError on the first fault."""
    tables_path = directory / "tables.toml"
    raw_tables = read_toml(tables_path)
    tables = {tid: validate_table(tid, data, str(tables_path)) for tid, data in raw_tables.items()}
    variants = []
    for path in sorted(directory.glob("*.toml")):
        if path.name == "tables.toml":
            continue
        variant = validate_variant(read_toml(path), str(path), tables)
        if path.stem != variant.id:
            raise VariantFileError(str(path), "id", "file_name", stem=path.stem)
        variants.append(variant)
    variants.sort(key=lambda v: (v.order, v.id))
    return Catalog(MappingProxyType(tables), MappingProxyType({v.id: v for v in variants}))


_catalog: Catalog | None = None


def catalog() -> Catalog:
    """The built-in catalog, loaded once."""
    global _catalog
    if _catalog is None:
        _catalog = load_catalog()
    return _catalog


# --- a game's rules ------------------------------------------------------------------------------


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
    mode = variant.mode if mode in (None, "") else mode
    if not isinstance(mode, str) or mode not in MODES:
        raise ValidationError(N_("Mode must be one of: %(choices)s."), field="mode", choices=", ".join(MODES))
    if rounds is not None:
        rounds = _whole(rounds, "rounds", 1, MAX_MANCHES)
        target = None
    elif target is not None:
        rounds, target = None, _whole(target, "target", 1, MAX_TARGET)
    elif variant.rounds:  # the variant itself is played over a number of manches (house rules)
        rounds, target = variant.rounds, None
    else:
        rounds, target = None, variant.target
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

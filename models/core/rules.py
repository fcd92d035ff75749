"""The variant files as data: read and validate ``models/core/variants/*.toml`` and ``tables.toml``.

The one validator of rules documents is ``FieldReader``: it reads the variant files and the
tables here, the rule-page files (``models/core/rulebook.py``) and the house rules people write
(``models/core/house_rules.py``), and raises ``VariantFileError`` naming the document, the field and
the problem (a code of ``models/core/problems.py``). A malformed built-in file stops the app at
start-up. The objects it builds are those of ``models/core/variant.py``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import MappingProxyType

from .cards import JOKER, RANKS, Deck, format_card, parse_card
from .errors import DomainError
from .problems import VariantFileError
from .variant import (
    LANGUAGES,
    MAX_CARD_POINTS,
    MAX_MANCHES,
    MAX_TARGET,
    MODES,
    CardRule,
    Catalog,
    Chain,
    DealRule,
    HouseOption,
    Penalty,
    ScoringTable,
    Variant,
)

VARIANTS_DIR = Path(__file__).parent / "variants"
OPTION_KINDS = ("bool", "choice")
SETTABLE = ("decks", "partners", "loser_deals")
PENALTY_SCOPES = ("unfit_card", "any_rule")  # a card the pile refuses, or any rule broken


# --- validation of the files -------------------------------------------------------------------


class FieldReader:
    """The one validator of rules documents (variant files, tables, rule-page files, house rules):
    reads fields from one parsed document, raising ``VariantFileError`` that names the document,
    the field and the problem (a code of ``models/core/problems.py`` with its parameters)."""

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


VARIANT_FIELDS = {
    "id", "source", "order", "name", "summary", "interpretations", "deck", "players", "deal", "scoring",
    "partners", "finish", "options", "cards", "play", "base", "penalty",
}  # fmt: skip


def _deck(r: FieldReader) -> tuple[int, int, tuple]:
    """``[deck]``: packs (1–4), jokers per pack, ranks taken out of each pack (never all of them)."""
    deck = r.sub("deck")
    deck.check_known({"decks", "jokers_per_deck", "without"})
    decks = deck.get("decks", int, check=lambda n: 1 <= n <= 4)
    jokers_per_deck = deck.get("jokers_per_deck", int, check=lambda n: 0 <= n <= 4)
    without = _rank_list(deck, "without", deck.get("without", list, []))
    if JOKER in without:
        deck.fail("without", "jokers_not_a_rank")
    if len(set(without)) >= len(RANKS):
        deck.fail("without", "no_rank_left")
    return decks, jokers_per_deck, tuple(r for r in RANKS if r in without)


def _deal(r: FieldReader, low: int, high: int, size: int) -> DealRule:
    """``[deal]``: cards per player (or by player count), each deal leaving a card to turn over."""
    deal = r.sub("deal")
    deal.check_known({"cards", "by_players", "more_allowed"})
    if "by_players" in deal.data:
        steps = []
        for i, step in enumerate(deal.get("by_players", list, check=bool)):
            s = FieldReader(r.path, step if isinstance(step, dict) else {}, f"deal.by_players[{i}].")
            steps.append((s.get("min", int), s.get("max", int), s.get("cards", int, check=lambda n: n >= 1)))
        covered = {p for lo, hi, _ in steps for p in range(lo, hi + 1)}
        if not set(range(low, high + 1)) <= covered:
            deal.fail("by_players", "deal_gap")
    else:
        steps = [(low, high, deal.get("cards", int, check=lambda n: n >= 1))]
    for lo, _hi, cards in steps:
        if cards * max(lo, low) >= size:
            deal.fail("cards", "deal_too_large", cards=cards, players=max(lo, low), size=size)
    return DealRule(tuple(steps), deal.get("more_allowed", bool, False))


def _penalty(r: FieldReader) -> Penalty:
    """``[penalty]``: what a card played against the rules costs (absent: the source sets none)."""
    penalty = r.sub("penalty", {})
    penalty.check_known({"draw", "take_back", "turn_lost", "applies_to"})
    return Penalty(
        draw=penalty.get("draw", int, 0, check=lambda n: 0 <= n <= 20),
        take_back=penalty.get("take_back", bool, True),
        turn_lost=penalty.get("turn_lost", bool, False),
        applies_to=penalty.get("applies_to", str, "unfit_card", check=lambda a: a in PENALTY_SCOPES),
    )


def _interpretations(r: FieldReader) -> tuple:
    out = []
    for i, item in enumerate(r.get("interpretations", list, [])):
        ir = FieldReader(r.path, item if isinstance(item, dict) else {}, f"interpretations[{i}].")
        ir.check_known({"about", "fr", "en"})
        out.append({key: ir.get(key, str, check=str.strip) for key in ("about", "fr", "en")})
    return tuple(out)


def _options(r: FieldReader, decks: int) -> tuple:
    """``[[options]]``, each once; an option that sets the packs defaults to the deck's packs (one
    source for "which deck": the deck, an option only changes it when a game asks)."""
    options = tuple(_validate_option(r, i, o) for i, o in enumerate(r.get("options", list, [])))
    if len({o.id for o in options}) != len(options):
        r.fail("options", "duplicate_option")
    for i, option in enumerate(options):
        if option.sets == "decks" and option.default != decks:
            r.fail(f"options[{i}].default", "decks_default", decks=decks)
    return options


def validate_variant(data: dict, path: str, tables) -> Variant:
    """A Variant from one parsed file, or VariantFileError naming the file and the field."""
    r = FieldReader(path, data)
    r.check_known(VARIANT_FIELDS)
    variant_id = r.get("id", str, check=lambda s: s.replace("-", "").isalnum() and s == s.lower())
    decks, jokers_per_deck, without = _deck(r)
    players = r.sub("players")
    players.check_known({"min", "max"})
    low = players.get("min", int, check=lambda n: n >= 2)
    high = players.get("max", int, check=lambda n: low <= n <= 12)
    deal = _deal(r, low, high, Deck(decks, decks * jokers_per_deck, without).size)
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
    options = _options(r, decks)
    option_kinds = {o.id: o.kind for o in options}
    cards = tuple(_validate_card_rule(r, i, c, option_kinds) for i, c in enumerate(r.get("cards", list, [])))
    if len({c.card for c in cards}) != len(cards):
        r.fail("cards", "duplicate_card_rule")
    play = r.sub("play", {})
    play.check_known({"must_play"})
    needs_rule = forbidden or any(o.finish_forbidden for o in options)
    return Variant(
        id=variant_id,
        source=r.get("source", str),
        order=r.get("order", int, 100),
        name=r.text("name"),
        summary=r.text("summary"),
        interpretations=_interpretations(r),
        decks=decks,
        jokers_per_deck=jokers_per_deck,
        min_players=low,
        max_players=high,
        deal=deal,
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
        without=without,
        penalty=_penalty(r),
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


_glossary: dict | None = None


def glossary(lang: str) -> dict[str, str]:
    """The French names the variant files use, each with its gloss in ``lang`` (``glossary.toml``;
    none for French, whose readers need none)."""
    global _glossary
    if _glossary is None:
        _glossary = read_toml(Path(__file__).parent / "glossary.toml")
    return _glossary.get(lang, {})

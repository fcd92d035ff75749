"""The rule pages as data: load and validate ``models/variants/rules/*.toml``, build the generated
parts (special cards, points, finishing, end of the game, house options) from the variant data,
compare the variants, and search the rules.

One rules file per variant (same id) holds the written sections in French and English, in page
order. A section either carries text, or stands for a part generated from the variant data
(``generated = "cards" | "scoring" | "finish" | "end" | "options"``, with an optional intro).
Every interpretation of the variant (``Variant.interpretations``) is placed in exactly one
section (``interpretations = ["deck"]``); a section may add its own (``interpretation``), and
the page shows both as interpretations of the source, named in words (``source``; the seed file's
name, ``seed``, stays in the file for the maintainers and is never shown).

Pure: no Flask. Texts that depend on the language are ``Message`` templates (English msgids) or
``{"fr": …, "en": …}`` data texts; the web layer renders them.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .cards import JOKER, RANKS, SUITS, Card, parse_card
from .errors import N_, VariantFileError
from .referee import Message, effects_of, no_effect, play_rule
from .rules import LANGUAGES, VARIANTS_DIR, CardRule, Catalog, Ruleset, ScoringTable, Variant, localized
from .rules import catalog as default_catalog

RULES_DIR = VARIANTS_DIR / "rules"
GENERATED = ("cards", "scoring", "finish", "end", "options")
REQUIRED_GENERATED = ("cards", "scoring", "finish", "end")
SECTION_FIELDS = {"id", "title", "fr", "en", "generated", "interpretations", "interpretation"}
SECTION_ID = re.compile(r"^[a-z][a-z0-9-]*$")


# --- the files ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One section of a rule page: ``blocks[lang]`` is a tuple of ("p", text) and ("ul", items)."""

    id: str
    title: dict
    blocks: MappingProxyType  # lang -> tuple of blocks
    generated: str | None = None
    interpretations: tuple = ()  # the variant's interpretations shown here ({"about", "fr", "en"})
    interpretation: dict | None = None  # this file's own interpretation, {"fr", "en"}

    def text(self, lang: str) -> str:
        """The section's text as one string (paragraphs and list items on their own lines)."""
        lines = []
        for kind, content in self.blocks.get(lang, ()):
            lines.extend(content if kind == "ul" else [content])
        return "\n".join(lines)

    def notes(self) -> tuple:
        """Every interpretation shown in this section, as ``{"fr", "en"}`` texts."""
        own = (self.interpretation,) if self.interpretation else ()
        return tuple(self.interpretations) + own


@dataclass(frozen=True)
class VariantRules:
    variant_id: str
    seed: str  # the seed file the facts come from (kept for the maintainers; never shown)
    sections: tuple  # of Section, in page order
    path: str = ""
    source: dict = field(default_factory=dict)  # the source named in words, {"fr", "en"}

    def generated(self, kind: str) -> Section | None:
        return next((s for s in self.sections if s.generated == kind), None)


@dataclass(frozen=True)
class Rulebook:
    variants: MappingProxyType  # variant id -> VariantRules

    def of(self, variant_id: str) -> VariantRules:
        return self.variants[variant_id]


def parse_blocks(text: str) -> tuple:
    """Paragraphs (separated by blank lines) and lists (lines starting with "- ")."""
    blocks, paragraph, items = [], [], []

    def flush():
        if paragraph:
            blocks.append(("p", " ".join(paragraph)))
            paragraph.clear()
        if items:
            blocks.append(("ul", tuple(items)))
            items.clear()

    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("- "):
            if paragraph:
                blocks.append(("p", " ".join(paragraph)))
                paragraph.clear()
            items.append(line[2:].strip())
        elif items and raw.startswith("  "):
            items[-1] += " " + line  # a list item continued on the next line
        else:
            if items:
                blocks.append(("ul", tuple(items)))
                items.clear()
            paragraph.append(line)
    flush()
    return tuple(blocks)


def _fail(path: str, name: str, problem: str):
    raise VariantFileError(path, name, problem)


def _bilingual(path: str, name: str, value, required: bool = True) -> dict | None:
    if value is None and not required:
        return None
    if not isinstance(value, dict):
        _fail(path, name, "expected { fr = …, en = … }")
    for lang in LANGUAGES:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            _fail(path, f"{name}.{lang}", "missing text")
    unknown = set(value) - set(LANGUAGES)
    if unknown:
        _fail(path, f"{name}.{sorted(unknown)[0]}", "unknown language")
    return {lang: value[lang].strip() for lang in LANGUAGES}


def _validate_section(path: str, index: int, data, variant: Variant) -> Section:
    where = f"sections[{index}]"
    if not isinstance(data, dict):
        _fail(path, where, "expected a table")
    for key in data:
        if key not in SECTION_FIELDS:
            _fail(path, f"{where}.{key}", "unknown field")
    section_id = data.get("id")
    if not isinstance(section_id, str) or not SECTION_ID.match(section_id):
        _fail(path, f"{where}.id", "missing, or not a lower-case anchor such as fin-de-manche")
    title = _bilingual(path, f"{where}.title", data.get("title"))
    generated = data.get("generated")
    if generated is not None and generated not in GENERATED:
        _fail(path, f"{where}.generated", f"one of {', '.join(GENERATED)}")
    has_text = any(lang in data for lang in LANGUAGES)
    if generated is None or has_text:
        text = _bilingual(path, where, {lang: data.get(lang) for lang in LANGUAGES})
        blocks = {lang: parse_blocks(text[lang]) for lang in LANGUAGES}
    else:
        blocks = {lang: () for lang in LANGUAGES}
    known = {i["about"]: i for i in variant.interpretations}
    placed = data.get("interpretations", [])
    if not isinstance(placed, list) or not all(isinstance(a, str) for a in placed):
        _fail(path, f"{where}.interpretations", "expected a list of names")
    for about in placed:
        if about not in known:
            _fail(path, f"{where}.interpretations", f"the variant has no interpretation {about!r}")
    return Section(
        id=section_id,
        title=title,
        blocks=MappingProxyType(blocks),
        generated=generated,
        interpretations=tuple(known[a] for a in placed),
        interpretation=_bilingual(path, f"{where}.interpretation", data.get("interpretation"), required=False),
    )


def validate_rules(data: dict, path: str, variant: Variant) -> VariantRules:
    """The rules of one variant from its parsed file, or VariantFileError naming file and field."""
    for key in data:
        if key not in ("variant", "seed", "source", "sections"):
            _fail(path, key, "unknown field")
    if data.get("variant") != variant.id:
        _fail(path, "variant", f"must be {variant.id!r} (the file name)")
    seed = data.get("seed")
    if not isinstance(seed, str) or not seed.startswith(f"{variant.source}_") or not seed.endswith(".txt"):
        _fail(path, "seed", f"the seed file's name, starting with {variant.source}_ and ending in .txt")
    raw = data.get("sections")
    if not isinstance(raw, list) or not raw:
        _fail(path, "sections", "missing")
    sections = tuple(_validate_section(path, i, s, variant) for i, s in enumerate(raw))
    ids = [s.id for s in sections]
    for section_id in ids:
        if ids.count(section_id) > 1:
            _fail(path, "sections", f"two sections share the id {section_id!r}")
    kinds = [s.generated for s in sections if s.generated]
    required = REQUIRED_GENERATED + (("options",) if variant.options else ())
    for kind in GENERATED:
        if kinds.count(kind) > 1:
            _fail(path, "sections", f"generated part {kind!r} appears twice")
        if kind in required and kind not in kinds:
            _fail(path, "sections", f"missing the generated part {kind!r}")
        if kind == "options" and kind in kinds and not variant.options:
            _fail(path, "sections", "an options part, but the variant has no house option")
    placed = [i["about"] for s in sections for i in s.interpretations]
    for interpretation in variant.interpretations:
        if placed.count(interpretation["about"]) != 1:
            _fail(path, "sections", f"interpretation {interpretation['about']!r} must be shown in exactly one section")
    source = _bilingual(path, "source", data.get("source"))
    return VariantRules(variant.id, seed, sections, path, source)


def load_rulebook(cat: Catalog, directory: Path = RULES_DIR) -> Rulebook:
    """Read and validate every rules file; one per variant of the catalog, no other."""
    found = {}
    for path in sorted(directory.glob("*.toml")):
        if path.stem not in cat.variants:
            _fail(str(path), "variant", f"no variant {path.stem!r} in the catalog")
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise VariantFileError(str(path), "(syntax)", str(e)) from None
        found[path.stem] = validate_rules(data, str(path), cat.variants[path.stem])
    for variant_id in cat.variants:
        if variant_id not in found:
            _fail(str(directory / f"{variant_id}.toml"), "(file)", "missing: every variant needs its rules file")
    return Rulebook(MappingProxyType({v: found[v] for v in cat.variants}))


_rulebook: Rulebook | None = None


def rulebook() -> Rulebook:
    """The built-in rule texts, loaded and validated once (at start-up, or at first use)."""
    global _rulebook
    if _rulebook is None:
        _rulebook = load_rulebook(default_catalog())
    return _rulebook


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
        out.append(Message(N_("3–7, 9, 10: face value")))
    elif len(values) == 1:
        out.append(Message(N_("3–7, 9, 10: %(points)s"), {"points": values.pop()}))
    else:
        out += [Message(N_("%(card)s: %(points)s"), {"card": Card(r), "points": table.ranks[r]}) for r in FACE_RANKS]
    return tuple(out)


def deck_message(ruleset: Ruleset) -> tuple:
    if ruleset.decks == 1:
        pack = Message(N_("One 52-card pack"))
    else:
        pack = Message(N_("%(decks)s packs of 52 cards"), {"decks": ruleset.decks})
    if not ruleset.jokers:
        return (pack, Message(N_("no Joker")))
    return (pack, Message(N_("plus %(jokers)s Jokers"), {"jokers": ruleset.jokers}))


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


def suit_naming_cards(variant: Variant) -> tuple:
    """The card texts after which a suit is named (a Joker always leaves one to follow)."""
    out = [r.card for r in variant.cards if r.names_suit]
    return tuple(dict.fromkeys([*out, JOKER]))


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


def rule_page(cat: Catalog, book: Rulebook, variant_id: str, ruleset: Ruleset | None = None, players=None) -> RulePage:
    """Everything a variant's rule page shows; with a game's ``ruleset`` and ``players``, as that game plays."""
    variant = cat.variant(variant_id)
    default = cat.resolve(variant.id)
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
    )
    return RulePage(
        variant=variant,
        rules=book.of(variant.id),
        ruleset=ruleset,
        default=default,
        players=players,
        cards=tuple(card_entries(ruleset, players, default if players else None)),
        points=tuple(points_rows(ruleset.table, bool(ruleset.jokers))),
        changed=changed,
        facts=facts,
    )


# --- the comparison ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompareRow:
    label: Message | None  # None for a card row (the card is the label)
    card: Card | None
    cells: tuple  # one tuple of items (Message, data text or str) per variant
    anchor: str = ""  # the section of each variant's page this row is about (generated kind)


def _card_sort_key(text: str):
    card = parse_card(text)
    order = (*RANKS, JOKER).index(card.rank)
    return (0 if card.rank == "8" else 1 if card.is_joker else 2, order, SUITS.index(card.suit) if card.suit else -1)


def comparison(cat: Catalog) -> tuple:
    """The variants side by side: rows of (label, cells), one cell per variant in catalog order."""
    variants = list(cat.variants.values())
    defaults = [cat.resolve(v.id) for v in variants]
    rows = [
        CompareRow(Message(N_("Cards")), None, tuple(deck_message(r) for r in defaults)),
        CompareRow(Message(N_("Players")), None, tuple(players_message(v) for v in variants)),
        CompareRow(Message(N_("Deal")), None, tuple(deal_message(v) for v in variants)),
    ]
    specs = sorted({rule.card for v in variants for rule in v.cards}, key=_card_sort_key)
    for spec in specs:
        cells = []
        for variant, ruleset in zip(variants, defaults, strict=True):
            rule = next((r for r in variant.cards if r.card == spec), None)
            if rule is None:
                card = parse_card(spec)
                rank_rule = card.suit and variant.card_rule(card)  # A♠ in a variant with a rule for every A
                cells.append((Message(N_("like any %(card)s"), {"card": Card(card.rank)}),) if rank_rule else ())
                continue
            entry = next(e for e in card_entries(ruleset) if e.rule is rule)
            items = [entry.play] if rule.play == "any" or rule.out_of_turn else []
            items += list(entry.effects)
            if entry.two_players:
                items.append(Message(N_("With two players:")))
                items += list(entry.two_players)
            if entry.not_on:
                items.append(not_on_message(entry))
            cells.append(tuple(items))
        rows.append(CompareRow(None, parse_card(spec), tuple(cells), "cards"))
    rows += [
        CompareRow(
            Message(N_("Scoring table")), None, tuple((Message(MODE_NAMES[r.mode]), r.table.name) for r in defaults)
        ),
        CompareRow(
            Message(N_("Points")), None, tuple(points_summary(r.table, bool(r.jokers)) for r in defaults), "scoring"
        ),
        CompareRow(Message(N_("End of the game")), None, tuple((end_short(r),) for r in defaults), "end"),
        CompareRow(Message(N_("Going out")), None, tuple((finish_message(r),) for r in defaults), "finish"),
        CompareRow(
            Message(N_("House options")),
            None,
            tuple(tuple(o.label for o in v.options) for v in variants),
            "options",
        ),
    ]
    return tuple(rows)


# --- search -------------------------------------------------------------------------------------------

STOPWORDS = {
    "fr": set(
        "a au aux avec c ca ce ces cet cette comment d dans de des du elle en est et faire fais fait faut il ils je "
        "l la le les leur lui m ma mais me mes mon n ne nous on ou par pas peut peux pour pourquoi qu quand que quel "
        "quelle quelles quels qui quoi sa se ses si son sur t ta te tes ton tu un une vos votre vous y".split()
    ),
    "en": set(
        "a an and are as at be by can do does for from how i if in is it its may me my of on or should that the "
        "their them then there this to what when where which who why will with you your".split()
    ),
}

SYNONYMS = (
    ("as", "ace"),
    ("2", "deux", "two"),
    ("3", "trois", "three"),
    ("4", "quatre", "four"),
    ("5", "cinq", "five"),
    ("6", "six"),
    ("7", "sept", "seven"),
    ("8", "huit", "eight"),
    ("9", "neuf", "nine"),
    ("10", "dix", "ten"),
    ("valet", "jack"),
    ("dame", "queen"),
    ("roi", "king"),
    ("joker", "jk"),
    ("pique", "spade"),
    ("coeur", "heart"),
    ("carreau", "diamond"),
    ("trefle", "club"),
    ("pioche", "piocher", "talon", "stock", "draw", "drawn", "prend", "prendre", "take", "tire"),
    ("vide", "epuise", "epuisee", "empty", "exhausted", "runs", "reshuffle", "rebat", "melange", "shuffle"),
    ("finir", "fini", "finit", "finis", "terminer", "termine", "sortir", "sort", "finish", "finishing", "going"),
    ("derniere", "dernier", "last"),
    (
        "compter", "compte", "comptage", "decompte", "point", "points", "bareme", "score", "scoring",
        "count", "counting", "vaut", "valent", "valeur", "worth", "value",
    ),
    ("distribue", "distribuer", "donne", "donner", "donneur", "deal", "dealt", "dealer", "dealing"),
    ("joueur", "joueurs", "player", "players"),
    ("sens", "inverse", "inverser", "reverse", "direction"),
    ("saute", "sauter", "skip", "skipped", "passe", "passer"),
    ("couleur", "suit", "annonce", "named", "name"),
    ("empiler", "empilement", "cumul", "stack", "stacking", "chain", "chaine", "enchaine"),
    ("penalite", "penalty", "sanction"),
    ("equipe", "partenaire", "team", "partner", "partners", "teams"),
    ("bloque", "bloquee", "blocked", "stuck"),
    ("gagne", "gagner", "gagnant", "vainqueur", "win", "wins", "winner", "won"),
    ("commence", "commencer", "start", "starts", "opens", "ouvre"),
    ("retourne", "retournee", "bergere", "turned", "turn", "depart"),
    ("rejouer", "rejoue", "again"),
    ("contre", "counter"),
    ("hors", "out"),
    ("carte", "card"),
    ("manche", "round", "coup"),
    ("jeu", "pack", "paquet", "deck"),
    ("option", "maison", "house"),
    ("objectif", "target", "cible"),
)  # fmt: skip

PHRASES = (
    (("combien", "cartes"), ("distribue", "deal")),
    (("how", "many", "cards"), ("distribue", "deal")),
    (("pioche", "vide"), ("vide",)),
    (("plus", "pioche"), ("vide",)),
    (("plus", "cartes", "pioche"), ("vide",)),
    (("runs", "out"), ("vide",)),
    (("fin", "partie"), ("objectif",)),
    (("end", "game"), ("objectif",)),
)

SYMBOL_WORDS = {"♠": " pique spade ", "♥": " coeur heart ", "♦": " carreau diamond ", "♣": " trefle club "}
LIGATURES = {"œ": "oe", "æ": "ae", "’": "'", "ß": "ss"}
TOKEN = re.compile(r"[a-z0-9]+")
KEEP = {"counter"}  # words whose stem would meet another word ("count")
SUFFIXES = ("ement", "ation", "ages", "age", "ees", "ee", "ent", "ing", "er", "ez", "ed", "es", "e")


def stem(token: str) -> str:
    """A light stem shared by French and English: plural s/x, then one common ending."""
    if token.isdigit() or len(token) <= 3 or token in KEEP:
        return token
    if token[-1] in "sx" and not token.endswith("ss"):
        token = token[:-1]
    for suffix in SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def fold(text: str) -> tuple[str, list[int]]:
    """Lower-case, accent-free text, and for each of its characters the index of the original one."""
    out, index = [], []
    for i, ch in enumerate(text):
        rep = SYMBOL_WORDS.get(ch) or LIGATURES.get(ch.lower())
        if rep is None:
            rep = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)).casefold()
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


@functools.lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[tuple[str, int, int], ...]:
    """(stem, start, end) of every word of ``text``, positions in the original text (cached: the
    rule texts are the same from one keystroke to the next)."""
    folded, index = fold(text)
    return tuple((stem(m.group()), index[m.start()], index[m.end() - 1] + 1) for m in TOKEN.finditer(folded))


_GROUPS: dict[str, set] = {}


def _groups() -> dict:
    if not _GROUPS:
        for group in SYNONYMS:
            stems = {stem(fold(word)[0]) for word in group}
            for s in stems:
                _GROUPS.setdefault(s, set()).update(stems)
    return _GROUPS


def query_concepts(query: str, lang: str) -> list[frozenset]:
    """The query's meaningful words, each as the set of stems that answer it (synonyms included)."""
    stop = STOPWORDS.get(lang, STOPWORDS["fr"])
    folded = fold(query)[0]
    words = TOKEN.findall(folded)
    groups = _groups()
    concepts = []
    for word in words:
        if word in stop:
            continue
        s = stem(word)
        concepts.append(frozenset(x for x in groups.get(s, {s}) | {s} if x not in stop))
    for phrase, extra in PHRASES:
        if all(w in words for w in phrase):
            stems = {stem(w) for w in extra}
            concepts.append(frozenset(x for s in stems for x in groups.get(s, {s}) | {s}))
    return list(dict.fromkeys(c for c in concepts if c))


@dataclass(frozen=True)
class Hit:
    """A rule matching a search: where it is, and a snippet with the matched words as ranges."""

    variant_id: str
    section_id: str
    anchor: str
    title: str
    snippet: str
    marks: tuple  # of (start, end) in snippet
    title_marks: tuple = ()
    score: float = 0.0

    def parts(self) -> list[tuple[str, bool]]:
        return split_marks(self.snippet, self.marks)

    def title_parts(self) -> list[tuple[str, bool]]:
        return split_marks(self.title, self.title_marks)


def split_marks(text: str, marks) -> list[tuple[str, bool]]:
    """The text cut into (piece, marked) pairs."""
    out, at = [], 0
    for start, end in marks:
        if start > at:
            out.append((text[at:start], False))
        out.append((text[start:end], True))
        at = end
    if at < len(text):
        out.append((text[at:], False))
    return out


@dataclass(frozen=True)
class Doc:
    variant_id: str
    section_id: str
    anchor: str
    title: str
    body: str
    title_tokens: tuple = field(default=(), compare=False)
    body_tokens: tuple = field(default=(), compare=False)


def _doc(variant_id, section_id, anchor, title, body) -> Doc:
    return Doc(variant_id, section_id, anchor, title, body, tokens(title), tokens(body))


def _plain_say(value) -> str:
    if isinstance(value, Message):
        return value.render()
    return value if isinstance(value, str) else localized(value, "en")


def documents(
    cat: Catalog, book: Rulebook, lang: str, variant_ids=None, say=None, rulesets: dict | None = None
) -> list[Doc]:
    """What the search looks through: every written section, and the generated parts (one entry
    per special card, the points table, finishing, end of the game, one per house option).
    ``say`` renders a Message or a data text in ``lang``; ``rulesets`` replaces a variant's
    defaults (a game's choices)."""
    say = say or _plain_say
    docs = []
    for variant_id in variant_ids or cat.variants:
        variant = cat.variant(variant_id)
        ruleset = (rulesets or {}).get(variant_id) or cat.resolve(variant_id)
        for section in book.of(variant_id).sections:
            title = localized(section.title, lang)
            lines = [section.text(lang), *(localized(n, lang) for n in section.notes())]
            lines += _generated_lines(variant, ruleset, section, lang, say)
            body = "\n".join(line for line in lines if line)
            if body:
                docs.append(_doc(variant_id, section.id, section.id, title, body))
            docs.extend(_generated_docs(variant, ruleset, section, lang, say))
    return docs


def _generated_lines(variant: Variant, ruleset: Ruleset, section: Section, lang: str, say) -> list[str]:
    """The generated text of a part shown as one block (points, finishing, end of the game)."""
    kind = section.generated
    if kind == "scoring":
        rows = points_rows(ruleset.table, bool(ruleset.jokers))
        return [say(ruleset.table.name)] + [
            say(Message(N_("%(card)s: %(points)s points"), {"card": c, "points": p})) for c, p in rows
        ]
    if kind == "finish":
        lines = [say(finish_message(ruleset)), localized(variant.finish_rule, lang)]
        return lines + [localized(o.label, lang) for o in variant.options if o.finish_forbidden]
    if kind == "end":
        return [say(Message(MODE_NAMES[ruleset.mode])), say(end_message(ruleset))]
    return []


def _generated_docs(variant: Variant, ruleset: Ruleset, section: Section, lang: str, say) -> list[Doc]:
    """One entry per special card and per house option, each with its own anchor."""
    kind, sid, out = section.generated, section.id, []
    if kind == "cards":
        for entry in card_entries(ruleset):
            lines = [" ".join(map(say, entry.effects))]
            if entry.two_players:
                lines.append(" ".join(map(say, (Message(N_("With two players:")), *entry.two_players))))
            if entry.rule.play == "any" or entry.rule.out_of_turn:
                lines.append(say(entry.play))  # the generic "match the suit or the rank" says nothing here
            if entry.not_on:
                lines.append(say(not_on_message(entry)))
            title = f"{localized(section.title, lang)} · {say(Message('%(card)s', {'card': entry.card}))}"
            out.append(_doc(variant.id, sid, f"{sid}-{entry.slug}", title, "\n".join(lines)))
    elif kind == "options":
        for option in variant.options:
            values = [option_value_label(option, c) for c in option.choices] if option.kind == "choice" else []
            body = " / ".join(say(v) for v in values) or localized(section.title, lang)
            out.append(_doc(variant.id, sid, f"option-{option.id}", localized(option.label, lang), body))
    return out


SNIPPET = 200


def _matching(doc_tokens, concepts) -> tuple[set, list]:
    """The concepts a token list answers, and the spans of the matching tokens."""
    found, spans = set(), []
    for s, start, end in doc_tokens:
        for i, concept in enumerate(concepts):
            if s in concept or (len(s) >= 5 and any(len(c) >= 5 and s.startswith(c) for c in concept)):
                found.add(i)
                spans.append((start, end))
                break
    return found, spans


def _snippet(body: str, spans: list) -> tuple[str, tuple]:
    """The line of ``body`` with the most matches, cut around the first one to about SNIPPET chars."""
    lines, at = [], 0
    for line in body.split("\n"):
        lines.append((at, at + len(line)))
        at += len(line) + 1
    best = max(lines, key=lambda r: (sum(1 for s, _ in spans if r[0] <= s < r[1]), -r[0]))
    start, end = best
    inside = [(s, e) for s, e in spans if start <= s < end]
    if end - start > SNIPPET and inside:
        first = inside[0][0]
        cut_start = max(start, first - SNIPPET // 3)
        if cut_start > start:
            space = body.find(" ", cut_start, first)
            cut_start = space + 1 if space != -1 else cut_start
        cut_end = min(end, cut_start + SNIPPET)
        if cut_end < end:
            space = body.rfind(" ", cut_start, cut_end)
            cut_end = space if space > first else cut_end
        start, end = cut_start, cut_end
    text = body[start:end]
    prefix = "… " if start > best[0] else ""
    suffix = " …" if end < best[1] else ""
    marks = tuple((s - start + len(prefix), e - start + len(prefix)) for s, e in inside if e <= end)
    return prefix + text + suffix, marks


def search(
    query: str,
    lang: str,
    variant_ids=None,
    *,
    say=None,
    rulesets: dict | None = None,
    limit: int = 20,
    cat: Catalog | None = None,
    book: Rulebook | None = None,
) -> list[Hit]:
    """The rules answering ``query`` (French or English, any accents or case), best first.

    Words are matched by a light stem and a table of synonyms (card names in both languages,
    "pioche"/"stock"/"draw", "finir"/"go out", "compter"/"points"…). Hits are ranked by how many
    of the query's words they answer, then by how rare those words are (a word in a title counts
    double). ``variant_ids`` restricts the search; ``say`` and ``rulesets`` as in ``documents``.
    """
    lang = lang if lang in LANGUAGES else "fr"
    concepts = query_concepts(query or "", lang)
    if not concepts:
        return []
    cat = cat or default_catalog()
    book = book or rulebook()
    docs = documents(cat, book, lang, variant_ids, say, rulesets)
    matched = []
    df = [0] * len(concepts)
    for doc in docs:
        in_title, title_spans = _matching(doc.title_tokens, concepts)
        in_body, body_spans = _matching(doc.body_tokens, concepts)
        found = in_title | in_body
        for i in found:
            df[i] += 1
        if found:
            matched.append((doc, in_title, in_body, title_spans, body_spans))
    hits = []
    idf = [math.log((len(docs) + 1) / (df[i] + 0.5)) for i in range(len(concepts))]
    for doc, in_title, in_body, title_spans, body_spans in matched:
        score = sum(idf[i] * (2 if i in in_title else 1) for i in in_title | in_body)
        coverage = len(in_title | in_body)
        if body_spans:
            snippet, marks = _snippet(doc.body, body_spans)
        else:
            snippet, marks = _snippet(doc.body, []) if doc.body else ("", ())
        hits.append(
            (
                (coverage, score),
                Hit(doc.variant_id, doc.section_id, doc.anchor, doc.title, snippet, marks, tuple(title_spans), score),
            )
        )
    hits.sort(key=lambda pair: pair[0], reverse=True)
    return [hit for _, hit in hits[:limit]]

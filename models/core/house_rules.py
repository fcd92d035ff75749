"""House rules as documents (pure): what people write, checked like the built-in files.

A house variant is a DOCUMENT with the fields of a variant file (``models/core/variants/*.toml``) plus
``base`` (the built-in variant it was built from) and its scoring table, either inline
(``scoring.table = {ranks = …, cards = …}``) or the id of a built-in table. Fields left out are
taken from the base variant. ``compile_document`` checks it with the same validator as the
built-in files (``rules.FieldReader``: ``validate_variant`` and ``validate_table``), plus what a
file is trusted for and a document is not, and gives a ``Variant`` that owns its table. A problem
is a ``ValidationError`` naming the field, its words those of ``models/core/problems.py``.

A game created from house rules keeps the document it was created with (``Game.rules_json``) and
is always scored from that snapshot (``snapshot``): editing or deleting the house variant never
changes it. Pure: no Flask, no ORM (the service is ``models/services/house.py``).
"""

from __future__ import annotations

import copy
import json
import tomllib
from functools import lru_cache

from . import scoring
from .cards import parse_cards
from .errors import N_, DomainError, ValidationError
from .names import InvalidName, clean_name
from .problems import VariantFileError, problem_text
from .rules import VARIANTS_DIR, catalog, validate_table, validate_variant
from .variant import Catalog, Variant

MAX_NAME = 60
MAX_DOCUMENT = 64 * 1024
HOUSE_ORDER = 1000
# The fields a house document may carry: those of a variant file, and its base.
INHERITED = ("deck", "players", "deal", "scoring", "partners", "finish", "options", "cards", "play", "penalty")
FIELDS = ("base", "name", "summary", *INHERITED)


def invalid(field: str, code: str, **params) -> ValidationError:
    """A problem of a house document (a code of ``models/core/problems.py``), for the person who wrote it."""
    return ValidationError(
        N_("These rules are not valid: %(where)s — %(problem)s."),
        field=field,
        where=field,
        problem=problem_text(code, params),
    )


@lru_cache(maxsize=16)
def base_document(base_id: str) -> dict:
    """A built-in variant's file as parsed TOML (the starting point of a house variant)."""
    return tomllib.loads((VARIANTS_DIR / f"{base_id}.toml").read_text(encoding="utf-8"))


def _name(value) -> dict:
    """The rules' name in each language, through the one rule for names (``names.clean_name``)."""
    if isinstance(value, str):
        value = {"fr": value, "en": value}
    if not isinstance(value, dict):
        raise invalid("name", "expected_name")
    out = {}
    for lang in ("fr", "en"):
        text = value.get(lang) or value.get("fr") or value.get("en") or ""
        try:
            out[lang] = clean_name(text, MAX_NAME, field="name")
        except InvalidName as e:
            if e.reason != "empty":
                raise
            raise ValidationError(N_("Give these rules a name."), field="name") from None
    return out


def normalize(document, builtins: Catalog | None = None) -> dict:
    """The full house document from what was given: the base's fields where none is given."""
    builtins = builtins or catalog()
    _check_shape(document)
    base_id = document.get("base")
    if not isinstance(base_id, str) or base_id not in builtins.variants:
        raise ValidationError(
            N_("Unknown base variant “%(variant)s”. Known: %(known)s."),
            field="base",
            variant=str(base_id),
            known=", ".join(builtins.variants),
        )
    base = base_document(base_id)
    out = {"base": base_id, "name": _name(document.get("name")), "summary": _summary(document.get("summary"), base)}
    for key in INHERITED:
        if key in document:
            out[key] = copy.deepcopy(document[key])
        elif key in base:
            out[key] = copy.deepcopy(base[key])
    return out


def _check_shape(document) -> None:
    """A JSON object of at most MAX_DOCUMENT characters, holding only the fields of a house document."""
    if not isinstance(document, dict):
        raise ValidationError(N_("The body must be a JSON object."))
    try:
        too_large = len(json.dumps(document, default=str)) > MAX_DOCUMENT
    except (RecursionError, ValueError):
        too_large = True
    if too_large:
        raise invalid("document", "too_large")
    for key in document:
        if key not in FIELDS and key not in ("id", "format"):
            raise invalid(str(key), "unknown_field")


def _summary(summary, base: dict) -> dict:
    """The summary in both languages: the one given (a text serves both), else one naming the base."""
    if isinstance(summary, str) and summary.strip():
        summary = {"fr": summary.strip()[:500], "en": summary.strip()[:500]}
    if not isinstance(summary, dict):
        summary = {
            "fr": f"Règles maison d'après « {base['name']['fr']} ».",
            "en": f"House rules based on “{base['name']['en']}”.",
        }
    return summary


def _precheck(document: dict) -> None:
    """What the file validator trusts a file for (it was written by us) and a document may not be."""
    deal = document.get("deal")
    if isinstance(deal, dict) and isinstance(deal.get("by_players"), list):
        for i, step in enumerate(deal["by_players"]):
            for key in ("min", "max"):
                value = step.get(key) if isinstance(step, dict) else None
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 12:
                    raise invalid(f"deal.by_players[{i}].{key}", "expected_players")
    cards = document.get("cards")
    for i, rule in enumerate(cards if isinstance(cards, list) else []):
        two = rule.get("two_players") if isinstance(rule, dict) else None
        if isinstance(two, dict) and "option" in two and not isinstance(two["option"], str):
            raise invalid(f"cards[{i}].two_players.option", "expected_option")
    options = document.get("options")
    for i, option in enumerate(options if isinstance(options, list) else []):
        choices = option.get("choices") if isinstance(option, dict) else None
        if isinstance(choices, list) and not all(isinstance(c, (str, int)) for c in choices):
            raise invalid(f"options[{i}].choices", "expected_choices")


def _packs_option_follows_the_deck(document: dict) -> dict:
    """One source for the packs: house rules that change the deck's packs (« un deuxième jeu de 52
    cartes », source 000) make that number the default of the base's packs option, and one of
    its choices. A game of "classique with two packs" then plays, scores and checks two packs
    (before, the option copied from the base still said one). Old snapshots get it too."""
    deck, options = document.get("deck"), document.get("options")
    decks = deck.get("decks") if isinstance(deck, dict) else None
    if not isinstance(options, list) or isinstance(decks, bool) or not isinstance(decks, int):
        return document  # the validator says what is wrong
    aligned = []
    for option in options:
        choices = option.get("choices") if isinstance(option, dict) else None
        packs = isinstance(choices, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in choices)
        if packs and option.get("sets") == "decks":
            option = {**option, "default": decks, "choices": sorted({*choices, decks})}
        aligned.append(option)
    return {**document, "options": aligned}


def compile_document(document: dict, variant_id: str, builtins: Catalog | None = None) -> Variant:
    """Validate a normalized house document: the variant (with its table, inline or built-in).

    Raises ValidationError naming the field (``deal.cards``, ``scoring.table.ranks.8``,
    ``cards[1].explode`` …)."""
    builtins = builtins or catalog()
    path = f"house:{variant_id}"
    _precheck(document)
    document = _packs_option_follows_the_deck(document)
    scoring = document.get("scoring")
    if not isinstance(scoring, dict):
        raise invalid("scoring", "expected_table")
    tables = dict(builtins.tables)
    raw_table = scoring.get("table")
    if isinstance(raw_table, dict):
        data = {
            "source": "house",
            "name": document["name"],
            "ranks": raw_table.get("ranks"),
            "cards": raw_table.get("cards", {}),
        }
        if not isinstance(data["ranks"], dict):
            raise invalid("scoring.table.ranks", "expected_table")
        if not isinstance(data["cards"], dict):
            raise invalid("scoring.table.cards", "expected_table")
        unknown = set(raw_table) - {"ranks", "cards"}
        if unknown:
            raise invalid(f"scoring.table.{sorted(unknown)[0]}", "unknown_field")
        try:
            table = validate_table(variant_id, data, path)
        except VariantFileError as e:
            raise invalid("scoring.table." + e.field.removeprefix(f"{variant_id}."), e.code, **e.params) from None
        tables[variant_id] = table
        scoring = {**scoring, "table": variant_id}
    data = {key: value for key, value in document.items() if key != "base"}
    data.update(id=variant_id, source="house", order=HOUSE_ORDER, interpretations=[], scoring=scoring)
    data["base"] = document["base"]
    try:
        variant = validate_variant(data, path, tables)
    except VariantFileError as e:
        raise invalid(e.field, e.code, **e.params) from None
    size = variant.deck.size
    for _low, high, cards in variant.deal.by_players:
        players = min(high, variant.max_players)
        if cards * players >= size:
            raise ValidationError(
                N_("%(cards)s cards each for %(players)s players leave no card to turn over (%(size)s in the deck)."),
                field="deal.cards",
                cards=cards,
                players=players,
                size=size,
            )
    return variant


def sample_value(document: dict, sample: str, builtins: Catalog | None = None) -> dict | None:
    """A sample hand valued by a (possibly unsaved, unnamed) document's table: {"cards": [(card,
    points)], "total"}; None while the document or the hand is not valid. Jokers are left out of
    the hand when the deck has none."""
    try:
        named = {**document, "name": "preview"}
        variant = compile_document(normalize(named, builtins), "hpreview", builtins)
        cards = parse_cards(sample)
    except DomainError:
        return None
    if not variant.jokers_per_deck:
        cards = [c for c in cards if not c.is_joker]
    breakdown = scoring.hand_breakdown(cards, variant.table)
    return {"cards": breakdown, "total": sum(p for _, p in breakdown)}


@lru_cache(maxsize=256)
def snapshot(document_json: str, variant_id: str) -> Variant:
    """The variant of a stored document (a game's snapshot or a saved house variant), compiled once."""
    return compile_document(json.loads(document_json), variant_id)


def dump_document(document: dict) -> str:
    """A document as stored: canonical JSON (the same rules give the same text)."""
    return json.dumps(document, ensure_ascii=False, sort_keys=True)

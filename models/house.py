"""House rules: variants written by a group, stored as documents, validated like the built-in files.

A house variant is a DOCUMENT with the fields of a variant file (``models/variants/*.toml``) plus
``base`` (the built-in variant it was built from) and its scoring table, either inline
(``scoring.table = {ranks = …, cards = …}``) or the id of a built-in table. Fields left out are
taken from the base variant. The document is checked by the same ``validate_variant`` and
``validate_table`` as the built-in files, plus one check a file cannot fail on its own: the deal
must leave a card to turn over with the most players the variant allows.

A game created from a house variant stores the document (``Game.rules_json``) and is always
scored from that snapshot: editing or deleting the house variant never changes it.
"""

from __future__ import annotations

import copy
import hmac
import json
import secrets
import tomllib
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from types import MappingProxyType

from sqlalchemy import select
from sqlmodel import Session

from . import scoring
from .cards import parse_cards
from .db import Database, HouseVariant, token_hash, utcnow
from .errors import (
    N_,
    DomainError,
    Forbidden,
    NotFound,
    Translatable,
    Unauthorized,
    UnknownVariant,
    ValidationError,
    VariantFileError,
)
from .names import InvalidName, clean_name
from .rules import (
    MAX_CARD_POINTS,
    POINTS_PROBLEM,
    VARIANTS_DIR,
    Catalog,
    ScoringTable,
    Variant,
    catalog,
    validate_table,
    validate_variant,
)

EXPORT_FORMAT = "carte-variant/1"
MAX_NAME = 60
MAX_DOCUMENT = 64 * 1024
HOUSE_ORDER = 1000
# The fields a house document may carry: those of a variant file, and its base.
INHERITED = ("deck", "players", "deal", "scoring", "partners", "finish", "options", "cards", "play")
FIELDS = ("base", "name", "summary", *INHERITED)


def new_house_id() -> str:
    """A random id that is also a valid variant id (lower-case letters and digits)."""
    return "h" + secrets.token_hex(8)


@lru_cache(maxsize=16)
def base_document(base_id: str) -> dict:
    """A built-in variant's file as parsed TOML (the starting point of a house variant)."""
    return tomllib.loads((VARIANTS_DIR / f"{base_id}.toml").read_text(encoding="utf-8"))


# What the file validator says, as messages for people (the validator speaks to developers).
PROBLEMS = {
    "missing": N_("this is missing"),
    "missing text": N_("a text is missing"),
    "unknown field": N_("this field is not known"),
    "unknown rank": N_("this is not a rank"),
    "not a card": N_("this is not a card"),
    "expected a table": N_("a group of settings is expected here"),
    "expected a card": N_("a card is expected here"),
    "expected a list of cards": N_("a list of cards is expected here"),
    "expected a list of ranks": N_("a list of ranks is expected here"),
    "two rules for the same card": N_("two rules for the same card"),
    "two options share an id": N_("two options have the same name"),
    "the deck has jokers but the table gives them no value": N_(
        "the deck has jokers but the table gives them no value"
    ),
    "does not cover every player count": N_("some player counts have no deal"),
    "not one of the choices": N_("this is not one of the choices"),
    "not a yes/no house option of this variant": N_("this is not a yes/no option of these rules"),
    "a suit-specific entry needs a full card such as 2S": N_("give a full card, such as 2S"),
    "decks must be whole numbers from 1 to 4": N_("from 1 to 4 packs"),
}
PROBLEM_PREFIXES = {
    "expected ": N_("this value has the wrong type"),
    "invalid value": N_("this value is not allowed"),
    "unknown rank": N_("this is not a rank"),
    "not a card": N_("this is not a card"),
}


def _invalid(field: str, problem: str) -> ValidationError:
    said = PROBLEMS.get(problem) or next(
        (text for prefix, text in PROBLEM_PREFIXES.items() if problem.startswith(prefix)),
        N_("this value is not accepted"),
    )
    if problem == POINTS_PROBLEM:
        return ValidationError(
            N_("These rules are not valid: %(where)s — points are a whole number from 0 to %(max)s."),
            field=field,
            where=field,
            max=MAX_CARD_POINTS,
        )
    if " cards for " in problem and "do not fit" in problem:
        said = N_("too many cards dealt for this deck")
    return ValidationError(
        N_("These rules are not valid: %(where)s — %(problem)s."), field=field, where=field, problem=Translatable(said)
    )


def _name(value) -> dict:
    """The rules' name in each language, through the one rule for names (``names.clean_name``)."""
    if isinstance(value, str):
        value = {"fr": value, "en": value}
    if not isinstance(value, dict):
        raise _invalid("name", "expected a name")
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
    if not isinstance(document, dict):
        raise ValidationError(N_("The body must be a JSON object."))
    try:
        too_large = len(json.dumps(document, default=str)) > MAX_DOCUMENT
    except (RecursionError, ValueError):
        too_large = True
    if too_large:
        raise _invalid("document", "too large")
    for key in document:
        if key not in FIELDS and key not in ("id", "format"):
            raise _invalid(str(key), "unknown field")
    base_id = document.get("base")
    if not isinstance(base_id, str) or base_id not in builtins.variants:
        raise ValidationError(
            N_("Unknown base variant “%(variant)s”. Known: %(known)s."),
            field="base",
            variant=str(base_id),
            known=", ".join(builtins.variants),
        )
    base = base_document(base_id)
    out = {"base": base_id, "name": _name(document.get("name"))}
    summary = document.get("summary")
    if isinstance(summary, str) and summary.strip():
        summary = {"fr": summary.strip()[:500], "en": summary.strip()[:500]}
    if not isinstance(summary, dict):
        summary = {
            "fr": f"Règles maison d'après « {base['name']['fr']} ».",
            "en": f"House rules based on “{base['name']['en']}”.",
        }
    out["summary"] = summary
    for key in INHERITED:
        if key in document:
            out[key] = copy.deepcopy(document[key])
        elif key in base:
            out[key] = copy.deepcopy(base[key])
    return out


def _precheck(document: dict) -> None:
    """What the file validator trusts a file for (it was written by us) and a document may not be."""
    deal = document.get("deal")
    if isinstance(deal, dict) and isinstance(deal.get("by_players"), list):
        for i, step in enumerate(deal["by_players"]):
            for key in ("min", "max"):
                value = step.get(key) if isinstance(step, dict) else None
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 12:
                    raise _invalid(f"deal.by_players[{i}].{key}", "expected a number of players from 1 to 12")
    cards = document.get("cards")
    for i, rule in enumerate(cards if isinstance(cards, list) else []):
        two = rule.get("two_players") if isinstance(rule, dict) else None
        if isinstance(two, dict) and "option" in two and not isinstance(two["option"], str):
            raise _invalid(f"cards[{i}].two_players.option", "expected a house option id")
    options = document.get("options")
    for i, option in enumerate(options if isinstance(options, list) else []):
        choices = option.get("choices") if isinstance(option, dict) else None
        if isinstance(choices, list) and not all(isinstance(c, (str, int)) for c in choices):
            raise _invalid(f"options[{i}].choices", "expected words or numbers")


@dataclass(frozen=True)
class Compiled:
    variant: Variant
    table: ScoringTable
    catalog: Catalog  # the built-ins plus this variant (and its table)


def compile_document(document: dict, variant_id: str, builtins: Catalog | None = None) -> Compiled:
    """Validate a normalized house document; the variant, its table, a catalog that knows them.

    Raises ValidationError naming the field (``deal.cards``, ``scoring.table.ranks.8``,
    ``cards[1].explode`` …)."""
    builtins = builtins or catalog()
    path = f"house:{variant_id}"
    _precheck(document)
    scoring = document.get("scoring")
    if not isinstance(scoring, dict):
        raise _invalid("scoring", "expected an object")
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
            raise _invalid("scoring.table.ranks", "expected an object")
        if not isinstance(data["cards"], dict):
            raise _invalid("scoring.table.cards", "expected an object")
        unknown = set(raw_table) - {"ranks", "cards"}
        if unknown:
            raise _invalid(f"scoring.table.{sorted(unknown)[0]}", "unknown field")
        try:
            table = validate_table(variant_id, data, path)
        except VariantFileError as e:
            raise _invalid("scoring.table." + e.field.removeprefix(f"{variant_id}."), e.problem) from None
        tables[variant_id] = table
        scoring = {**scoring, "table": variant_id}
    data = {key: value for key, value in document.items() if key != "base"}
    data.update(id=variant_id, source="house", order=HOUSE_ORDER, interpretations=[], scoring=scoring)
    try:
        variant = validate_variant(data, path, tables)
    except VariantFileError as e:
        raise _invalid(e.field, e.problem) from None
    size = 52 * variant.decks + variant.decks * variant.jokers_per_deck
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
    variants = {**builtins.variants, variant_id: variant}
    return Compiled(variant, tables[variant.table], Catalog(MappingProxyType(tables), MappingProxyType(variants)))


def sample_value(document: dict, sample: str, builtins: Catalog | None = None) -> dict | None:
    """A sample hand valued by a (possibly unsaved, unnamed) document's table: {"cards": [(card,
    points)], "total"}; None while the document or the hand is not valid. Jokers are left out of
    the hand when the deck has none."""
    try:
        named = {**document, "name": "preview"}
        compiled = compile_document(normalize(named, builtins), "hpreview", builtins)
        cards = parse_cards(sample)
    except DomainError:
        return None
    if not compiled.variant.jokers_per_deck:
        cards = [c for c in cards if not c.is_joker]
    breakdown = scoring.hand_breakdown(cards, compiled.table)
    return {"cards": breakdown, "total": sum(p for _, p in breakdown)}


@lru_cache(maxsize=256)
def snapshot(document_json: str, variant_id: str) -> Compiled:
    """The compiled rules of a stored document (a game's snapshot or a saved house variant)."""
    return compile_document(json.loads(document_json), variant_id)


def snapshot_catalog(rules_json: str, variant_id: str) -> Catalog:
    return snapshot(rules_json, variant_id).catalog


@dataclass(frozen=True)
class HouseEntry:
    id: str
    document: dict
    document_json: str
    created_at: datetime | None
    updated_at: datetime | None

    @property
    def compiled(self) -> Compiled:
        return snapshot(self.document_json, self.id)

    @property
    def variant(self) -> Variant:
        return self.compiled.variant

    @property
    def base(self) -> str:
        return self.document["base"]


def _entry(row: HouseVariant) -> HouseEntry:
    return HouseEntry(row.id, json.loads(row.document_json), row.document_json, row.created_at, row.updated_at)


def dump_document(document: dict) -> str:
    """A document as stored: canonical JSON (the same rules give the same text)."""
    return json.dumps(document, ensure_ascii=False, sort_keys=True)


def checked_house_id(value) -> str:
    if not isinstance(value, str) or not (value.startswith("h") and len(value) == 17 and value[1:].isalnum()):
        raise NotFound(N_("No house rules with this id."), field="id")
    return value


class HouseService:
    """Load, validate, save and delete house variants — one transaction each."""

    def __init__(self, database: Database, builtins: Catalog):
        self.db = database
        self.builtins = builtins

    def prepare(self, document, variant_id: str) -> tuple[dict, str]:
        """The normalized, validated document and its JSON (or a ValidationError naming the field)."""
        full = normalize(document, self.builtins)
        compile_document(full, variant_id, self.builtins)
        return full, dump_document(full)

    def create(self, document) -> tuple[HouseEntry, str]:
        variant_id = new_house_id()
        _, text = self.prepare(document, variant_id)
        token = secrets.token_urlsafe(24)
        with Session(self.db.writer) as session, session.begin():
            session.add(HouseVariant(id=variant_id, document_json=text, edit_token_hash=token_hash(token)))
        return self.get(variant_id), token

    def update(self, variant_id: str, document, token: str | None) -> HouseEntry:
        self.check_token(variant_id, token)
        _, text = self.prepare(document, variant_id)
        with Session(self.db.writer) as session, session.begin():
            row = session.get(HouseVariant, variant_id)
            if row is None:
                raise NotFound(N_("No house rules with this id."), field="id")
            row.document_json = text
            row.updated_at = utcnow()
        return self.get(variant_id)

    def delete(self, variant_id: str, token: str | None) -> None:
        self.check_token(variant_id, token)
        with Session(self.db.writer) as session, session.begin():
            row = session.get(HouseVariant, variant_id)
            if row is not None:
                session.delete(row)

    def get(self, variant_id: str) -> HouseEntry:
        with Session(self.db.reader) as session:
            return self.read(session, variant_id)

    def read(self, session: Session, variant_id) -> HouseEntry:
        row = session.get(HouseVariant, checked_house_id(variant_id))
        if row is None:
            raise NotFound(N_("No house rules with this id."), field="id")
        return _entry(row)

    def find(self, variant_id) -> HouseEntry | None:
        try:
            return self.get(variant_id)
        except NotFound:
            return None

    def all(self, limit: int = 200) -> list[HouseEntry]:
        """The saved house rules, newest first (the ``limit`` newest: a new one is always listed)."""
        with Session(self.db.reader) as session:
            newest_first = select(HouseVariant).order_by(HouseVariant.created_at.desc(), HouseVariant.id.desc())
            rows = session.exec(newest_first.limit(limit)).scalars().all()
            return [_entry(r) for r in rows]

    def lookup(self, variant_id) -> tuple[Catalog, Variant]:
        """The catalog that knows ``variant_id`` (built-in or house) and the variant."""
        if isinstance(variant_id, str) and variant_id in self.builtins.variants:
            return self.builtins, self.builtins.variants[variant_id]
        entry = self.find(variant_id) if isinstance(variant_id, str) and variant_id.startswith("h") else None
        if entry is None:
            self.builtins.variant(variant_id)  # raises UnknownVariant with the known ids
            raise UnknownVariant(N_("Unknown variant “%(variant)s”."), field="variant", variant=str(variant_id))
        return entry.compiled.catalog, entry.variant

    def check_token(self, variant_id: str, token: str | None) -> None:
        """401 without a token, 403 with a wrong one, 404 for no such house variant."""
        with Session(self.db.reader) as session:
            stored = (
                session.exec(
                    select(HouseVariant.edit_token_hash).where(HouseVariant.id == checked_house_id(variant_id))
                )
                .scalars()
                .first()
            )
        if stored is None:
            raise NotFound(N_("No house rules with this id."), field="id")
        if not token:
            raise Unauthorized(N_("This needs the edit token of these house rules."))
        if not isinstance(token, str) or len(token) > 200 or not hmac.compare_digest(token_hash(token), stored):
            raise Forbidden(N_("This edit token does not open these house rules."))

    def has_token(self, variant_id: str, token: str | None) -> bool:
        try:
            self.check_token(variant_id, token)
        except (Unauthorized, Forbidden, NotFound):
            return False
        return True


def export_document(entry: HouseEntry) -> dict:
    return {"format": EXPORT_FORMAT, "exported_at": utcnow().isoformat(timespec="seconds"), "variant": entry.document}


def read_export(document) -> dict:
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValidationError(N_("This is not a Carte ! rules file (format carte-variant/1)."), field="format")
    variant = document.get("variant")
    if not isinstance(variant, dict):
        raise ValidationError(N_("The file is damaged: the rules are missing."), field="variant")
    return variant

"""The variant registry: the one answer to "which rules does this variant / this game use?".

The built-in variants (``models/core/variants/*.toml``, loaded once by ``rules.catalog``) and the house
rules saved by groups (``HouseService``) are found here alike: ``get`` a variant by id, ``all`` of
them for a picker, ``resolve`` a variant with a game's choices into a ``Ruleset``. A game played
with house rules keeps the document it was created with (``Game.rules_json``): ``for_game`` scores
it from that snapshot, never from the house rules as they may have been edited since.
Every screen and the JSON API go through it: a house variant is known everywhere a built-in is.
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..core.errors import N_, DomainError, NotFound, UnknownVariant
from ..core.house_rules import compile_document, dump_document, normalize, snapshot
from ..core.variant import Catalog, Ruleset, Variant, resolve
from .house import HouseEntry, HouseService


class Registry:
    def __init__(self, builtins: Catalog, house: HouseService):
        self.builtins = builtins
        self.house = house

    @property
    def tables(self):
        """The built-in scoring tables (those a game may choose instead of its variant's own)."""
        return self.builtins.tables

    def find(self, variant_id) -> Variant | None:
        """A built-in variant, or saved house rules, or None."""
        if not isinstance(variant_id, str):
            return None
        if variant_id in self.builtins.variants:
            return self.builtins.variants[variant_id]
        entry = self.house_entry(variant_id)
        return entry.variant if entry else None

    def get(self, variant_id) -> Variant:
        """A variant by id, or ``unknown_variant`` naming the built-in ones."""
        variant = self.find(variant_id)
        if variant is None:
            self.builtins.variant(variant_id)  # raises UnknownVariant with the known ids
            raise UnknownVariant(N_("Unknown variant “%(variant)s”."), field="variant", variant=str(variant_id))
        return variant

    def house_entry(self, variant_id) -> HouseEntry | None:
        """Saved house rules (their document and dates), or None."""
        if not isinstance(variant_id, str) or not variant_id.startswith("h"):
            return None
        try:
            return self.house.get(variant_id)
        except NotFound:
            return None

    def all(self) -> list[Variant]:
        """Every variant for a picker: the built-ins in display order, then house rules, newest first."""
        return list(self.builtins.variants.values()) + [entry.variant for entry in self.house.all()]

    def resolve(self, variant_id, options=None, table=None, mode=None, target=None, rounds=None) -> Ruleset:
        """A variant (built-in or house) with a game's choices applied."""
        return resolve(self.builtins.tables, self.get(variant_id), options, table, mode, target, rounds)

    def for_new_game(self, variant_id, rules=None) -> tuple[Variant, str | None]:
        """The variant a new game is created with, and the rules document it keeps (house rules
        only): ``rules`` as given (an imported game's), else the saved house rules' document."""
        if rules is not None:
            try:
                text = dump_document(normalize(rules, self.builtins))
                return compile_document(json.loads(text), str(variant_id), self.builtins), text
            except DomainError as e:
                e.field = f"rules.{e.field}" if e.field else "rules"
                raise
        if isinstance(variant_id, str) and variant_id in self.builtins.variants:
            return self.builtins.variants[variant_id], None
        entry = self.house_entry(variant_id)
        if entry is not None:
            return entry.variant, entry.document_json
        return self.get(variant_id), None  # unknown_variant

    def for_game(self, variant_id: str, rules_json: str | None, options_json: str, table, mode, target, rounds):
        """The rules a stored game is played with (its house-rules snapshot when it has one)."""
        return _game_ruleset(self.builtins, variant_id, rules_json, options_json, table, mode, target, rounds)


@lru_cache(maxsize=512)
def _game_ruleset(builtins: Catalog, variant_id, rules_json, options_json, table, mode, target, rounds) -> Ruleset:
    """Resolved once per worker for each distinct set of a game's stored choices."""
    variant = snapshot(rules_json, variant_id) if rules_json else builtins.variant(variant_id)
    return resolve(
        builtins.tables, variant, options=json.loads(options_json), table=table, mode=mode, target=target, rounds=rounds
    )

"""The house-rules service: save, read, list and delete house variants — one transaction each.

What a house document may hold and how it is checked is ``models/core/house_rules.py`` (pure); who may
change one is ``models/services/access.py``. Saved house variants are found through the variant registry
(``models/services/registry.py``) like the built-in ones.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlmodel import Session

from ..core.errors import N_, NotFound, ValidationError
from ..core.house_rules import compile_document, dump_document, normalize, snapshot
from ..core.variant import Catalog, Variant
from .db import Database, HouseVariant, token_hash, utcnow
from .ids import checked_house_id, new_house_id
from .unit_of_work import unit_of_work

EXPORT_FORMAT = "carte-variant/1"


@dataclass(frozen=True)
class HouseEntry:
    id: str
    document: dict
    document_json: str
    created_at: datetime | None
    updated_at: datetime | None

    @property
    def variant(self) -> Variant:
        return snapshot(self.document_json, self.id)

    @property
    def base(self) -> str:
        return self.document["base"]


def _entry(row: HouseVariant) -> HouseEntry:
    return HouseEntry(row.id, json.loads(row.document_json), row.document_json, row.created_at, row.updated_at)


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
        """Save new house rules; return them and their edit token (shown once, stored hashed)."""
        variant_id = new_house_id()
        _, text = self.prepare(document, variant_id)
        token = secrets.token_urlsafe(24)
        with unit_of_work(self.db) as session:
            session.add(HouseVariant(id=variant_id, document_json=text, edit_token_hash=token_hash(token)))
        return self.get(variant_id), token

    def update(self, variant_id: str, document) -> HouseEntry:
        """Replace a saved house variant's document (the caller checked the rights)."""
        _, text = self.prepare(document, variant_id)
        with unit_of_work(self.db) as session:
            row = session.get(HouseVariant, variant_id)
            if row is None:
                raise NotFound(N_("No house rules with this id."), field="id")
            row.document_json = text
            row.updated_at = utcnow()
        return self.get(variant_id)

    def delete(self, variant_id: str) -> None:
        """Delete a saved house variant (the caller checked the rights); games keep their snapshot."""
        with unit_of_work(self.db) as session:
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


def export_document(entry: HouseEntry) -> dict:
    return {"format": EXPORT_FORMAT, "exported_at": utcnow().isoformat(timespec="seconds"), "variant": entry.document}


def read_export(document) -> dict:
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValidationError(N_("This is not a Carte ! rules file (format carte-variant/1)."), field="format")
    variant = document.get("variant")
    if not isinstance(variant, dict):
        raise ValidationError(N_("The file is damaged: the rules are missing."), field="variant")
    return variant

"""House rules on the web: the editor, the read-only shared page, its QR code and JSON file.

The editor is a plain form (it works without JavaScript): its fields are read here as plain values
(``Edits``) and the document is made from them by ``models/core/house_editor.py``, then checked exactly
like the API's; "Preview" shows the scoring table on a sample hand without saving anything. The
browser that saves house rules keeps their edit token in its signed session, as for games.
"""

from __future__ import annotations

import copy
import json

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core.cards import JOKER, RANKS, format_card, parse_card
from models.core.errors import N_, DomainError, ValidationError
from models.core.house_editor import (
    DRAW_RANGE,
    EFFECTS,
    KEEP,
    RULE_CARDS,
    Edits,
    apply_edits,
    card_rows,
    differences,
    document_for_base,
    needs_draw,
    table_values,
)
from models.core.house_rules import sample_value
from models.core.rulepage import card_entries
from models.core.variant import MAX_CARD_POINTS, MAX_MANCHES, MAX_TARGET, MODES, resolve
from models.services import house as house_model

from . import links, rights
from .errors import error_page
from .jsontext import refuse_unencodable
from .kit import house, lang, registry
from .limiting import new_house_rules_limit
from .numbers import required_whole_number
from .rights import owns_house
from .texts import CHANGE_LABELS, MODE_LABELS, cards_text, error_message, typed_cards

bp = Blueprint("house", __name__)

SAMPLE_HAND = "8H JK 2S KD 5C AH"
EXTRA_ROWS = 3


def remember_token(variant_id: str, token: str) -> None:
    rights.remember_token(variant_id, token, bucket="house_tokens")


# --- the form ---------------------------------------------------------------------------------------


def _number(form, key: str, where: str, low: int, high: int) -> int:
    return required_whole_number(form.get(key), where, low, high)


def read_edits(form, document: dict) -> Edits:
    """The editor's form as plain values (a 422 naming the field for anything unreadable)."""
    deal_cards = None
    if (form.get("deal_cards") or "").strip() or "by_players" not in document.get("deal", {}):
        deal_cards = _number(form, "deal_cards", "deal.cards", 1, 60)
    ranks = {
        r: _number(form, f"pt-{r}", f"scoring.table.ranks.{r}", 0, MAX_CARD_POINTS)
        for r in RULE_CARDS
        if (form.get(f"pt-{r}") or "").strip() or r != JOKER
    }
    cards = {}
    for key in form:
        if key.startswith("pts-") and (form.get(key) or "").strip():
            cards[key[4:]] = _number(form, key, f"scoring.table.cards.{key[4:]}", 0, MAX_CARD_POINTS)
    for i in range(EXTRA_ROWS):
        card_text = (form.get(f"extra-card-{i}") or "").strip()
        if card_text:
            try:
                card = format_card(parse_card(card_text))
            except DomainError as e:
                e.field = "scoring.table.cards"
                raise
            cards[card] = _number(form, f"extra-pts-{i}", f"scoring.table.cards.{card}", 0, MAX_CARD_POINTS)
    mode = form.get("mode", "")
    if mode not in MODES:
        raise ValidationError(N_("Mode must be one of: %(choices)s."), field="scoring.mode", choices=", ".join(MODES))
    effects = {}
    old = {r.get("card") for r in document.get("cards", []) if isinstance(r, dict)}
    for key in list(RULE_CARDS) + sorted(old - set(RULE_CARDS)):
        effect = form.get(f"effect-{key}", "none")
        if effect != KEEP and effect not in EFFECTS:
            raise ValidationError(N_("Unknown effect “%(effect)s”."), field=f"cards.{key}.effect", effect=effect)
        draw = _number(form, f"draw-{key}", f"cards.{key}.draw", *DRAW_RANGE) if needs_draw(effect) else None
        effects[key] = (effect, draw)
    return Edits(
        name=form.get("name", ""),
        decks=_number(form, "decks", "deck.decks", 1, 4),
        jokers_per_deck=_number(form, "jokers_per_deck", "deck.jokers_per_deck", 0, 4),
        players_min=_number(form, "players_min", "players.min", 2, 12),
        players_max=_number(form, "players_max", "players.max", 2, 12),
        deal_cards=deal_cards,
        ranks=ranks,
        cards=cards,
        mode=mode,
        target=_number(form, "target", "scoring.target", 1, MAX_TARGET),
        rounds=_number(form, "rounds", "scoring.rounds", 1, MAX_MANCHES) if form.get("end") == "rounds" else None,
        forbidden=[r for r in (JOKER, *RANKS) if form.get(f"finish-{r}")],
        effects=effects,
    )


def sample_preview(document: dict, sample: str):
    """The sample hand as typed, in this language's card letters (texts.typed_cards), valued."""
    return sample_value(document, typed_cards(sample) or SAMPLE_HAND, registry().builtins)


def base_cards(document: dict) -> dict:
    """For each card row: does it differ from the base variant, and what the base does with it
    (the rule pages' words), so the editor opens only what changed and says what "as in the base" is."""
    base = registry().get(document["base"])
    kept = {r["card"]: r["rule"] for r in card_rows(document_for_base(document["base"], registry().builtins))}
    says = {}
    for entry in card_entries(resolve(registry().tables, base)):
        says[entry.rule.card] = [m for m in (entry.play, *entry.effects) if m]
    return {
        row["card"]: {"differs": row["rule"] != kept.get(row["card"]), "says": says.get(row["card"], [])}
        for row in card_rows(document)
    }


def effect_labels() -> list[tuple[str, str]]:
    return [(key, gettext(label)) for key, (label, _) in EFFECTS.items()]


def editor(document: dict, *, entry=None, errors=None, preview=None, sample=None, status=200):
    ranks, cards = table_values(document, registry().tables)
    sample = cards_text(SAMPLE_HAND) if sample is None else sample
    rules = base_cards(document)
    if preview is None and not errors:
        preview = sample_preview(document, sample)
    return (
        render_template(
            "house/edit.html",
            doc=document,
            entry=entry,
            base=registry().get(document["base"]),
            rows=card_rows(document),
            base_cards=rules,
            changed_cards=[card for card, row in rules.items() if row["differs"]],
            changed=set(differences(document, registry().tables)),
            effects=effect_labels(),
            keep=KEEP,
            ranks=ranks,
            suit_cards=cards,
            extra_rows=range(EXTRA_ROWS),
            rule_cards=RULE_CARDS,
            modes=[(m, gettext(MODE_LABELS[m][0])) for m in MODES],
            name=document["name"].get(lang()) if isinstance(document["name"], dict) else document["name"],
            errors=errors or {},
            max_points=MAX_CARD_POINTS,
            max_manches=MAX_MANCHES,
            preview=preview,
            sample=sample,
        ),
        status,
    )


def error_dict(error: DomainError) -> dict:
    return {"field": error.field or "form", "message": error_message(error)}


def document_for_form(entry) -> dict:
    return copy.deepcopy(entry.document)


def known_base(base_id: str) -> str:
    builtins = registry().builtins.variants
    return base_id if base_id in builtins else next(iter(builtins))


def change_labels(document: dict) -> list[str]:
    """What a house document changes from its base, as short labels."""
    return [gettext(CHANGE_LABELS[key]) for key in differences(document, registry().tables)]


# --- pages ------------------------------------------------------------------------------------------


@bp.get("/variants/new")
def new_variant():
    return editor(document_for_base(known_base(request.args.get("base", "")), registry().builtins))


def _save(document_from, entry=None):
    form = request.form
    sample = form.get("sample", "")[:200] or cards_text(SAMPLE_HAND)
    try:
        document = apply_edits(document_from, read_edits(form, document_from))
    except DomainError as e:
        return editor(document_from, entry=entry, errors=error_dict(e), sample=sample, status=422)
    if form.get("action") == "preview":
        shown = copy.deepcopy(document)
        shown["name"] = {"fr": str(shown["name"]), "en": str(shown["name"])}
        preview = sample_preview(document, sample)
        try:
            house().prepare(document, "hpreview")
            errors = None
        except DomainError as e:
            errors = error_dict(e)
        return editor(shown, entry=entry, preview=preview, errors=errors, sample=sample)
    try:
        if entry is None:
            saved, token = house().create(document)
            remember_token(saved.id, token)
        else:
            saved = house().update(entry.id, document)
    except DomainError as e:
        if e.status in (401, 403, 404):
            raise
        shown = copy.deepcopy(document)
        shown["name"] = {"fr": str(form.get("name", "")), "en": str(form.get("name", ""))}
        return editor(shown, entry=entry, errors=error_dict(e), sample=sample, status=422)
    return redirect(url_for("house.show_variant", variant_id=saved.id), 303)


@bp.post("/variants/new")
@new_house_rules_limit
def create_variant():
    return _save(document_for_base(known_base(request.form.get("base", "")), registry().builtins))


@bp.get("/variants/<variant_id>/edit")
@owns_house
def edit_variant(variant_id):
    entry = house().get(variant_id)
    return editor(document_for_form(entry), entry=entry)


@bp.post("/variants/<variant_id>/edit")
@owns_house
def save_variant(variant_id):
    entry = house().get(variant_id)
    return _save(document_for_form(entry), entry)


@bp.post("/variants/<variant_id>/delete")
@owns_house
def delete_variant(variant_id):
    house().delete(variant_id)
    return redirect(url_for("pages.home"), 303)


@bp.get("/variants/<variant_id>")
def show_variant(variant_id):
    entry = house().get(variant_id)
    variant = entry.variant
    rows = [r for r in card_rows(entry.document) if r["rule"]]
    return render_template(
        "house/show.html",
        entry=entry,
        v=variant,
        table=variant.table,
        rows=rows,
        effects=dict(effect_labels()),
        keep=KEEP,
        base=registry().get(entry.base),
        differences=change_labels(entry.document),
        can_edit=rights.can_edit_house(variant_id),
        share_url=links.absolute(url_for("house.show_variant", variant_id=variant_id)),
    )


@bp.get("/variants/<variant_id>/qr.svg")
def variant_qr(variant_id):
    house().get(variant_id)
    svg = links.qr_svg(links.absolute(url_for("house.show_variant", variant_id=variant_id)))
    return Response(svg, mimetype="image/svg+xml")


@bp.get("/variants/<variant_id>/rules.json")
def download_variant(variant_id):
    document = house_model.export_document(house().get(variant_id))
    return Response(
        json.dumps(document, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="carte-{variant_id}.json"'},
    )


@bp.post("/variants/import")
@new_house_rules_limit
def import_variant():
    upload = request.files.get("file")
    try:
        try:
            document = json.loads(upload.read().decode("utf-8")) if upload else None
        except (ValueError, UnicodeDecodeError, RecursionError):
            document = None
        refuse_unencodable(document, field="file")
        saved, token = house().create(house_model.read_export(document))
    except DomainError as e:
        return error_page(422, error_message(e), field=e.field)
    remember_token(saved.id, token)
    return redirect(url_for("house.show_variant", variant_id=saved.id), 303)

"""House rules on the web: the editor, the read-only shared page, its QR code and JSON file.

The editor is a plain form (it works without JavaScript): the form is read into a house
document (``models.house``), which is validated exactly like the API's; "Preview" shows the
scoring table on a sample hand without saving anything. The browser that saves house rules keeps
their edit token in its signed session, as for games.
"""

from __future__ import annotations

import copy
import json

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext, lazy_gettext

from models import house as house_model
from models.cards import JOKER, RANKS, format_card, parse_card
from models.errors import N_, DomainError, ValidationError
from models.rules import MAX_CARD_POINTS, MAX_MANCHES, MAX_TARGET, MODES
from views import links, rights
from views.games import MODE_LABELS
from views.jsontext import refuse_unencodable
from views.numbers import required_whole_number

bp = Blueprint("house", __name__)

SAMPLE_HAND = "8H JK 2S KD 5C AH"
EXTRA_ROWS = 3
RULE_CARDS = (*RANKS, JOKER)

# The effects the editor offers: each one a card rule (SPEC §3) the referee knows.
EFFECTS = {
    "none": (lazy_gettext("No effect"), None),
    "wild": (lazy_gettext("Wild: play on anything, name a suit"), {"play": "any", "names_suit": True}),
    "wild_draw": (
        lazy_gettext("Wild, name a suit, next player draws N and skips"),
        {"play": "any", "names_suit": True, "draw": 4, "skip": True},
    ),
    "draw": (lazy_gettext("Next player draws N and skips"), {"draw": 2, "skip": True}),
    "chain": (lazy_gettext("Attack: answer with the same rank or draw N per card"), {"chain": True}),
    "skip": (lazy_gettext("Next player skips a turn"), {"skip": True}),
    "reverse": (lazy_gettext("Reverse the direction"), {"reverse": True}),
    "play_again": (lazy_gettext("Play again"), {"play_again": True}),
    "steal": (lazy_gettext("Take a card from the next player"), {"steal": True}),
    "swap_hands": (lazy_gettext("Swap hands with a player"), {"swap_hands": True}),
    "out_of_turn": (lazy_gettext("May be played out of turn"), {"out_of_turn": True}),
    "takes_rank": (lazy_gettext("Counts as the rank it covers"), {"takes_rank": True}),
}
KEEP = "keep"  # a rule of the base that is more than one of these effects: kept as it is


def house():
    return current_app.extensions["house"]


def catalog():
    return current_app.extensions["catalog"]


def lang() -> str:
    return str(get_locale() or "fr")


# --- rights -------------------------------------------------------------------------------------


def remember_token(variant_id: str, token: str) -> None:
    rights.remember_token(variant_id, token, bucket="house_tokens")


def session_token(variant_id: str) -> str | None:
    return rights.session_token(variant_id, bucket="house_tokens")


def can_edit(variant_id: str) -> bool:
    return house().has_token(variant_id, session_token(variant_id))


# --- document <-> form --------------------------------------------------------------------------


def rule_effect(rule: dict | None) -> str:
    """The editor's effect for a card rule, or KEEP when the rule is more than a preset."""
    if not rule:
        return "none"
    core = {k: v for k, v in rule.items() if k != "card"}
    for effect, (_, preset) in EFFECTS.items():
        if preset is None:
            continue
        if effect == "chain":
            if set(core) == {"chain"}:
                return "chain"
            continue
        shape = {k: v for k, v in core.items() if k != "draw"}
        expected = {k: v for k, v in preset.items() if k != "draw"}
        if shape == expected and ("draw" in core) == ("draw" in preset):
            return effect
    return KEEP


def rule_draw(rule: dict | None) -> int:
    if not rule:
        return 2
    if isinstance(rule.get("chain"), dict):
        return rule["chain"].get("draw", 2)
    return rule.get("draw", 2)


# The finishing rule of house rules whose forbidden cards were changed (the cards themselves are
# named by the page and the checker, with their articles).
HOUSE_FINISH_RULE = {
    "fr": "Le joueur qui n'aurait plus que cette carte la garde, et joue autre chose ou pioche.",
    "en": "A player left with only such a card keeps it, and plays something else or draws.",
}


def card_rows(document: dict) -> list[dict]:
    """One row per rank (and JK), then one per suit-specific rule of the document."""
    rules = {r.get("card"): r for r in document.get("cards", []) if isinstance(r, dict)}
    keys = list(RULE_CARDS) + [k for k in rules if k not in RULE_CARDS]
    rows = []
    for key in keys:
        rule = rules.get(key)
        rows.append({"card": key, "effect": rule_effect(rule), "draw": rule_draw(rule), "rule": rule})
    return rows


def document_for_form(entry_or_base) -> dict:
    if isinstance(entry_or_base, str):
        base = house_model.base_document(entry_or_base)
        doc = house_model.normalize({"base": entry_or_base, "name": base["name"]}, catalog())
        doc["name"] = {"fr": "", "en": ""}
        return doc
    return copy.deepcopy(entry_or_base.document)


def table_values(document: dict) -> tuple[dict, dict]:
    table = document.get("scoring", {}).get("table")
    if isinstance(table, str):
        t = catalog().tables.get(table)
        return (dict(t.ranks), dict(t.cards)) if t else ({}, {})
    if isinstance(table, dict):
        return dict(table.get("ranks", {})), dict(table.get("cards", {}))
    return {}, {}


def _number(form, key: str, where: str, low: int, high: int) -> int:
    return required_whole_number(form.get(key), where, low, high)


def read_form(form, base_document: dict) -> dict:
    """A house document from the editor's form, starting from ``base_document`` (the saved one,
    or the base variant's): what the form does not show is kept."""
    doc = copy.deepcopy(base_document)
    doc["name"] = form.get("name", "")
    doc["deck"] = {
        "decks": _number(form, "decks", "deck.decks", 1, 4),
        "jokers_per_deck": _number(form, "jokers_per_deck", "deck.jokers_per_deck", 0, 4),
    }
    doc["players"] = {
        "min": _number(form, "players_min", "players.min", 2, 12),
        "max": _number(form, "players_max", "players.max", 2, 12),
    }
    if (form.get("deal_cards") or "").strip() or "by_players" not in doc.get("deal", {}):
        doc["deal"] = {"cards": _number(form, "deal_cards", "deal.cards", 1, 60)}
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
    scoring_part = dict(doc.get("scoring", {}))
    scoring_part.update(
        mode=mode,
        target=_number(form, "target", "scoring.target", 1, MAX_TARGET),
        table={"ranks": ranks, "cards": cards},
    )
    scoring_part.pop("rounds", None)
    if form.get("end") == "rounds":  # played over a number of manches rather than to the target
        scoring_part["rounds"] = _number(form, "rounds", "scoring.rounds", 1, MAX_MANCHES)
    scoring_part.pop("table_choice", None)
    doc["scoring"] = scoring_part
    forbidden = [r for r in (JOKER, *RANKS) if form.get(f"finish-{r}")]
    finish = dict(doc.get("finish", {}))
    if forbidden != list(finish.get("forbidden", [])):  # the cards are named by the page: say what to do
        finish["rule"] = dict(HOUSE_FINISH_RULE)
    finish["forbidden"] = forbidden
    if not forbidden and not finish.get("rule"):
        finish.pop("rule", None)
    doc["finish"] = finish
    old = {r.get("card"): r for r in doc.get("cards", []) if isinstance(r, dict)}
    keys = list(RULE_CARDS) + [k for k in old if k not in RULE_CARDS]
    rules = []
    for key in keys:
        effect = form.get(f"effect-{key}", "none")
        if effect == KEEP and key in old:
            rules.append(old[key])
            continue
        if effect not in EFFECTS:
            raise ValidationError(N_("Unknown effect “%(effect)s”."), field=f"cards.{key}.effect", effect=effect)
        preset = EFFECTS[effect][1]
        if preset is None:
            continue
        if old.get(key) and rule_effect(old[key]) == effect and "draw" not in preset and effect != "chain":
            rules.append(old[key])  # unchanged: keep its details (answers, two players)
            continue
        rule = {"card": key, **preset}
        if "draw" in preset:
            rule["draw"] = _number(form, f"draw-{key}", f"cards.{key}.draw", 1, 20)
        if effect == "chain":
            draw = _number(form, f"draw-{key}", f"cards.{key}.draw", 1, 20)
            kept = (old.get(key) or {}).get("chain")  # an unchanged chain keeps its answers and what cancels it
            rule["chain"] = {**kept, "draw": draw} if isinstance(kept, dict) else {"answers": [key], "draw": draw}
        if old.get(key) and rule_effect(old[key]) == effect:
            rule = {**old[key], **{k: v for k, v in rule.items() if k in ("draw", "chain")}}
        rules.append(rule)
    doc["cards"] = rules
    return doc


def sample_preview(document: dict, sample: str):
    return house_model.sample_value(document, sample or SAMPLE_HAND, catalog())


def editor(document: dict, *, entry=None, errors=None, preview=None, sample=SAMPLE_HAND, status=200):
    ranks, cards = table_values(document)
    if preview is None and not errors:
        preview = sample_preview(document, sample)
    base_id = document["base"]
    return (
        render_template(
            "variant_edit.html",
            doc=document,
            entry=entry,
            base=catalog().variants[base_id],
            rows=card_rows(document),
            effects=[(k, label) for k, (label, _) in EFFECTS.items()],
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
    return {"field": error.field or "form", "message": error.message(gettext)}


# --- pages --------------------------------------------------------------------------------------


@bp.get("/variants/new")
def new_variant():
    base = request.args.get("base", "")
    if base not in catalog().variants:
        base = next(iter(catalog().variants))
    return editor(document_for_form(base))


def _save(document_from, entry=None):
    form = request.form
    sample = form.get("sample", SAMPLE_HAND)[:200]
    try:
        document = read_form(form, document_from)
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
            saved = house().update(entry.id, document, session_token(entry.id))
    except DomainError as e:
        if e.status in (401, 403, 404):
            raise
        shown = copy.deepcopy(document)
        shown["name"] = {"fr": str(form.get("name", "")), "en": str(form.get("name", ""))}
        return editor(shown, entry=entry, errors=error_dict(e), sample=sample, status=422)
    return redirect(url_for("house.show_variant", variant_id=saved.id), 303)


@bp.post("/variants/new")
def create_variant():
    base = request.form.get("base", "")
    if base not in catalog().variants:
        base = next(iter(catalog().variants))
    return _save(document_for_form(base))


@bp.get("/variants/<variant_id>/edit")
def edit_variant(variant_id):
    entry = house().get(variant_id)
    house().check_token(variant_id, session_token(variant_id))
    return editor(document_for_form(entry), entry=entry)


@bp.post("/variants/<variant_id>/edit")
def save_variant(variant_id):
    entry = house().get(variant_id)
    house().check_token(variant_id, session_token(variant_id))
    return _save(document_for_form(entry), entry)


@bp.post("/variants/<variant_id>/delete")
def delete_variant(variant_id):
    house().delete(variant_id, session_token(variant_id))
    return redirect(url_for("pages.home"), 303)


def differences(doc: dict) -> list[str]:
    """What a house document changes from its base, as short labels."""
    base = house_model.base_document(doc["base"])
    out = []
    labels = {
        "deck": gettext("Deck"),
        "players": gettext("Players"),
        "deal": gettext("Cards dealt"),
        "finish": gettext("No going out on"),
        "cards": gettext("Special cards"),
        "options": gettext("House options"),
        "play": gettext("Play"),
    }
    for key, label in labels.items():
        if doc.get(key) != base.get(key) and (doc.get(key) or base.get(key)):
            out.append(label)
    base_scoring = base.get("scoring", {})
    scoring_doc = doc.get("scoring", {})
    for key, label in (
        ("mode", gettext("Mode")),
        ("target", gettext("Target")),
        ("rounds", gettext("Number of rounds")),
    ):
        if scoring_doc.get(key) != base_scoring.get(key):
            out.append(label)
    ranks, cards = table_values(doc)
    base_table = catalog().tables[base_scoring.get("table")]
    if ranks != dict(base_table.ranks) or cards != dict(base_table.cards):
        out.append(gettext("Points"))
    return out


@bp.get("/variants/<variant_id>")
def show_variant(variant_id):
    entry = house().get(variant_id)
    variant = entry.variant
    rows = [r for r in card_rows(entry.document) if r["rule"]]
    return render_template(
        "variant_house.html",
        entry=entry,
        v=variant,
        table=entry.compiled.table,
        rows=rows,
        effects=dict((k, label) for k, (label, _) in EFFECTS.items()),
        keep=KEEP,
        base=catalog().variants[entry.base],
        differences=differences(entry.document),
        can_edit=can_edit(variant_id),
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
        return render_template("error.html", status=422, message=e.message(gettext)), 422
    remember_token(saved.id, token)
    return redirect(url_for("house.show_variant", variant_id=saved.id), 303)

"""JSON API v1 (SPEC §4)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from flask_babel import get_locale

from models import scoring
from models.cards import check_deck, format_card, parse_cards
from models.errors import N_, DomainError, ValidationError
from models.rules import localized

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def catalog():
    return current_app.extensions["catalog"]


def lang() -> str:
    return str(get_locale() or "fr")


def json_body() -> dict:
    """The request's JSON object, or a validation_error that says what is wrong with it."""
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        raise ValidationError(N_("The body must be a JSON object."))
    return data


def variant_summary(variant, language: str) -> dict:
    ruleset = catalog().resolve(variant.id)
    return {
        "id": variant.id,
        "name": localized(variant.name, language),
        "source": variant.source,
        "players": {"min": variant.min_players, "max": variant.max_players},
        "decks": variant.decks,
        "jokers": ruleset.jokers,
        "deal": variant.deal.as_dict(),
        "deal_more_allowed": variant.deal.more_allowed,
        "mode": variant.mode,
        "table": variant.table,
        "table_choice": variant.table_choice,
        "target": variant.target,
        "blocked_manche": variant.blocked,
        "partners": {"players": variant.partners_players} if variant.partners_players else None,
        "finish_forbidden": list(ruleset.finish_forbidden),
        "options": variant.default_options(),
    }


def variant_detail(variant, language: str) -> dict:
    table = catalog().tables[variant.table]
    out = variant_summary(variant, language)
    out.update(
        points=table.as_dict(),
        summary=localized(variant.summary, language),
        finish_rule=localized(variant.finish_rule, language) or None,
        interpretations=[{"about": i["about"], "text": i[language]} for i in variant.interpretations],
        option_choices={o.id: list(o.choices) if o.kind == "choice" else [False, True] for o in variant.options},
    )
    return out


@bp.get("/variants")
def list_variants():
    language = lang()
    return jsonify([variant_summary(v, language) for v in catalog().variants.values()])


@bp.get("/variants/<variant_id>")
def get_variant(variant_id):
    try:
        variant = catalog().variant(variant_id)
    except DomainError as e:
        e.status = 404
        raise
    return jsonify(variant_detail(variant, lang()))


@bp.post("/score")
def score():
    """The value of one hand under a variant's table, card by card."""
    data = json_body()
    ruleset = catalog().resolve(data.get("variant"), options=data.get("options"), table=data.get("table"))
    raw = data.get("cards")
    if not isinstance(raw, (list, str)):
        raise ValidationError(N_("“cards” must be a list of cards."), field="cards")
    try:
        cards = parse_cards(raw)
        check_deck([cards], ruleset.deck)
        breakdown = scoring.hand_breakdown(cards, ruleset.table)
    except DomainError as e:
        e.field = e.field or "cards"
        raise
    return jsonify(
        points=sum(p for _, p in breakdown),
        cards=[{"card": format_card(c), "points": p} for c, p in breakdown],
    )

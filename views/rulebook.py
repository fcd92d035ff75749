"""Rule pages (issue 4): each variant's rules, a game's rules as it plays them, search as you
type, and the variants side by side. The texts come from ``models/variants/rules/`` and the
variant data (``models.rulebook``); these views only parse the request and render.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from models import rulebook
from models.cards import SUIT_SYMBOLS
from models.errors import DomainError
from models.referee import Message
from models.rules import localized

from .api import describe
from .pages import lang, suit_name

bp = Blueprint("rulebook", __name__)

MAX_QUERY = 200


def register(app) -> None:
    """Load and validate the rule texts at start (a faulty file stops the app, naming file and
    field), register the rule pages and the dispute checker."""
    from . import referee_page

    app.extensions["rulebook"] = rulebook.rulebook()
    app.register_blueprint(bp)
    app.register_blueprint(referee_page.bp)


def catalog():
    return current_app.extensions["catalog"]


def book() -> rulebook.Rulebook:
    return current_app.extensions.get("rulebook") or rulebook.rulebook()


def games():
    return current_app.extensions["games"]


def is_htmx() -> bool:
    return bool(request.headers.get("HX-Request")) and not request.headers.get("HX-History-Restore-Request")


@bp.app_template_filter("say")
def say(value) -> str:
    """A rule text in the user's language: a Message (referee or rulebook template), a data text
    ({"fr", "en"}), or plain text."""
    if isinstance(value, Message):
        return value.render(gettext, describe)
    if isinstance(value, dict):
        return localized(value, lang())
    return str(value)


@bp.app_template_filter("suit_symbol")
def suit_symbol(suit: str) -> str:
    return SUIT_SYMBOLS[suit]


@bp.app_template_filter("suit_label")
def suit_label(suit: str) -> str:
    return suit_name(suit)


@bp.app_template_global("option_value")
def option_value(option, value):
    """How a house option's value is shown ("yes", "no", a labelled choice)."""
    return rulebook.option_value_label(option, value)


@bp.app_template_filter("say_all")
def say_all(items, separator: str = ", ") -> str:
    return separator.join(say(item) for item in items)


# --- pages -------------------------------------------------------------------------------------------


@bp.get("/rules")
def index():
    return render_template("rules_index.html", variants=list(catalog().variants.values()), book=book())


@bp.get("/rules/<variant_id>")
def variant_rules(variant_id):
    game_id = request.args.get("game")
    if game_id:
        game = games().get(game_id)
        if game.variant.id != variant_id:
            return redirect(url_for(".game_rules", game_id=game.id))
        return render_rule_page(game.variant.id, game)
    try:
        catalog().variant(variant_id)
    except DomainError as error:
        error.status = 404
        raise
    return render_rule_page(variant_id)


@bp.get("/games/<game_id>/rules")
def game_rules(game_id):
    game = games().get(game_id)
    return render_rule_page(game.variant.id, game)


def render_rule_page(variant_id: str, game=None):
    page = rulebook.rule_page(
        catalog(),
        book(),
        variant_id,
        ruleset=game.ruleset if game else None,
        players=len(game.players) if game else None,
    )
    return render_template("rules_variant.html", page=page, game=game)


@bp.get("/rules/compare")
def compare():
    return render_template(
        "rules_compare.html", variants=list(catalog().variants.values()), rows=rulebook.comparison(catalog())
    )


# --- search ------------------------------------------------------------------------------------------


def hit_url(hit, game=None) -> str:
    if game is not None:
        return url_for(".game_rules", game_id=game.id, _anchor=hit.anchor)
    return url_for(".variant_rules", variant_id=hit.variant_id, _anchor=hit.anchor)


def search_scope(args):
    """(game, variant) the search is restricted to, from ``?game=`` or ``?variant=`` (unknown ones ignored)."""
    if args.get("game"):
        game = games().get(args["game"])
        return game, game.variant
    variant = catalog().variants.get(args.get("variant", ""))
    return None, variant


@bp.get("/rules/search")
def search():
    query = " ".join(request.args.get("q", "").split())[:MAX_QUERY]
    game, variant = search_scope(request.args)
    hits = rulebook.search(
        query,
        lang(),
        [variant.id] if variant else None,
        say=say,
        rulesets={game.variant.id: game.ruleset} if game else None,
        cat=catalog(),
        book=book(),
    )
    context = {
        "query": query,
        "results": [(hit, hit_url(hit, game)) for hit in hits],
        "variant_names": {v.id: v.name for v in catalog().variants.values()},
        "scope_game": game,
        "scope_variant": variant,
    }
    template = "_rule_hits.html" if is_htmx() else "rules_search.html"
    return render_template(template, **context)

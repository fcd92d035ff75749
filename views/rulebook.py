"""Rule pages (issue 4): each variant's rules, a game's rules as it plays them, search as you
type, and the variants side by side. The texts come from ``models/variants/rules/`` and the
variant data (``models.rulebook``); these views only parse the request and render.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from models import rulebook
from models.cards import SUIT_SYMBOLS
from models.errors import DomainError
from models.referee import Message
from models.rules import Catalog, localized

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
    if variant_id not in catalog().variants:
        entry = current_app.extensions["house"].find(variant_id)
        if entry is not None:
            return render_rule_page(variant_id, cat=entry.compiled.catalog, base=entry.base)
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


def house_book(variant_id: str, base_id: str | None):
    """The rulebook with a page for house rules: the generated sections of its base's page (every
    fact comes from the house variant's data; the base's prose would not describe it)."""
    if variant_id in book().variants or base_id not in book().variants:
        return book()
    base = book().of(base_id)
    sections = tuple(s for s in base.sections if s.generated)
    rules = replace(base, variant_id=variant_id, sections=sections)
    return rulebook.Rulebook(MappingProxyType({**book().variants, variant_id: rules}))


def render_rule_page(variant_id: str, game=None, cat=None, base=None):
    if game is not None:
        cat = game.extra.get("catalog")
        base = (game.extra.get("rules") or {}).get("base")
    cat = cat or catalog()
    page = rulebook.rule_page(
        cat,
        house_book(variant_id, base),
        variant_id,
        ruleset=game.ruleset if game else None,
        players=len(game.players) if game else None,
    )
    house_note = None
    if base and variant_id not in catalog().variants:
        from .house import differences

        document = (
            game.extra.get("rules") if game is not None else current_app.extensions["house"].get(variant_id).document
        )
        house_note = {"base": catalog().variants[base], "changes": differences(document)}
    return render_template("rules_variant.html", page=page, game=game, house_note=house_note)


@bp.get("/rules/compare")
def compare():
    """The built-in variants side by side; ``?with=<id>`` adds house rules, each cell that differs
    from its base variant's marked."""
    cat, bases = catalog(), {}
    for variant_id in request.args.getlist("with")[:4]:
        entry = current_app.extensions["house"].find(variant_id)
        if entry is not None and entry.id not in bases:
            bases[entry.id] = entry.base
            house_cat = entry.compiled.catalog
            cat = Catalog(
                MappingProxyType({**cat.tables, **house_cat.tables}),
                MappingProxyType({**cat.variants, entry.id: entry.variant}),
            )
    variants = list(cat.variants.values())
    rows = rulebook.comparison(cat)
    index = {v.id: i for i, v in enumerate(variants)}
    marks = {
        (r, index[hid])
        for r, row in enumerate(rows)
        for hid, base in bases.items()
        if row.cells[index[hid]] != row.cells[index[base]]
    }
    return render_template("rules_compare.html", variants=variants, rows=rows, marks=marks)


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

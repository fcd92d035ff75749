"""Rule pages (issue 4): each variant's rules (built-in or house rules), a game's rules as it
plays them, search as you type, and the variants side by side. The texts come from
``models/core/variants/rules/`` and the variant data (``models/core/rulepage.py``, ``comparison.py``,
``rulesearch.py``); the variants from the registry. These views only parse the request and render.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core import comparison as comparing
from models.core import rulepage, rulesearch
from models.core.errors import DomainError
from models.core.house_editor import differences

from .kit import fragment_or_page, games, lang, registry
from .pagecache import cached_page
from .texts import CHANGE_LABELS, say

bp = Blueprint("rulebook", __name__)

MAX_QUERY = 200


def book():
    """The rule texts, loaded and validated at start (a faulty file stops the app)."""
    return current_app.extensions["rulebook"]


# --- pages -------------------------------------------------------------------------------------------


@bp.get("/rules")
def index():
    return render_template("rules/index.html", variants=list(registry().builtins.variants.values()), book=book())


@bp.get("/rules/<variant_id>")
def variant_rules(variant_id):
    game_id = request.args.get("game")
    if game_id:
        game = games().get(game_id)
        if game.variant.id != variant_id:
            return redirect(url_for(".game_rules", game_id=game.id))
        return render_rule_page(game.variant, game)
    try:
        variant = registry().get(variant_id)
    except DomainError as error:
        error.status = 404
        raise
    if variant.house:  # house rules can be edited: rendered each time
        return render_rule_page(variant)
    here = url_for(".variant_rules", variant_id=variant.id)
    # A built-in variant's page changes only with the app: kept, compressed, per language.
    return cached_page(("rules", variant.id, lang()), lambda: render_rule_page(variant, here=here))


@bp.get("/games/<game_id>/rules")
def game_rules(game_id):
    game = games().get(game_id)
    return render_rule_page(game.variant, game)


def render_rule_page(variant, game=None, here=None):
    """A variant's rule page; with a game, as that game plays it (its own snapshot of house rules)."""
    page = rulepage.rule_page(
        variant,
        registry().tables,
        book(),
        ruleset=game.ruleset if game else None,
        players=len(game.players) if game else None,
    )
    house_note = None
    if variant.house:
        document = game.rules if game is not None else registry().house_entry(variant.id).document
        changes = [gettext(CHANGE_LABELS[key]) for key in differences(document, registry().tables)]
        house_note = {"base": registry().get(variant.base), "changes": changes}
    # read-only: no form posts from a rule page (its search is a GET), so no cookie
    return render_template(
        "rules/variant.html",
        page=page,
        game=game,
        house_note=house_note,
        read_only=True,
        **({"here": here} if here else {}),
    )


@bp.get("/rules/compare")
def compare():
    """The built-in variants side by side; ``?with=<id>`` adds house rules, each cell that differs
    from its base variant's marked."""
    variants, bases = list(registry().builtins.variants.values()), {}
    for variant_id in request.args.getlist("with")[:4]:
        found = registry().find(variant_id)
        if found is not None and found.house and found.id not in bases:
            bases[found.id] = found.base
            variants.append(found)
    rows = comparing.comparison(variants, registry().tables)
    index = {v.id: i for i, v in enumerate(variants)}
    marks = {
        (r, index[hid])
        for r, row in enumerate(rows)
        for hid, base in bases.items()
        if row.cells[index[hid]] != row.cells[index[base]]
    }
    return render_template("rules/compare.html", variants=variants, rows=rows, marks=marks)


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
    return None, registry().find(args.get("variant", ""))


@bp.get("/rules/search")
def search():
    query = " ".join(request.args.get("q", "").split())[:MAX_QUERY]
    game, variant = search_scope(request.args)
    variants = [variant] if variant else list(registry().builtins.variants.values())
    hits = rulesearch.search(
        query,
        lang(),
        variants,
        registry().tables,
        book(),
        say=say,
        rulesets={game.variant.id: game.ruleset} if game else None,
    )
    context = {
        "query": query,
        "results": [(hit, hit_url(hit, game)) for hit in hits],
        "variant_names": {v.id: v.name for v in variants},
        "scope_game": game,
        "scope_variant": variant,
    }
    return fragment_or_page("rules/_hits.html", "rules/search.html", **context)

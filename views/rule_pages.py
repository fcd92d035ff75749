"""Rule pages: each variant's rules (built-in or house rules), a game's rules as it
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
from .rights import readable, reads_game
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
        readable(game_id)
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
@reads_game
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
@bp.get("/rules/compare/<first_id>/<second_id>")
def compare(first_id: str = "", second_id: str = ""):
    """Two variants side by side (a phone reads two columns): the first two built-ins, the two in
    the path, or ``?with=<house id>`` and its base. Paths, not queries: the offline copy of a rule
    page is kept under its path."""
    builtins = list(registry().builtins.variants.values())
    houses = [found for i in request.args.getlist("with")[:1] if (found := registry().find(i)) and found.house]
    first = registry().find(first_id or (houses[0].base if houses else "")) or builtins[0]
    second = registry().find(second_id or (houses[0].id if houses else ""))
    if second is None or second.id == first.id:
        second = next(v for v in builtins if v.id != first.id)
    choices = builtins + [v for v in (first, second) if v.house]
    return compare_page([first, second], choices, everything=False)


@bp.get("/compare")
def compare_pick():
    """The two variants picked in the form (a GET): their page."""
    return redirect(
        url_for("rulebook.compare", first_id=request.args.get("a", ""), second_id=request.args.get("b", ""))
    )


@bp.get("/rules/compare/all")
def compare_all():
    """Every built-in variant at once (a wide table), and house rules added with ``?with=<id>``."""
    variants = list(registry().builtins.variants.values())
    for variant_id in request.args.getlist("with")[:4]:
        found = registry().find(variant_id)
        if found is not None and found.house and found not in variants:
            variants.append(found)
    return compare_page(variants, variants, everything=True)


def compare_page(variants: list, choices: list, *, everything: bool):
    """The comparison drawn; each cell of house rules that differs from its base variant's marked."""
    rows = comparing.comparison(variants, registry().tables)
    index = {v.id: i for i, v in enumerate(variants)}
    marks = {
        (r, index[v.id])
        for r, row in enumerate(rows)
        for v in variants
        if v.house and v.base in index and row.cells[index[v.id]] != row.cells[index[v.base]]
    }
    return render_template(
        "rules/compare.html", variants=variants, choices=choices, everything=everything, rows=rows, marks=marks
    )


# --- search ------------------------------------------------------------------------------------------


def hit_url(hit, game=None) -> str:
    if game is not None:
        return url_for(".game_rules", game_id=game.id, _anchor=hit.anchor)
    return url_for(".variant_rules", variant_id=hit.variant_id, _anchor=hit.anchor)


def search_scope(args):
    """(game, variant) the search is restricted to, from ``?game=`` or ``?variant=`` (unknown ones ignored)."""
    if args.get("game"):
        readable(args["game"])
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

"""Web pages: home, the Calculette, the language switch."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for

from models.core import scoring
from models.core.cards import Card, check_deck, format_card, parse_cards
from models.core.errors import DomainError
from models.services import history

from .keypad import read_keypad
from .kit import groups, registry, services, summaries
from .rights import member_tokens, stored_tokens
from .texts import error_message

bp = Blueprint("pages", __name__)


def safe_next(target: str | None) -> str:
    """Only a path on this site (no scheme, no host) is a place to go back to."""
    if not target:
        return url_for("pages.home")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("pages.home")
    return target


@bp.get("/healthz")
def healthz():
    """Answers "ok"; "live feed down" with 503 while this worker's change feed cannot hear the database
    (it subscribes again by itself; its streams catch up then). Reads no database."""
    headers = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
    if services()["feed"].down:
        return "live feed down", 503, headers
    return "ok", 200, headers


RESUMED_GAMES = 3  # the games in progress listed on the home page


def games_in_play() -> list:
    """The games in progress this browser plays — those it holds rights to (created here, or joined
    as a scorekeeper) — the newest first: "Resume" on the home page is one tap back into them."""
    scope = history.Scope(ids=tuple(stored_tokens()))
    in_play = history.game_list(summaries(), scope, size=RESUMED_GAMES)  # in progress first
    return [game for game in in_play if not game.standing.finished]


@bp.get("/")
def home():
    playing = games_in_play()
    my_groups = groups().groups_of(member_tokens())
    page = make_response(
        render_template("pages/home.html", variants=registry().all(), playing=playing, my_groups=my_groups)
    )
    if playing or my_groups:
        page.headers["Cache-Control"] = "private, no-store"  # this browser's games
    return page


@bp.get("/lang/<code>")
def set_language(code):
    response = make_response(redirect(safe_next(request.args.get("next"))))
    if code in current_app.config.get("LANGUAGES", ("fr", "en")):
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response


def cards_from_counts(counts: dict[str, int]) -> list[Card]:
    cards = []
    for token, count in counts.items():
        cards.extend(parse_cards(token) * count)
    return cards


@bp.get("/calculette")
def calculette():
    """Value of one hand: pick the variant, tap the cards (or type them), read the points."""
    variants = registry().all()
    error = None
    try:
        variant = registry().get(request.args.get("variant") or variants[0].id)
    except DomainError as e:
        variant, error = variants[0], error_message(e)
    decks_option = variant.option("decks")
    options = {}
    if decks_option and request.args.get("decks"):
        options["decks"] = request.args.get("decks")
    try:
        ruleset = registry().resolve(variant.id, options=options)
    except DomainError as e:
        ruleset, error = registry().resolve(variant.id), error_message(e)
    keys = scoring.keypad(ruleset)
    counts, _ = read_keypad(request.args, keys)
    typed = request.args.get("cards", "").strip()
    cards = cards_from_counts(counts)
    breakdown, total = [], 0
    try:
        if typed:
            cards = cards + parse_cards(typed)
        check_deck([cards], ruleset.deck)
        breakdown = [(format_card(c), p) for c, p in scoring.hand_breakdown(cards, ruleset.table)]
        total = sum(p for _, p in breakdown)
    except DomainError as e:
        error = error_message(e)
    return render_template(
        "pages/calculette.html",
        variants=variants,
        variant=variant,
        ruleset=ruleset,
        keys=keys,
        counts=counts,
        typed=typed,
        breakdown=breakdown,
        total=total,
        error=error,
        decks_option=decks_option,
    )

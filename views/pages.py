"""Web pages: home, the Calculette, the language switch."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext, lazy_gettext

from models import history, scoring
from models.cards import JOKER, SUIT_SYMBOLS, Card, check_deck, format_card, parse_cards
from models.errors import DomainError
from models.rules import localized

from .numbers import keypad_count
from .rights import stored_tokens

bp = Blueprint("pages", __name__)

RANK_NAMES = {
    "A": lazy_gettext("Ace"),
    "J": lazy_gettext("Jack"),
    "Q": lazy_gettext("Queen"),
    "K": lazy_gettext("King"),
    JOKER: lazy_gettext("Joker"),
}
RANK_SHORT = {"A": lazy_gettext("A"), "J": lazy_gettext("J"), "Q": lazy_gettext("Q"), "K": lazy_gettext("K")}
SUIT_NAMES = {
    "S": lazy_gettext("spades"),
    "H": lazy_gettext("hearts"),
    "D": lazy_gettext("diamonds"),
    "C": lazy_gettext("clubs"),
}


@bp.app_template_filter("card_name")
def card_name(card) -> str:
    """A card's name in the user's language: "Roi de cœur", "King of hearts", "8", "Joker"."""
    if isinstance(card, str):
        card = parse_cards(card)[0]
    return _card_name(card, lang())


@lru_cache(maxsize=512)
def _card_name(card: Card, language: str) -> str:
    """Card names are few: each is translated once per language (gettext per card is costly)."""
    rank = str(RANK_NAMES.get(card.rank, card.rank))
    if card.suit:
        return gettext("%(rank)s of %(suit)s", rank=rank, suit=SUIT_NAMES[card.suit])
    return rank


def suit_name(suit: str) -> str:
    return str(SUIT_NAMES[suit])


# Articles before a card's name (the form a rule message asks for, see models.referee.Message).
# French: l'As / un As, la Dame / une Dame, le Roi / un Roi; English: the Ace / an Ace, a King.
FRENCH_ARTICLES = {"the": {"A": "l'", "Q": "la "}, "a": {"Q": "une "}}
FRENCH_DEFAULT = {"the": "le ", "a": "un "}
ENGLISH_VOWEL_SOUND = ("A", "8")


def card_with_article(card: Card, form: str | None) -> str:
    """A card's name with the article ``form`` asks for: "the" (le 8, l'As, the Ace) or "a"
    (un 8, une Dame, an 8, a Joker); the bare name otherwise."""
    name = _card_name(card, lang())
    if form not in ("the", "a"):
        return name
    if lang() == "fr":
        return FRENCH_ARTICLES[form].get(card.rank, FRENCH_DEFAULT[form]) + name
    if form == "the":
        return "the " + name
    return ("an " if card.rank in ENGLISH_VOWEL_SOUND else "a ") + name


@bp.app_template_filter("card_article")
def card_article(card, form: str = "the") -> str:
    """A card named with an article, for a sentence in a template: "le 8 de pique", "the Ace"."""
    if isinstance(card, str):
        card = parse_cards(card)[0]
    return card_with_article(card, form)


@bp.app_template_filter("capitalize_first")
def capitalize_first(text):
    """The first letter in capitals, the rest untouched (a sentence that opens on « le 8 »)."""
    return text[:1].upper() + text[1:]


def suit_with_article(suit: str, form: str | None) -> str:
    """A suit as something to play: "du trèfle" in French, "clubs" in English."""
    if form and lang() == "fr":
        return "du " + suit_name(suit)
    return suit_name(suit)


@bp.app_template_filter("card_face")
def card_face(card) -> str:
    """The short face of a card as printed in the user's language: "R♥" / "K♥", "10♠", "JK"."""
    if isinstance(card, str):
        card = parse_cards(card)[0]
    return _card_face(card, lang())


@lru_cache(maxsize=512)
def _card_face(card: Card, language: str) -> str:
    if card.is_joker:
        return "JK"
    rank = str(RANK_SHORT.get(card.rank, card.rank))
    return rank + (SUIT_SYMBOLS[card.suit] if card.suit else "")


@bp.app_template_global("tr")
def translate_data(text) -> str:
    """A text from the variant files, in the user's language."""
    return localized(text, lang())


@bp.app_context_processor
def inject_language():
    return {"lang": lang()}


def lang() -> str:
    return str(get_locale() or "fr")


def catalog():
    return current_app.extensions["catalog"]


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
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


RESUMED_GAMES = 3  # the games in progress listed on the home page


def games_in_play() -> list:
    """The games in progress this browser plays — those it holds rights to (created here, or joined
    as a scorekeeper) — the newest first: "Resume" on the home page is one tap back into them."""
    scope = history.Scope(ids=tuple(stored_tokens()))
    games, _ = history.game_list(current_app.extensions["database"], catalog(), scope)
    return [game for game in games if not game.standing.finished][:RESUMED_GAMES]


@bp.get("/")
def home():
    house = [entry.variant for entry in current_app.extensions["house"].all()]
    playing = games_in_play()
    page = make_response(
        render_template("home.html", variants=list(catalog().variants.values()) + house, playing=playing)
    )
    if playing:
        page.headers["Cache-Control"] = "private, no-store"  # this browser's games
    return page


@bp.get("/lang/<code>")
def set_language(code):
    response = make_response(redirect(safe_next(request.args.get("next"))))
    if code in current_app.config.get("LANGUAGES", ("fr", "en")):
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response


def keypad_counts(args, keys) -> dict[str, int]:
    """Counts per key from the form (``n_<token>``), one tap (``tap=+8`` / ``tap=-8``) applied."""
    counts = {}
    for key in keys:
        counts[key.token] = keypad_count(args.get(f"n_{key.token}"), key.limit)
    tap = args.get("tap", "")
    if len(tap) > 1 and tap[0] in "+-" and tap[1:] in counts:
        key = next(k for k in keys if k.token == tap[1:])
        counts[key.token] = max(0, min(key.limit, counts[key.token] + (1 if tap[0] == "+" else -1)))
    return counts


def cards_from_counts(counts: dict[str, int]) -> list[Card]:
    cards = []
    for token, count in counts.items():
        cards.extend(parse_cards(token) * count)
    return cards


@bp.get("/calculette")
def calculette():
    """Value of one hand: pick the variant, tap the cards (or type them), read the points."""
    cat = catalog()
    variant_id = request.args.get("variant") or next(iter(cat.variants))
    error = None
    try:
        variant = cat.variant(variant_id)
    except DomainError as e:
        variant, error = next(iter(cat.variants.values())), e.message(gettext)
    decks_option = variant.option("decks")
    options = {}
    if decks_option and request.args.get("decks"):
        options["decks"] = request.args.get("decks")
    try:
        ruleset = cat.resolve(variant.id, options=options)
    except DomainError as e:
        ruleset, error = cat.resolve(variant.id), e.message(gettext)
    keys = scoring.keypad(ruleset)
    counts = keypad_counts(request.args, keys)
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
        error = e.message(gettext)
    return render_template(
        "calculette.html",
        variants=list(cat.variants.values()),
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

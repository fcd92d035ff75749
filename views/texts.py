"""How it is said in French and in English: the one place that words what the core returns.

The core speaks in ``Message`` objects (an English msgid and its parameters as data, see
``models/core/text.py``) and in texts of the variant files (``{"fr": …, "en": …}``). Here they become
sentences in the request's language: templates translated by Flask-Babel, cards named with their
article where a sentence asks for one (« l'As de cœur », "an 8"), suits, lists ("un As ou un 8"),
French contractions (« à le 8 » → « au 8 »). Pages, forms and the JSON API all word through
``say``; error messages through ``error_message``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from flask import g
from flask_babel import gettext, lazy_gettext, ngettext

from models.core.cards import JOKER, SUIT_SYMBOLS, Card, parse_cards
from models.core.errors import DomainError
from models.core.referee import Verdict
from models.core.rules import glossary
from models.core.text import N_, DataText, Message, Owner, SuitRef, gloss_first
from models.core.variant import localized

from .kit import lang

RANK_NAMES = {
    "A": lazy_gettext("Ace"),
    "J": lazy_gettext("Jack"),
    "Q": lazy_gettext("Queen"),
    "K": lazy_gettext("King"),
    JOKER: lazy_gettext("Joker"),
}
RANK_PLURALS = {
    "A": lazy_gettext("Aces"),
    "J": lazy_gettext("Jacks"),
    "Q": lazy_gettext("Queens"),
    "K": lazy_gettext("Kings"),
    JOKER: lazy_gettext("Jokers"),
}
RANK_SHORT = {"A": lazy_gettext("A"), "J": lazy_gettext("J"), "Q": lazy_gettext("Q"), "K": lazy_gettext("K")}
SUIT_NAMES = {
    "S": lazy_gettext("spades"),
    "H": lazy_gettext("hearts"),
    "D": lazy_gettext("diamonds"),
    "C": lazy_gettext("clubs"),
}

# What the codes of the core are called (English msgids, translated where shown).
MODE_LABELS = {  # (name, how it counts)
    "penalty": (N_("Penalty points"), N_("The others add the cards left in their hands; the lowest total wins.")),
    "winner": (N_("Winner collects"), N_("The winner scores the cards left in the others' hands.")),
    "wins": (N_("Rounds won"), N_("One point per round won.")),
}
CHANGE_LABELS = {  # what house rules change from their base (models/core/house_editor.py differences)
    "deck": N_("Deck"),
    "players": N_("Players"),
    "deal": N_("Cards dealt"),
    "finish": N_("No going out on"),
    "cards": N_("Special cards"),
    "options": N_("House options"),
    "play": N_("Play"),
    "penalty": N_("Wrong card"),
    "mode": N_("Mode"),
    "target": N_("Target"),
    "rounds": N_("Number of rounds"),
    "points": N_("Points"),
}

# --- cards and suits -----------------------------------------------------------------------------


def as_card(card) -> Card:
    return parse_cards(card)[0] if isinstance(card, str) else card


def card_name(card) -> str:
    """A card's name in the user's language: "Roi de cœur", "King of hearts", "8", "Joker"."""
    return _card_name(as_card(card), lang())


@lru_cache(maxsize=512)
def _card_name(card: Card, language: str) -> str:
    """Card names are few: each is translated once per language (gettext per card is costly)."""
    rank = str(RANK_NAMES.get(card.rank, card.rank))
    if card.suit:
        return gettext("%(rank)s of %(suit)s", rank=rank, suit=SUIT_NAMES[card.suit])
    return rank


def card_face(card) -> str:
    """The short face of a card as printed in the user's language: "R♥" / "K♥", "10♠", "JK"."""
    return _card_face(as_card(card), lang())


@lru_cache(maxsize=512)
def _card_face(card: Card, language: str) -> str:
    if card.is_joker:
        return "JK"
    rank = str(RANK_SHORT.get(card.rank, card.rank))
    return rank + (SUIT_SYMBOLS[card.suit] if card.suit else "")


def cards_text(cards) -> str:
    """Cards written as a person of this language types them: "8♥ JK D♦" in French."""
    return " ".join(card_face(card) for card in parse_cards(cards))


def typed_cards(text: str) -> str:
    """Cards typed with this language's letters ("D♦", "R") read back into the core's notation
    ("Q♦", "K"): the same letters card_face writes, read the other way."""
    letters = {str(short).upper(): rank for rank, short in RANK_SHORT.items() if str(short).upper() != rank}
    tokens = []
    for token in text.replace(",", " ").split():
        head = token.rstrip("".join(SUIT_SYMBOLS.values()))
        tail = token[len(head) :]
        tokens.append(letters.get(head.upper(), head) + tail if tail or head.upper() in letters else token)
    return " ".join(tokens)


def suit_name(suit: str) -> str:
    return str(SUIT_NAMES[suit])


# Articles before a card's name (the form a message asks for, see models/core/text.py Message).
# French: l'As / un As, la Dame / une Dame, le Roi / un Roi; English: the Ace / an Ace, a King.
FRENCH_ARTICLES = {"the": {"A": "l'", "Q": "la "}, "a": {"Q": "une "}}
FRENCH_DEFAULT = {"the": "le ", "a": "un "}
ENGLISH_VOWEL_SOUND = ("A", "8")


def rank_plural(rank: str) -> str:
    """A rank in the plural: "Rois", "8" in French (a number does not take the mark); "Kings",
    "8s" in English."""
    if rank in RANK_PLURALS:
        return str(RANK_PLURALS[rank])
    return rank if lang() == "fr" else rank + "s"


def card_with_article(card, form: str | None = "the") -> str:
    """A card's name with the article ``form`` asks for: "the" (le 8, l'As, the Ace) or "a"
    (un 8, une Dame, an 8, a Joker); "plural" names its rank in the plural (Rois, Kings); the
    bare name otherwise."""
    card = as_card(card)
    if form == "plural":
        return rank_plural(card.rank)
    name = _card_name(card, lang())
    if form not in ("the", "a"):
        return name
    if lang() == "fr":
        return FRENCH_ARTICLES[form].get(card.rank, FRENCH_DEFAULT[form]) + name
    if form == "the":
        return "the " + name
    return ("an " if card.rank in ENGLISH_VOWEL_SOUND else "a ") + name


def suit_with_article(suit: str, form: str | None) -> str:
    """A suit as something to play: "du trèfle" in French, "clubs" in English."""
    if form and lang() == "fr":
        return "du " + suit_name(suit)
    return suit_name(suit)


def join_or(items) -> str:
    """ "8, 9 or Joker": a list for a sentence, in the user's language."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s or %(last)s", first=", ".join(items[:-1]), last=items[-1])


def capitalize_first(text: str) -> str:
    """The first letter in capitals, the rest untouched (a sentence that opens on « le 8 »)."""
    return text[:1].upper() + text[1:]


# --- messages ------------------------------------------------------------------------------------

# French joins "à le" into "au", "de le" into "du", "de un" into "d'un"… before a card's name
# (which starts with a capital letter or a digit); English has none of these sequences.
BEFORE_NAME = r"(?=[A-Z0-9])"
CONTRACTIONS = (
    (re.compile(r"\bà le " + BEFORE_NAME), "au "),
    (re.compile(r"\bÀ le " + BEFORE_NAME), "Au "),
    (re.compile(r"\bà les " + BEFORE_NAME), "aux "),
    (re.compile(r"\b([dD])e le " + BEFORE_NAME), r"\1u "),
    (re.compile(r"\b([dD])e les " + BEFORE_NAME), r"\1es "),
    (re.compile(r"\b([dD])e (une?) " + BEFORE_NAME), r"\1'\2 "),
    (re.compile(r"\b([qQ])ue (une?|il|elle) "), r"\1u'\2 "),
)


def contract(text: str) -> str:
    for pattern, replacement in CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


def sentence_inside(text: str) -> str:
    """A sentence quoted after a colon starts with a small letter ("Fin de manche : on ne sort…")."""
    return text[:1].lower() + text[1:] if text[1:2].islower() or text[1:2] == " " else text


# French elides "de" before a vowel or a mute h it cannot tell from an aspirated one: vowels only.
ELIDED = "AEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜŸaeiouyàâäéèêëîïôöûüÿ"


def owner(name: str) -> str:
    """A name as the owner of what precedes it in French (« d'Ana », « de Bob »), of what
    follows it in English (“Ana's”)."""
    if lang() == "fr":
        return f"d'{name}" if name[:1] in ELIDED else f"de {name}"
    return f"{name}'s"


def owners(names) -> str:
    """Names as the owners of what they hold (« de Chloé et d'Élodie », “Chloé's and Élodie's”)."""
    return join_and([owner(name) for name in names])


def won_by(names) -> str:
    """Who won a game, said without a word that agrees with them (« Remportée par Ana et Élodie »)."""
    return gettext("Won by %(names)s", names=join_and(names))


def word(value, form: str | None = None) -> str:
    """One parameter of a message, in the reader's language."""
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, Message):
        return say(value)
    if isinstance(value, DataText):
        text = localized(value.text, lang())
        return sentence_inside(text) if value.inside else text
    if isinstance(value, dict):
        return localized(value, lang())
    if isinstance(value, SuitRef):
        return suit_with_article(value.suit, form)
    if isinstance(value, Owner):
        return owner(value.name)
    if isinstance(value, Card):
        return card_with_article(value, form)
    items = [word(v, form) for v in value]
    return items[0] if len(items) == 1 else join_or(items)


def translated(template, params: dict, plural_by: str | None = None) -> str:
    """A template in the reader's language, with its worded ``params``: a plural pair (``Nn_``)
    through Babel's ``ngettext`` by the number ``params[plural_by]``, else ``gettext``."""
    if isinstance(template, tuple):
        return ngettext(template[0], template[1], params[plural_by], **params)
    text = gettext(template)
    return text % params if params else text


def say(value) -> str:
    """A message, a text of the variant files or plain text, in the reader's language. A sentence
    that opens on a parameter (a card) starts with a capital letter."""
    if isinstance(value, Message):
        params = {key: word(v, value.forms.get(key)) for key, v in value.params.items()}
        out = contract(translated(value.template, params, value.plural_by))
        return capitalize_first(out) if params and value.msgid.startswith("%(") else out
    if isinstance(value, (dict, DataText)):
        return word(value)
    return str(value)


def data_text(text) -> str:
    """A text of the variant files in the reader's language, each French name it uses glossed
    where the page first shows it in a sentence (``glossary.toml``; the page's names glossed so far
    are kept for the request)."""
    language = lang()
    out = localized(text, language)
    names = glossary(language)
    if not names or not out:
        return out
    if "glossed" not in g:
        g.glossed = set()
    return gloss_first(out, names, g.glossed)


def say_all(items, separator: str = ", ") -> str:
    return separator.join(say(item) for item in items)


def error_message(error: DomainError) -> str:
    """What to tell the person about a refusal, in their language (the template translated, each
    parameter worded; a sentence opening on a card starts with a capital letter, a name that
    opens it is left as it was typed)."""
    params = {key: word(value, error.forms.get(key)) for key, value in error.params.items()}
    out = contract(translated(error.template, params, error.plural_by))
    opening = re.match(r"%\((\w+)\)", error.text.msgid)
    return capitalize_first(out) if opening and isinstance(error.params.get(opening.group(1)), Card) else out


def error_json(error: DomainError) -> dict:
    """The JSON API's error object (SPEC §4): code, message, field."""
    body = {"code": error.code, "message": error_message(error)}
    if error.field:
        body["field"] = error.field
    return body


def verdict_json(verdict: Verdict) -> dict:
    """The dispute checker's answer as the JSON API gives it: ``effect`` says everything that
    follows, the cost of a card laid against the rules last; ``cost`` says that cost alone
    (null for a legal card)."""
    return {
        "legal": verdict.legal,
        "reason": say(verdict.reason),
        "rule": say(verdict.rule),
        "effect": " ".join(say(m) for m in (*verdict.effects, *verdict.cost)),
        "cost": " ".join(say(m) for m in verdict.cost) or None,
        "turn_lost": verdict.turn_lost,
        "depends_on": verdict.depends_on,
    }


# --- the live table: what another phone did, said once to the others ---------------------------


def totals_line(ranking) -> str:
    """ "Ana 120, Bob 95, Chloé 40": the totals in the order of the ranking."""
    return ", ".join(f"{side} {total}" for _place, side, total in ranking)


def rights_lost_said(by_group: bool) -> str:
    """What a phone's open stream says as its rights end: its invite was revoked, or (``by_group``)
    the phone was removed from the game's group."""
    if by_group:
        return gettext(
            "This phone was removed from the group: it no longer belongs to it and can no longer record rounds here."
        )
    return gettext("The invite this phone used was revoked: it can no longer record rounds here.")


def change_said(change) -> str:
    """A change another phone made, in plain words for the polite live region (« Manche 7
    enregistrée. Totaux : Ana 120, Bob 95. »: the totals said as totals); empty when nothing a
    reader would hear changed."""
    sentences = []
    for fact in change.facts:
        kind, *args = fact
        if kind == "recorded":
            sentences.append(
                gettext("Round %(n)d recorded. Totals: %(totals)s.", n=args[0], totals=totals_line(change.ranking))
            )
        elif kind == "edited":
            sentences.append(
                gettext("Round %(n)d corrected. Totals: %(totals)s.", n=args[0], totals=totals_line(change.ranking))
            )
        elif kind == "deleted":
            sentences.append(
                gettext("Round %(n)d deleted. Totals: %(totals)s.", n=args[0], totals=totals_line(change.ranking))
            )
        elif kind == "joined":
            sentences.append(gettext("%(name)s joins the table.", name=args[0]))
        elif kind == "left":
            sentences.append(gettext("%(name)s left the table.", name=args[0]))
        elif kind == "finished":
            sentences.append(
                ngettext(
                    "Game over: %(winners)s wins.",
                    "Game over: %(winners)s win.",
                    len(change.winners),
                    winners=join_and(change.winners),
                )  # fmt: skip
            )
        elif kind == "reopened":
            sentences.append(gettext("The game goes on."))
        elif kind == "caught_up":
            sentences.append(gettext("Up to date. Totals: %(totals)s.", totals=totals_line(change.ranking)))
    return " ".join(sentences)


def join_and(items) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


def renumbered_said(recorded: int, becomes: int) -> str:
    return gettext(
        "Round %(n)d recorded by another phone: your entry becomes round %(next)d.", n=recorded, next=becomes
    )


def entering_said(entering, counting=None) -> str:
    """ "Chloé is entering round 7…" for each phone entering a manche; a phone that gave no name is
    said by what it is at the table: the organiser's (the game's owner) or an invited one.
    ``counting`` (by phone, from the open entry: who it said it is, the hands it is counting) names
    the phone by the player it said it is, and which hands it counts: « Chloé saisit sa main
    (manche 7)… »."""
    lines = []
    for phone in entering:
        by, hands = (counting or {}).get(phone.phone, (None, [])) if not phone.editing else (None, [])
        if hands:
            lines.append(counting_said(phone, by, hands))
            continue
        name = by or phone.name
        if name:
            line = (
                gettext("%(name)s is correcting round %(n)d…", name=name, n=phone.number)
                if phone.editing
                else gettext("%(name)s is entering round %(n)d…", name=name, n=phone.number)
            )
        elif phone.owner:
            line = (
                gettext("The organiser is correcting round %(n)d…", n=phone.number)
                if phone.editing
                else gettext("The organiser is entering round %(n)d…", n=phone.number)
            )
        else:
            line = (
                gettext("An invited phone is correcting round %(n)d…", n=phone.number)
                if phone.editing
                else gettext("An invited phone is entering round %(n)d…", n=phone.number)
            )
        lines.append(line)
    return " · ".join(lines)


def counting_said(phone, by: str | None, players: list[str]) -> str:
    """Which hands a phone counts in the open entry of its manche: its own (« Bob saisit sa main
    (manche 3)… ») or others' (« Chloé compte pour Ana et Bob (manche 3)… »); ``by``: who the
    phone said it is, else it is named as on the presence line."""
    by = by or phone.name
    if by and players == [by]:
        return gettext("%(name)s is counting their own hand (round %(n)d)…", name=by, n=phone.number)
    if by is None:
        by = gettext("The organiser") if phone.owner else gettext("An invited phone")
    return gettext("%(name)s is counting for %(players)s (round %(n)d)…", name=by, players=join_and(players),
                   n=phone.number)  # fmt: skip

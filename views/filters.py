"""Every Jinja filter and global of the templates, in one place (registered by ``init_app``).

They only word and shape for display (``views/texts.py``); no rule of the game lives here.
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import unquote

from models.core.cards import SUIT_SYMBOLS, Card
from models.core.names import tell_apart
from models.core.rulepage import option_value_label

from . import texts
from .kit import lang


def rank_card(rank: str) -> Card:
    """A rank as a card with no suit, for the card_name / card_face filters."""
    return Card(rank)


# How many characters a name may take in each list of names on a phone, on a screen of 360 px
# and one of 320 px (wider screens show the 360 px form): the entry's name buttons, two to a row
# beside their "went out" button; the history's heads, written upwards over narrow columns; the end
# table's row heads, which may break at a hyphen.
ROOM = {"entry": (8, 6), "history": (12, 12), "final": (8, 6)}


class Label(NamedTuple):
    """A name as a list shows it: ``wide`` from 360 px on, ``narrow`` below."""

    wide: str
    narrow: str


def name_labels(names, where: str) -> dict[str, Label]:
    """Each name of ``names`` as the list ``where`` shows it: whole where it fits, else a label no
    other name of the list shares (``tell_apart``), for each of the two widths."""
    names = list(names)
    wide, narrow = (tell_apart(names, room) for room in ROOM[where])
    return {name: Label(wide[name], narrow[name]) for name in names}


def span(low: int, high: int) -> str:
    """A range of counts as read: "3–4", or "2" when its ends are one."""
    return str(low) if low == high else f"{low}–{high}"


FILTERS = {
    "card_name": texts.card_name,
    "card_face": texts.card_face,
    "card_article": texts.card_with_article,
    "capitalize_first": texts.capitalize_first,
    "say": texts.say,
    "say_all": texts.say_all,
    "owners": texts.owners,
    "won_by": texts.won_by,
    "suit_symbol": lambda suit: SUIT_SYMBOLS[suit],
    "suit_label": texts.suit_name,
    "rank_card": rank_card,
    "as_read": unquote,  # a link shown as people read it (« name=Chloé », not « name=Chlo%C3%A9 »)
}

GLOBALS = {
    "tr": texts.data_text,  # a text of the variant files, in the user's language
    "option_value": option_value_label,
    "span": span,
    "name_labels": name_labels,  # each name of a list told apart from the others, to fit the phone  # how a house option's value is shown ("yes", a labelled choice)
}


def init_app(app) -> None:
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.update(GLOBALS)

    @app.context_processor
    def inject_language():
        return {"lang": lang()}

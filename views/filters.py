"""Every Jinja filter and global of the templates, in one place (registered by ``init_app``).

They only word and shape for display (``views/texts.py``); no rule of the game lives here.
"""

from __future__ import annotations

from models.core.cards import SUIT_SYMBOLS, Card
from models.core.rulepage import option_value_label
from models.core.variant import localized

from . import texts
from .kit import lang


def rank_card(rank: str) -> Card:
    """A rank as a card with no suit, for the card_name / card_face filters."""
    return Card(rank)


FILTERS = {
    "card_name": texts.card_name,
    "card_face": texts.card_face,
    "card_article": texts.card_with_article,
    "capitalize_first": texts.capitalize_first,
    "say": texts.say,
    "say_all": texts.say_all,
    "suit_symbol": lambda suit: SUIT_SYMBOLS[suit],
    "suit_label": texts.suit_name,
    "rank_card": rank_card,
}

GLOBALS = {
    "tr": lambda text: localized(text, lang()),  # a text of the variant files, in the user's language
    "option_value": option_value_label,  # how a house option's value is shown ("yes", a labelled choice)
}


def init_app(app) -> None:
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.update(GLOBALS)

    @app.context_processor
    def inject_language():
        return {"lang": lang()}

"""Web pages of a game: new game, scoreboard, manche entry and edit (the web UI of issue 3)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

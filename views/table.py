"""Web pages of the table: a player joins at the place they really sit, or leaves after saying who
and confirming. Plain forms that POST and redirect (303) to the game page, whose notice offers
"Undo"; htmx (``hx-post`` on the same forms) swaps the game in place instead of loading a page. A
refusal shows the game again with the players' panel open, what was typed kept.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from models.core import scoring
from models.core.errors import N_, DomainError, ValidationError

from .kit import games, is_htmx
from .numbers import whole_number
from .present import game_context
from .rights import writes_game
from .texts import error_message

bp = Blueprint("table", __name__)

# Where htmx puts a refusal or the confirmation step: the game swapped in place, scrolled to the panel.
PANEL_SWAP = {"HX-Reswap": "outerHTML show:#players:top"}


def render_players(game, status: int = 200, **extra):
    """The game page with the players' panel open (a refusal, or the confirmation of a leave)."""
    context = game_context(game, players_open=True, **extra)
    return render_template("games/game.html", **context), status, PANEL_SWAP if is_htmx() else {}


def seat_of(game, field: str):
    """The player a form names by seat (``after``, ``seat``), or None."""
    seat = whole_number(request.form.get(field, ""), 0, len(game.players) - 1)
    return game.players[seat] if seat is not None else None


@bp.post("/games/<game_id>/players")
@writes_game
def join_player(game_id):
    """A newcomer sits down after the player chosen (``after``, a seat; after the last by default)."""
    game = games().get(game_id)
    name = request.form.get("name", "")
    start = request.form.get("start", scoring.DEFAULT_START)
    after = seat_of(game, "after")
    if request.form.get("after") and after is None:  # a seat that is no player's: say so
        after = request.form["after"]
    try:
        game = games().join_player(game, name, start, after)
    except DomainError as error:
        if error.status >= 500:
            raise
        errors = {"players_error": error_message(error), "newcomer": name, "after_seat": request.form.get("after")}
        return render_players(games().get(game_id), error.status, **errors)
    return redirect(url_for("games.game_page", game_id=game_id, joined=len(game.players) - 1), 303)


@bp.post("/games/<game_id>/players/leave")
@writes_game
def leave_player(game_id):
    """A player leaves: first the form says who (nobody is chosen in advance), then "Yes, … leaves"
    (``confirm=1``) makes it so — one tap can no longer send a player away by mistake."""
    game = games().get(game_id)
    name = seat_of(game, "seat")
    try:
        if name is None:
            raise ValidationError(N_("Choose who leaves the table."), field="seat")
        if request.form.get("confirm") != "1":
            games().check_leave(game, name)  # refused now, not after the confirmation
            return render_players(game, leaving=game.players.index(name))
        games().leave_player(game, name)
    except DomainError as error:
        if error.status >= 500:
            raise
        return render_players(games().get(game_id), error.status, players_error=error_message(error))
    return redirect(url_for("games.game_page", game_id=game_id, left=game.players.index(name)), 303)

"""Pages across games: the list of games (filter by player) and a page per player name.

Read-only; the numbers come from ``models/history.py`` (a constant number of queries per page).
The small charts are SVG drawn on the server: this module only turns numbers into coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, render_template, request

from models import history
from models.cards import Card
from models.errors import N_, NotFound
from models.games import MAX_NAME

bp = Blueprint("history", __name__)

CARDS_SHOWN = 8


def database():
    return current_app.extensions["database"]


def catalog():
    return current_app.extensions["catalog"]


@bp.get("/games")
def game_list():
    """Games in progress first, then finished ones, newest first; ``?player=Ana`` keeps Ana's."""
    player = " ".join(request.args.get("player", "").split())[:MAX_NAME]
    games, more = history.game_list(database(), catalog(), player or None)
    suggestions = current_app.extensions["games"].player_names()
    return render_template("games_list.html", games=games, more=more, player=player, suggestions=suggestions)


@bp.get("/players/<path:name>")
def player_page(name):
    record = history.player_record(database(), catalog(), name[: MAX_NAME * 2])
    if record is None:
        raise NotFound(N_("Nobody called “%(name)s” has played here yet."), field="name", name=name[:MAX_NAME])
    return render_template(
        "player.html",
        record=record,
        points_chart=points_chart(record.manches[-history.CHART_MANCHES :]),
        cards_chart=cards_chart(record.cards[:CARDS_SHOWN]),
    )


# --- chart geometry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int
    css: str = ""


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    left: int
    bottom: int
    top: int
    bars: list
    high: int


def points_chart(manches, width: int = 320, height: int = 140) -> BarChart | None:
    """One column per manche (oldest on the left): the points the player's side scored in it;
    the best and the worst of them marked."""
    if not manches:
        return None
    left, right, top, bottom = 30, width - 6, 8, height - 18
    high = max(max(m.points for m in manches), 1)
    step = min((right - left) / len(manches), 24)  # a few manches make narrow columns, not slabs
    best = max(manches, key=lambda m: m.merit)
    worst = min(manches, key=lambda m: m.merit)
    bars = []
    for index, m in enumerate(manches):
        h = max(round((bottom - top) * m.points / high, 1), 1.5)  # a manche at 0 still shows
        css = "best" if m is best else "worst" if m is worst else ""
        bars.append(
            Bar(
                round(left + index * step + step * 0.15, 1),
                round(bottom - h, 1),
                round(step * 0.7, 1),
                h,
                "",
                m.points,
                css,
            )
        )
    return BarChart(width, height, left, bottom, top, bars, high)


def cards_chart(costs, width: int = 320, row: int = 26) -> BarChart | None:
    """One row per rank, costliest first: a bar as long as the points it cost."""
    if not costs:
        return None
    left, right, top = 56, width - 70, 4
    high = max(max(c.points for c in costs), 1)
    bars = []
    for index, cost in enumerate(costs):
        length = round((right - left) * cost.points / high, 1)
        bars.append(Bar(left, top + index * row, max(length, 1), row - 8, cost.rank, cost.points))
    return BarChart(width, top + len(costs) * row, left, top + len(costs) * row, top, bars, high)


@bp.app_template_filter("rank_card")
def rank_card(rank: str) -> Card:
    """A rank as a card with no suit, for the card_name / card_face filters."""
    return Card(rank)

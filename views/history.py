"""Pages across games: the list of games (filter by player) and a page per player name.

Read-only; the numbers come from ``models/services/history.py`` (a constant number of queries per page).
The small charts are SVG drawn on the server: this module only turns numbers into coordinates.

A browser sees its own games only: those it created or holds rights to, and those it opened
(``views/rights.py`` keeps their ids in its session). A share link still opens its game for
anyone who has it, and adds it to that browser's games. The administrator, with ``ADMIN_TOKEN``
sent as ``Authorization: Bearer …``, sees every game; without that setting there is no
server-wide list.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, render_template, request, url_for

from models.core.errors import N_, NotFound
from models.services import history
from models.services.game_input import MAX_NAME

from .kit import database, groups, lang, summaries
from .numbers import page_number
from .pagecache import cached_page
from .rights import is_admin, known_games, member_tokens

bp = Blueprint("history", __name__)

CARDS_SHOWN = 8


def reader_scope() -> history.Scope:
    """The games this request may see across games: all of them for the administrator, else the
    browser's own."""
    if is_admin():
        return history.EVERY_GAME
    return history.Scope(ids=known_games(), groups=member_groups())


def member_groups() -> tuple[str, ...]:
    """The groups this phone is a member of: their games are its games too."""
    return tuple(group.id for group in groups().groups_of(member_tokens()))


def private(response):
    """A list of someone's games (or of every game) is kept by no shared cache."""
    response.headers["Cache-Control"] = "private, no-store"
    return response


def suggested_names(scope: history.Scope | None = None) -> list[str]:
    """Names from this browser's games, most used first (the new-game form and the filter)."""
    return history.player_names(database(), scope or reader_scope())


@bp.get("/games")
def game_list():
    """Games in progress first, then finished ones, newest first; ``?player=Ana`` keeps Ana's.
    Paged in SQL; the page is kept compressed (``views/pagecache.py``) under the state of
    this reader's games (``history.scope_state``: their revisions and their groups', one lookup), the
    games this reader may see, the filter, the page and the language: a visit to a page already built asks nothing else."""
    scope = reader_scope()
    asked = request.args
    player = " ".join(asked.get("player", "").split())[:MAX_NAME]
    page = page_number(asked)

    def render():
        listed = history.list_page(database(), scope, player or None, page)
        if listed.page > 1 and not listed.rows:
            raise NotFound(N_("No such page."), field="page")
        games = summaries().of(listed.rows)
        return render_template(
            "history/games.html",
            games=games,
            listed=listed,
            page_size=history.GAMES_PER_PAGE,
            player=player,
            suggestions=suggested_names(scope),
            everything=scope.everything,
            nothing_yet=scope.empty or not (games or player),
            read_only=True,  # its one form (the filter) is a GET: no cookie
            here=url_for("history.game_list", player=player or None, page=listed.page if listed.page > 1 else None),
        )

    key = ("games", history.scope_state(database(), scope), scope, player, page, lang())
    return private(cached_page(key, render))


class _Nobody(Exception):
    """Nobody of that name played in the games this reader may see."""


@bp.get("/players/<path:name>")
def player_page(name):
    """A player's record across this browser's games (every game for the administrator), kept
    compressed under the state of this reader's games (one lookup), the name as asked, the games
    this reader may see and the language."""
    scope = reader_scope()
    name = name[: MAX_NAME * 2]

    def render():
        names = history.player_spellings(database(), scope, name)
        if not names:
            raise _Nobody
        record = history.player_record(summaries(), scope, names)
        return render_template(
            "history/player.html",
            record=record,
            points_chart=points_chart(record.recent),
            cards_chart=cards_chart(record.cards[:CARDS_SHOWN]),
            read_only=True,
            here=url_for("history.player_page", name=name),
        )

    try:
        return private(cached_page(("player", history.scope_state(database(), scope), name, scope, lang()), render))
    except _Nobody:  # not kept: a 404 the next game may turn into a page
        page = render_template(
            "history/player.html", record=None, name=" ".join(name.split())[:MAX_NAME], none_yet=scope.empty
        )
        return private(current_app.make_response((page, 404)))


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

"""A club night's end (« Terminer la soirée ») and its results: the podium on the night's page,
the result sheet to print (every turn's tables and the final ranking), and the same as a CSV for
a spreadsheet — on the pages and in the JSON API, each answered by one function.

Any member may end the night, as any member starts its turns; ending it again changes nothing,
and « Rouvrir la soirée » undoes it. An ended night starts no turn (the service refuses it inside
the write). The numbers are the night page's (``views/nights.py`` ``night_numbers``).
"""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, jsonify, make_response, redirect, render_template, url_for
from flask_babel import gettext

from models.core import club_night

from .api_nights import bp as api
from .api_nights import night_line
from .groups import private
from .kit import groups, nights
from .nights import members_night, night_numbers, per_table
from .share import attachment, spreadsheet_safe

bp = Blueprint("night_results", __name__)


@bp.post("/nights/<night_id>/end")
def end_night(night_id):
    members_night(night_id)
    nights().end(night_id)
    return private(redirect(url_for("nights.night_page", night_id=night_id, _anchor="podium"), 303))


@bp.post("/nights/<night_id>/reopen")
def reopen_night(night_id):
    members_night(night_id)
    nights().end(night_id, ended=False)
    return private(redirect(url_for("nights.night_page", night_id=night_id), 303))


@api.post("/nights/<night_id>/end")
def api_end_night(night_id):
    """The night ended (200, the night as its list shows it); sent again, the same answer."""
    members_night(night_id)
    nights().end(night_id)
    return jsonify(night_line(nights().state(night_id).night))


@api.delete("/nights/<night_id>/end")
def api_reopen_night(night_id):
    """The night going on again (200, the night as its list shows it)."""
    members_night(night_id)
    nights().end(night_id, ended=False)
    return jsonify(night_line(nights().state(night_id).night))


@bp.get("/nights/<night_id>/sheet")
def result_sheet(night_id):
    """The result sheet, to print: the podium, the ranking, then every turn's tables and totals."""
    state = members_night(night_id)
    numbers = night_numbers(state)
    turns: dict = {}
    for table in state.tables:
        summary = numbers.summaries.get(table.game_id)
        if summary is not None:
            turns.setdefault(table.round, []).append((table, summary))
    context = {
        "night": state.night,
        "group": groups().group(state.night.group_id),
        "ranking": numbers.ranking,
        "podium": club_night.podium(numbers.ranking),
        "lower_is_better": numbers.lower_is_better,
        "uneven": any(line.byes or line.gone for line in numbers.ranking),
        "turns": sorted(turns.items()),
    }
    return private(make_response(render_template("nights/sheet.html", **context)))


@bp.get("/nights/<night_id>/results.csv")
@api.get("/nights/<night_id>/results.csv")
def results_csv(night_id):
    """The night's ranking as a spreadsheet reads it (UTF-8 with a byte-order mark, so that the
    accents are read): one row a player in the night's ranking, its words in the request's
    language; the figure per table played when the night is ranked per table."""
    state = members_night(night_id)
    numbers = night_numbers(state)
    out = io.StringIO()
    writer = csv.writer(out)
    method = state.night.ranked_by
    figure = {"points_per_table": gettext("Points per table"), "wins_per_table": gettext("Wins per table")}.get(method)
    headings = [gettext("Place"), gettext("Player"), gettext("Wins"), gettext("Points"), gettext("Tables")]
    writer.writerow([*headings, gettext("Byes"), gettext("Left"), *([figure] if figure else [])])
    for line in numbers.ranking:
        cells = [
            line.place,
            line.name,
            line.wins,
            line.points,
            line.tables,
            line.byes,
            gettext("yes") if line.gone else "",
        ]
        if figure:
            cells.append(per_table(getattr(line, method)))
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    answer = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    return private(attachment(answer, f"carte-night-{state.night.created_at:%Y-%m-%d}.csv"))

"""A group's championship of club nights (« le championnat des soirées »): its table on the group's
page (in the standings, under their period and variant), as a CSV, and in the JSON API, each
answered from one function, ``season_table.championship_of``.

What is asked is read from the query, as the standings' period is: ``scale`` (« 10-8-6-5-4-3-2-1 »,
or ``places`` for the sum of placings; on the page ``own`` is a scale typed by the organiser, which
wins over the list), ``best`` (how many nights count; empty: every night). Nothing is stored: the
same link shows the same championship to every member. The nights are the group's ended ones
(a night going on has no final places yet), each placed by its own ranking
(``NightService.season``); the points are the core's (``models/core/championship.py``).
"""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, jsonify, request
from flask_babel import format_date, gettext

from models.core import standings
from models.services import group_file
from models.services import groups as group_service

from .api import bp as api
from .groups import member, private
from .kit import groups, nights, now, summaries
from .season_table import Championship, championship_of
from .share import attachment, spreadsheet_safe

bp = Blueprint("group_season", __name__)


def group_championship(group_id: str, args) -> Championship:
    """The championship a member asks of the group (its CSV, the API): named and filtered as its page is."""
    member(group_id)
    aliases = groups().aliases(group_id)
    apart = groups().games(summaries(), group_id, 0).finished
    finished = standings.merged(apart, group_service.merges_of(aliases))
    variant = args.get("variant") if args.get("variant") in standings.variants(finished) else None
    ended = nights().season(summaries(), group_id, aliases)
    return championship_of(ended, args, standings.spellings(finished), variant, now())


@bp.get("/groups/<group_id>/season.csv")
@api.get("/groups/<group_id>/season.csv")
def season_csv(group_id):
    """The championship as a spreadsheet reads it (UTF-8 with a byte-order mark): one row a player,
    their place, total, nights played and counted, then their place in each night (empty: missed),
    its words in the request's language."""
    found = group_championship(group_id, request.args)
    out = io.StringIO()
    writer = csv.writer(out)
    total = gettext("Sum of places") if found.rule.lower_is_better else gettext("Points")
    heading = [gettext("Place"), gettext("Player"), total, gettext("Nights played"), gettext("Nights counted")]
    writer.writerow(heading + [f"{format_date(n.played_at, 'short')} {n.name}" for n in found.nights])
    for line in found.lines:
        cells = [line.place, line.name, line.total, line.played, line.counted]
        cells += ["" if score.place is None else score.place for score in line.scores]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    group = groups().group(group_id)
    answer = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    return private(attachment(answer, f"{group_file.file_stem(group)}-season.csv"))


def season_document(found: Championship) -> dict:
    """The championship as JSON: the same numbers as the page and the CSV."""
    return {
        "period": found.period,
        "variant": found.variant,
        "scale": found.rule.text,
        "lower_is_better": found.rule.lower_is_better,
        "best": found.best,
        "nights": [
            {"id": n.night_id, "name": n.name, "created_at": n.played_at.isoformat(), "players": n.players}
            for n in found.nights
        ],
        "lines": [
            {
                "place": line.place,
                "tied": line.tied,
                "name": line.name,
                "total": line.total,
                "played": line.played,
                "counted": line.counted,
                "nights": [
                    {"night": s.night_id, "place": s.place, "points": s.points, "counted": s.counted}
                    for s in line.scores
                ],
            }
            for line in found.lines
        ],
    }


@api.get("/groups/<group_id>/season")
def get_group_season(group_id):
    """The group's championship (``?period=&variant=&scale=&best=``): for a member, else 404."""
    return jsonify(season_document(group_championship(group_id, request.args)))

"""A group's club nights in the JSON API (/api/v1): the group's nights, a night (its turn, the
tables of that turn with their games' totals, the ranking across tables with its ties, and the
next turn's seating proposed as asked, with who sits it out), the next turn started from a
seating and its byes — sent again, it starts nothing —, a player leaving the night or coming
back, and how the night is ranked (by total, or per table played).

A member's token is the bearer token (as for the group: ``views/api_groups.py``); a night says
nothing to anyone else (404, like its group). The numbers are the night page's
(``views/nights.py`` ``night_numbers``, ``asked_seating``, ``proposed_seating``), the writes the
service's (``models/services/nights.py``). It is one of the API's blueprints (``kit.is_api``):
its rights are the bearer token, and no browser form is asked where it comes from.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from models.core.errors import N_, ValidationError
from models.services.nights import NightState, StoredNight

from .api import json_body, json_only
from .kit import groups, nights
from .nights import asked_seating, night_numbers, of_members, proposed_seating
from .rights import member_tokens
from .texts import error_message

bp = Blueprint("api_nights", __name__, url_prefix="/api/v1")
bp.before_request(json_only)


def member(group_id: str) -> None:
    """Not found unless the bearer token is a member's of the group."""
    groups().member_of(group_id, member_tokens())


def members_night(night_id: str) -> NightState:
    return of_members(nights().state(night_id), member)


def night_line(night: StoredNight) -> dict:
    return {
        "id": night.id,
        "name": night.name,
        "variant": night.variant,
        "target": night.target,
        "rounds": night.rounds,
        "turn": night.round,
        "created_at": night.created_at.isoformat(),
        "ended_at": night.ended_at.isoformat() if night.ended_at else None,
        "ranking_method": night.ranked_by,
    }


def figure(value) -> float | None:
    """A figure per table played (a fraction) as JSON writes it, four decimals at most."""
    return None if value is None else round(float(value), 4)


def ranking_line(p) -> dict:
    """A player's line in the night's ranking."""
    return {
        "place": p.place,
        "name": p.name,
        "wins": p.wins,
        "points": p.points,
        "tables": p.tables,
        "tied": p.tied,
        "byes": p.byes,
        "gone": p.gone,
        "points_per_table": figure(p.points_per_table),
        "wins_per_table": figure(p.wins_per_table),
    }


def table_line(table, summary) -> dict:
    """A table of the turn: its game, and each side's total as its game stands."""
    return {
        "table": table.table,
        "game": table.game_id,
        "finished": summary.finished,
        "totals": [{"name": side, "total": total} for _, side, total in summary.standing.ranking],
        "winners": sorted(summary.standing.winners) if summary.finished else [],
    }


@bp.get("/groups/<group_id>/nights")
def group_nights(group_id):
    """The group's nights, newest first: for a member, else 404."""
    member(group_id)
    return jsonify({"group": group_id, "nights": [night_line(n) for n in nights().nights(group_id)]})


@bp.get("/nights/<night_id>")
def get_night(night_id):
    """The night: for a member of its group, else 404. ``?method=&tables=&seed=`` ask the next
    turn's seating as the page's « Proposer » does: a number of tables asked that the players
    cannot fill is a 422; when the turn's own number cannot be, the proposal says why (``error``)
    and seats them at it all the same, as the page does."""
    state = members_night(night_id)
    numbers = night_numbers(state)
    asked = asked_seating(state, request.args)
    seating, out, refused = proposed_seating(state, numbers.ranking, asked, numbers.met)
    if refused is not None and request.args.get("tables"):
        raise refused
    tables = [(t, numbers.summaries[t.game_id]) for t in state.current if t.game_id in numbers.summaries]
    return jsonify(
        {
            **night_line(state.night),
            "group": state.night.group_id,
            "lower_is_better": numbers.lower_is_better,
            "tables": [table_line(table, summary) for table, summary in tables],
            "ranking": [ranking_line(p) for p in numbers.ranking],
            "proposal": {
                "turn": state.night.round + 1,
                "method": asked.method,
                "tables": asked.tables,
                "seed": asked.seed,
                "seating": seating,
                "byes": out,
                "error": None if refused is None else error_message(refused),
            },
        }
    )


def seating_of(data: dict) -> list[list[str]]:
    """The body's ``seating``: tables, each a list of names."""
    seating = data.get("seating")
    if not isinstance(seating, list) or not all(
        isinstance(table, list) and all(isinstance(name, str) for name in table) for table in seating
    ):
        raise ValidationError(N_("Send the seating as a list of tables, each a list of names."), field="seating")
    return [[" ".join(name.split()) for name in table] for table in seating]


@bp.post("/nights/<night_id>/rounds")
def start_round(night_id):
    """Turn ``turn`` (the one after the turn being played) started from ``seating``, one game a
    table: 201 and each game's id and edit token. Sent again (or started by another phone first):
    200, nothing started, the turn's games without their tokens."""
    state = members_night(night_id)
    data = json_body()
    turn = data.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise ValidationError(N_("Say which turn to start (a whole number)."), field="turn")
    started = nights().next_round(state.night, turn, seating_of(data), data.get("byes", []))
    if started:
        games = [{"table": n, "id": game_id, "edit_token": token} for n, (game_id, token) in enumerate(started, 1)]
        return jsonify({"turn": turn, "started": True, "games": games}), 201
    now = nights().state(night_id)
    games = [{"table": t.table, "id": t.game_id} for t in now.tables if t.round == turn]
    return jsonify({"turn": turn, "started": False, "games": games}), 200


@bp.post("/nights/<night_id>/gone")
def mark_gone(night_id):
    """``name`` left the night (``gone`` true, the default) or came back (false): 200, the name as
    the night spells it and whether they are gone; someone the night never seated is a 422."""
    members_night(night_id)
    data = json_body()
    gone = data.get("gone", True)
    if not isinstance(gone, bool):
        raise ValidationError(N_("Say whether the player left (true) or came back (false)."), field="gone")
    name = nights().leave(night_id, data.get("name"), gone)
    return jsonify({"name": name, "gone": gone})


@bp.put("/nights/<night_id>/ranking")
def rank_night(night_id):
    """The night ranked by ``method``: 200, the night as its list shows it."""
    members_night(night_id)
    nights().rank_by(night_id, json_body().get("method"))
    return jsonify(night_line(nights().state(night_id).night))

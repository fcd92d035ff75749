"""A group in the JSON API: the group and its games, and its standings, as JSON for
``views/api.py`` (its archive and score sheet are ``views/group_files.py``, the same files as the
page's). A member's token is its bearer token; a group says nothing to anyone else (404). The
numbers come from ``models/core/standings.py``, the same as the group's page."""

from __future__ import annotations

from models.core import standings
from models.services import group_file, group_games
from models.services import groups as group_service

from .groups import link_limits, member, out_rights, owner
from .kit import database, groups, now, summaries


def game_line(summary) -> dict:
    return {
        "id": summary.id,
        "variant": summary.variant.id,
        "players": list(summary.players),
        "status": "finished" if summary.finished else "playing",
        "winners": list(summary.standing.winners) if summary.finished else [],
        "created_at": summary.created_at.isoformat(),
    }


def points_line(points: standings.Points) -> dict:
    return {
        "rounds": points.manches,
        "total": points.points,
        "average": points.average,
        "best": points.best,
        "worst": points.worst,
    }


def standing_line(line: standings.Line) -> dict:
    """A person's line: games and wins of every variant; points per kind (``penalty``: fewer is
    better, ``won``: more is better), never added together."""
    return {
        "name": line.name,
        "won": line.won,
        "played": line.played,
        "win_rate": line.win_rate,
        "longest_run": line.longest_run,
        "points": {kind: points_line(points) for kind, points in line.kinds.items()},
    }


def group_document(group_id: str) -> dict:
    """The group, its games (newest first) and its merges, for a member."""
    member(group_id)
    group = groups().group(group_id)
    played = groups().summaries(summaries(), group_id)
    return {
        "id": group.id,
        "name": group.name,
        "revision": group.revision,
        "games": [game_line(s) for s in reversed(played)],
        "merges": group_file.merge_pairs(groups().aliases(group_id)),
    }


def standings_document(group_id: str, args) -> dict:
    """The group's standings (``period``: all, year or month; ``variant``), for a member."""
    member(group_id)
    apart = groups().games(summaries(), group_id, 0).finished
    finished = standings.merged(apart, group_service.merges_of(groups().aliases(group_id)))
    period = args.get("period") if args.get("period") in standings.PERIODS else "all"
    variant = args.get("variant") or None
    picked = standings.chosen(finished, period, variant, now())
    lines = standings.table(picked, standings.spellings(finished))
    return {
        "period": period,
        "variant": variant,
        "kinds": standings.kinds(lines),
        "lines": [standing_line(line) for line in lines],
    }


def take_out(group_id: str, game_id: str) -> dict:
    """The game out of the group (``group_games.take_out``): the answer says where it came from."""
    group_games.take_out(database(), group_id, game_id, *out_rights(group_id, game_id))
    return {"id": game_id, "group": None, "taken_from": group_id}


def put_back(group_id: str, game_id: str) -> dict:
    """The game taken out, in the group again (``group_games.put_back``)."""
    group_games.put_back(database(), group_id, game_id, *out_rights(group_id, game_id))
    return {"id": game_id, "group": group_id, "taken_from": None}


def member_line(member_row) -> dict:
    return {
        "id": member_row.id,
        "name": member_row.name,
        "owner": member_row.owner,
        "number": member_row.number,
        "joined_at": member_row.joined_at.isoformat(),  # as the nights' moments are written
        "last_visit": None if member_row.seen_at is None else member_row.seen_at.date().isoformat(),
    }


def invite_line(invite) -> dict:
    return {
        "id": invite.id,
        "created_at": invite.created_at.isoformat(),
        "max_uses": invite.max_uses,
        "until": None if invite.last_day is None else invite.last_day.isoformat(),
        "uses": invite.uses,
        "open": invite.revoked_at is None and not invite.closed,
    }


def members_document(group_id: str) -> dict:
    """The group's phones (names, joining, last visit) for a member; its links and their uses for
    the owner."""
    me = member(group_id)
    return {
        "members": [member_line(m) for m in groups().members(group_id)],
        "invites": [invite_line(i) for i in groups().invites(group_id)] if me.owner else None,
    }


def new_invite(group_id: str, data: dict, link_of) -> dict:
    """A new join link for a member (``link_limits``); ``link_of(token)``: its address. The
    token is shown once."""
    me = member(group_id)
    token = groups().create_invite(group_id, **link_limits(data), by=me.member_id)
    return {"invite": token, "link": link_of(token)}


def rename(group_id: str, member_id: str, data: dict) -> dict:
    """The owner names a phone of the group."""
    groups().rename(group_id, member_id, data.get("name"), by=owner(group_id).member_id)
    return member_line(next(m for m in groups().members(group_id) if m.id == member_id))

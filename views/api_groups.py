"""A group in the JSON API: the group and its games, and its standings, as JSON for
``views/api.py``; its archive out and in. A member's token is its bearer token; a group says nothing to anyone else (404).
The numbers come from ``models/core/standings.py``, the same as the group's page."""

from __future__ import annotations

from datetime import UTC, datetime

from models.core import standings
from models.core.errors import N_, ValidationError
from models.services import group_file
from models.services import groups as group_service
from models.services.game_input import checked_key

from .kit import database, games, groups
from .rights import member_tokens


def game_line(summary) -> dict:
    return {
        "id": summary.id,
        "variant": summary.variant.id,
        "players": list(summary.players),
        "status": "finished" if summary.finished else "playing",
        "winners": list(summary.standing.winners) if summary.finished else [],
        "created_at": summary.created_at.isoformat(),
    }


def standing_line(line: standings.Line) -> dict:
    return {
        "name": line.name,
        "won": line.won,
        "played": line.played,
        "win_rate": line.win_rate,
        "average": line.average,
        "best": line.best,
        "worst": line.worst,
        "longest_run": line.longest_run,
    }


def group_document(group_id: str) -> dict:
    """The group, its games (newest first) and its merges, for a member."""
    groups().member_of(group_id, member_tokens())
    group = groups().group(group_id)
    summaries = groups().summaries(games().views, group_id)
    return {
        "id": group.id,
        "name": group.name,
        "revision": group.revision,
        "games": [game_line(s) for s in reversed(summaries)],
        "merges": [{"person": a.person, "counted_as": a.counted_as} for a in groups().aliases(group_id)],
    }


def standings_document(group_id: str, args) -> dict:
    """The group's standings (``period``: all, year or month; ``variant``), for a member."""
    groups().member_of(group_id, member_tokens())
    summaries = groups().summaries(games().views, group_id)
    finished = group_service.results(summaries, groups().aliases(group_id))
    period = args.get("period") if args.get("period") in standings.PERIODS else "all"
    variant = args.get("variant") or None
    picked = standings.chosen(finished, period, variant, datetime.now(UTC))
    return {"period": period, "variant": variant, "lines": [standing_line(line) for line in standings.table(picked)]}


def archive_document(group_id: str) -> dict:
    """The group's archive (``carte-group/1``), for a member."""
    groups().member_of(group_id, member_tokens())
    group = groups().group(group_id)
    return group_file.export_archive(group, group_file.group_views(games(), group_id), groups().aliases(group_id))


def import_document(document, key) -> tuple[dict, int]:
    """A group rebuilt from its archive for this client, its owner: 201 and its member token; the
    same file with the same ``Idempotency-Key`` again: 200 and the same group (a new member token
    unless the client sends the one it holds as its bearer token)."""
    if key is None:
        raise ValidationError(
            N_("Send an Idempotency-Key with a group file: the same key and file make one group."),
            field="Idempotency-Key",
        )
    made = group_file.import_archive(database(), games(), document, "key:" + checked_key(key), member_tokens())
    body = {"group": made.group_id, "member_token": made.member_token, "imported_before": made.again}
    return body, 200 if made.again else 201

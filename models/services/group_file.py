"""A group's archive: one JSON document (``carte-group/1``) — its name, its games each in the game
file's shape (``carte-game/2``, ``game_file``), the owner's merges of two spellings — and the group
rebuilt from it; and its score sheet, one row per manche per player, for a spreadsheet.

The archive holds no phone, token or invite: an import makes a new group whose one member, its
owner, is the importing phone; its games are new games of it (new ids, begun when the file says),
its merges kept. Everything is checked and scored in memory (``game_import.plan``) before one
transaction writes it all; a damaged file writes nothing.

Importing the same file twice makes one group: the new group's id, and its owner's member id, are
derived from the file's content and from who imports it (the phone's own id, or the API client's
``Idempotency-Key``), and the member's token from its id with the server's secret. A second import,
even at the same moment, finds that group and answers it, with the same member token if the
importer no longer shows it (the first answer was lost): every answer's token works.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core import standings
from ..core.errors import N_, Conflict, DomainError, ValidationError
from . import game_import
from .db import Database, Game, GroupAlias, GroupMember, PlayGroup, token_hash, utcnow
from .game_file import export_document
from .game_view import game_rows
from .groups import LIVE, checked_name, derived_token, merges_of, phone_name, results
from .ids import new_id
from .unit_of_work import unit_of_work

FORMAT = "carte-group/1"
MAX_GAMES = 5000
MAX_MERGES = 500
MAX_FILE_BYTES = 16 * 1024 * 1024  # a request that brings an archive: about 5,000 games of 10 manches
FIRST_YEAR, LAST_YEAR = 1900, 2999  # when a game of an archive may have begun
NOT_A_GROUP_FILE = N_("This is not a Carte ! group file (format carte-group/1).")


class PlannedGroup(NamedTuple):
    """An archive read, checked and scored: the group's name, its games (each with when it began)
    and its merges (person → counted as)."""

    name: str
    games: list  # (game_import.PlannedGame, when it began), in the file's order
    merges: dict


class Imported(NamedTuple):
    """What an import made: the group, the member token of the importing phone (None when it holds
    one already), and whether the file was imported before."""

    group_id: str
    member_token: str | None
    again: bool


# --- export ----------------------------------------------------------------------------------------


def group_views(games, group_id: str) -> list:
    """Every game of the group as the game service shows it, oldest first: four statements."""
    with games.db.snapshot() as session:
        views = games.views(session, game_rows(session, Game.group_id == group_id))
    return sorted(views, key=lambda view: (view.created_at, view.id))


def merge_pairs(aliases) -> list[dict]:
    """The owner's merges as the archive and the API's group say them: each a pair of persons, as
    the standings write them (``{"person": "robert", "counted_as": "bob"}``)."""
    return [{"person": alias.person, "counted_as": alias.counted_as} for alias in aliases]


def export_archive(group, views, aliases) -> dict:
    """The group's archive: its name, its games in the game file's shape, its merges, all made at
    one moment (its ``exported_at`` is each game's)."""
    moment = utcnow().isoformat(timespec="seconds")
    return {
        "format": FORMAT,
        "exported_at": moment,
        "group": {"name": group.name, "created_at": group.created_at.isoformat(timespec="seconds")},
        "games": [export_document(view, moment) for view in views],
        "merges": merge_pairs(aliases),
    }


def file_stem(group) -> str:
    """The name a download of the group is saved under, without its suffix: the day it was made."""
    return f"carte-group-{group.created_at:%Y-%m-%d}"


def score_sheet(summaries, aliases) -> list[tuple]:
    """One row per manche per player, oldest game first: the game's number in the sheet, its date
    (``YYYY-MM-DD``), its variant, the manche, the name as played, the person the standings count
    (merges followed, their latest spelling in the finished games, as the standings show them), the points of their side in that manche, and 1 or 0 for
    whether their side won the game (empty while it is played)."""
    merges = merges_of(aliases)
    spelled = standings.spellings(results(summaries, aliases))  # as the standings name them
    rows = []
    for index, summary in enumerate(summaries, 1):
        for name in summary.players:
            who = standings.counted_as(merges, standings.person(name))
            part = summary.parts[name]
            won = (1 if part.side in summary.standing.winners else 0) if summary.finished else ""
            for number, points in part.manches:
                day = summary.created_at.strftime("%Y-%m-%d")
                rows.append((index, day, summary.variant, number, name, spelled.get(who, name), points, won))
    return sorted(rows, key=lambda row: (row[0], row[3]))


# --- import ----------------------------------------------------------------------------------------


def _began(value, index: int) -> datetime | None:
    """When a game of the archive began (``created_at``), in UTC; None when the file says not."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
        if when is not None:
            when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except (ValueError, OverflowError):
        when = None
    if when is None or not FIRST_YEAR <= when.year <= LAST_YEAR:
        raise ValidationError(
            N_("The file is damaged: when game %(number)s began is unreadable."),
            field=f"games.{index}",
            number=index + 1,
        )
    return when


def _read_merges(merges) -> dict:
    """The owner's merges: each person once, both written as the standings know them, never the
    same, and no loop."""
    damaged = ValidationError(N_("The file is damaged: its merged players are unreadable."), field="merges")
    if merges is None:
        return {}
    if not isinstance(merges, list) or len(merges) > MAX_MERGES:
        raise damaged
    found = {}
    for item in merges:
        who, into = (item.get("person"), item.get("counted_as")) if isinstance(item, dict) else (None, None)
        if not isinstance(who, str) or not isinstance(into, str) or who in found or who == into:
            raise damaged
        if standings.person(who) != who or standings.person(into) != into or not who or len(who) > 80 or len(into) > 80:
            raise damaged
        found[who] = into
    for who in found:
        if standings.counted_as(found, who) in found:  # followed to its end, it came back: a loop
            raise ValidationError(
                N_("The file is damaged: its merged players count as each other in a loop."), field="merges"
            )
    return found


def read_archive(games, document) -> PlannedGroup:
    """Check an archive and plan each of its games (``games``: the game service); nothing is
    written. A damaged file is a ``ValidationError`` naming the game it is in."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValidationError(NOT_A_GROUP_FILE, field="format")
    group, files = document.get("group"), document.get("games")
    if not isinstance(group, dict):
        raise ValidationError(N_("The file is damaged: the group is missing."), field="group")
    if not isinstance(files, list):
        raise ValidationError(N_("The file is damaged: the games are not a list."), field="games")
    if len(files) > MAX_GAMES:
        raise ValidationError(
            N_("A group file holds at most %(max)s games; this one has %(count)s."),
            field="games",
            max=MAX_GAMES,
            count=len(files),
        )
    name = checked_name(group.get("name"), field="group.name")
    planned = []
    for index, file in enumerate(files):
        try:
            game = game_import.plan(games, file)
        except DomainError as error:  # any refusal of a game's file is the archive's damage
            raise ValidationError(
                N_("Game %(number)s of the file: %(problem)s"),
                field=f"games.{index}",
                number=index + 1,
                problem=error.text,
            ) from error
        began = _began(file["game"].get("created_at"), index) or utcnow()
        if planned and began <= planned[-1][1]:  # the file's order kept: its dates are to the second
            began = planned[-1][1] + timedelta(microseconds=1)
        planned.append((game, began))
    return PlannedGroup(name, planned, _read_merges(document.get("merges")))


def import_ids(importer: str, document) -> tuple[str, str]:
    """The new group's id and its owner's member id: derived from the file's content (its JSON
    written one way, whatever its spacing or key order) and from who imports it."""
    try:
        content = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    except (TypeError, ValueError, RecursionError) as error:  # keys of mixed kinds, nesting too deep
        raise ValidationError(NOT_A_GROUP_FILE, field="format") from error
    digest = hashlib.sha256(b"carte-group-import\0" + importer.encode() + b"\0" + content).digest()
    text = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    return text[:22], text[22:]


def import_archive(
    database: Database, games, document, importer: str, tokens=(), phone=None, *, secret: bytes
) -> Imported:
    """Rebuild a group from its archive for the phone ``importer`` names (``tokens``: the member
    tokens it holds; ``phone``: the name it gives itself; ``secret``: the server's, which its
    member token derives from): all of it in one transaction, once."""
    group_id, member_id = import_ids(importer, document)
    token = derived_token(secret, member_id)
    made = select(PlayGroup.id).where(PlayGroup.id == group_id)
    if database.first(made) is not None:
        return _again(database, group_id, member_id, tokens, token)
    planned = read_archive(games, document)
    try:
        with unit_of_work(database) as session:
            session.execute(insert(PlayGroup.__table__), [{"id": group_id, "name": planned.name, "watch_id": new_id(),
                                                           "revision": 0, "created_at": utcnow()}])  # fmt: skip
            member = {"id": member_id, "group_id": group_id, "token_hash": token_hash(token), "owner": True}
            session.execute(
                insert(GroupMember.__table__), [{**member, "name": phone_name(phone), "joined_at": utcnow()}]
            )
            game_import.write_all(session, [_row(plan, began, group_id) for plan, began in planned.games])
            if planned.merges:
                session.execute(insert(GroupAlias.__table__), [{"id": new_id(), "group_id": group_id, "person": who,
                    "counted_as": into, "created_at": utcnow()} for who, into in planned.merges.items()])  # fmt: skip
    except IntegrityError:
        if database.first(made) is None:
            raise
        return _again(database, group_id, member_id, tokens, token)  # the same import, at the same moment
    return Imported(group_id, token, False)


def _row(planned: game_import.PlannedGame, began: datetime, group_id: str) -> tuple:
    return planned, game_import.row_changes(planned, group_id=group_id, created_at=began, updated_at=began)


def _again(database: Database, group_id: str, member_id: str, tokens, token: str) -> Imported:
    """The file was imported by this phone before: its group, and its member ``token`` again if the
    phone no longer shows it (the member it was, still in the group). A member imported with a
    token of another kind is given ``token`` once, in one unit of work."""
    digests = {token_hash(t) for t in tokens if isinstance(t, str)}
    query = select(GroupMember.token_hash).where(GroupMember.id == member_id, GroupMember.group_id == group_id, LIVE)
    row = database.first(query)
    if row is None:
        raise Conflict(N_("This file was imported here already, into a group this phone has left."), field="file")
    if row.token_hash in digests:
        return Imported(group_id, None, True)
    if row.token_hash != token_hash(token):
        with unit_of_work(database) as session:
            session.execute(
                update(GroupMember)
                .where(GroupMember.id == member_id, GroupMember.group_id == group_id, LIVE)
                .values(token_hash=token_hash(token))
            )
    return Imported(group_id, token, True)

"""A group's archive and score sheet, downloaded by a member, and a group rebuilt from its archive.

``/groups/<id>/export.json`` is the archive (``carte-group/1``, ``models/services/group_file.py``),
``/groups/<id>/export.csv`` the score sheet, one row per manche per player: a 404 to a phone that
is not a member. ``/groups/import`` rebuilds a group on this phone, its owner; the same file
imported again by the same phone answers the group it made (the JSON API does the same with its
``Idempotency-Key``: ``views/api.py``).
"""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core.errors import N_, DomainError, ValidationError
from models.core.variant import localized
from models.services import group_file

from .groups import member, private
from .jsontext import refuse_unencodable
from .kit import database, games, groups, lang
from .limiting import new_game_limit
from .rights import member_tokens, phone_id, remember_token
from .share import attachment, spreadsheet_safe
from .texts import error_message

bp = Blueprint("group_files", __name__)


def file_stem(group) -> str:
    return f"carte-group-{group.created_at:%Y-%m-%d}"


def archive(group_id: str) -> tuple:
    """The group (for a member: else not found) and its archive."""
    member(group_id)
    group = groups().group(group_id)
    views = group_file.group_views(games(), group_id)
    return group, group_file.export_archive(group, views, groups().aliases(group_id))


@bp.get("/groups/<group_id>/export.json")
def export_json(group_id):
    group, document = archive(group_id)
    body = json.dumps(document, ensure_ascii=False, indent=1)
    return private(attachment(Response(body, mimetype="application/json"), file_stem(group) + ".json"))


def sheet_header() -> list[str]:
    return [
        gettext("Game"),
        gettext("Date"),
        gettext("Variant"),
        gettext("Round"),
        gettext("Name played"),
        gettext("Person"),
        gettext("Points"),
        gettext("Won the game"),
    ]


@bp.get("/groups/<group_id>/export.csv")
def export_csv(group_id):
    """The score sheet (README, "Playing together"): one row per manche per player. UTF-8 with a
    byte-order mark so that spreadsheets read the accents."""
    member(group_id)
    group = groups().group(group_id)
    rows = group_file.score_sheet(groups().summaries(games().views, group_id), groups().aliases(group_id))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(sheet_header())
    for game, day, variant, number, name, person, points, won in rows:
        writer.writerow(
            [
                spreadsheet_safe(cell)
                for cell in (game, day, localized(variant.name, lang()), number, name, person, points, won)
            ]
        )
    response = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    return private(attachment(response, file_stem(group) + ".csv"))


def read_upload(upload) -> object:
    """The JSON document in an uploaded group file, or the error a person can act on."""
    if upload is None or not upload.filename:
        raise ValidationError(N_("Choose a group file exported by Carte ! (.json)."), field="file")
    try:
        document = json.loads(upload.read())
    except (ValueError, RecursionError) as error:
        raise ValidationError(group_file.NOT_A_GROUP_FILE, field="file") from error
    refuse_unencodable(document, field="file")
    return document


@bp.get("/groups/import")
def import_form():
    return private(make_response(render_template("groups/import.html", error=None, again=None)))


@bp.post("/groups/import")
@new_game_limit
def import_group():
    """A group rebuilt on this phone, its owner, from its archive; all or nothing."""
    request.max_content_length = group_file.MAX_FILE_BYTES
    try:
        document = read_upload(request.files.get("file"))
        made = group_file.import_archive(
            database(), games(), document, "phone:" + phone_id(), member_tokens(), request.form.get("phone")
        )
    except DomainError as error:
        if error.status not in (409, 422):
            raise
        page = render_template("groups/import.html", error=error_message(error), again=None)
        return private(make_response(page, error.status))
    if made.member_token:
        remember_token(made.group_id, made.member_token, "group_tokens")
    if made.again:  # said here, not on the group's page: that page is the same for every visit
        return private(make_response(render_template("groups/import.html", error=None, again=made.group_id)))
    return private(redirect(url_for("groups.group_page", group_id=made.group_id), 303))

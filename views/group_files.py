"""A group's archive and score sheet, downloaded by a member, and a group rebuilt from its archive:
on the pages and in the JSON API, each answered by one function.

``/groups/<id>/export.json`` (in the API ``/api/v1/groups/<id>/export``) is the archive
(``carte-group/1``, ``models/services/group_file.py``), ``/groups/<id>/export.csv`` (in the API
``/api/v1/groups/<id>/export.csv``) the score sheet, one row per manche per player: the same file
for a member's phone (its session's member tokens) and for an API client (its bearer token), a 404
to anyone else. ``/groups/import`` rebuilds a group on this phone, its owner; the same file
imported again by the same phone answers the group it made. ``/api/v1/groups/import`` does the
same for an API client, once per ``Idempotency-Key``.

The API's routes are declared here on its blueprint, as ``open_entry`` does: ``views/api.py``
cannot import this module (``share``, which this module uses, imports ``api``).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import secrets

from flask import Blueprint, Response, current_app, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core.errors import N_, DomainError, ValidationError
from models.core.variant import localized
from models.services import group_file
from models.services.game_input import checked_key

from .api import bp as api
from .api import json_body
from .groups import member, private
from .jsontext import refuse_unencodable
from .kit import database, games, groups, lang, summaries
from .limiting import new_game_limit
from .rights import member_tokens, phone_id, remember_token
from .share import attachment, spreadsheet_safe
from .texts import error_message

bp = Blueprint("group_files", __name__)


def download(group, body: str, mimetype: str, suffix: str) -> Response:
    """A member's download of the group: kept by no cache, saved under the group's file name."""
    return private(attachment(Response(body, mimetype=mimetype), f"{group_file.file_stem(group)}.{suffix}"))


@bp.get("/groups/<group_id>/export.json")
@api.get("/groups/<group_id>/export")
def export_json(group_id):
    """The group's archive (``carte-group/1``), for a member; else not found."""
    member(group_id)
    group = groups().group(group_id)
    views = group_file.group_views(games(), group_id)
    document = group_file.export_archive(group, views, groups().aliases(group_id))
    return download(group, json.dumps(document, ensure_ascii=False, indent=1), "application/json", "json")


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
@api.get("/groups/<group_id>/export.csv")
def export_csv(group_id):
    """The score sheet (docs/playing.md, "Keep a copy"), for a member; else not found: one row per
    manche per player, its words in the request's language. UTF-8 with a byte-order mark so that
    spreadsheets read the accents."""
    member(group_id)
    group = groups().group(group_id)
    rows = group_file.score_sheet(groups().summaries(summaries(), group_id), groups().aliases(group_id))
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
    return download(group, "\ufeff" + out.getvalue(), "text/csv", "csv")


def takes_an_archive(view):
    """A route whose request may be as large as an archive, far beyond the 256 KB of any other
    (set before anything reads the body)."""

    @functools.wraps(view)
    def sized(*args, **kwargs):
        request.max_content_length = group_file.MAX_FILE_BYTES
        return view(*args, **kwargs)

    return sized


def rebuilt(document, importer: str, phone=None) -> group_file.Imported:
    """The group ``document`` rebuilds for ``importer`` (this phone's id, or the API client's key),
    with the member tokens this request shows."""
    secret = current_app.secret_key.encode()
    return group_file.import_archive(database(), games(), document, importer, member_tokens(), phone, secret=secret)


def read_upload() -> object:
    """The JSON document in the uploaded group file, or the error a person can act on."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise ValidationError(N_("Choose a group file exported by Carte ! (.json)."), field="file")
    try:
        document = json.loads(upload.read())
    except (ValueError, RecursionError) as error:
        raise ValidationError(group_file.NOT_A_GROUP_FILE, field="file") from error
    refuse_unencodable(document, field="file")
    return document


def import_page(error=None, again=None, status=200):
    """The import form, with a new nonce: the form's requests of one tap are one phone's."""
    page = render_template("groups/import.html", error=error, again=again, nonce=secrets.token_urlsafe(16))
    return private(make_response(page, status))


@bp.get("/groups/import")
def import_form():
    return import_page()


@bp.post("/groups/import")
@new_game_limit
@takes_an_archive
def import_group():
    """A group rebuilt on this phone, its owner, from its archive; all or nothing. A phone with no
    id yet takes one from the form's nonce (``phone_id``): a double tap makes one group."""
    try:
        made = rebuilt(read_upload(), "phone:" + phone_id(request.form.get("nonce")), request.form.get("phone"))
    except DomainError as error:
        if error.status not in (409, 422):
            raise
        return import_page(error=error_message(error), status=error.status)
    if made.member_token:
        remember_token(made.group_id, made.member_token, "group_tokens")
    if made.again:  # said here, not on the group's page: that page is the same for every visit
        return import_page(again=made.group_id)
    return private(redirect(url_for("groups.group_page", group_id=made.group_id), 303))


@api.post("/groups/import")
@new_game_limit
@takes_an_archive
def api_import_group():
    """A group rebuilt from its archive for this client, its owner: 201 and its member token; the
    same file with the same ``Idempotency-Key`` again, even at the same moment: 200, the same group
    and the same member token (none when the client sends it as its bearer token)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        raise ValidationError(
            N_("Send an Idempotency-Key with a group file: the same key and file make one group."),
            field="Idempotency-Key",
        )
    made = rebuilt(json_body(), "key:" + checked_key(key))
    body = {"group": made.group_id, "member_token": made.member_token, "imported_before": made.again}
    return jsonify(body), 200 if made.again else 201, {"Location": url_for("api.get_group", group_id=made.group_id)}

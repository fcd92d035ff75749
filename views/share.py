"""Sharing a game: the read-only shared view that keeps itself current, its QR codes, scorekeeper
invites, export and import from the screens (SPEC §4).

The shared view lives under ``/s/<share_id>``: its id is not the game's id and never a token,
and nothing under it writes. It follows the game by the live table's event stream
(``views/live.py``); its live part answers a conditional GET with ``304 Not Modified`` after one
small query (the game's revision).
"""

from __future__ import annotations

import base64
import csv
import io
import json

from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core.errors import N_, DomainError, Forbidden, NotFound, ValidationError
from models.services import history
from models.services.access import Level
from models.services.game_file import NOT_A_GAME_FILE
from models.services.ids import checked_id

from . import links
from .api import game_json
from .jsontext import refuse_unencodable
from .kit import access, database, fragment_or_page, games, lang
from .limiting import new_game_limit
from .live import given_name, name_phone_once
from .numbers import page_number
from .pagecache import cached_page
from .present import NewInvite, game_context, share_panel
from .rights import can_edit, owns_game, reads_game, remember_opened, remember_token
from .texts import error_message

bp = Blueprint("share", __name__)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def no_store(response: Response) -> Response:
    """For answers that carry an invite token: kept by no cache."""
    response.headers["Cache-Control"] = "no-store"
    return response


# --- the shared view -----------------------------------------------------------------------------


def share_url(share_id: str) -> str:
    return links.absolute(url_for("share.shared", share_id=share_id))


def live_etag(revision: int) -> str:
    """The live fragment's entity tag: the game's revision and the language it is written in."""
    return f"r{revision}-{lang()}"


def shared_context(game, history_page: int = 1) -> dict:
    live_url = url_for("share.live", share_id=game.share_id)
    return game_context(game, history_page, editable=False, shared=True, live_url=live_url)


def known_share(share_id: str) -> history.SharedState:
    state = history.shared_state(database(), checked_id(share_id))
    if state is None:
        raise NotFound(N_("No game with this id."), field="id")
    return state


@bp.get("/s/<share_id>")
def shared(share_id):
    """The game, read-only, for the phones around the table (no form, no token)."""
    state = known_share(share_id)
    remember_opened(state.game_id)  # the game is now among this browser's games (the session only: no query)

    def render():
        context = shared_context(games().get_shared(share_id))
        return render_template("share/shared.html", read_only=True, here=request.path, **context)

    return cached_page(("shared", share_id, state.revision, lang()), render)


@bp.get("/s/<share_id>/rounds")
def rounds(share_id):
    """The shared game's history, a page at a time (as ``games.rounds``, read-only)."""
    page = page_number(request.args)
    state = known_share(share_id)
    remember_opened(state.game_id)

    def render():
        game = games().get_shared(share_id)
        context = shared_context(game, page)
        context["here"] = url_for("share.rounds", share_id=share_id, page=page if page > 1 else None)
        context["events_url"] = url_for("live.shared_events", share_id=share_id, since=game.revision)
        if context["history"] is None or not game.manches:
            raise NotFound(N_("No such page."), field="page")
        back = url_for("share.shared", share_id=share_id, _anchor="history")
        return render_template("parts/rounds.html", read_only=True, back=back, **context)

    return cached_page(("shared-rounds", share_id, state.revision, page, lang()), render)


@bp.get("/s/<share_id>/live")
def live(share_id):
    """The part of the shared view that changes; 304 when the game has not changed since the
    version the phone holds (checked before the game is read)."""
    state = known_share(share_id)
    if request.if_none_match.contains_weak(live_etag(state.revision)):
        response = current_app.response_class(status=304)
        response.set_etag(live_etag(state.revision), weak=True)
    else:
        game = games().get_shared(share_id)
        response = make_response(render_template("parts/live.html", **shared_context(game)))
        response.set_etag(live_etag(game.revision), weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response


@bp.get("/s/<share_id>/game.json")
def shared_json(share_id):
    """The shared game as the API shows it (read-only; never a token)."""
    return game_json(games().get_shared(share_id))


@bp.get("/s/<share_id>/qr.svg")
def qr_svg(share_id):
    known_share(share_id)
    return Response(links.qr_svg(share_url(share_id)), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.get("/s/<share_id>/qr.png")
def qr_png(share_id):
    known_share(share_id)
    return Response(links.qr_png(share_url(share_id)), mimetype="image/png", headers={"Cache-Control": "no-cache"})


# --- the "Share" section of the game page --------------------------------------------------------


# --- scorekeeper invites -------------------------------------------------------------------------


@bp.post("/games/<game_id>/invites")
@owns_game
def create_invite(game_id):
    """A new invite: its link and QR are shown now, to the owner, and never again."""
    _invite_id, token = games().create_invite(game_id)
    name = given_name(request.form.get("name", ""))  # the scorekeeper's phone will be called so
    url = links.absolute(url_for("share.join", game_id=game_id, token=token, name=name))
    qr = "data:image/svg+xml;base64," + base64.b64encode(links.qr_svg(url)).decode()
    game = games().get(game_id)
    context = {"game": game, "share": share_panel(game), "new_invite": NewInvite(url, qr)}
    return no_store(make_response(fragment_or_page("share/_invites.html", "share/invite.html", **context), 201))


@bp.post("/games/<game_id>/invites/<invite_id>/revoke")
@owns_game
def revoke_invite(game_id, invite_id):
    games().revoke_invite(game_id, invite_id)
    return redirect(url_for("games.game_page", game_id=game_id, share=1, _anchor="share"), 303)


@bp.post("/games/<game_id>/share/renew")
@owns_game
def renew_share(game_id):
    """A new link to follow the game, for a link that went further than the table: whoever holds
    the old one, or scanned its QR code, opens nothing more (404) once their page reloads."""
    games().renew_share(game_id)
    return redirect(url_for("games.game_page", game_id=game_id, share=1, _anchor="share"), 303)


@bp.get("/join/<game_id>/<token>")
def join(game_id, token):
    """The scanned invite: this browser keeps its token and may now record manches, which the game
    page then tells it (``keeper``)."""
    if can_edit(game_id):  # a phone that already has rights (the owner's) keeps its own
        return no_store(redirect(url_for("games.game_page", game_id=game_id), 303))
    if access().game(game_id, token) == Level.NONE:
        raise Forbidden(N_("This invite was revoked or is not for this game: ask for a new one."))
    remember_token(game_id, token)
    name_phone_once(given_name(request.args.get("name", "")))
    return no_store(redirect(url_for("games.game_page", game_id=game_id, keeper=1), 303))


# --- export and import ---------------------------------------------------------------------------


def attachment(response: Response, filename: str) -> Response:
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def file_stem(game) -> str:
    return f"carte-{game.variant.id}-{game.created_at:%Y-%m-%d}" if game.created_at else f"carte-{game.id}"


@bp.get("/games/<game_id>/export.json")
@reads_game
def export_json(game_id):
    """The game as the API's export document (carte-game/2), to download."""
    document = games().export_game(game_id)
    body = json.dumps(document, ensure_ascii=False, indent=2)
    return attachment(Response(body, mimetype="application/json"), file_stem(games().get(game_id)) + ".json")


def spreadsheet_safe(value):
    """A cell a spreadsheet will not run as a formula (a name such as "=1+1" stays text)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@bp.get("/games/<game_id>/export.csv")
@reads_game
def export_csv(game_id):
    """The score sheet: one row per manche (each player's cards and hand value, each side's
    points), then the totals. UTF-8 with a byte-order mark so that spreadsheets read the accents."""
    game = games().get(game_id)
    labels = {
        "manche": gettext("Round"),
        "cards": gettext("cards"),
        "hand": gettext("hand"),
        "points": gettext("points"),
        "total": gettext("Total"),
    }
    out = io.StringIO()
    writer = csv.writer(out)
    for row in history.score_sheet(game, labels):
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    response = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    return attachment(response, file_stem(game) + ".csv")


def read_upload(upload) -> object:
    """The JSON document in an uploaded file, or the error a person can act on."""
    if upload is None or not upload.filename:
        raise ValidationError(N_("Choose a file exported by Carte ! (.json)."), field="file")
    try:
        document = json.loads(upload.read())
    except (ValueError, RecursionError):
        raise ValidationError(NOT_A_GAME_FILE, field="file")
    refuse_unencodable(document, field="file")
    return document


@bp.get("/games/import")
def import_form():
    return render_template("share/import.html", error=None)


@bp.post("/games/import")
@new_game_limit
def import_game():
    """A new game from an exported file; all or nothing (a damaged file creates no game)."""
    try:
        game, token = games().import_game(read_upload(request.files.get("file")))
    except DomainError as error:
        if error.status != 422:
            raise
        return render_template("share/import.html", error=error_message(error)), 422
    remember_token(game.id, token)
    return redirect(url_for("games.game_page", game_id=game.id), 303)

"""Errors become 4xx answers: JSON under /api/, a page (or an htmx fragment) elsewhere."""

from __future__ import annotations

from flask import jsonify, render_template, request, url_for
from flask_babel import gettext
from flask_limiter import RateLimitExceeded
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import BadHost, HTTPException

from models.core.errors import DomainError
from models.services.faults import is_busy, is_unavailable

from .limiting import reached
from .texts import error_json, error_message

# Seconds a client is asked to wait before trying again when the database was busy or out of reach.
BUSY_RETRY_AFTER = 2

HTTP_CODES = {
    400: "validation_error",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "validation_error",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
}
SERVER_CODES = {500: "internal_error", 503: "unavailable"}


def http_message(status: int) -> str:
    messages = {
        400: gettext("The request could not be understood."),
        401: gettext("You need the game's edit rights for this."),
        403: gettext("These rights do not allow this."),
        404: gettext("Nothing here: the page or the game does not exist."),
        405: gettext("This address does not accept this method."),
        409: gettext("Someone changed this in the meantime."),
        413: gettext("The request is too large."),
        415: gettext("Send JSON (Content-Type: application/json)."),
        429: gettext("Too many requests: wait a moment."),
    }
    return messages.get(status, gettext("Something went wrong."))


def server_message(status: int) -> str:
    if status == 503:
        return gettext("The server cannot answer just now: try again in a moment.")
    return gettext("Something went wrong on our side. What was saved before is safe: go back and try again.")


def server_page(status: int, message: str):
    """The app's own error page, in the reader's language; plain text if even that cannot be drawn
    (the error may have come from what the page itself needs)."""
    headers = {"Cache-Control": "no-store"}
    if can_build_urls():
        try:
            return error_page(status, message, headers)
        except Exception:  # noqa: BLE001 — the error page must not fail in its turn
            pass
    return message, status, {**headers, "Content-Type": "text/plain; charset=utf-8"}


# What a "not found" may name while the night, group or game of its address was found (a round, a
# page, an invite of that game): its page is still the way back. An id or a join token not found
# leaves none.
FOUND_WITHIN = {"number", "page", "invite", "member", "merge", "game"}


def way_back(status: int, field: str | None = None) -> tuple[str, str] | None:
    """Where the person was, for an error page: the club night, the group or the game of the
    address they were at (unless that page is the one that failed, or is what was not found), as
    (its address, the words of the link)."""
    args = request.view_args or {}
    if "watch_id" in args or (status == 404 and field not in FOUND_WITHIN):
        return None  # a watcher's page (the members' pages are not theirs), or nothing to go back to
    ways = (
        ("night_id", "nights.night_page", lambda: gettext("Back to the club night")),
        ("group_id", "groups.group_page", lambda: gettext("Back to the group")),
        ("game_id", "games.game_page", lambda: gettext("Back to the game")),
    )
    for key, endpoint, words in ways:
        if key in args:
            url = url_for(endpoint, **{key: args[key]})
            return None if url == request.path else (url, words())
    return None


def error_page(status: int, message: str, headers=None, field: str | None = None):
    """The app's error page: what went wrong, the way back to where the person was, and home."""
    return (
        render_template("parts/error.html", status=status, message=message, back=way_back(status, field)),
        status,
        headers or {},
    )


def wants_json() -> bool:
    return request.path.startswith("/api/")


def can_build_urls() -> bool:
    """False when the request's host could not be made into a URL (the page templates link home)."""
    return not isinstance(request.routing_exception, BadHost)


def error_body(code: str, message: str, field: str | None = None) -> dict:
    body = {"code": code, "message": message}
    if field:
        body["field"] = field
    return {"error": body}


def init_app(app):
    @app.errorhandler(DomainError)
    def domain_error(error: DomainError):
        if wants_json():
            return jsonify({"error": error_json(error)}), error.status
        return error_page(error.status, error_message(error), field=error.field)

    @app.errorhandler(SQLAlchemyError)
    def database_busy(error: SQLAlchemyError):
        """A lock not had in time (another write held it too long), or the database out of reach
        (refused, cut, too many clients, no pooled connection free in time): 503 with Retry-After,
        never a 500; the transaction was rolled back, so nothing is half-written, and a retry
        with the same key writes once. Other database errors stay errors."""
        if is_busy(error):
            code, message = "busy", gettext("The server is busy: try again in a moment.")
        elif is_unavailable(error):
            code, message = "unavailable", server_message(503)
        else:
            raise error
        headers = {"Retry-After": str(BUSY_RETRY_AFTER), "Cache-Control": "no-store"}
        if wants_json():
            return jsonify(error_body(code, message)), 503, headers
        return error_page(503, message, headers)

    app.register_error_handler(HTTPException, http_error)


def kept_headers(error: HTTPException) -> dict:
    """The headers the error itself carries (a 405's ``Allow``), but its body's type: the answer
    is ours, JSON or a page."""
    return {name: value for name, value in error.get_headers() if name.lower() != "content-type"}


def http_error(error: HTTPException):
    """An HTTP error: JSON under /api/, else our page (plain text when no URL can be built)."""
    status = error.code or 500
    if status >= 500:  # an error of ours (or a server out of reach): JSON under /api/, else our page
        message = server_message(status)
        if wants_json():
            return jsonify(error_body(SERVER_CODES.get(status, "server_error"), message)), status
        return server_page(status, message)
    message, headers = http_message(status), kept_headers(error)
    if isinstance(error, RateLimitExceeded):  # which limit was reached, and when to come back
        message, headers = error.description, {"Retry-After": str(reached()["seconds"])}
    if status == 400 and isinstance(error, BadHost):
        message = gettext("The address this request was sent to (its Host) is not a valid host name.")
    if wants_json():
        return jsonify(error_body(HTTP_CODES.get(status, "validation_error"), message)), status, headers
    if not can_build_urls():
        return message, status, {**headers, "Content-Type": "text/plain; charset=utf-8"}
    return error_page(status, message, headers)

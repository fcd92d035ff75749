"""The web kit every blueprint imports: the services, the language, htmx.

- The services of the running app (``games()``, ``registry()``, ``access()`` …): created once by
  ``create_app`` and kept in ``app.extensions``; a view asks here, never ``current_app`` itself.
- ``lang()``: the language of this request ("fr" or "en"), the one Flask-Babel is handed.
- ``htmx``: flask-htmx's request details (``if htmx:`` — an htmx request; ``htmx.target`` …).
  ``is_htmx()`` is the one test views use to send a fragment instead of the whole page (a history
  restore asks for the whole page). ``fragment_or_page`` renders the one or the other and marks
  the answer so that every answer that can be a fragment carries ``Vary: HX-Request`` (a cache
  between the phone and the server never serves a fragment for a page, or the reverse).
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from flask import current_app, g, render_template, request
from flask_htmx import HTMX
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from models.services import unit_of_work

htmx = HTMX()


LANGUAGES = ("fr", "en")


def lang() -> str:
    """The language of this request ("fr" or "en"): the user's explicit choice (the ``lang``
    cookie), else their browser's, else French. Flask-Babel is handed the same choice
    (``app.select_locale``); asked here, a stored page's key costs no locale object."""
    chosen = request.cookies.get("lang")
    return chosen if chosen in LANGUAGES else browser_language(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=256)
def browser_language(header: str) -> str:
    """The language a browser's Accept-Language asks for among ours (French by default), parsed
    once per distinct header: a family's phones send a handful."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES, default="fr")


def services() -> dict:
    """The running app's services (``app.extensions``)."""
    return current_app.extensions


def database():
    return services()["database"]


def games():
    return services()["games"]


def house():
    return services()["house"]


def registry():
    return services()["registry"]


def access():
    return services()["access"]


def groups():
    return services()["groups"]


def summaries():
    return services()["summaries"]


def nights():
    return services()["nights"]


def now() -> datetime:
    """The moment of this request, from the app's one clock (``app.extensions["clock"]``: the
    time of day, or the moment a test sets): what "this year", "this month" and the season read."""
    return services()["clock"]()


def open_entries():
    """The open entries: the manches the tables count together, hand by hand."""
    return services()["open_entries"]


def is_htmx() -> bool:
    """An htmx request asking for a fragment (a history restore wants the whole page)."""
    g.may_be_fragment = True
    return bool(htmx) and not htmx.history_restore_request


def fragment_or_page(fragment: str, page: str, **context) -> str:
    """``fragment`` for an htmx request, else ``page`` (which includes the fragment)."""
    return render_template(fragment if is_htmx() else page, **context)


def vary_on_htmx(response):
    """``Vary: HX-Request`` on every answer that could have been a fragment (after_request)."""
    if g.get("may_be_fragment"):
        response.vary.add("HX-Request")
    return response


def init_app(app) -> None:
    htmx.init_app(app)
    app.after_request(vary_on_htmx)
    app.teardown_request(request_over)


def request_over(_error=None) -> None:
    """What rode along with a write this request never made is not written (``unit_of_work``)."""
    unit_of_work.let_go()


API_BLUEPRINTS = frozenset({"api", "api_nights"})  # /api/v1: bearer tokens, JSON, no browser form


def is_api() -> bool:
    """Whether this request is the JSON API's (its rights are its bearer token)."""
    return request.blueprint in API_BLUEPRINTS

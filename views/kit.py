"""The web kit every blueprint imports: the services, the language, htmx.

- The services of the running app (``games()``, ``registry()``, ``access()`` …): created once by
  ``create_app`` and kept in ``app.extensions``; a view asks here, never ``current_app`` itself.
- ``lang()``: the language of this request ("fr" or "en"), as Flask-Babel chose it.
- ``htmx``: flask-htmx's request details (``if htmx:`` — an htmx request; ``htmx.target`` …).
  ``is_htmx()`` is the one test views use to send a fragment instead of the whole page (a history
  restore asks for the whole page). ``fragment_or_page`` renders the one or the other and marks
  the answer so that every answer that can be a fragment carries ``Vary: HX-Request`` (a cache
  between the phone and the server never serves a fragment for a page, or the reverse).

Flask's ``request``, ``g``, ``session`` and ``current_app`` are proxies: every attribute read
through one costs about 0.9 µs (werkzeug's ``LocalProxy`` looks the object up again each time),
against 0.04 µs on the object itself. A page served from the cache read them about 27 times, a
tenth of its cost (issue 29). What runs on every request takes the object once
(``request._get_current_object()``, werkzeug's documented way) and reads it from there.
"""

from __future__ import annotations

from flask import current_app, g, render_template
from flask_babel import get_locale
from flask_htmx import HTMX

htmx = HTMX()


def lang() -> str:
    """The language of this request: the app's locale selector's answer (``app.select_locale``,
    the one Flask-Babel's ``get_locale`` gives the catalogue), asked once per request. A stored
    page needs only this code for its cache key; ``get_locale``'s own bookkeeping cost a page
    served from the cache more than the selector itself (issue 29)."""
    kept = g._get_current_object()
    language = kept.get("language")
    if language is None:
        selected = services()["babel"].locale_selector()
        language = kept.language = str(selected or get_locale() or "fr")
    return language


def services() -> dict:
    """The running app's services (``app.extensions``), read through the proxy once."""
    return current_app._get_current_object().extensions


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


def is_htmx() -> bool:
    """An htmx request asking for a fragment (a history restore wants the whole page)."""
    g.may_be_fragment = True
    return bool(htmx) and not htmx.history_restore_request


def fragment_or_page(fragment: str, page: str, **context) -> str:
    """``fragment`` for an htmx request, else ``page`` (which includes the fragment)."""
    return render_template(fragment if is_htmx() else page, **context)


def vary_on_htmx(response):
    """``Vary: HX-Request`` on every answer that could have been a fragment (after_request)."""
    if g._get_current_object().get("may_be_fragment"):
        response.vary.add("HX-Request")
    return response


def init_app(app) -> None:
    htmx.init_app(app)
    app.after_request(vary_on_htmx)

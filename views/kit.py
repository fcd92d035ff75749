"""The web kit every blueprint imports: the services, the language, htmx.

- The services of the running app (``games()``, ``registry()``, ``access()`` …): created once by
  ``create_app`` and kept in ``app.extensions``; a view asks here, never ``current_app`` itself.
- ``lang()``: the language of this request ("fr" or "en"), as Flask-Babel chose it.
- ``htmx``: flask-htmx's request details (``if htmx:`` — an htmx request; ``htmx.target`` …).
  ``is_htmx()`` is the one test views use to send a fragment instead of the whole page (a history
  restore asks for the whole page). ``fragment_or_page`` renders the one or the other and marks
  the answer so that every answer that can be a fragment carries ``Vary: HX-Request`` (a cache
  between the phone and the server never serves a fragment for a page, or the reverse).
"""

from __future__ import annotations

from flask import current_app, g, render_template
from flask_babel import get_locale
from flask_htmx import HTMX

htmx = HTMX()


def lang() -> str:
    """The language of this request ("fr" or "en"), as Flask-Babel chose it (``app.select_locale``)."""
    return str(get_locale() or "fr")


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


def nights():
    return services()["nights"]


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

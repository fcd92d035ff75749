"""Offline at the table: the service worker, its offline page, and what a game page
hands to the phone so that it can show manches waiting to be sent.

- ``/sw.js`` is the worker (``static/js/sw.js``) served at scope ``/`` and never cached by the
  browser's HTTP cache; its first line names the static files to precache by their hashed URLs,
  so a new version of any of them is a new worker.
- ``/offline`` is the page the worker shows for a page never opened on this phone.
- ``offline_model(game)`` is the data the page's provisional scorer reads
  (``models/services/game_json.py`` ``offline_fields``: the rules as data from the core, the
  game's players, teams and seats and each manche's winner and hand values, named as the API names
  them); ``static/js/score.js`` interprets it, the numbers stay the core's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, current_app, render_template, url_for
from markupsafe import Markup

from models.services.game_json import offline_fields

bp = Blueprint("offline", __name__)

# What app.js loads once the page is interactive, in this order (each may use the ones before).
PAGE_SCRIPTS = (
    "js/idb-keyval.min.js",
    "js/queue.js",
    "js/score.js",
    "js/offline.js",
    "js/entry.js",
    "js/waiting.js",
    "js/replay.js",
    "js/hands.js",
)
# The app shell: what every page needs, fetched once the page is interactive.
SHELL = (
    "css/app.css",
    "js/app.js",
    "js/htmx.min.js",
    "js/htmx-ext-sse.min.js",
    "js/live.js",
    *PAGE_SCRIPTS,
    "css/offline.css",
    "icon.svg",
    "icons/icon-192.png",
    "manifest.webmanifest",
)
# What the worker imports (vendored from npm: static/js/VENDORED.txt), by name: Workbox's loader
# asks for its modules by name (``modulePathCb``), always from static/, never a CDN.
LIBS = {
    "workbox-sw": "js/workbox/workbox-sw.min.js",
    "workbox-core": "js/workbox/workbox-core.min.js",
    "workbox-precaching": "js/workbox/workbox-precaching.min.js",
    "workbox-routing": "js/workbox/workbox-routing.min.js",
    "workbox-strategies": "js/workbox/workbox-strategies.min.js",
    "idb-keyval": "js/idb-keyval.min.js",
    "queue": "js/queue.js",
}


def page_scripts() -> list[str]:
    """The addresses app.js loads the offline scripts from: with their hash (``?v=``), so a phone
    keeps them for a year and asks for none of them again on the next page."""
    return [url_for("static", filename=name) for name in PAGE_SCRIPTS]


def shell_urls() -> list[str]:
    return [url_for("static", filename=name) for name in SHELL] + [url_for("offline.offline_page")]


@bp.get("/sw.js")
def worker():
    source = Path(current_app.static_folder, "js", "sw.js").read_text(encoding="utf-8")
    urls = shell_urls()
    libs = {name: url_for("static", filename=path) for name, path in LIBS.items()}
    version = hashlib.sha256((source + "\n".join(urls) + json.dumps(libs)).encode()).hexdigest()[:12]
    head = f"var VERSION = {json.dumps(version)}, SHELL = {json.dumps(urls)}, LIBS = {json.dumps(libs)};\n"
    response = current_app.response_class(head + source, mimetype="application/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True
    response.cache_control.max_age = 0
    return response


@bp.get("/offline")
def offline_page():
    return render_template("offline/page.html", read_only=True)


@bp.get("/offline/texts.json")
def texts():
    """The words of the offline script, in this browser's language (the worker keeps the last)."""
    response = current_app.response_class(render_template("offline/_texts.html"), mimetype="application/json")
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    response.cache_control.no_cache = True
    return response


def offline_model(game) -> Markup:
    """The game as the phone's provisional scorer reads it (``game_json.offline_fields``): JSON
    for a single-quoted HTML attribute (``'``, ``&`` and ``<`` written as JSON escapes: nothing can
    close the attribute, and no quote is inflated to an entity). The game's id is in the page's
    address."""
    text = json.dumps(offline_fields(game), ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "\\u0026").replace("'", "\\u0027").replace("<", "\\u003c"))


def init_app(app) -> None:
    app.add_template_global(offline_model)
    app.add_template_global(page_scripts)

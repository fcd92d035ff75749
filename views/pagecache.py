"""Rendered pages of a game, kept per worker until the game changes (issue 7).

A game page is a pure function of the game's revision, the language, the viewer's rights, the
public address and the query string — except for the CSRF token, which is per session. The page
is rendered once with a marker in place of the token and the marker is replaced per request, so
a page of 200 manches costs two small queries and a string replacement until the next write.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from flask import current_app, request
from flask_wtf.csrf import generate_csrf

CSRF_MARK = "csrf-" + secrets.token_hex(12)


class PageCache:
    def __init__(self, size: int = 128):
        self.size = size
        self.pages: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key, page: str) -> None:
        with self.lock:
            self.pages[key] = page
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


def cache() -> PageCache:
    extensions = current_app.extensions
    if "page_cache" not in extensions:
        extensions["page_cache"] = PageCache()
    return extensions["page_cache"]


def cached_page(key: tuple, render) -> str:
    """The page for ``key`` (which must hold the game's revision), rendered by ``render(csrf_token)``
    on a miss; the CSRF marker is replaced by this session's token."""
    if current_app.config.get("PAGE_CACHE", True) is False:
        return render(generate_csrf)
    full_key = (*key, request.host_url, request.query_string, request.cookies.get("lang"),
                request.headers.get("Accept-Language"))  # fmt: skip
    page = cache().get(full_key)
    if page is None:
        page = render(lambda: CSRF_MARK)
        cache().put(full_key, page)
    if CSRF_MARK in page:
        page = page.replace(CSRF_MARK, generate_csrf())
    return page

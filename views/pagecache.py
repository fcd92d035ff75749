"""Rendered pages of a game, kept per worker until the game changes (issues 7 and 12).

A game page is a pure function of what its view puts in the key: the game's revision, the
viewer's rights, the notice after a write, the language chosen, the public address. Never the
raw query string or headers: ``?x=1`` … ``?x=300`` are one page, and a made-up Accept-Language
is the language it resolves to.

Two kinds of entry:

- a page without per-session content (a read-only viewer: no form, no CSRF token) is kept
  compressed only, brotli and gzip, each computed once; a request gets the stored bytes as they
  are (``Content-Encoding`` is set here, so ``compress`` in ``views/assets.py`` leaves them
  alone), and the rare client that accepts neither gets the gzip body inflated;
- a page with forms is rendered once with a marker in place of the CSRF token and kept as
  UTF-8; the marker is replaced by the session's token per request and the page is compressed
  on the way out like any other answer.

The cache is bounded in bytes (``PAGE_CACHE_BYTES``, 32 MB per worker by default): the least
recently used pages go first, and a page larger than the whole bound is served but not kept.
"""

from __future__ import annotations

import gzip
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

import brotli
from flask import current_app, request
from flask_wtf.csrf import generate_csrf

CSRF_MARK = "csrf-" + secrets.token_hex(12)
DEFAULT_BYTES = 32 * 1024 * 1024
BROTLI_QUALITY = 9  # once per page and revision: 30 ms for a page of 1.3 MB (quality 11 takes 20 times longer)
GZIP_LEVEL = 9


@dataclass(frozen=True)
class StoredPage:
    """A per-session page as UTF-8 text holding the CSRF marker, or a page alike for every
    session as its brotli and gzip bodies."""

    html: bytes | None = None
    br: bytes | None = None
    gzip: bytes | None = None

    @property
    def size(self) -> int:
        return sum(len(body) for body in (self.html, self.br, self.gzip) if body is not None)

    @classmethod
    def of(cls, html: str) -> StoredPage:
        if CSRF_MARK in html:
            return cls(html=html.encode())
        raw = html.encode()
        return cls(br=brotli.compress(raw, quality=BROTLI_QUALITY), gzip=gzip.compress(raw, GZIP_LEVEL, mtime=0))


class PageCache:
    """Least recently used pages, at most ``max_bytes`` of them (their stored bodies)."""

    def __init__(self, max_bytes: int = DEFAULT_BYTES):
        self.max_bytes = max_bytes
        self.pages: OrderedDict = OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()

    def get(self, key) -> StoredPage | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key, page: StoredPage) -> None:
        with self.lock:
            old = self.pages.pop(key, None)
            if old is not None:
                self.bytes -= old.size
            if page.size > self.max_bytes:
                return
            self.pages[key] = page
            self.bytes += page.size
            while self.bytes > self.max_bytes:
                _, dropped = self.pages.popitem(last=False)
                self.bytes -= dropped.size


def cache() -> PageCache:
    extensions = current_app.extensions
    if "page_cache" not in extensions:
        extensions["page_cache"] = PageCache(int(current_app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES)))
    return extensions["page_cache"]


def cached_page(key: tuple, render):
    """The response for ``key`` (which must hold the game's revision and everything else the page
    depends on), rendered by ``render(csrf_token)`` on a miss."""
    if current_app.config.get("PAGE_CACHE", True) is False:
        return current_app.response_class(render(generate_csrf), mimetype="text/html")
    page = cache().get(key)
    if page is None:
        page = StoredPage.of(render(lambda: CSRF_MARK))
        cache().put(key, page)
    if page.html is not None:
        body = page.html.replace(CSRF_MARK.encode(), generate_csrf().encode())
        return current_app.response_class(body, mimetype="text/html")
    return stored_response(page)


def stored_response(page: StoredPage):
    """The stored bytes in the encoding the client prefers (brotli, then gzip), sent as they are."""
    accepted = request.accept_encodings
    encoding = "br" if accepted["br"] else "gzip" if accepted["gzip"] else None
    body = getattr(page, encoding) if encoding else gzip.decompress(page.gzip)
    response = current_app.response_class(body, mimetype="text/html")
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    return response

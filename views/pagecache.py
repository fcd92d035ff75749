"""Rendered pages of a game, kept per worker until the game changes.

A game page is a pure function of what its view puts in the key: the game's revision, the
viewer's rights (none, scorekeeper, owner), the notice after a write, the language chosen, the
public address. Never the raw query string or headers: ``?x=1`` … ``?x=300`` are one page, and a
made-up Accept-Language is the language it resolves to. Nothing of one phone is in a page — no
CSRF token (forms from other sites are refused by where they come from: ``views/crossorigin.py``),
no name — so every phone with the same rights gets the same bytes.

A page is kept compressed only, brotli and gzip, each computed once with its entity tag: a
request gets the stored bytes as they are (``Content-Encoding`` is set here, so ``compress`` in
``views/assets.py`` leaves them alone), or ``304 Not Modified`` when it holds them already; the
rare client that accepts neither encoding gets the gzip body inflated.

The cache is bounded in bytes (``PAGE_CACHE_BYTES``, 32 MB per worker by default): the least
recently used pages go first, and a page larger than the whole bound is served but not kept.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from functools import lru_cache

import brotli
from flask import current_app, request
from werkzeug.http import parse_accept_header

from models.services.lru import LRU

DEFAULT_BYTES = 32 * 1024 * 1024
# Once per page, revision, rights and language — at every change, for each kind of phone watching:
# a game page of 74 KB takes 1.0 ms at brotli 5 for 5.6 KB, 16.9 ms at 9 for 1 % less (gzip: 0.8 ms
# at 6, 1.5 ms at 9 for 2 % less).
BROTLI_QUALITY = 5
GZIP_LEVEL = 6


# Revalidated at every visit (``no-cache``: a game changes) and kept by no shared cache
# (``private``: a game page depends on the rights in the phone's cookie).
STORED_HEADERS = (
    ("Content-Type", "text/html; charset=utf-8"),
    ("Cache-Control", "private, no-cache"),
    ("Vary", "Accept-Encoding, Cookie"),
)


@dataclass(frozen=True)
class StoredPage:
    """A page as its brotli and gzip bodies, its entity tag (a digest of the page's text) and the
    header pairs of each answer."""

    br: bytes
    gzip: bytes
    etag: str
    headers: dict  # "br", "gzip", None (neither accepted) and 304 -> the answer's header pairs

    @property
    def size(self) -> int:
        return len(self.br) + len(self.gzip) + len(self.etag)

    @classmethod
    def of(cls, html: str) -> StoredPage:
        raw = html.encode()
        etag = hashlib.blake2b(raw, digest_size=12).hexdigest()
        tag = ("ETag", f'W/"{etag}"')  # weak: the same page whatever its encoding
        return cls(
            br=brotli.compress(raw, quality=BROTLI_QUALITY),
            gzip=gzip.compress(raw, GZIP_LEVEL, mtime=0),
            etag=etag,
            headers={
                "br": (tag, *STORED_HEADERS, ("Content-Encoding", "br")),
                "gzip": (tag, *STORED_HEADERS, ("Content-Encoding", "gzip")),
                None: (tag, *STORED_HEADERS),
                304: (tag, *STORED_HEADERS[1:]),
            },
        )


def page_size(page: StoredPage) -> int:
    return page.size


def cache(app=None) -> LRU:
    """The app's pages, the least recently used let go first, at most ``PAGE_CACHE_BYTES`` of
    their stored bodies (however many pages that is)."""
    app = app or current_app
    extensions = app.extensions
    if "page_cache" not in extensions:
        extensions["page_cache"] = LRU(None, int(app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES)), page_size)
    return extensions["page_cache"]


def cached_page(key: tuple, render):
    """The response for ``key`` (which must hold the game's revision and everything else the page
    depends on), rendered by ``render()`` on a miss."""
    app = current_app
    if app.config.get("PAGE_CACHE", True) is False:
        return app.response_class(render(), mimetype="text/html")
    pages = cache(app)
    page = pages.get(key)
    if page is None:
        page = StoredPage.of(render())
        pages.put(key, page)
    return stored_response(page, app)


@lru_cache(maxsize=64)
def preferred_encoding(header: str) -> str | None:
    """ "br", else "gzip", else None, for an Accept-Encoding header (parsed once per distinct header)."""
    accepted = parse_accept_header(header)
    return "br" if accepted["br"] else "gzip" if accepted["gzip"] else None


def stored_response(page: StoredPage, app=None):
    """The stored bytes in the encoding the client prefers (brotli, then gzip), sent as they are;
    304 when the client holds them already."""
    app = app or current_app
    environ = request.environ
    if "HTTP_IF_NONE_MATCH" in environ and request.if_none_match.contains_weak(page.etag):
        return app.response_class(status=304, headers=page.headers[304])
    encoding = preferred_encoding(environ.get("HTTP_ACCEPT_ENCODING", ""))
    body = page.br if encoding == "br" else page.gzip if encoding == "gzip" else gzip.decompress(page.gzip)
    return app.response_class(body, headers=page.headers[encoding])

"""Flask as this app runs it: costs Flask and Werkzeug pay on every request, paid once (issue 29).

A page already built is answered in about a hundred microseconds of Python; what Flask itself
does around it is a good part of that:

- ``ensure_sync``: before calling each view and each request hook (ten a request here), Flask asks
  ``inspect`` whether the function is a coroutine. The answer for a given function never changes,
  so it is kept (for the functions the app registered: a bounded number).
- ``request.cookies``: a phone at the table sends the same ``Cookie`` header with every visit;
  parsing it is done once per distinct header and kept (the parsed cookies are immutable, so one
  copy serves every request that sends those bytes). At most ``COOKIE_HEADERS`` headers are kept,
  the least recently used going first.
- Header values: Werkzeug checks every header value added to a response for a newline. The
  headers of a stored page (``views/pagecache.py``) and the security headers of every document
  (``app.security_headers``) are this app's own constants, checked once when they are made
  (``checked``) and added as they are (``known_headers``, ``add_known``).
- Asking for what is not there: Werkzeug answers ``args.get(name)``, ``cookies.get(name)`` and
  ``name in response.headers`` by raising an exception and catching it when ``name`` is missing
  (a microsecond each: its ``BadRequestKeyError`` is an HTTP error). A phone asks that way for
  what it usually lacks: the language cookie, a list's page number, a header no hook has added yet.
  The request's arguments and cookies answer a missing name without raising (``Lookups``), and
  the hooks look for a header with ``has_header``.
- The body's size limit: Flask's request reads ``MAX_CONTENT_LENGTH`` through ``current_app``
  (two proxy reads, views/kit.py) each time it is asked, twice a write. It is set on each request
  as it is made (Flask 3.1: a request's own limit), from the app that makes it.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from flask import Flask, Request
from werkzeug.datastructures import Headers, ImmutableMultiDict
from werkzeug.http import parse_cookie

COOKIE_HEADERS = 1024  # distinct Cookie headers kept per worker (a cookie is at most ~4 KB)
SYNCED = 4096  # the most functions whose answer is kept (the app registers a few hundred)


class Lookups(ImmutableMultiDict):
    """The request's arguments or cookies: ``get`` of a missing name answers its default at once."""

    def get(self, key, default=None, type=None):  # noqa: A002 (Werkzeug's signature)
        if key not in self:
            return default
        return super().get(key, default, type)


@lru_cache(maxsize=COOKIE_HEADERS)
def parsed_cookies(header: str) -> ImmutableMultiDict:
    return parse_cookie(header, cls=Lookups)


class CarteRequest(Request):
    parameter_storage_class = Lookups

    @cached_property
    def cookies(self) -> ImmutableMultiDict:
        return parsed_cookies(self.environ.get("HTTP_COOKIE", ""))


class CarteFlask(Flask):
    request_class = CarteRequest

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._synced: dict = {}

    def request_context(self, environ):
        context = super().request_context(environ)
        context.request.max_content_length = self.config["MAX_CONTENT_LENGTH"]
        return context

    def ensure_sync(self, func):
        synced = self._synced.get(func)
        if synced is None:
            synced = super().ensure_sync(func)
            if len(self._synced) < SYNCED:
                self._synced[func] = synced
        return synced


def checked(pairs) -> tuple[tuple[str, str], ...]:
    """Header pairs, checked as Werkzeug checks them (it refuses a value holding a newline)."""
    return tuple(Headers(pairs).items())


def known_headers(pairs: tuple[tuple[str, str], ...]) -> Headers:
    """A response's headers made of pairs ``checked`` already (a new list: the response's own)."""
    headers = Headers()
    headers._list = list(pairs)  # what Headers(pairs) holds once it has checked them again
    return headers


def has_header(headers: Headers, name: str) -> bool:
    """Whether ``headers`` holds ``name`` (in any case), as ``name in headers`` says without raising."""
    name = name.lower()
    for key, _ in headers._list:
        if key.lower() == name:
            return True
    return False


def add_known(headers: Headers, pairs: tuple[tuple[str, str], ...]) -> None:
    headers._list.extend(pairs)  # as headers.extend(pairs) does, without checking them again

"""Static files and responses, small on the wire.

- Static files (our own CSS and JS minified) are served with a content hash in their URL (``?v=…``) and a year-long immutable
  cache lifetime, an ETag, and pre-compressed bodies (brotli or gzip, by Accept-Encoding), kept in
  memory after the first request.
- Dynamic text answers (HTML, JSON, htmx fragments) are compressed on the way out.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from functools import lru_cache
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, abort, current_app, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml", "application/manifest+json")
MIN_SIZE = 600
# Brotli's best quality costs 2 µs a byte: 4 s of a worker for the API page's 1.7 MB viewer, in the
# request that first asks for it; a big file takes quality 9 (0.2 s, 9 % larger).
BIG = 512 * 1024
YEAR = 365 * 24 * 3600
mimetypes.add_type("application/manifest+json", ".webmanifest")


MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minified(path: str, raw: bytes) -> bytes:
    """Our own CSS and JS as sent: minified (rcssmin, rjsmin: comments and spaces out, names kept),
    while the sources keep their comments for their readers; vendored ``*.min.js`` and ``*.min.css``
    are sent as they are."""
    minify = MINIFIERS.get(Path(path).suffix)
    return raw if minify is None or path.endswith((".min.js", ".min.css")) else minify(raw.decode()).encode()


@lru_cache(maxsize=256)
def _asset(path: str, _mtime: float) -> dict:
    """A static file's bytes, hash and compressed forms (cached by path and modification time:
    ``_mtime`` is only part of the cache's key, so that a file changed on disk is read again)."""
    raw = minified(path, Path(path).read_bytes())
    digest = hashlib.sha256(raw).hexdigest()[:12]
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    entry = {"raw": raw, "hash": digest, "mimetype": mimetype, "br": None, "gzip": None}
    if mimetype.startswith(COMPRESSIBLE) and len(raw) >= MIN_SIZE:
        entry["br"] = brotli.compress(raw, quality=11 if len(raw) < BIG else 9)
        entry["gzip"] = gzip.compress(raw, compresslevel=9, mtime=0)
    return entry


def _static_path(app: Flask, filename: str) -> str | None:
    path = safe_join(app.static_folder, filename)
    if path is None or not Path(path).is_file():
        return None
    return path


def _encoding(entry: dict) -> str | None:
    accepted = request.accept_encodings
    for name in ("br", "gzip"):
        if entry[name] is not None and accepted[name]:
            return name
    return None


def serve_static(filename: str):
    """A static file, compressed as the client accepts, cached a year when asked by its hash."""
    path = _static_path(current_app, filename)
    if path is None:
        abort(404)
    entry = _asset(path, Path(path).stat().st_mtime)
    encoding = _encoding(entry)
    body = entry[encoding] if encoding else entry["raw"]
    response = Response(body, mimetype=entry["mimetype"])
    response.set_etag(f"{entry['hash']}-{encoding or 'identity'}")
    response.headers["Vary"] = "Accept-Encoding"
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if request.args.get("v") == entry["hash"]:
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True  # revalidate with the ETag
    return response.make_conditional(request)


def versioned_static(endpoint, values):
    """``url_for("static", …)`` carries the file's hash (``?v=``), so a changed file has a new URL."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        path = _static_path(current_app, values["filename"])
        if path:
            values["v"] = _asset(path, Path(path).stat().st_mtime)["hash"]


def _sent_as_it_is(response) -> bool:
    """Answers compressed already, streamed, without a body or not text are not compressed here."""
    return (
        request.endpoint == "static"
        or response.direct_passthrough
        or response.is_streamed  # an event stream is sent as it goes, never held to be compressed
        or response.status_code < 200
        or response.status_code in (204, 304)
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(COMPRESSIBLE)
    )


def compress(response):
    """A text answer of MIN_SIZE bytes or more, compressed (brotli, else gzip) when the client accepts it."""
    if _sent_as_it_is(response):
        return response
    body = response.get_data()
    if len(body) < MIN_SIZE:
        return response
    accepted = request.accept_encodings
    if accepted["br"]:
        response.set_data(brotli.compress(body, quality=5))
        response.headers["Content-Encoding"] = "br"
    elif accepted["gzip"]:
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
    else:
        return response
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    app.view_functions["static"] = serve_static
    app.url_defaults(versioned_static)
    app.after_request(compress)

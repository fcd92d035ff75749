"""The session cookie, as Flask signs it, with the cookies this worker verified lately remembered.

A phone at the table sends the same session cookie with every visit and every poll of the shared
view; checking its signature (a key derived, an HMAC, base64 and JSON) is the dearest part of
serving a page already built. A cookie whose signature this worker checked less than
``REMEMBERED_SECONDS`` ago is opened from what that check found: only the exact same bytes are,
so nothing unsigned is ever believed. What was found is kept pickled (by this process, from the
checked data: never bytes from outside), and each request gets its own copy to change.

A request that did not change the session sets no cookie (``SESSION_REFRESH_EACH_REQUEST`` is
off); its answer only has to vary on the cookie when it read it, which a stored page's headers
say already: then nothing is done at all.

A copy of a page that the service worker fetches to keep for offline (``static/js/sw.js`` marks
it with ``OFFLINE_COPY``) is not a visit: its answer sets no cookie. It was asked with the cookie
of its moment and may answer after the next page did; its cookie would then take away what that
page remembered (a game opened: seen in CI as a game missing from the list of games).
"""

from __future__ import annotations

import pickle
import time

import flask
from flask.sessions import SecureCookieSessionInterface

from models.services.lru import LRU

REMEMBERED = 1024  # cookies per worker
REMEMBERED_BYTES = 4 * 1024 * 1024  # per worker, as estimated by remembered_bytes
REMEMBERED_SECONDS = 60.0
OFFLINE_COPY = "X-Offline-Copy"  # the header of the service worker's copies (static/js/sw.js)


def remembered_bytes(found: tuple) -> int:
    """An upper estimate of what a remembered cookie holds: its data as text, the cookie itself
    (the key: the data in base64 and signed, at most about 1.4 times as long), and the tuple's and
    strings' own overhead."""
    return 3 * len(found[2]) + 512


class RememberedCookieSessions(SecureCookieSessionInterface):
    def __init__(self, size: int = REMEMBERED, seconds: float = REMEMBERED_SECONDS):
        self.seconds = seconds
        # cookie -> (when checked, secret key, data pickled: unpickled in a tenth of the JSON's time).
        # The figure that needs it: the owner's game page ≤ 2× a bare page (bench/run.py, 1.73×);
        # checking each cookie again adds 0.56–0.60× the bare page's CPU (bench/memos.py), ≈ 2.3×.
        self.verified = LRU(size, REMEMBERED_BYTES, remembered_bytes)
        self.serializers: dict = {}  # (secret key, fallbacks) -> Flask's serializer for them

    def get_signing_serializer(self, app):
        """Flask's serializer, made once per secret key (Flask makes a new one, with its signer
        settings, on every request — a fifth of answering ``/healthz``)."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self.serializers.get(keys)
        if made is None:
            made = self.serializers[keys] = super().get_signing_serializer(app)
        return made

    def open_session(self, app, request):
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return super().open_session(app, request)
        now = time.monotonic()
        found = self.verified.get(value)
        if found is not None and now - found[0] < self.seconds and found[1] == app.secret_key:
            return self.session_class(pickle.loads(found[2]))  # bytes this process made: a fresh copy
        session = super().open_session(app, request)
        if session:  # the signature held (a cookie that does not opens as an empty session)
            self.verified.put(value, (now, app.secret_key, pickle.dumps(dict(session))))
        return session

    def save_session(self, app, session, response) -> None:
        if not self.should_set_cookie(app, session) or OFFLINE_COPY in flask.request.headers:
            # unchanged (and not refreshed on every answer), or a copy kept for offline: not a visit
            if session.accessed and "Cookie" not in response.headers.get("Vary", ""):
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)

"""The rate limits (issues 12, 17 and 27): what they count, where, what they cost, what they say.

- **What**: every write (POST, PUT, DELETE) from a client address counts toward ``WRITE_LIMIT``,
  one count whatever the page or API call; a new game toward ``CREATE_LIMIT`` too, one count
  across every door that makes one (``NEW_GAME_DOORS``: the form, the API, the imports from a
  file or a document, "play again"); new house rules likewise (``NEW_HOUSE_RULES_DOORS``).
- **Where**: in Redis with ``REDIS_URL`` (one count for every worker process and server), else in
  this process's memory. Redis out of reach: the limits are counted in each process's memory
  until it answers again (checked every few seconds), with a warning in the log — a family's
  manche is never refused, nor answered with a 500, because the counters are away.
- **Cost**: nothing on a read (GET, HEAD, OPTIONS): the limiter's check is not even called
  (``checked_on_writes_only``); one counter on a write. The in-process
  counters (``sweptmemory://``) are a storage of our own on limits' public ``Storage`` base (the
  fixed window is all the app uses): no timer thread (the stock memory storage starts one per
  write under load to drop expired counters); a counter past its window starts again from zero
  when it is next counted, and the others are swept inline at most once a second.
- **Refusal**: a 429 whose message says which limit and when to come back (``refusal_message``).
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

from flask import current_app, request
from flask_babel import format_timedelta, gettext
from limits.storage import Storage

READS = ("GET", "HEAD", "OPTIONS")
SWEEP_SECONDS = 1.0

NEW_GAME = "new-game"  # the shared scopes of the creation limits
NEW_HOUSE_RULES = "new-house-rules"
NEW_GAME_DOORS = ("games.create_game", "games.replay", "api.create_game", "api.import_game", "share.import_game")
NEW_HOUSE_RULES_DOORS = ("api.create_variant", "api.import_variant", "house.create_variant", "house.import_variant")
# How long the app waits for Redis before counting in memory (seconds): a server out of reach
# must not hold the requests.
REDIS_TIMEOUT = 0.5


def is_read() -> bool:
    """A request the limits never count (Flask-Limiter's ``request_filter``)."""
    return request.method in READS


def hooks_of(app) -> dict:
    """The request hooks the app holds now, by kind (to tell which ones the limiter adds)."""
    return {
        kind: list(getattr(app, kind).get(None, []))
        for kind in ("before_request_funcs", "after_request_funcs", "teardown_request_funcs")
    }


def checked_on_writes_only(app, hooks_before: dict) -> None:
    """The hooks the limiter added (before, after and at the end of each request) run for writes
    only: a read never reaches the limiter at all (its ``request_filter`` says the same, but only
    after it has set up its context, which its other two hooks then look at and let go — a third
    of what serving a stored page costs)."""
    for kind, before in hooks_before.items():
        hooks = getattr(app, kind)[None]
        for index, hook in enumerate(hooks):
            if hook not in before:
                hooks[index] = _on_writes(hook)


def _on_writes(hook):
    """``hook`` for a write; for a read, nothing (an after-request hook gives the response back)."""

    def on_writes(*response):
        if request.method not in READS:
            return hook(*response)
        return response[0] if response else None

    return on_writes


def storage_options(uri: str) -> dict:
    """Options for the counters' storage: short timeouts for Redis, none for memory."""
    if uri.partition("://")[0].startswith("redis"):
        return {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}
    return {}


class SweptMemoryStorage(Storage):
    """Fixed-window counters in this process's memory, swept inline: ``{key: [count, expires at]}``."""

    STORAGE_SCHEME = ["sweptmemory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.counters: dict[str, list] = {}
        self.lock = threading.Lock()
        self.swept = time.monotonic()

    @property
    def base_exceptions(self) -> type[Exception]:
        return ValueError

    def _sweep(self, now: float) -> None:
        """Drop the counters whose window is over, at most once every SWEEP_SECONDS (lock held)."""
        if time.monotonic() - self.swept >= SWEEP_SECONDS:
            self.swept = time.monotonic()
            for key in [key for key, (_, ends) in self.counters.items() if ends <= now]:
                del self.counters[key]

    def _live(self, key: str, now: float) -> list | None:
        counter = self.counters.get(key)
        return counter if counter is not None and counter[1] > now else None

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self.lock:
            self._sweep(now)
            counter = self._live(key, now)
            if counter is None:  # a new window: counted from zero
                counter = self.counters[key] = [0, now + expiry]
            counter[0] += amount
            return counter[0]

    def get(self, key: str) -> int:
        with self.lock:
            counter = self._live(key, time.time())
            return counter[0] if counter else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self.lock:
            counter = self._live(key, now)
            return counter[1] if counter else now

    def check(self) -> bool:
        return True

    def reset(self) -> int:
        with self.lock:
            count = len(self.counters)
            self.counters.clear()
            return count

    def clear(self, key: str) -> None:
        with self.lock:
            self.counters.pop(key, None)


def refusal_message(error) -> str:
    """What a 429 says: which limit was reached (new games, new house rules or writes), how many
    it allows in how long, and when this client may try again."""
    breached = getattr(error, "limit", None)
    item = getattr(breached, "limit", None)
    if item is None:
        return gettext("Too many requests: wait a moment.")
    window = format_timedelta(timedelta(seconds=item.get_expiry()), threshold=1)
    params = {"count": item.amount, "window": window, "wait": _wait()}
    scope = breached.scope
    if scope == NEW_GAME:
        return gettext(
            "Too many new games from this connection (at most %(count)s in %(window)s): try again in %(wait)s.",
            **params,
        )
    if scope == NEW_HOUSE_RULES:
        return gettext(
            "Too many new house rules from this connection (at most %(count)s in %(window)s): try again in %(wait)s.",
            **params,
        )
    return gettext(
        "Too many changes from this connection (at most %(count)s in %(window)s): try again in %(wait)s.", **params
    )


def _wait() -> str:
    """How long until the breached limit's window ends, in words ("12 minutes")."""
    seconds = 60
    try:
        reset_at = current_app.extensions["rate_limiter"].current_limit.reset_at
        seconds = max(1, int(reset_at - time.time()))
    except Exception:  # noqa: BLE001 — the counters out of reach: a minute is a fair guess
        pass
    return format_timedelta(timedelta(seconds=seconds))  # 59 min 58 s: "1 hour", 45 min: "45 minutes"

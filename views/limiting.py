"""The rate limits: what they count, where, and what a refusal says.

- **What**: every write (POST, PUT, DELETE) from a client address counts toward ``WRITE_LIMIT``,
  one count whatever the page or API call (the app's one hook, ``count_write``); a door that makes
  a game counts toward ``CREATE_LIMIT`` too, one count shared by every such door (the form, the
  API, the imports, "play again"), and a door that makes house rules likewise. Each door is
  declared on its view: ``@new_game_limit``, ``@new_house_rules_limit``.
- **Where**: in Redis with ``REDIS_URL`` (one count for every worker process and server), else in
  this process's memory. Redis out of reach: the limits are counted in each process's memory
  until it answers again (asked after 1 s, then 2, 4… up to every 32 s: ``Counters``), with a
  warning in the log — a family's manche is never refused, nor answered with a 500, because the
  counters are away; any other fault of the counters is logged and the request let through.
- **How**: over the ``limits`` library (its ``parse``, its storages; fixed windows, keyed
  ``LIMITER/<prefix>/<address>/<scope>/…`` as Flask-Limiter keys them). ``count_write`` is the
  last of the app's hooks before a request, so a write another hook refuses first (a form from
  another site) is not counted, and a 415 from the API's own hook counts as a write, not as a new
  game. A read (GET, HEAD, OPTIONS) meets no counter. The in-process counters
  (``sweptmemory://``, and the stand-in while Redis is away) sweep expired windows inline, with no
  timer thread.
- **Answer**: the headers name the limit counted last (the one reached, on a 429):
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``; ``Retry-After`` on a 429 only. The 429 says
  which limit and when to come back (``refusal_message``). ``RATELIMIT_ENABLED`` off: nothing is
  counted. A limit that is no rate (``WRITE_LIMIT="300 a minute"``) stops the app at start.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from datetime import timedelta

from flask import after_this_request, current_app, request
from flask_babel import format_timedelta, gettext
from limits import RateLimitItem, parse
from limits.storage import Storage, storage_from_string
from werkzeug.exceptions import TooManyRequests

READS = ("GET", "HEAD", "OPTIONS")
SWEEP_SECONDS = 1.0
RECHECK_MAX_SECONDS = 32.0  # Redis out of reach: asked again after 1, 2, 4… seconds, then every 32
COUNTED = "carte.rate_limit"  # the request's environ key: the limit last counted for it
WRITES = "global"  # the scope of the write limit (its key in Redis: LIMITER/<prefix>/<address>/global/…)

NEW_GAME = "new-game"  # the shared scopes of the creation limits
NEW_HOUSE_RULES = "new-house-rules"
# How long the app waits for Redis before counting in memory (seconds): a server out of reach
# must not hold the requests.
REDIS_TIMEOUT = 0.5


class Counted:
    """One limit counted for this request: its item (``30 per hour``), its scope, the count with
    this request, when its window ends (seconds since the epoch)."""

    __slots__ = ("item", "scope", "count", "reset")

    def __init__(self, item: RateLimitItem, scope: str, count: int, reset: float):
        self.item, self.scope, self.count, self.reset = item, scope, count, reset

    @property
    def refused(self) -> bool:
        return self.count > self.item.amount


class Refused(TooManyRequests):
    """The 429 of a limit reached (``counted`` says which; ``views/errors.py`` answers it)."""

    def __init__(self, counted: Counted):
        super().__init__()
        self.counted = counted


class Counters:
    """The counters' storage (Redis, or this process's memory), and this process's memory standing
    in while Redis is out of reach: asked again after 1 s, then 2, 4… up to RECHECK_MAX_SECONDS."""

    def __init__(self, storage: Storage, stand_in: Storage | None, logger: logging.Logger):
        self.storage, self.stand_in, self.logger = storage, stand_in, logger
        self.away = False
        self.check_at = 0.0  # when to ask the storage again (time.monotonic())
        self.wait = 1.0

    def count(self, key: str, expiry: int) -> tuple[int, float]:
        """One more for ``key`` in its window of ``expiry`` seconds: the count, when the window ends."""
        storage = self._in_use()
        try:
            return storage.incr(key, expiry), storage.get_expiry(key)
        except Exception:
            if storage is not self.storage or self.stand_in is None:
                raise
            self.logger.warning("Rate limit storage unreachable - falling back to in-memory storage")
            self.away, self.wait = True, 1.0
            self.check_at = time.monotonic() + self.wait
            return self.stand_in.incr(key, expiry), self.stand_in.get_expiry(key)

    def _in_use(self) -> Storage:
        if not self.away:
            return self.storage
        if time.monotonic() >= self.check_at:
            if self.storage.check():
                self.logger.info("Rate limit storage recovered")
                self.away = False
                return self.storage
            self.wait = min(2 * self.wait, RECHECK_MAX_SECONDS)
            self.check_at = time.monotonic() + self.wait
        return self.stand_in


class RateLimits:
    """The app's limits, counted by one hook before a write (``count_write``) and by the doors that
    make something (``shared_creation_limit``), named in the answer's headers after it."""

    def __init__(self, app):
        config = self.config = app.config
        uri = config["RATELIMIT_STORAGE_URI"]
        options = config.setdefault("RATELIMIT_STORAGE_OPTIONS", storage_options(uri))
        stand_in = SweptMemoryStorage() if config.get("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED") else None
        self.counters = Counters(storage_from_string(uri, **options), stand_in, app.logger)
        self.logger = app.logger
        self.prefix = (config["RATELIMIT_KEY_PREFIX"],) if config.get("RATELIMIT_KEY_PREFIX") else ()
        self.headers = config.get("RATELIMIT_HEADERS_ENABLED", True)
        self.swallow = config.get("RATELIMIT_SWALLOW_ERRORS", False)
        self.items: dict[str, RateLimitItem] = {}
        for setting in ("WRITE_LIMIT", "CREATE_LIMIT"):  # a typo stops the app, not every write
            try:
                parse(config[setting])
            except ValueError:
                raise RuntimeError(f"{setting} must be a rate such as '30 per hour', not {config[setting]!r}") from None

    def count(self, setting: str, scope: str) -> None:
        """Count this request toward the limit ``setting`` names (``30 per hour``) in ``scope``, for
        its client address; keep it for the headers; a 429 past the limit."""
        limit = self.config[setting]
        item = self.items.get(limit) or self.items.setdefault(limit, parse(limit))
        environ = request.environ
        key = item.key_for(*self.prefix, request.remote_addr or "127.0.0.1", scope)
        try:
            count, reset = self.counters.count(key, item.get_expiry())
        except Exception:
            if not self.swallow:
                raise
            self.logger.exception("Failed to rate limit. Swallowing error")
            return
        if self.headers and COUNTED not in environ:
            after_this_request(self.name_limit)  # for this request only: a read never meets the limits
        counted = environ[COUNTED] = Counted(item, scope, count, reset)
        if counted.refused:
            raise Refused(counted)

    def count_write(self) -> None:
        """``before_request``: a write counts toward WRITE_LIMIT (a read, or an address that leads
        nowhere, is not counted)."""
        if request.method not in READS and request.url_rule is not None:
            self.count("WRITE_LIMIT", WRITES)

    @staticmethod
    def name_limit(response):
        """After a counted request: the limit last counted (the one reached, on a 429) in the
        X-RateLimit-* headers; ``Retry-After`` on a 429 only."""
        counted = request.environ[COUNTED]
        add = response.headers.add
        add("X-RateLimit-Limit", str(counted.item.amount))
        add("X-RateLimit-Remaining", str(max(0, counted.item.amount - counted.count)))
        add("X-RateLimit-Reset", str(int(counted.reset)))
        if counted.refused:
            response.headers["Retry-After"] = str(seconds_until(counted.reset))
        return response


def init_app(app) -> None:
    """Every write counts toward WRITE_LIMIT, once whatever the page or API call (an application-wide
    limit: one hook, registered last so that requests the other hooks refuse are not counted).
    Nothing at all with RATELIMIT_ENABLED off. One set of counters per app."""
    if not app.config.setdefault("RATELIMIT_ENABLED", True):
        return
    limits = app.extensions["rate_limits"] = RateLimits(app)
    app.before_request(limits.count_write)


def shared_creation_limit(scope: str):
    """A decorator for a door that makes something: a POST to it counts toward CREATE_LIMIT in
    ``scope``, one count shared by every door of that scope, before the view (and the decorators
    under this one) run. Nothing is counted when the app's limits are off."""

    def decorate(view):
        @functools.wraps(view)
        def door(*args, **kwargs):
            limits = current_app.extensions.get("rate_limits")
            if limits is not None and request.method == "POST":
                limits.count("CREATE_LIMIT", scope)
            return view(*args, **kwargs)

        return door

    return decorate


new_game_limit = shared_creation_limit(NEW_GAME)
new_house_rules_limit = shared_creation_limit(NEW_HOUSE_RULES)


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


def seconds_until(reset: float) -> int:
    """Whole seconds (at least 1) until a window ending at ``reset`` (epoch seconds) is over."""
    return max(1, int(reset - time.time()))


def refusal_message(error) -> str:
    """What a 429 says: which limit was reached (new games, new house rules or writes), how many
    it allows in how long, and when this client may try again."""
    counted = getattr(error, "counted", None)
    if counted is None:
        return gettext("Too many requests: wait a moment.")
    item = counted.item
    window = format_timedelta(timedelta(seconds=item.get_expiry()), threshold=1)
    # 59 min 58 s: "1 hour", 45 min: "45 minutes"
    wait = format_timedelta(timedelta(seconds=seconds_until(counted.reset)))
    params = {"count": item.amount, "window": window, "wait": wait}
    if counted.scope == NEW_GAME:
        return gettext(
            "Too many new games from this connection (at most %(count)s in %(window)s): try again in %(wait)s.",
            **params,
        )
    if counted.scope == NEW_HOUSE_RULES:
        return gettext(
            "Too many new house rules from this connection (at most %(count)s in %(window)s): try again in %(wait)s.",
            **params,
        )
    return gettext(
        "Too many changes from this connection (at most %(count)s in %(window)s): try again in %(wait)s.", **params
    )

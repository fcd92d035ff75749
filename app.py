"""Carte ! — the Flask application factory.

``flask --app app run`` serves the app on SQLite under ``instance/``; configuration comes from
the environment (``SECRET_KEY``, ``DATABASE_URL``, ``PUBLIC_URL``) with safe defaults.
"""

from __future__ import annotations

import os
import secrets
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from babel import Locale
from flask import Flask, request
from flask_babel import Babel
from werkzeug.exceptions import BadHost
from werkzeug.middleware.proxy_fix import ProxyFix

from models.core import rulebook, rules
from models.services.access import AccessService
from models.services.db import LOCK_TIMEOUT, Database
from models.services.feed import ChangeFeed
from models.services.games import GameService
from models.services.groups import GroupService
from models.services.history import Summaries, revisions
from models.services.house import HouseService
from models.services.nights import NightService
from models.services.open_entry import OpenEntries
from models.services.presence import PresenceService
from models.services.registry import Registry
from models.services.schema import migrate
from views import (
    api,
    api_docs,
    api_nights,
    assets,
    banner,
    cli,
    crossorigin,
    errors,
    filters,
    games,
    group_files,
    group_season,
    groups,
    history,
    house_pages,
    kit,
    limiting,
    live,
    night_events,
    night_results,
    nights,
    offline,
    open_entry,
    pages,
    referee_page,
    rule_pages,
    sessions,
    share,
    table,
)

LANGUAGES = kit.LANGUAGES
ROOT = Path(__file__).parent

babel = Babel()


# The locales the app speaks, parsed once (Flask-Babel's selector may answer a Locale).
LOCALES = {language: Locale.parse(language) for language in LANGUAGES}


def select_locale() -> Locale:
    """The user's language (``views/kit.lang``: their explicit choice, else the browser's, else French)."""
    return LOCALES[kit.lang()]


def _secret_key(instance_path: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept under instance/."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = instance_path / "secret_key"
    try:  # created once, atomically: several gunicorn workers starting together agree on one key
        descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    for _ in range(50):  # another worker may be writing it this very moment
        key = key_file.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"{key_file} is empty: delete it or set SECRET_KEY")


CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


DOCUMENT_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)


def security_headers(response):
    """No inline script, no third-party origin, no framing, no MIME sniffing, a referrer policy
    (an answer that set its own is left alone)."""
    headers = response.headers
    if "X-Content-Type-Options" in headers:
        return response
    if request.endpoint == "static" and response.mimetype != "image/svg+xml":
        headers["X-Content-Type-Options"] = "nosniff"
        return response  # CSS, JS and images run no document: the policy headers would only cost bytes
    headers.extend(DOCUMENT_HEADERS)
    if request.is_secure:
        headers["Strict-Transport-Security"] = "max-age=31536000"
    return response


def check_host() -> None:
    """The Host header must be a name URLs can be built from (links and QR codes are): a label of
    more than 63 characters, an empty label or characters no host name has are a 400, checked
    before anything else reads the request."""
    if isinstance(request.routing_exception, BadHost) or not request.host:
        raise BadHost()


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise RuntimeError(f"{name} must be a whole number, not {raw!r}") from None


def _trust_proxies(app: Flask) -> None:
    """Behind TRUSTED_PROXIES reverse proxies, the client is the address they forwarded (the
    rate limits count per real client) and the scheme is theirs. Without the setting,
    X-Forwarded-For is ignored: anyone could send one."""
    count = app.config.get("TRUSTED_PROXIES") or 0
    if not isinstance(count, int) or count < 0:
        raise RuntimeError(f"TRUSTED_PROXIES is a number of proxies (0 or more), not {count!r}")
    if count:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)


def split_counters_warning(workers: int, storage_uri: str | None) -> str | None:
    """The start-up warning when several worker processes would each keep their own rate-limit
    counters (memory://): the limits would then let through up to ``workers`` times as much.
    gunicorn calls this from ``gunicorn.conf.py`` (its ``when_ready`` hook, once, in the master
    process, with the worker count it has settled on from -w, WEB_CONCURRENCY, GUNICORN_CMD_ARGS
    or a config file)."""
    if workers > 1 and (storage_uri or "memory://").partition("://")[0].endswith("memory"):
        return (
            f"{workers} worker processes each keep their own rate-limit counters (memory://): "
            f"the limits let through up to {workers} times as much. Run one worker (gunicorn.conf.py's "
            "gevent worker holds many connections) or set REDIS_URL so that the workers share their counters."
        )
    return None


def _configure(app: Flask, instance: Path, config: dict | None) -> None:
    """The settings, from the environment with safe defaults, then ``config`` (tests) over them."""
    app.config.update(
        BABEL_DEFAULT_LOCALE="fr",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        PUBLIC_URL=os.environ.get("PUBLIC_URL", "").rstrip("/") or None,
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'carte.db'}",
        MAX_CONTENT_LENGTH=256 * 1024,
        JSON_AS_ASCII=False,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        AUTO_MIGRATE=os.environ.get("AUTO_MIGRATE", "1") != "0",
        # Seconds a write waits for a lock held by another write before answering 503 (busy).
        DATABASE_LOCK_TIMEOUT=float(os.environ.get("DATABASE_LOCK_TIMEOUT") or LOCK_TIMEOUT),
        # Abuse limits per client address (Flask-Limiter: views/limiting.py); counters in Redis
        # when REDIS_URL is set (shared by several app servers), in memory otherwise. Redis out of
        # reach: counted in this process's memory meanwhile, with a warning in the log (never a
        # 500, never a write refused for it); a request waits at most half a second for Redis.
        RATELIMIT_ENABLED=os.environ.get("RATELIMIT_ENABLED", "1") != "0",
        RATELIMIT_STORAGE_URI=os.environ.get("REDIS_URL") or "memory://",
        RATELIMIT_STORAGE_OPTIONS={"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_KEY_PREFIX="carte",
        # X-RateLimit-Limit, -Remaining, -Reset name the limit counted last; a 429 says Retry-After
        # (views/errors.py), and a 503's own Retry-After (2 s) is not made the limit's window.
        RATELIMIT_HEADERS_ENABLED=True,
        RATELIMIT_HEADER_RETRY_AFTER="X-RateLimit-Reset-After",
        CREATE_LIMIT=os.environ.get("CREATE_LIMIT", "30 per hour"),
        WRITE_LIMIT=os.environ.get("WRITE_LIMIT", "300 per minute"),
        # The administrator's secret (the server-wide list of games; none without it), the
        # page cache's bound per worker, the number of reverse proxies whose X-Forwarded-For is believed.
        ADMIN_TOKEN=os.environ.get("ADMIN_TOKEN") or None,
        PAGE_CACHE_BYTES=_int_env("PAGE_CACHE_BYTES", 32 * 1024 * 1024),
        TRUSTED_PROXIES=_int_env("TRUSTED_PROXIES", 0),
        # The live table's open streams per client address, and how often an idle stream
        # says it is still there (seconds).
        STREAMS_PER_CLIENT=_int_env("STREAMS_PER_CLIENT", live.DEFAULT_STREAMS_PER_CLIENT),
        LIVE_HEARTBEAT_SECONDS=_int_env("LIVE_HEARTBEAT_SECONDS", live.HEARTBEAT_SECONDS),
        # The session cookie is sent when it changes, not with every answer (static files, /healthz
        # and a read-only page set no cookie); it lasts a year from its last change.
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
    )
    if config:
        app.config.update(config)
    if (app.config.get("PUBLIC_URL") or "").startswith("https://") and "SESSION_COOKIE_SECURE" not in (config or {}):
        app.config["SESSION_COOKIE_SECURE"] = True  # served over HTTPS: the session cookie never goes in clear
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)


def _services(app: Flask) -> None:
    """The services of the app, made once and kept in ``app.extensions`` (``views/kit.py`` hands
    them to the views). A malformed variant or rule-page file stops the app here, naming the file
    and the field."""
    catalog = rules.catalog()
    database = Database(app.config["DATABASE_URL"], lock_timeout=float(app.config["DATABASE_LOCK_TIMEOUT"]))
    if app.config["AUTO_MIGRATE"]:
        migrate(database)
    house = HouseService(database, catalog)
    registry = Registry(catalog, house)
    game_service = GameService(database, registry)
    presence = PresenceService(database)
    entries = OpenEntries(database)
    app.extensions.update(
        catalog=catalog,
        rulebook=rulebook.rulebook(),
        database=database,
        house=house,
        registry=registry,
        access=AccessService(database),
        groups=GroupService(database),
        # The app's one clock: what "today" is for the standings' periods and the season's chart.
        clock=app.config.get("CLOCK") or (lambda: datetime.now(UTC)),
        nights=NightService(database, game_service),
        games=game_service,
        # The games summed up, per game and revision (game lists, groups, nights, a player's record):
        # a copy derived from the games' rows, their one owner, asked again under each revision read.
        # bench/run.py's player page of ~645 games (1.80× a bare page, budget ≤ 2×) needs it.
        summaries=Summaries(database, game_service.views),
        presence=presence,
        open_entries=entries,
        # The live table: one subscription to the database's changes per process.
        feed=ChangeFeed(database, game_service.get, lambda ids: revisions(database, ids), presence, entries=entries),
    )


BLUEPRINTS = (
    pages,
    games,
    table,
    share,
    history,
    groups,
    nights,
    night_events,
    night_results,
    group_files,
    group_season,
    rule_pages,
    referee_page,
    house_pages,
    api,
    api_nights,
    api_docs,
    offline,
    live,
    open_entry,
)


def _web(app: Flask) -> None:
    """The web layer: the request hooks, the language, the blueprints, errors, static files, limits."""
    app.before_request(check_host)  # first: the other hooks may build URLs from the host
    babel.init_app(app, locale_selector=select_locale)
    crossorigin.init_app(app)  # forms posted from another site refused (no token in the pages)
    kit.init_app(app)
    filters.init_app(app)
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    errors.init_app(app)
    assets.init_app(app)
    offline.init_app(app)
    live.init_app(app)
    app.after_request(security_headers)
    limiting.init_app(app)  # last: its hook counts only what the others let through


def create_app(config: dict | None = None) -> Flask:
    """The application: its settings, its services, its web layer and its commands."""
    app = Flask(__name__, instance_relative_config=True)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    _configure(app, instance, config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # keys in the order they are built (sorting them costs every answer)
    app.session_interface = sessions.RememberedCookieSessions()  # this app's own memo of verified cookies
    _trust_proxies(app)
    _services(app)
    _web(app)
    cli.init_app(app)
    banner.print_banner(app)
    return app

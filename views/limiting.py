"""The rate limits, counted by Flask-Limiter per client address (settings in ``app.py``): a write
(POST, PUT, DELETE) toward ``WRITE_LIMIT``, one count whatever the page or API call (the application
limit; a read is never counted); a door that makes a game toward ``CREATE_LIMIT`` too, one count for
every such door (``@new_game_limit``), one that makes house rules likewise (``@new_house_rules_limit``).
A refusal says which limit, and when to come back (its ``error_message``; ``views/errors.py``)."""

import time
from datetime import timedelta

from flask import current_app, request
from flask.logging import default_handler
from flask_babel import format_timedelta, gettext
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from models.core.errors import N_

WRITES = N_("Too many changes from this connection (at most %(count)s in %(window)s): try again in %(wait)s.")
GAMES = N_("Too many new games from this connection (at most %(count)s in %(window)s): try again in %(wait)s.")
RULES = N_("Too many new house rules from this connection (at most %(count)s in %(window)s): try again in %(wait)s.")


def reached() -> dict:
    """The limit reached: how many it allows, in how long (59 min 58 s is "1 hour"), the wait."""
    item, seconds = limiter.current_limit.limit, max(1, int(limiter.current_limit.reset_at - time.time()))
    window = format_timedelta(timedelta(seconds=item.get_expiry()), threshold=1)
    return {"count": item.amount, "window": window, "wait": format_timedelta(seconds), "seconds": seconds}


def refusal(message: str):
    """A limit's ``error_message``: ``message`` said of the limit reached."""
    return lambda: gettext(message, **reached())


def setting(name: str):
    return lambda: current_app.config[name]


limiter = Limiter(
    get_remote_address, application_limits=[ApplicationLimit(setting("WRITE_LIMIT"), error_message=refusal(WRITES))]
)
limiter.request_filter(
    lambda: request.method in ("GET", "HEAD", "OPTIONS") or not current_app.config["RATELIMIT_ENABLED"]
)
new_game_limit = limiter.shared_limit(setting("CREATE_LIMIT"), "new-game", error_message=refusal(GAMES))
new_house_rules_limit = limiter.shared_limit(setting("CREATE_LIMIT"), "new-house-rules", error_message=refusal(RULES))


def init_app(app) -> None:
    """The limiter's hooks on ``app``, registered last (what another hook refuses is not counted). The
    limiter is one per process: an app whose limits are off leaves it alone (the filter lets it by)."""
    if app.config["RATELIMIT_ENABLED"]:
        for name in ("WRITE_LIMIT", "CREATE_LIMIT"):  # a limit that is no rate stops the app, not every write
            try:
                parse_many(app.config[name])
            except ValueError:
                raise RuntimeError(f"{name} must be a rate such as '30 per hour', not {app.config[name]!r}") from None
        limiter.init_app(app)
        limiter.logger.addHandler(default_handler)  # "storage unreachable" in the app's log, as Flask's docs show

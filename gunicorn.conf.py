"""gunicorn reads this file from the directory it starts in (the project's): a warning at start-up
when the rate limits would be counted apart by several worker processes (see README)."""

import os


def when_ready(server):
    """Once, in the master process, with the worker count gunicorn settled on."""
    from app import split_counters_warning

    message = split_counters_warning(server.cfg.workers, os.environ.get("REDIS_URL"))
    if message:
        server.log.warning(message)

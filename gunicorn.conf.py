"""gunicorn reads this file from the directory it starts in (the project's).

- The live table: each phone holds an event stream open for as long as its page is open. gevent's
  worker holds thousands of idle connections in one process (a stream costs a greenlet and a
  socket, not a worker), and a slow client costs a connection, not a worker. A worker's change
  feed is closed when it is asked to stop, so that its streams end within the graceful timeout.
- A warning at start-up when the rate limits would be counted apart by several worker processes
  (docs/hosting.md).
- A worker serves its connections in turn (``post_request``), and its cycle collector is set for
  a long-lived process (``post_worker_init``).

Every setting can still be given on the command line (``-w 3``, ``-k sync``…), which wins.
"""

import gc
import os
import threading

import gevent
import gevent.monkey

worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_connections = 2000  # open streams and requests per worker
graceful_timeout = 10  # seconds a stopping worker gives its requests; its streams end at once
keepalive = 5

YOUNG_COLLECTION = 7000  # allocations between two young passes of the cycle collector (Python's default: 700)


def when_ready(server):
    """Once, in the master process, with the worker count gunicorn settled on."""
    from app import split_counters_warning

    message = split_counters_warning(server.cfg.workers, os.environ.get("REDIS_URL"))
    if message:
        server.log.warning(message)


def post_worker_init(worker):
    """In each worker, once the app is loaded: the cycle collector set for a server
    (``collect_for_a_server``); and when the worker is told to stop (``alive`` turns false), its
    streams are ended so that it does not wait out the graceful timeout for pages that never finish."""
    collect_for_a_server()
    app = getattr(worker, "wsgi", None)
    feed = getattr(app, "extensions", {}).get("feed") if app is not None else None
    if feed is None:
        return

    def watch():
        while worker.alive:
            threading.Event().wait(0.5)
        feed.close()

    threading.Thread(target=watch, name="carte-stop", daemon=True).start()


def collect_for_a_server():
    """What start-up made (modules, the app, its rules and templates) lives as long as the worker:
    it is frozen out of the cycle collector's passes (``gc.freeze``). A young pass comes every
    ``YOUNG_COLLECTION`` allocations, so that a write's short-lived lists and dicts are walked
    less often. The figures are in bench/README.md."""
    gc.freeze()
    _, *older = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, *older)


def post_request(worker, req, environ, resp):
    """After each answer, the worker lets its other ready connections have their turn: gevent
    switches greenlets only when one waits, so a connection whose next request is already there
    (a client asking again at once, a proxy's kept-alive connection) would otherwise be served
    again and again while the others wait. Nothing to hand over under another worker class."""
    if gevent.monkey.is_module_patched("socket"):
        gevent.sleep(0)

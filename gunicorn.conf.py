"""gunicorn reads this file from the directory it starts in (the project's).

- The live table: each phone holds an event stream open for as long as its page is open. gevent's
  worker holds thousands of idle connections in one process (a stream costs a greenlet and a
  socket, not a worker), and a slow client costs a connection, not a worker. A worker holds at
  most ``STREAMS_PER_WORKER`` streams (the app refuses the next one at once, 503 with
  Retry-After) and keeps ``REQUEST_ROOM`` more connections for pages and writes: a worker whose
  ``worker_connections`` are all taken accepts nothing more, not even ``/healthz``. Each
  connection is a file descriptor: the process's limit is raised to what the workers may hold.
  A worker's change feed is closed when it is asked to stop, so that its streams end within the
  graceful timeout, each phone told when to come back (a restart's phones do not all return at
  once).
- A warning at start-up when the rate limits would be counted apart by several worker processes
  (docs/hosting.md).
- A worker serves its connections in turn (``post_request``), and its cycle collector is set for
  a long-lived process (``post_worker_init``).
- gunicorn's own reading of ``X-Forwarded-Proto`` follows the app's ``TRUSTED_PROXIES``: without
  it (or 0) nobody's is believed, not even this machine's (gunicorn's default trusts 127.0.0.1);
  behind proxies, those of ``FORWARDED_ALLOW_IPS`` (by default this machine), as gunicorn says.

Every setting can still be given on the command line (``-w 3``, ``-k sync``…), which wins.
"""

import gc
import os
import resource
import threading

import gevent
import gevent.monkey

worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
STREAMS_PER_WORKER = int(os.environ.get("STREAMS_PER_WORKER", "6000"))  # figures: bench/README.md (swarm)
REQUEST_ROOM = 2000  # connections a worker keeps for pages, writes and kept-alive browsers, whatever its streams
worker_connections = STREAMS_PER_WORKER + REQUEST_ROOM
OTHER_FILES = 200  # a worker's own files beside its connections: the database, logs, the feed
graceful_timeout = 10  # seconds a stopping worker gives its requests; its streams end at once
keepalive = 5


def behind_proxies(setting: str | None) -> bool:
    """Whether ``TRUSTED_PROXIES`` names one proxy or more (a value the app cannot read stops it at
    start: nothing is trusted meanwhile)."""
    try:
        return int(setting or "0") > 0
    except ValueError:
        return False


if behind_proxies(os.environ.get("TRUSTED_PROXIES")):
    forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
else:
    forwarded_allow_ips = ""
    secure_scheme_headers = {}  # a UNIX socket's peer is trusted whatever the list: no header to believe

YOUNG_COLLECTION = 7000  # allocations between two young passes of the cycle collector (Python's default: 700)


def open_files_for(connections: int) -> int | None:
    """The process's limit on open files raised (up to its hard limit) to hold ``connections``
    and its own files; the connections it can hold if the hard limit is lower, else None."""
    wanted = connections + OTHER_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return None if soft == resource.RLIM_INFINITY or soft >= wanted else soft - OTHER_FILES


def when_ready(server):
    """Once, in the master process, with the worker count gunicorn settled on; the limit on open
    files raised for the workers it starts (they inherit it)."""
    from app import split_counters_warning

    message = split_counters_warning(server.cfg.workers, os.environ.get("REDIS_URL"))
    if message:
        server.log.warning(message)
    short = open_files_for(server.cfg.worker_connections)
    if short is not None:
        server.log.warning(
            "each worker may hold %s connections, but this process may open only %s files: raise its hard limit "
            "(ulimit -Hn, LimitNOFILE=) or lower STREAMS_PER_WORKER",
            server.cfg.worker_connections,
            short + OTHER_FILES,
        )


def post_worker_init(worker):
    """In each worker, once the app is loaded: the cycle collector set for a server
    (``collect_for_a_server``); the app told how many streams the worker holds; and when the
    worker is told to stop (``alive`` turns false), its streams are ended so that it does not wait
    out the graceful timeout for pages that never finish."""
    collect_for_a_server()
    app = getattr(worker, "wsgi", None)
    feed = getattr(app, "extensions", {}).get("feed") if app is not None else None
    if feed is None:
        return
    app.config["STREAMS_PER_WORKER"] = max(1, worker.cfg.worker_connections - REQUEST_ROOM)

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

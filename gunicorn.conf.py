"""gunicorn reads this file from the directory it starts in (the project's).

- The live table (issue 24): each phone holds an event stream open for as long as its page is
  open. gevent's worker holds thousands of idle connections in one process (a stream costs a
  greenlet and a socket, not a worker), and a slow client costs a connection, not a worker
  (bench/README.md: 1,000 open streams). A worker's change feed is closed when it is asked to
  stop, so that its streams end within the graceful timeout.
- A warning at start-up when the rate limits would be counted apart by several worker processes
  (see README).
- A worker serves its connections in turn (``post_request``), and its cycle collector is set for
  a server (``post_worker_init``); an answer goes out in one write (``_answers_in_one_write``).

Every setting can still be given on the command line (``-w 3``, ``-k sync``…), which wins.
"""

import os
import threading

import gevent
import gevent.monkey

worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_connections = 2000  # open streams and requests per worker
graceful_timeout = 10  # seconds a stopping worker gives its requests; its streams end at once
keepalive = 5


def when_ready(server):
    """Once, in the master process, with the worker count gunicorn settled on."""
    from app import split_counters_warning

    message = split_counters_warning(server.cfg.workers, os.environ.get("REDIS_URL"))
    if message:
        server.log.warning(message)


YOUNG_COLLECTION = 7000  # allocations between two passes of the garbage collector (Python's default: 700)


def post_worker_init(worker):
    """In each worker, once the app is loaded: the garbage collector set for a server
    (``_collect_for_a_server``); and when the worker is told to stop (``alive`` turns false), its
    streams are ended so that it does not wait out the graceful timeout for pages that never finish."""
    _collect_for_a_server()
    app = getattr(worker, "wsgi", None)
    feed = getattr(app, "extensions", {}).get("feed") if app is not None else None
    if feed is None:
        return

    def watch():
        while worker.alive:
            threading.Event().wait(0.5)
        feed.close()

    threading.Thread(target=watch, name="carte-stop", daemon=True).start()


def _collect_for_a_server():
    """Python's cycle collector, set for a worker that keeps games in memory (issue 29). What was
    made at start-up (modules, the app, its rules and templates) lives as long as the worker: it is
    frozen out of the collector's passes (``gc.freeze``), which otherwise walked it again at every
    full pass. And a young pass comes every ``YOUNG_COLLECTION`` allocations: each walks the views
    a write has just made (lists and dicts as long as the game) whatever their number, ten times
    as often at Python's default. Measured under the writes' benchmark (two workers, about 3,000
    writes each): 71 µs of collection a write by default, 35 frozen, 11 frozen at 7,000."""
    import gc

    gc.freeze()
    _, *older = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, *older)


def post_request(worker, req, environ, resp):
    """After each answer, the worker lets its other connections have their turn (issue 29).
    gevent switches greenlets only when one waits: a connection whose next request is already
    there when its answer is sent (a client that asks again at once, a proxy's kept-alive
    connection carrying many phones) is served again and again, and the worker's other
    connections wait — up to a second under the benchmark's load, for a page made in a fifth of
    a millisecond. ``gevent.sleep(0)`` lets every ready connection go first; it costs one turn of
    gevent's loop an answer. Not under another worker class (``-k sync``: nothing to hand over)."""
    if gevent.monkey.is_module_patched("socket"):
        gevent.sleep(0)


def _answers_in_one_write():
    """gunicorn 27 writes an answer's headers, then its body: two system calls per answer, each
    a wake-up of the phone's connection. An answer whose body comes in one piece of the length it
    declares (every page, every JSON answer) goes out in one write (issue 29); anything else — a
    stream, a file, a body cut in pieces, an answer without a body — as gunicorn writes it."""
    from gunicorn import util
    from gunicorn.http import wsgi

    write = wsgi.Response.write

    def write_once(self, data):
        if (
            self.headers_sent
            or self.chunked
            or not isinstance(data, bytes)
            or self.response_length != len(data)
            or getattr(self, "_omits_body", True)
        ):
            return write(self, data)
        head = self.default_headers()
        head.extend(f"{name}: {value}\r\n" for name, value in self.headers)
        head.append("\r\n")
        util.write(self.sock, "".join(head).encode("latin-1") + data)
        self.headers_sent = True
        self.sent += len(data)
        return None

    wsgi.Response.write = write_once


_answers_in_one_write()

"""What every event stream of the app does alike (a game's, ``views/live.py``; a club night's,
``views/night_events.py``): its place among the streams this worker holds (at most
``STREAMS_PER_WORKER``: past it a new stream is refused at once, 503, and the worker's other
connections stay free for pages and writes) and among those open from its client's address
(``openstreams.py``: at most ``STREAMS_PER_CLIENT``, refused beyond), the browser's reconnection
delay first, how it ends (``goodbye``: for good, or — the server stopping — a delay after which
the browser comes back), the Server-Sent Events framing, a comment as heartbeat when nothing happened for
``LIVE_HEARTBEAT_SECONDS``, and the headers that keep it from being stored or held back.

A stream hears a source: something with ``events`` (a queue) and ``close()`` — a feed's listener,
or a night's listeners of every table on one queue. When its client is found gone (to make room
for a new stream from the same address), ``End`` is put on that queue: the stream ends at once.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

from flask import Response, current_app, request, stream_with_context

from models.core.errors import N_, TooManyStreams
from models.services.feed import End

from .errors import server_message
from .openstreams import Place, client_socket

RETRY_MS = 2000  # the browser's own reconnection delay (htmx-ext-sse backs off on refusals)
STILL_HERE = ": still here\n\n"  # the heartbeat: a comment, which the browser ignores
END = "event: end\ndata: \n\n"  # the stream is over: the page stops listening
FULL_RETRY_AFTER = 10  # seconds: a stream refused because this worker holds as many as it can


class Source(Protocol):
    events: queue.Queue

    def close(self) -> None: ...


S = TypeVar("S", bound=Source)


def message(event: str, data: str, revision: int | None = None) -> str:
    """One event, with ``id:`` the revision it tells when it tells one; ``data`` of several lines
    (a part of a page) as as many ``data:`` lines, which the browser joins again."""
    head = f"id: {revision}\n" if revision is not None else ""
    lines = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"{head}event: {event}\n{lines}\n"


def heartbeat() -> float:
    """How long a quiet stream waits before it says it is still there (proxies and phones keep an
    active stream open)."""
    return float(current_app.config["LIVE_HEARTBEAT_SECONDS"])


def goodbye(end: End) -> str:
    """What a stream says as it ends: ``end`` (the page stops listening) when it ends for good; when
    the server stops, only the delay after which the browser is to connect again (``retry``)."""
    if end.back_in is None:
        return END
    return f"retry: {round(end.back_in * 1000)}\n\n"


def full() -> Response:
    """The answer to a stream this worker has no room for (``STREAMS_PER_WORKER``): 503 at once,
    with Retry-After, so that its connections stay free for pages and writes."""
    response = current_app.response_class(server_message(503), 503, mimetype="text/plain")
    response.headers["Retry-After"] = str(FULL_RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def event_stream(listen: Callable[[], S], told: Callable[[S], Iterator[str]]):
    """The response of a stream that hears what ``listen()`` opens and says what ``told`` makes
    of it. A worker that holds ``STREAMS_PER_WORKER`` streams already refuses it (503). Its place
    is taken first (too many streams from this address: refused, 429) and given back, the source
    closed, when the stream ends however it ends."""
    client = request.remote_addr or "?"
    streams, place = current_app.extensions["open_streams"], Place(client_socket(request.environ))
    capacity = current_app.config.get("STREAMS_PER_WORKER")
    if capacity and streams.held >= int(capacity):
        return full()
    if not streams.take(client, int(current_app.config["STREAMS_PER_CLIENT"]), place):
        raise TooManyStreams(N_("Too many live pages are open from this address: close some and try again."))
    try:
        source = listen()
    except BaseException:
        streams.give_back(client, place)
        raise
    place.end = lambda: source.events.put(End())  # its client is gone: the stream ends now

    def events():
        try:
            yield f"retry: {RETRY_MS}\n\n"
            yield from told(source)
        finally:
            source.close()
            streams.give_back(client, place)

    response = current_app.response_class(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a buffering proxy (nginx) passes each event at once
    return response

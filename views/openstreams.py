"""The live table's event streams this process holds open, counted per client address, at most
``STREAMS_PER_CLIENT`` each.

A stream's place is given back when its generator ends; but a phone that closes its page is only
seen by a stream's next write (its heartbeat, every ``HEARTBEAT_SECONDS``). So when an address
is at its limit, its streams whose client has closed the connection — seen on the socket itself:
readable, with nothing to read — are ended and their places given back before the new stream is
refused. A family that reloads its pages gets its streams back at once.

The connection comes from the WSGI server's own key in the environ: ``werkzeug.socket``
(Werkzeug's development server) or ``gunicorn.socket`` (gunicorn, the gevent worker included).
Under another server a stream's place comes back at its next write only.
"""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

SOCKET_KEYS = ("werkzeug.socket", "gunicorn.socket")


def client_socket(environ) -> socket.socket | None:
    """The connection a request came on, when the server says which."""
    for key in SOCKET_KEYS:
        found = environ.get(key)
        if isinstance(found, socket.socket):
            return found
    return None


def hung_up(connection: socket.socket | None) -> bool:
    """Whether the client closed (or reset) this connection: it is readable and holds nothing —
    an event stream's client sends nothing after its request. Asked without waiting."""
    if connection is None:
        return False
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(connection, selectors.EVENT_READ)
            if not selector.select(0):
                return False
        return connection.recv(1, socket.MSG_PEEK) == b""
    except ValueError:  # a socket that takes no flags (TLS): its next write will tell
        return False
    except OSError:  # reset by the peer, or closed here already
        return True


@dataclass(eq=False)
class Place:
    """One open stream's place: its connection, and how to end it (``end``, set once it listens)."""

    connection: socket.socket | None
    end: Callable[[], None] | None = None

    def ended(self) -> None:
        if self.end is not None:
            self.end()


class OpenStreams:
    """The places taken per client address."""

    def __init__(self):
        self.by_client: dict[str, set[Place]] = {}
        self.held = 0  # places taken in all
        self.lock = threading.Lock()

    def take(self, client: str, limit: int, place: Place) -> bool:
        """Take a place for ``client``; at its limit, first end its streams whose clients are gone."""
        if self._add(client, limit, place):
            return True
        with self.lock:
            held = list(self.by_client.get(client, ()))
        for gone in [other for other in held if hung_up(other.connection)]:
            self.give_back(client, gone)
            gone.ended()
        return self._add(client, limit, place)

    def _add(self, client: str, limit: int, place: Place) -> bool:
        with self.lock:
            held = self.by_client.get(client, set())
            if len(held) >= limit:
                return False
            self.by_client[client] = held | {place}
            self.held += 1
            return True

    def give_back(self, client: str, place: Place) -> None:
        """The place is free again (once, however often it is given back)."""
        with self.lock:
            held = self.by_client.get(client)
            if held is not None and place in held:
                held.discard(place)
                self.held -= 1
                if not held:
                    del self.by_client[client]

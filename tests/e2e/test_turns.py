"""A worker serves its connections in turn (issue 29, ``post_request`` in gunicorn.conf.py).

gevent switches from one connection to another only when one has to wait. A connection whose
next request is already there when its answer goes out (a client that asks again at once, a
reverse proxy's kept-alive connection carrying many phones) never waits: without turns, the
worker serves it until it has nothing more to ask, and every other phone on that worker waits.

The test asks for the order, not for a duration: one connection sends many requests in one go
(pipelined, so each next one is already there), another connection asks once while they are
being answered. Loopback delivers what the server sends before its send returns, so when the
other connection's answer arrives, the first connection's socket already holds every answer the
server gave before it. Without turns that is all of them; with turns, a few."""

from __future__ import annotations

import socket

from .test_server import Server

ASKED = 300  # the busy connection's requests: their answers fit in the sockets' buffers (no wait on a full one)
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
STATUS = b"HTTP/1.1 200 OK\r\n"


def answers_in(data: bytes) -> int:
    return data.count(STATUS)


def read_until(sock: socket.socket, data: bytes, enough) -> bytes:
    """Read (blocking, with the socket's timeout) until ``enough(data)``."""
    while not enough(data):
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    return data


def drain(sock: socket.socket) -> bytes:
    """Whatever the socket holds now, without waiting for more."""
    sock.setblocking(False)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except BlockingIOError:
        pass
    finally:
        sock.setblocking(True)
    return data


def test_a_connection_that_asks_again_at_once_does_not_hold_the_worker(database_url):
    server = Server(database_url, workers=1).start()
    try:
        address = ("127.0.0.1", server.port)
        with (
            socket.create_connection(address, timeout=30) as busy,
            socket.create_connection(address, timeout=30) as other,
        ):
            busy.sendall(REQUEST * ASKED)
            # the worker is serving the busy connection: its first answer is here
            busy_data = read_until(busy, b"", lambda data: answers_in(data) >= 1)
            other.sendall(REQUEST)
            read_until(other, b"", lambda data: answers_in(data) == 1 and data.endswith(b"ok"))
            busy_data += drain(busy)
            before_the_other = answers_in(busy_data)
            # every one of the busy connection's requests is answered all the same
            busy_data = read_until(busy, busy_data, lambda data: answers_in(data) == ASKED)
    finally:
        server.stop()
    assert before_the_other < ASKED // 2, (
        f"the other connection was answered after {before_the_other} of the {ASKED} answers of a connection "
        "that asked again at once: the worker held on to it"
    )

"""The server's answers go out in one write when they can (issue 29, ``gunicorn.conf.py``): an
answer whose body comes in one piece of the length it declares is sent with its headers in one
system call; a stream, a body without a declared length and an answer without a body are written
as gunicorn writes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
from gunicorn.http import wsgi

CONFIG = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


@pytest.fixture(scope="module", autouse=True)
def configured():
    """gunicorn.conf.py read as gunicorn reads it (its one write put in place), then taken back."""
    write = wsgi.Response.write
    spec = importlib.util.spec_from_file_location("carte_gunicorn_conf", CONFIG)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert wsgi.Response.write is not write
    yield
    wsgi.Response.write = write


class Socket:
    def __init__(self):
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


def answer(status: str, headers: list, body: list[bytes], method: str = "GET") -> list[bytes]:
    """What gunicorn writes to the socket for this answer, one item per system call."""
    request = SimpleNamespace(version=(1, 1), method=method, should_close=lambda: False)
    sock = Socket()
    response = wsgi.Response(request, sock, SimpleNamespace(protocol="http", is_ssl=False, sendfile=False))
    response.start_response(status, headers)
    for piece in body:
        response.write(piece)
    response.close()
    return sock.writes


def test_an_answer_of_known_length_goes_out_in_one_write():
    writes = answer("201 CREATED", [("Content-Type", "application/json"), ("Content-Length", "13")], [b'{"number": 1}'])
    assert len(writes) == 1
    head, body = writes[0].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 201 CREATED\r\n")
    assert b"\r\nContent-Type: application/json\r\nContent-Length: 13" in head
    assert body == b'{"number": 1}'


def test_a_stream_and_an_answer_in_pieces_are_written_as_they_come():
    stream = answer("200 OK", [("Content-Type", "text/event-stream")], [b"event: scores\n\n", b"data: 1\n\n"])
    assert stream[0].endswith(b"\r\n\r\n") and b"Transfer-Encoding: chunked" in stream[0]  # the headers first, alone
    assert stream[1:] == [b"F\r\nevent: scores\n\n\r\n", b"9\r\ndata: 1\n\n\r\n", b"0\r\n\r\n"]
    pieces = answer("200 OK", [("Content-Length", "6")], [b"abc", b"def"])
    assert len(pieces) == 3 and pieces[1:] == [b"abc", b"def"]


def test_an_answer_without_a_body_is_its_headers_alone():
    writes = answer("304 NOT MODIFIED", [("ETag", '"r1"')], [b""])
    assert len(writes) == 1 and writes[0].endswith(b"\r\n\r\n") and b'ETag: "r1"' in writes[0]
    head = answer("200 OK", [("Content-Length", "2")], [b"ok"], method="HEAD")
    assert len(head) == 1 and head[0].endswith(b"\r\n\r\n")

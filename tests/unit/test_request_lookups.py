"""What a request's arguments and cookies answer, and how a hook finds a header (views/carteflask.py):
the same answers as Werkzeug's, a missing name included, without raising an exception to get them."""

from __future__ import annotations

import sys

from werkzeug.datastructures import Headers
from werkzeug.test import EnvironBuilder

from views.carteflask import CarteRequest, has_header


def request(query: str = "", cookie: str | None = None) -> CarteRequest:
    headers = {"Cookie": cookie} if cookie else {}
    return CarteRequest(EnvironBuilder(path="/games", query_string=query, headers=headers).get_environ())


def raised_during(call) -> list[str]:
    """The exceptions raised (and maybe caught) while ``call`` runs."""
    raised: list[str] = []

    def trace(frame, event, arg):
        if event == "exception":
            raised.append(arg[0].__name__)
        return trace

    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(None)
    return raised


def test_arguments_answer_as_werkzeug_does():
    args = request("page=3&page=4&name=Ana&n=x").args
    assert args.get("page") == "3"  # the first of several
    assert args.get("page", type=int) == 3
    assert args.getlist("page") == ["3", "4"]
    assert args.get("n", 1, type=int) == 1  # a value that does not convert: the default
    assert args.get("missing") is None
    assert args.get("missing", "fr") == "fr"
    assert args.get("missing", 2, type=int) == 2


def test_a_missing_argument_or_cookie_raises_nothing():
    asked = request("page=2", cookie="session=abc")
    args, cookies = asked.args, asked.cookies
    assert raised_during(lambda: (args.get("shown"), cookies.get("lang"), args.get("page", type=int))) == []
    assert cookies.get("session") == "abc" and cookies.get("lang") is None


def test_has_header_answers_as_in_does_in_any_case_without_raising():
    headers = Headers([("Content-Type", "text/html"), ("Content-Encoding", "br")])
    for name in ("Content-Encoding", "content-encoding", "X-Content-Type-Options", "ETag"):
        assert has_header(headers, name) == (name in headers)
    assert raised_during(lambda: has_header(headers, "X-Content-Type-Options")) == []

"""What the app reads of a request on every visit — its language cookie and header, a list's page
number, the body's size — and the headers it adds to an answer, each once."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_api import create

LANG = re.compile(r'<html lang="(\w+)"')


def page_language(client, path="/", **headers) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200
    return LANG.search(answer.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        (None, None, "fr"),  # neither: French
        (None, "en-GB,en;q=0.9", "en"),  # the browser's language
        (None, "de-DE,de;q=0.9", "fr"),  # a language the app does not speak: French
        ("en", "fr-FR", "en"),  # the person's choice wins over the browser's
        ("xx", "en-US", "en"),  # a choice the app does not know: the browser's
    ],
)
def test_the_language_is_the_cookie_then_the_browser_then_french(client, cookie, accept, expected):
    if cookie:
        client.set_cookie("lang", cookie)
    headers = {"Accept-Language": accept} if accept else {}
    assert page_language(client, **headers) == expected


def test_a_list_page_number_is_a_whole_number_from_one(client):
    create(client)
    assert client.get("/games").status_code == 200  # absent: the first page
    assert client.get("/games?page=1&page=7").status_code == 200  # the first of several
    for odd in ("abc", "0", "-1", "1.5"):
        assert client.get(f"/games?page={odd}").status_code == 404, odd


def test_a_document_carries_each_security_header_once(client):
    game, _ = create(client)
    for path in ("/", f"/games/{game['id']}", "/api/v1/variants"):
        headers = client.get(path).headers
        for name in ("X-Content-Type-Options", "Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"):
            assert len(headers.getlist(name)) == 1, (path, name)


def test_a_stored_page_is_not_compressed_twice(client):
    game, _ = create(client)
    path = f"/games/{game['id']}"
    assert client.get(path, headers={"Accept-Encoding": "br"}).status_code == 200  # stored now
    answer = client.get(path, headers={"Accept-Encoding": "br"})
    assert answer.headers.getlist("Content-Encoding") == ["br"]
    assert answer.headers["ETag"].startswith('W/"')
    assert client.get(path, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304


def test_an_oversized_form_is_refused_before_it_is_read(client):
    answer = client.post("/games/new", data={"players": "A" * 400_000})
    assert answer.status_code == 413
    assert "text/html" in answer.headers["Content-Type"]

"""Every field of the game import (the API's JSON, the page's uploaded file) and of the undo form,
given any value: the answer is a 4xx with a message a person can read, or a success — never a 5xx."""

from __future__ import annotations

import html
import io
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from models.services.games import MancheEntry

PLAYERS = ["Ana", "Bob", "Chloé"]
NEW_GAME_FORM = {"variant": "classique", "shown_variant": "classique", "players": PLAYERS, "end": "target",
                 "first_dealer": "0"}  # fmt: skip

# Strings of odd shapes: digits int() reads otherwise, signs, spaces, huge numbers, controls,
# surrogates' neighbours, right-to-left marks, nothing at all.
ODD_STRINGS = st.sampled_from(
    ["", " ", "abc", "-1", "+1", "1.5", "1e3", "0x10", "１", "²", "١٢", "9" * 10, "9" * 400, "\x00", "\u202e1",
     "\ufeff1", "null", "[]", "{}", "carte-game/2 ", "CARTE-GAME/2", "\U0001f0a1", "NaN", "-0"]
) | st.text(max_size=30)  # fmt: skip

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | ODD_STRINGS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_STRINGS, inner, max_size=4),
    max_leaves=10,
)


def document_of(games) -> dict:
    """A real export document (two manches): the fields to break."""
    game, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KS", "2H"], "Chloé": ["5C"]}))
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["3C"], "Chloé": ["9C"]}))
    return games.export_game(game.id)


def paths_of(value, prefix=()) -> list[tuple]:
    """Every field of a JSON document, as the keys and indices that lead to it."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths_of(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths_of(inner, (*prefix, index))
    return found


def replaced(document, path: tuple, value, remove: bool = False):
    """A copy of ``document`` with the field at ``path`` set to ``value`` (or taken out)."""
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if remove:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return copy


def assert_readable_4xx_or_success(r, what):
    assert r.status_code < 500, (what, r.status_code, r.get_data(as_text=True)[:500])
    if r.status_code >= 400 and r.is_json:
        assert r.get_json()["error"]["message"], what


@pytest.mark.parametrize("value", [[], {}, ["carte-game/2"], {"carte-game/2": 1}, 2, 2.5, True, None])
def test_an_import_whose_format_is_not_a_string_is_a_422_that_says_so(client, games, value):
    document = {**document_of(games), "format": value}
    r = client.post("/api/v1/games/import", json=document, headers={"Accept-Language": "fr"})
    assert r.status_code == 422
    assert r.get_json()["error"]["field"] == "format"
    assert "n'est pas un fichier de partie" in r.get_json()["error"]["message"]
    upload = {"file": (io.BytesIO(json.dumps(document).encode()), "partie.json")}
    r = client.post("/games/import", data=upload, headers={"Accept-Language": "fr"})
    assert r.status_code == 422
    assert "n'est pas un fichier de partie" in html.unescape(r.get_data(as_text=True))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_field_of_an_import_takes_any_value_without_5xx(app, games, data):
    document = document_of(games)
    path = data.draw(st.sampled_from(paths_of(document)), label="field")
    remove = data.draw(st.booleans(), label="remove") if isinstance(path[-1], str) else False
    broken = replaced(document, path, None if remove else data.draw(JSON_VALUES, label="value"), remove)
    client = app.test_client()
    assert_readable_4xx_or_success(client.post("/api/v1/games/import", json=broken), ("api", path))
    upload = {"file": (io.BytesIO(json.dumps(broken).encode()), "partie.json")}
    assert_readable_4xx_or_success(client.post("/games/import", data=upload), ("page", path))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(fields=st.dictionaries(st.sampled_from(["file", "format", "game", "x"]), ODD_STRINGS, max_size=4),
       body=ODD_STRINGS)  # fmt: skip
@example(fields={}, body='{"format": []}')
@example(fields={}, body='{"format": {}}')
def test_the_import_page_answers_any_form_and_any_file_without_5xx(client, fields, body):
    r = client.post("/games/import", data=fields)
    assert_readable_4xx_or_success(r, fields)
    upload = {**fields, "file": (io.BytesIO(body.encode("utf-8", "surrogatepass")), "partie.json")}
    assert_readable_4xx_or_success(client.post("/games/import", data=upload), body)


def new_game_with_a_manche(client) -> tuple[str, int]:
    """A game of this browser's with one manche saved: its id and revision."""
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    manche = {"winner": "0", "number": "1", "nonce": "n1", "p1-typed": "10", "p2-typed": "5"}
    assert client.post(f"/games/{game_id}/manches", data=manche).status_code == 303
    return game_id, 1


@pytest.mark.parametrize("number", ["abc", "", "-1", "1234567890", "²", " ", "1.0"])
@pytest.mark.parametrize("kind", ["saved", "edited", "deleted", "joined", "left"])
def test_undo_with_a_number_that_is_not_one_is_a_4xx_that_says_so(app, kind, number):
    client = app.test_client()
    game_id, revision = new_game_with_a_manche(client)
    form = {"kind": kind, "number": number, "revision": str(revision)}
    r = client.post(f"/games/{game_id}/undo", data=form, headers={"Accept-Language": "fr"})
    assert 400 <= r.status_code < 500
    assert "Il n'y a rien à annuler." in html.unescape(r.get_data(as_text=True))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(fields=st.dictionaries(st.sampled_from(["kind", "number", "revision", "nonce"]),
                              ODD_STRINGS | st.sampled_from(["saved", "edited", "deleted", "joined", "left", "1", "0"]),
                              max_size=4))  # fmt: skip
@example(fields={"kind": "saved", "number": "abc", "revision": "1"})
@example(fields={"kind": "left", "number": "9" * 10, "revision": "1"})
def test_the_undo_form_answers_any_post_without_5xx(app, fields):
    client = app.test_client()
    game_id, _ = new_game_with_a_manche(client)
    assert_readable_4xx_or_success(client.post(f"/games/{game_id}/undo", data=fields), fields)

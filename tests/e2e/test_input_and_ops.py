"""Reliability, continued: numbers and text from requests that a phone or a script may get wrong
(issue 12), rate-limit headers, backup and restore, migrations. Never a 500, nothing half-written.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from app import create_app
from models.services.db import Database
from models.services.schema import migrate
from tests.e2e.test_reliability import NEW_GAME_FORM, PLAYERS, new_game

from .test_limits import in_another_process
from .test_server import redis_reachable

# --- numbers from requests: ASCII digits only, one helper (issue 12, A) ---------------------------


@pytest.mark.parametrize(
    "text, expected",
    [("0", 0), ("12", 12), (" 7 ", 7), ("007", 7), ("²", None), ("١٢", None), ("⁵", None), ("３", None),
     ("1²", None), ("-1", None), ("+1", None), ("1.5", None), ("", None), (" ", None), pytest.param("1" * 5000, None, id="5000-digits"),
     (None, None), (3, None)],
)  # fmt: skip
def test_whole_number_reads_ascii_digits_only(text, expected):
    from views.numbers import whole_number

    assert whole_number(text) == expected


def test_whole_number_bounds_and_keypad_counts():
    from views.numbers import keypad_count, number_or_text, whole_number

    assert whole_number("5", 1, 5) == 5 and whole_number("6", 1, 5) is None and whole_number("0", 1, 5) is None
    assert [keypad_count(t, 8) for t in ("3", "9", "99999999999", "²", "", None, "-1")] == [3, 8, 8, 0, 0, 0, 0]
    assert [number_or_text(t) for t in ("300", " ", "", None, "²", "abc")] == [300, None, None, None, "²", "abc"]


def test_no_view_or_model_reads_request_digits_with_isdigit():
    """The one place: views/numbers.py. (str.isdigit says yes to "²", which int() refuses.)"""
    root = Path(__file__).resolve().parents[2]
    for folder in ("views", "models"):
        for path in (root / folder).glob("*.py"):
            if path.name in ("numbers.py", "rulesearch.py"):  # the search: words of rule texts, not request input
                continue
            assert ".isdigit()" not in path.read_text(encoding="utf-8"), path


def test_referee_page_with_a_unicode_digit_for_players(client):
    r = client.get("/referee?variant=classique&players=²")
    assert r.status_code == 200
    assert '<option value="3" selected>' in r.get_data(as_text=True)  # the variant's sample table, not "²"


def test_calculette_with_a_unicode_digit_count(client):
    r = client.get("/calculette?variant=classique&n_8=²&n_K=1")
    assert r.status_code == 200
    assert "<output data-total>10</output>" in r.get_data(as_text=True)  # the K alone: classique K = 10


@pytest.mark.parametrize("digit", ["²", "١", "⁰"])
def test_new_game_form_with_a_unicode_digit_first_dealer(client, app, digit):
    r = client.post("/games", data={**NEW_GAME_FORM, "first_dealer": digit})
    assert r.status_code == 422
    assert "distribue en premier" in r.get_data(as_text=True)  # the message under the dealer choice
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0


@pytest.mark.parametrize("field", ["target", "rounds"])
def test_new_game_form_with_a_unicode_digit_target_or_rounds(client, field):
    end = "rounds" if field == "rounds" else "target"
    r = client.post("/games", data={**NEW_GAME_FORM, "end": end, field: "١٢"})
    assert r.status_code == 422
    expected = {"target": "objectif est un nombre entier", "rounds": "nombre de manches est un entier"}[field]
    assert expected in r.get_data(as_text=True)


@pytest.mark.parametrize(
    "fields, where",
    [({"winner": "²", "p1-typed": "4", "p2-typed": "5"}, "winner"),
     ({"winner": "0", "p1-typed": "²", "p2-typed": "5"}, "typed"),
     ({"winner": "0", "p1-n_8": "²", "p2-typed": "5"}, "count")],
)  # fmt: skip
def test_manche_form_with_unicode_digits(app, games, fields, where):
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(f"/games/{game_id}/manches", data={"nonce": f"n-{where}", **fields})
    assert r.status_code == 422, r.status_code
    page = r.get_data(as_text=True)
    if where == "typed":
        assert "total saisi" in page  # "A typed total is a whole number from 0 to …" under Bob's hand
    if where == "count":
        assert "Bob" in page  # "²" is no count: Bob's hand is missing
    assert games.get(game_id).manches == []


def test_a_manche_form_s_number_is_only_what_the_phone_showed(app, games):
    """Issue 24: the entry is "the next manche"; its number only says what the phone showed (to tell
    it when another phone took that number). A "²" there is no number: the manche is recorded as
    the next one, with no word of a renumbering."""
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(
        f"/games/{game_id}/manches", data={"nonce": "n", "winner": "0", "p1-typed": "4", "p2-typed": "5", "number": "²"}
    )
    assert r.status_code == 303 and r.headers["Location"].endswith("?saved=1")
    assert [m.number for m in games.get(game_id).manches] == [1]


def test_manche_form_ascii_digits_still_record(app, games):
    client = app.test_client()
    game_id = client.post("/games", data=NEW_GAME_FORM).headers["Location"].rsplit("/", 1)[-1]
    r = client.post(f"/games/{game_id}/manches", data={"winner": " 0 ", "number": "1", "p1-n_K": "2", "p2-typed": "07"})
    assert r.status_code == 303
    # classique: Bob's two kings are 2 × 10 = 20; Chloé typed 7; the winner Ana adds 0
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 20, "Chloé": 7}


@pytest.mark.parametrize(
    "path, body, field",
    [("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "²"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "0"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "first_dealer": "random"}, "first_dealer"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "target": "300"}, "target"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "target": "١٢"}, "target"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "rounds": "3"}, "rounds"),
     ("/api/v1/games", {"variant": "classique", "players": PLAYERS, "rounds": ""}, "rounds"),
     ("/api/v1/referee/check", {"variant": "classique", "top": "3H", "card": "8C", "players": "²"}, "players"),
     ("/api/v1/referee/check", {"variant": "classique", "top": "3H", "card": "8C", "players": "3"}, "players")],
)  # fmt: skip
def test_api_numbers_are_json_numbers(client, path, body, field):
    """SPEC §4: these fields are integers; a string (even "0" or "²") is a 422 naming the field."""
    r = client.post(path, json=body)
    assert r.status_code == 422, r.get_data(as_text=True)
    assert r.get_json()["error"] == {**r.get_json()["error"], "code": "validation_error", "field": field}


@pytest.mark.parametrize("body, field", [({"number": "1"}, "number"), ({"number": "²"}, "number"),
                                         ({"points": {"Chloé": "4"}}, "points.Chloé"),
                                         ({"points": {"Chloé": "²"}}, "points.Chloé")])  # fmt: skip
def test_api_manche_numbers_are_json_numbers(client, games, body, field):
    game = new_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    manche = {"winner": "Ana", "hands": {"Bob": ["KS"], "Chloé": ["3C"]}} | body
    if "points" in body:
        del manche["hands"]["Chloé"]
    r = client.post(f"/api/v1/games/{game['id']}/manches", json=manche, headers=auth)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == field, r.get_json()
    assert games.get(game["id"]).manches == []
    # the same with JSON numbers is recorded: classique K = 10, 3 = 3 (or the typed 4)
    fixed = manche | ({"number": 1} if "number" in body else {"points": {"Chloé": 4}})
    r = client.post(f"/api/v1/games/{game['id']}/manches", json=fixed, headers=auth)
    assert r.status_code == 201 and r.get_json()["totals"] == {
        "Ana": 0,
        "Bob": 10,
        "Chloé": 4 if "points" in body else 3,
    }


# --- text that cannot be encoded, hosts that cannot be named (issue 12, B) -----------------------

SURROGATE_BODIES = [
    ("/api/v1/games", '{"variant": "\\ud800", "players": ["Ana", "Bob"]}', "variant"),
    ("/api/v1/games", '{"variant": "classique", "players": ["Ana", "\\udfff"]}', "players.1"),
    ("/api/v1/games", '{"variant": "classique", "players": ["Ana", "Bob"], "teams": {"\\ud800": ["Ana"]}}', "teams"),
    ("/api/v1/score", '{"variant": "classique", "cards": ["8H", "\\ud800"]}', "cards.1"),
    ("/api/v1/referee/check", '{"variant": "classique", "top": "\\ud800", "card": "8H"}', "top"),
    ("/api/v1/variants", '{"base": "classique", "name": "Chez \\ud800"}', "name"),
    ("/api/v1/games/import", '{"format": "carte-game/1", "game": {"variant": "\\ud800"}}', "game.variant"),
]


@pytest.mark.parametrize("path, body, field", SURROGATE_BODIES)
def test_a_lone_surrogate_in_a_json_body_is_a_422(client, app, path, body, field):
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == 422, r.get_data(as_text=True)
    error = r.get_json()["error"]
    assert error["code"] == "validation_error" and error["field"] == field
    assert "UTF-16" in error["message"]
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0


def test_a_surrogate_pair_is_a_character_and_welcome(client):
    r = client.post("/api/v1/games", data='{"variant": "classique", "players": ["Ana \\ud83c\\udccf", "Bob"]}',
                    content_type="application/json")  # fmt: skip
    assert r.status_code == 201 and r.get_json()["players"] == ["Ana 🃏", "Bob"]


def test_a_lone_surrogate_in_a_manche_body_is_a_422(client, games):
    game = new_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}", "Content-Type": "application/json"}
    body = '{"winner": "Ana", "hands": {"Bob": ["KS"], "Chlo\\udce9": ["3C"]}}'
    r = client.post(f"/api/v1/games/{game['id']}/manches", data=body, headers=auth)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands"
    assert games.get(game["id"]).manches == []


@pytest.mark.parametrize(
    "raw",
    [
        # no escape: the surrogate's own bytes, which json.loads decodes with "surrogatepass"
        b'{"winner": "Ana", "hands": {"Bob": ["KS"], "Chlo\xed\xb3\xa9": ["3C"]}}',
        # UTF-16 text, in which a lone surrogate is two bytes like any other character's
        '{"winner": "Ana", "hands": {"Bob": ["KS"], "Chlo\udce9": ["3C"]}}'.encode("utf-16-le", "surrogatepass"),
    ],
)
def test_a_lone_surrogate_without_an_escape_is_a_422_too(client, games, raw):
    """The walk through the document is skipped only for plain UTF-8 without a \\u escape
    (``jsontext.may_hold_surrogate``, issue 29): a surrogate written any other way is still found."""
    game = new_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}", "Content-Type": "application/json"}
    r = client.post(f"/api/v1/games/{game['id']}/manches", data=raw, headers=auth)
    assert r.status_code == 422 and r.get_json()["error"]["field"] == "hands"
    assert games.get(game["id"]).manches == []


@pytest.mark.parametrize(
    "path, document",
    [("/games/import", '{"format": "carte-game/1", "game": {"variant": "\\ud800", "players": ["Ana", "Bob"]}}'),
     ("/variants/import", '{"format": "carte-variant/1", "variant": {"base": "classique", "name": "\\ud800"}}')],
)  # fmt: skip
def test_a_lone_surrogate_in_an_uploaded_file_is_a_422(client, app, path, document):
    import io

    r = client.post(path, data={"file": (io.BytesIO(document.encode()), "x.json")}, content_type="multipart/form-data")
    assert r.status_code == 422
    assert "UTF-16" in r.get_data(as_text=True)
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM house_variant")).scalar_one() == 0


def test_form_posts_cannot_carry_a_lone_surrogate(client, games):
    """A browser form percent-encodes UTF-8; the bytes of a surrogate (ED A0 80) are no UTF-8 and
    are read as replacement characters, never as a surrogate."""
    body = b"variant=classique&shown_variant=classique&players=Ana&players=%ED%A0%80&end=target&first_dealer=0"
    r = client.post("/games", data=body, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 303
    players = games.get(r.headers["Location"].rsplit("/", 1)[-1]).players
    assert players[0] == "Ana" and not any("\ud800" <= ch <= "\udfff" for ch in players[1])


LONG_LABEL_HOST = "a" * 70 + ".example"


@pytest.mark.parametrize("host", [LONG_LABEL_HOST, "a..example", "bad host", "<script>"])
@pytest.mark.parametrize("path", ["/", "/games/new", "/api/v1/variants", "/nowhere", "/healthz"])
def test_a_host_that_cannot_be_named_is_a_400(client, host, path):
    r = client.get(path, headers={"Host": host})
    assert r.status_code == 400, r.status_code
    if path.startswith("/api/"):
        assert r.get_json()["error"]["code"] == "validation_error"
    else:
        assert "Host" in r.get_data(as_text=True)


def test_a_bad_host_reaches_no_share_link_nor_write(client, app):
    game = new_game(client)
    share_id = game["share_url"].rsplit("/", 1)[-1]
    for path in (f"/s/{share_id}", f"/s/{share_id}/qr.svg", f"/api/v1/games/{game['id']}"):
        assert client.get(path, headers={"Host": LONG_LABEL_HOST}).status_code == 400, path
    r = client.post(
        "/api/v1/games", json={"variant": "classique", "players": PLAYERS}, headers={"Host": LONG_LABEL_HOST}
    )
    assert r.status_code == 400
    with app.extensions["database"].reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar_one() == 1


def test_a_valid_host_still_builds_links(client):
    game = new_game(client)  # the test client's host is "localhost": LAN address or itself
    r = client.get(f"/api/v1/games/{game['id']}", headers={"Host": "carte.example:8080"})
    assert r.status_code == 200
    assert r.get_json()["share_url"].startswith("http://carte.example:8080/s/")


# --- rate limit headers (issue 12, D) ----------------------------------------------------------------


def test_retry_after_only_on_a_refusal(app_config):
    app = create_app({**app_config, "RATELIMIT_ENABLED": True, "CREATE_LIMIT": "2 per hour"})
    client = app.test_client()
    answers = [client.post("/api/v1/games", json={"variant": "classique", "players": PLAYERS}) for _ in range(3)]
    assert [r.status_code for r in answers] == [201, 201, 429]
    for r in answers[:2]:
        assert "Retry-After" not in r.headers, dict(r.headers)
        assert r.headers["X-RateLimit-Limit"]  # the limits are still named
    assert int(answers[2].headers["Retry-After"]) > 0
    app.extensions["database"].dispose()


# --- backup and restore ----------------------------------------------------------------------------


def test_backup_and_restore_are_idempotent(app, games, tmp_path, app_config):
    from models.services.games import MancheEntry

    game, _ = games.create_game("les-huit", ["Ana", "Bob", "Chloé", "Dan"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H", "KS"], "Dan": ["3C"]}), key="k1")
    games.create_invite(game.id)
    runner = app.test_cli_runner()
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    document = json.loads(path.read_text())
    assert len(document["games"]) == 1

    # into an empty database: everything comes back, twice changes nothing
    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    other = create_app({**app_config, "DATABASE_URL": other_url, "AUTO_MIGRATE": True})
    other_runner = other.test_cli_runner()
    assert "1 games restored" in other_runner.invoke(args=["restore", str(path)]).output
    assert "0 games restored, 1 already present" in other_runner.invoke(args=["restore", str(path)]).output
    again = tmp_path / "again.json"
    other_runner.invoke(args=["backup", str(again)])
    assert json.loads(again.read_text())["games"] == document["games"]
    restored = other.extensions["games"].get(game.id)
    assert restored.totals == {"Ana & Chloé": 63, "Bob & Dan": 0}  # 8 = 50 + K = 10 + 3 = 3
    other.extensions["database"].dispose()


# --- migrations ------------------------------------------------------------------------------------


def old_game(database: Database, with_invite: bool = False) -> None:
    """A game "g1" of two players (and an invite) written as an older schema stores them."""
    with database.writer.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (id, variant, options_json, mode, table_id, target, rounds, first_dealer, edit_token_hash,"
            " share_id, revision, created_at, updated_at) VALUES ('g1', 'classique', '{}', 'penalty', 'classique', 500,"
            " NULL, 0, 'h', 's1', 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        ))  # fmt: skip
        conn.execute(text("INSERT INTO player (game_id, seat, name) VALUES ('g1', 0, 'Ana'), ('g1', 1, 'Bob')"))
        if with_invite:
            conn.execute(
                text("INSERT INTO invite (id, game_id, token_hash, created_at) VALUES ('i1', 'g1', 't', '2026-01-01')")
            )


def upgraded(tmp_path, start: str, with_invite: bool = False, to: str = "head") -> Database:
    """A database at ``start`` with the old game "g1" written in it, then migrated to ``to``."""
    database = Database(f"sqlite:///{tmp_path / f'from-{start}.db'}")
    migrate(database, start)
    old_game(database, with_invite)
    migrate(database, to)
    return database


def test_migrations_from_empty_and_from_the_previous_revision_with_data(tmp_path):
    database = upgraded(tmp_path, "0001")  # 0001 → head, with data in it
    tables = set(inspect(database.reader).get_table_names())
    assert {"game", "player", "manche", "hand", "idempotency", "invite"} <= tables
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM player WHERE game_id = 'g1'")).scalar_one() == 2
    database.dispose()


def test_migration_0003_from_0002_with_data(tmp_path):
    """0002 → 0003 (house rules) keeps the games, adds house_variant and an empty game.rules_json."""
    database = upgraded(tmp_path, "0002", with_invite=True)
    assert "house_variant" in set(inspect(database.reader).get_table_names())
    assert "rules_json" in {c["name"] for c in inspect(database.reader).get_columns("game")}
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT rules_json FROM game WHERE id = 'g1'")).scalar_one() is None
        assert conn.execute(text("SELECT count(*) FROM invite")).scalar_one() == 1
    from models.core.rules import catalog
    from models.services.games import GameService
    from models.services.house import HouseService
    from models.services.registry import Registry

    registry = Registry(catalog(), HouseService(database, catalog()))
    assert GameService(database, registry).get("g1").players == ["Ana", "Bob"]
    database.dispose()


def test_migration_0004_from_0003_with_data(tmp_path):
    """0003 → 0004 keeps games and invites; players sit from the start, invites were never used."""
    database = upgraded(tmp_path, "0003", with_invite=True)
    assert "undo_record" in set(inspect(database.reader).get_table_names())
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT joined_after, left_after, start_total FROM player")).all() == [
            (0, None, 0),
            (0, None, 0),
        ]
        assert conn.execute(text("SELECT last_used_at FROM invite")).scalar_one() is None
    database.dispose()


def test_migration_0005_from_0004_with_data(tmp_path):
    """0004 → 0005 keeps the games: each starts unreshaped, the count of changes exists and the
    triggers move it with every change to a game (issue 17)."""
    database = upgraded(tmp_path, "0004", with_invite=True, to="0005")
    with database.writer.begin() as conn:
        indexes = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'index'")).scalars())
        assert {"ix_game_listed", "ix_player_name"} <= indexes  # (an index on an expression is not reflected)
        assert conn.execute(text("SELECT reshaped FROM game WHERE id = 'g1'")).scalar_one() == 0
        before = conn.execute(text("SELECT count FROM game_changes")).scalar_one()
        conn.execute(text("UPDATE game SET revision = revision + 1 WHERE id = 'g1'"))
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT count FROM game_changes")).scalar_one() == before + 1
    database.dispose()


def test_migration_0006_from_0005_with_data(tmp_path):
    """0005 → 0006 (issue 24) keeps the games; the count of changes shared by every game goes, with
    its triggers (a game changes without touching it), and the presence table comes."""
    database = upgraded(tmp_path, "0005", with_invite=True)
    tables = set(inspect(database.reader).get_table_names())
    assert "game_changes" not in tables and "presence" in tables
    with database.writer.begin() as conn:
        triggers = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'")).scalars())
        # the count's triggers are gone; the ones left are 0015's, which move a group's revision
        assert triggers == {"group_game_inserted", "group_game_updated", "group_game_deleted"}
        conn.execute(text("UPDATE game SET revision = revision + 1 WHERE id = 'g1'"))
    with database.reader.connect() as conn:
        assert conn.execute(text("SELECT revision FROM game WHERE id = 'g1'")).scalar_one() == 1
    database.dispose()


def score_three_times(config: dict, address: str) -> list[int]:
    """Three writes from ``address`` to an app made with ``config``: their statuses."""
    app = create_app(config)
    client, body = app.test_client(), {"variant": "classique", "cards": ["8H"]}
    codes = [
        client.post("/api/v1/score", json=body, environ_base={"REMOTE_ADDR": address}).status_code for _ in range(3)
    ]
    app.extensions["database"].dispose()
    return codes


@pytest.mark.skipif(not redis_reachable() and os.environ.get("CI") != "true", reason="no Redis on 127.0.0.1:6379")
def test_two_app_servers_share_their_counters_in_redis(app_config):
    """One client's writes to two app servers (this process, then another) count once, in Redis."""
    address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"  # this run's own counts
    config = {**app_config, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "5 per minute",
              "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0"}  # fmt: skip
    codes = score_three_times(config, address)
    codes += in_another_process(score_three_times, config, address)[0]
    assert codes == [200] * 5 + [429]


def test_a_generated_secret_key_is_made_once_and_kept_private(tmp_path):
    from app import _secret_key

    first, second = _secret_key(tmp_path), _secret_key(tmp_path)
    assert first == second and len(first) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0

"""Sharing a game (issue 5), over HTTP: the read-only shared view and its conditional polling,
scorekeeper invites, export/import from the screens, the addresses in the QR codes, the list
of games and the players' pages, the run command's banner.

Points worked by hand from SPEC §2's tables:
classique (penalty, lowest total wins) — JK 50, 8 50, A 20, 2 20, J 20, K 10, Q 10, 3–7 and 9
face value, 10 is 10; les-huit (winner collects, table "standard") — 8 50, A 1, 2 2, K/Q/J 10,
others face value.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from contextlib import contextmanager

import pytest

from models.services.games import MancheEntry
from tests.e2e.test_sql_counts import StatementCounter

PLAYERS = ["Ana", "Bob", "Chloé"]


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # assertions on English texts; French is the default
    return client


def other_client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def own(client, game_id: str, token: str) -> None:
    """Give this browser the token (as creating the game in it would)."""
    with client.session_transaction() as session:
        session["tokens"] = {**session.get("tokens", {}), game_id: token}


def open_games(client, *game_ids: str) -> None:
    """This browser opens the games (as following their links would): they become its games."""
    for game_id in game_ids:
        assert client.get(f"/games/{game_id}").status_code == 200


def text(response) -> str:
    return response.get_data(as_text=True)


def page_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return text(response)


@contextmanager
def statements(app):
    """The SQL statements run meanwhile, reads and writes (every one through SQLAlchemy)."""
    with StatementCounter(app.extensions["database"]) as counter:
        yield counter.run


def started_game(games, **settings):
    """A classique game with one manche: Bob K♥ 8♠ = 60, Chloé 3♣ = 3, Ana went out."""
    game, token = games.create_game("classique", PLAYERS, first_dealer=0, **settings)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KH", "8S"], "Chloé": ["3C"]}))
    return games.get(game.id), token


def listed(page: str) -> list[str]:
    return re.findall(r'class="game-link" href="/games/([^"]+)"', page)


# --- the shared view -----------------------------------------------------------------------------


def test_shared_view_shows_the_game_read_only(client, games):
    game, _ = started_game(games)
    page = page_of(client, f"/s/{game.share_id}")
    assert "Classic" in page
    assert re.search(r'data-side="Bob">.*?<td class="num total">60</td>', page, re.S)  # the scoreboard
    assert 'class="history-table"' in page and 'class="progression"' in page  # history and chart
    assert 'href="/rules/classique"' in page
    assert "<form" not in page and 'method="post"' not in page
    assert "Enter round" not in page and "Edit round" not in page and "Delete round" not in page


def test_shared_view_never_holds_a_token_even_in_the_owners_browser(app, client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    _invite_id, invite_token = games.create_invite(game.id)
    for url in (
        f"/s/{game.share_id}",
        f"/s/{game.share_id}/live",
        f"/s/{game.share_id}/game.json",
        f"/api/v1/games/{game.id}",
    ):
        body = page_of(client, url)
        assert token not in body and invite_token not in body, url
        assert "edit_token" not in body
    shared = client.get(f"/s/{game.share_id}/game.json").get_json()
    assert shared["share_url"] == client.get(f"/api/v1/games/{game.id}").get_json()["share_url"]
    assert shared["totals"] == {"Ana": 0, "Bob": 60, "Chloé": 3}
    assert game.share_id != game.id and game.share_id != token


def test_the_share_id_opens_no_write(app, client, games):
    game, token = started_game(games)
    sid = game.share_id
    own(client, game.id, token)  # even a browser that holds the game's token
    form = {"winner": "0", "p1-typed": "5", "p2-typed": "5", "number": "2"}
    writes = [
        ("post", f"/s/{sid}", {}),
        ("post", f"/s/{sid}/live", {}),
        ("put", f"/s/{sid}", {}),
        ("delete", f"/s/{sid}", {}),
        ("post", f"/games/{sid}/manches", form),
        ("post", f"/games/{sid}/manches/1", form),
        ("post", f"/games/{sid}/manches/1/delete", {}),
        ("post", f"/games/{sid}/replay", {}),
        ("post", f"/games/{sid}/invites", {}),
        ("post", f"/games/{sid}/invites/x/revoke", {}),
        ("get", f"/join/{sid}/{sid}", {}),
    ]
    for method, url, data in writes:
        response = getattr(client, method)(url, data=data)
        assert response.status_code in (401, 403, 404, 405), (method, url, response.status_code)
    api = [
        ("post", f"/api/v1/games/{sid}/manches"),
        ("put", f"/api/v1/games/{sid}/manches/1"),
        ("delete", f"/api/v1/games/{sid}/manches/1"),
    ]
    body = {"winner": "Ana", "hands": {"Bob": ["2H"], "Chloé": ["4S"]}}
    for method, url in api:
        response = getattr(client, method)(url, json=body, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 404, (method, url)
    # The share id is not a token: as a bearer on the real game it is refused.
    anonymous = other_client(app)
    response = anonymous.post(f"/api/v1/games/{game.id}/manches", json=body, headers={"Authorization": f"Bearer {sid}"})
    assert response.status_code == 403
    with anonymous.session_transaction() as session:
        session["tokens"] = {game.id: sid}
    assert anonymous.post(f"/games/{game.id}/manches", data=form).status_code == 403
    assert games.get(game.id).revision == game.revision  # nothing was written


def test_unknown_share_ids_and_game_ids_are_not_shares(client, games):
    game, _ = started_game(games)
    for path in ("", "/live", "/qr.svg", "/qr.png", "/game.json"):
        assert client.get(f"/s/nothing-here{path}").status_code == 404
        assert client.get(f"/s/{game.id}{path}").status_code == 404  # the game id is not a share id
        assert client.get(f"/s/bad%20id!{path}").status_code == 404


def test_live_fragment_answers_304_until_a_manche_is_recorded(app, client, games):
    game, _ = started_game(games)
    url = f"/s/{game.share_id}/live"
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag == f'W/"r{game.revision}-en"'
    assert first.headers["Cache-Control"] == "no-cache"
    # fetched again when the game's stream says the scores changed (issue 24), not on a timer
    assert f'hx-get="/s/{game.share_id}/live" hx-trigger="sse:scores, refresh"' in text(first)

    with statements(app) as executed:
        again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag
    assert len(executed) == 1, executed  # the revision alone, before any view is built

    # Another language is another representation.
    french = other_client(app)
    french.set_cookie("lang", "fr")
    assert french.get(url, headers={"If-None-Match": etag}).status_code == 200

    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["JK"], "Chloé": ["9D"]}))  # Ana 50, Chloé 9
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert re.search(r'data-side="Ana">.*?<td class="num total">50</td>', text(changed), re.S)
    assert client.get(url, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_the_shared_view_listens_while_the_game_goes_on_and_stops_when_it_is_over(app, client, games):
    """Issue 24: no poll; the shared view holds its game's event stream (htmx-ext-sse) and fetches
    its live part when the scores change; a finished game neither listens nor fetches."""
    game, _ = games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0)
    page = page_of(client, f"/s/{game.share_id}")
    assert "every" not in page and "js/htmx-ext-sse.min.js" in page
    assert f'hx-ext="sse" sse-connect="/s/{game.share_id}/events?since={game.revision}" sse-close="end"' in page
    live = page_of(client, f"/s/{game.share_id}/live")
    assert f'hx-get="/s/{game.share_id}/live" hx-trigger="sse:scores, refresh"' in live
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["5C"]}))
    assert 'hx-trigger="sse:scores, refresh"' in page_of(client, f"/s/{game.share_id}/live")
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["6C"]}))  # the second and last manche
    for url in (f"/s/{game.share_id}/live", f"/s/{game.share_id}"):
        finished = page_of(client, url)
        assert "hx-trigger" not in finished and "hx-get" not in finished and "sse-connect" not in finished
        assert "Game over" in finished and "Won by Ana" in finished
        assert "Play again" not in finished


# --- QR codes and the addresses in them ----------------------------------------------------------


def share_section(page: str) -> str:
    return page[page.index('id="share"') : page.index("</details>", page.index('id="share"'))]


def test_lan_address_is_used_when_the_page_is_opened_on_localhost(app, games):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=["192.168.1.20"])
    game, _ = started_game(games)
    client = app.test_client()
    page = share_section(page_of(client, f"http://127.0.0.1:5000/games/{game.id}"))
    url = f"http://192.168.1.20:5000/s/{game.share_id}"
    assert f'href="{url}"' in page
    assert "Only this machine knows this address" not in page
    assert client.get(f"http://127.0.0.1:5000/api/v1/games/{game.id}").get_json()["share_url"] == url
    assert client.get(f"http://localhost:5000/api/v1/games/{game.id}").get_json()["share_qr_url"] == url + "/qr.svg"


def test_a_warning_when_nothing_but_localhost_is_known(app, games):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=[])
    game, _ = started_game(games)
    client = app.test_client()
    client.set_cookie("lang", "en", domain="127.0.0.1")
    page = share_section(page_of(client, f"http://127.0.0.1:5000/games/{game.id}"))
    assert f'href="http://127.0.0.1:5000/s/{game.share_id}"' in page
    assert "Only this machine knows this address" in page


def test_public_url_wins_over_every_address(app, games):
    app.config.update(PUBLIC_URL="https://carte.example.org", LAN_ADDRESSES=[])
    game, _ = started_game(games)
    client = app.test_client()
    page = share_section(page_of(client, f"http://127.0.0.1:5000/games/{game.id}"))
    assert f'href="https://carte.example.org/s/{game.share_id}"' in page
    assert "Only this machine knows this address" not in page
    api = client.get(f"http://192.168.1.50:8000/api/v1/games/{game.id}").get_json()
    assert api["share_url"] == f"https://carte.example.org/s/{game.share_id}"


def test_an_address_of_the_network_is_kept_as_it_came(app, games):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=["192.168.1.20"])
    game, _ = started_game(games)
    page = share_section(page_of(app.test_client(), f"http://192.168.1.50:8000/games/{game.id}"))
    assert f'href="http://192.168.1.50:8000/s/{game.share_id}"' in page
    assert "Only this machine knows this address" not in page


def test_the_game_page_shows_the_qr_big_enough_and_open_at_the_start(client, games):
    game, _ = games.create_game("classique", PLAYERS, first_dealer=0)
    page = page_of(client, f"/games/{game.id}")
    section = share_section(page)
    assert re.search(rf'<img src="/s/{game.share_id}/qr.svg" width="(\d+)" height="\1"', section)
    assert '<details class="share panel" id="share" open aria-labelledby="share-title">' in page  # no manche yet: open
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["5C"], "Chloé": ["5D"]}))
    assert '<details class="share panel" id="share" aria-labelledby="share-title">' in page_of(
        client, f"/games/{game.id}"
    )


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools not installed")
def test_qr_codes_decode_to_the_share_url(app, client, games, tmp_path):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=["192.168.1.20"])
    game, _ = started_game(games)
    expected = f"http://192.168.1.20/s/{game.share_id}"
    png = client.get(f"/s/{game.share_id}/qr.png")
    assert png.status_code == 200 and png.mimetype == "image/png"
    (tmp_path / "qr.png").write_bytes(png.data)
    decoded = subprocess.run(["zbarimg", "--nodbus", "-q", "--raw", str(tmp_path / "qr.png")], capture_output=True)
    assert decoded.stdout.decode().strip() == expected
    svg = client.get(f"/s/{game.share_id}/qr.svg")
    assert svg.mimetype == "image/svg+xml" and b'fill="white"' in svg.data and b"style=" not in svg.data


# --- scorekeeper invites -------------------------------------------------------------------------


def invite_url(response) -> str:
    return re.search(r'<a class="invite-url" href="([^"]+)"', text(response)).group(1)


def test_an_invite_gives_edit_rights_and_revoking_it_takes_them_back(app, client, games):
    app.config["LAN_ADDRESSES"] = ["192.168.1.20"]
    game, token = started_game(games)
    own(client, game.id, token)
    created = client.post(f"/games/{game.id}/invites")
    assert created.status_code == 201
    assert created.headers["Cache-Control"] == "no-store"
    url = invite_url(created)
    assert re.fullmatch(rf"http://192\.168\.1\.20/join/{game.id}/[A-Za-z0-9_-]{{32}}", url)
    invite_token = url.rsplit("/", 1)[1]
    assert 'src="data:image/svg+xml;base64,' in text(created)

    scorekeeper = other_client(app)
    assert scorekeeper.get(f"/games/{game.id}/manches/new").status_code == 401
    joined = scorekeeper.get(url.removeprefix("http://192.168.1.20"))
    assert (
        joined.status_code == 303 and joined.headers["Location"] == f"/games/{game.id}?keeper=1"
    )  # told it may record
    assert scorekeeper.get(f"/games/{game.id}/manches/new").status_code == 200
    assert "Enter round 2" in page_of(scorekeeper, f"/games/{game.id}")
    scorekeeper_form = {"winner": "1", "p0-typed": "7", "p2-typed": "4"}
    page = page_of(scorekeeper, f"/games/{game.id}/manches/new")
    scorekeeper_form["number"] = re.search(r'name="number" value="(\d+)"', page).group(1)
    scorekeeper_form["nonce"] = re.search(r'name="nonce" value="([^"]+)"', page).group(1)
    assert scorekeeper.post(f"/games/{game.id}/manches", data=scorekeeper_form).status_code == 303
    assert games.get(game.id).totals == {"Ana": 7, "Bob": 60, "Chloé": 7}

    # The scorekeeper records manches but manages no invite; a stranger neither.
    assert scorekeeper.post(f"/games/{game.id}/invites").status_code == 403
    assert other_client(app).post(f"/games/{game.id}/invites").status_code == 401
    assert "Invite a scorekeeper" not in page_of(scorekeeper, f"/games/{game.id}")

    # The token is shown once: never on the game page afterwards.
    owner_page = page_of(client, f"/games/{game.id}")
    assert invite_token not in owner_page
    # Each invite says when it was made and when it was last used (the scorekeeper's write).
    assert "Made on" in owner_page and "active" in owner_page
    assert owner_page.count("Last used on") == 1
    invite_id = re.search(rf"/games/{game.id}/invites/([A-Za-z0-9_-]+)/revoke", owner_page).group(1)
    revoked = client.post(f"/games/{game.id}/invites/{invite_id}/revoke")
    assert revoked.status_code == 303 and revoked.headers["Location"] == f"/games/{game.id}?share=1#share"
    assert "revoked" in page_of(client, f"/games/{game.id}")

    assert scorekeeper.get(f"/games/{game.id}/manches/new").status_code == 403
    assert "Enter round 3" not in page_of(scorekeeper, f"/games/{game.id}")
    # The revoked phone saving a manche it had entered lands on the game, read-only, its entry
    # kept on screen: nothing is saved, nothing typed is lost.
    late = {"winner": "0", "p1-typed": "12", "p2-n_K": "2", "number": "3", "nonce": "late"}
    landed = scorekeeper.post(f"/games/{game.id}/manches", data=late)
    assert landed.status_code == 403
    body = text(landed)
    assert "This invite has been revoked" in body and "data-revoked" in body
    assert "12" in body and body.count('title="King"') == 1 and "×2" in body
    assert 'action="/games/' not in body  # read-only: no form that writes
    assert games.get(game.id).totals == {"Ana": 7, "Bob": 60, "Chloé": 7}
    again = other_client(app).get(f"/join/{game.id}/{invite_token}")
    assert again.status_code == 403 and "revoked" in text(again)
    assert other_client(app).get(f"/join/{game.id}/not-a-token").status_code == 403
    assert other_client(app).get(f"/join/nothing/{invite_token}").status_code == 404


def test_the_owner_scanning_an_invite_stays_the_owner(client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    url = invite_url(client.post(f"/games/{game.id}/invites"))
    assert client.get("/" + url.split("/", 3)[3]).status_code == 303
    assert client.post(f"/games/{game.id}/invites").status_code == 201  # still the owner


def test_invite_by_htmx_swaps_the_invites_section_only(client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    fragment = client.post(f"/games/{game.id}/invites", headers={"HX-Request": "true"})
    assert fragment.status_code == 201
    body = text(fragment)
    assert body.lstrip().startswith('<section class="invites" id="invites"')
    assert "<html" not in body and "/revoke" in body
    full = client.post(f"/games/{game.id}/invites")
    assert "<html" in text(full) and "Back to the game" in text(full)


def test_revoking_an_unknown_invite_or_another_games_is_not_found(client, games):
    game, token = started_game(games)
    other, other_token = started_game(games)
    invite_id, _ = games.create_invite(other.id)
    own(client, game.id, token)
    assert client.post(f"/games/{game.id}/invites/nope/revoke").status_code == 404
    assert client.post(f"/games/{game.id}/invites/{invite_id}/revoke").status_code == 404
    assert client.post(f"/games/{other.id}/invites/{invite_id}/revoke").status_code == 401


# --- export and import ---------------------------------------------------------------------------


def import_file(client, content: bytes, filename: str = "game.json"):
    return client.post(
        "/games/import", data={"file": (io.BytesIO(content), filename)}, content_type="multipart/form-data"
    )


def as_played(manche) -> tuple:
    """A manche as played and shown, whatever its row's id in its database."""
    return manche.stored._replace(id=None), manche.winner, manche.hands, manche.points, manche.dealer


def same_game(a, b) -> None:
    assert a.id != b.id and a.share_id != b.share_id
    assert a.players == b.players and a.teams == b.teams
    assert a.settings() == b.settings()
    assert a.first_dealer == b.first_dealer
    assert [as_played(m) for m in a.manches] == [as_played(m) for m in b.manches]
    assert a.totals == b.totals and a.progression == b.progression
    assert a.status == b.status and a.standing == b.standing


def test_export_then_import_gives_the_same_game(app, client, games):
    game, _ = games.create_game("classique", PLAYERS, rounds=3, first_dealer=1, options=None)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KH", "8S"], "Chloé": ["3C"]}))  # Bob 60, Chloé 3
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["JK", "2D"]}, typed={"Chloé": 17}))  # Ana 70, Chloé 17
    games.record_manche(game.id, MancheEntry("Chloé", {"Ana": ["QS"], "Bob": []}, typed={}))  # Ana 10, Bob 0
    original = games.get(game.id)
    assert original.status == "finished" and original.totals == {"Ana": 80, "Bob": 60, "Chloé": 20}

    exported = client.get(f"/games/{game.id}/export.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert (
        "attachment" in exported.headers["Content-Disposition"] and ".json" in exported.headers["Content-Disposition"]
    )
    document = json.loads(exported.data)
    api = client.get(f"/api/v1/games/{game.id}/export").get_json()
    assert {k: v for k, v in document.items() if k != "exported_at"} == {
        k: v for k, v in api.items() if k != "exported_at"
    }

    imported = import_file(client, exported.data)
    assert imported.status_code == 303
    new_id = imported.headers["Location"].rsplit("/", 1)[1]
    same_game(original, games.get(new_id))
    page = page_of(client, f"/games/{new_id}")
    assert "Play again" in page  # the importer's browser holds the new game's token


def test_export_then_import_keeps_teams_blocked_manches_and_a_game_in_progress(client, games):
    game, _ = games.create_game("les-huit", ["Ana", "Bob", "Chloé", "Dan"], first_dealer=0)
    assert game.teams  # les-huit at four: two teams sitting opposite
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["8H"], "Dan": ["2C", "5D"]}))
    games.record_manche(
        game.id, MancheEntry(None, {"Ana": ["3S"], "Bob": ["4S"], "Chloé": ["KD"], "Dan": ["AC"]}, blocked=True)
    )
    original = games.get(game.id)
    assert original.status == "playing"
    imported = import_file(client, client.get(f"/games/{game.id}/export.json").data)
    new_id = imported.headers["Location"].rsplit("/", 1)[1]
    same_game(original, games.get(new_id))
    assert client.get(f"/games/{new_id}/manches/new").status_code == 200  # the importer may go on


def test_csv_export_is_a_score_sheet(client, games):
    game, _ = games.create_game("classique", ["Ana", "=Bob"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"=Bob": ["KH", "8S", "3C"]}))  # 10 + 50 + 3 = 63
    games.record_manche(game.id, MancheEntry("=Bob", {}, typed={"Ana": 12}))
    response = client.get(f"/games/{game.id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="carte-classique-')
    body = response.data.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body[1:])))
    assert rows == [
        [
            "Round",
            "Ana — cards",
            "Ana — hand",
            "'=Bob — cards",
            "'=Bob — hand",
            "Ana — points",
            "'=Bob — points",
        ],
        ["1", "", "", "KH 8S 3C", "63", "0", "63"],
        ["2", "", "12", "", "", "12", "0"],
        ["Total", "", "", "", "", "12", "63"],
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n not json at all", "This is not a Carte ! game file"),
        (b'{"format": "something-else/2", "game": {}}', "This is not a Carte ! game file"),
        (b"[1, 2, 3]", "This is not a Carte ! game file"),
        (b"Manche,Ana\n1,3\n", "This is not a Carte ! game file"),
        (b'{"format": "carte-game/1"}', "the game is missing"),
    ],
)
def test_a_foreign_file_gives_a_clear_error_and_creates_nothing(app, client, games, content, message):
    game, _ = started_game(games)
    open_games(client, game.id)
    before = listed(page_of(client, "/games"))
    response = import_file(client, content)
    assert response.status_code == 422
    page = text(response)
    assert message in page and 'role="alert"' in page
    assert listed(page_of(client, "/games")) == before


def test_a_damaged_file_gives_the_services_message_and_creates_nothing(app, client, games):
    game, _ = started_game(games)
    open_games(client, game.id)
    document = games.export_game(game.id)
    document["game"]["totals"]["Bob"] = 61
    response = import_file(client, json.dumps(document).encode())
    assert response.status_code == 422
    assert "The file is damaged: its totals do not match its rounds." in text(response)
    document = games.export_game(game.id)
    document["game"]["manches"][0]["hands"]["Bob"] = ["KH", "ZZ"]
    response = import_file(client, json.dumps(document).encode())
    assert response.status_code == 422
    assert re.search(r'<p class="error" id="file-error" role="alert">[^<]*ZZ', text(response))
    assert len(re.findall(r'class="game-link" href="/games/', page_of(client, "/games"))) == 1


def test_import_without_a_file_asks_for_one(client):
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose a file exported by Carte !" in text(response)
    form = page_of(client, "/games/import")
    assert 'enctype="multipart/form-data"' in form
    assert '<label for="file">' in form


def test_an_import_sent_from_another_site_is_refused(client, games):
    document = games.export_game(started_game(games)[0].id)
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "partie.json")},
        content_type="multipart/form-data",
        headers={"Origin": "http://autre.example"},
    )
    assert response.status_code == 403 and "another site: nothing was changed" in text(response)
    assert len(listed(page_of(client, "/games"))) == 0  # nothing imported


def test_the_owner_changes_the_link_and_the_old_one_opens_nothing(app, client, games):
    """« Change the link », for a link that went further than the table: at the old address the
    shared view, its parts, its QR codes and its stream answer 404; the game page shows the new one,
    which opens the game read-only. Only the owner may change it."""
    game, token = started_game(games)
    old, stranger = game.share_id, other_client(app)
    assert "Bob" in page_of(stranger, f"/s/{old}")
    assert stranger.post(f"/games/{game.id}/share/renew").status_code in (401, 403)
    own(client, game.id, token)
    assert f'action="/games/{game.id}/share/renew"' in page_of(client, f"/games/{game.id}")
    renewed = client.post(f"/games/{game.id}/share/renew")
    assert renewed.status_code == 303 and renewed.headers["Location"] == f"/games/{game.id}?share=1#share"
    new = games.get(game.id).share_id
    assert new != old
    for path in ("", "/rounds", "/live", "/game.json", "/qr.svg", "/qr.png", "/events"):
        assert stranger.get(f"/s/{old}{path}").status_code == 404, path
    owner_page = page_of(client, f"/games/{game.id}?share=1")
    assert f"/s/{new}" in owner_page and f"/s/{old}" not in owner_page
    assert re.search(r'data-side="Bob">.*?<td class="num total">60</td>', page_of(stranger, f"/s/{new}"), re.S)

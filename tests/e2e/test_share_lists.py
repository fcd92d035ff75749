"""Sharing, continued: the list of games and a player's page (whose games a phone sees), the
stored pages (issue 12, issue 29: the same bytes for every phone with the same rights, no cookie,
no token), the run command's banner.
"""

from __future__ import annotations

import gzip
import io
import re

import brotli
import pytest

from app import create_app
from models.services.games import MancheEntry
from tests.e2e.test_share import PLAYERS, listed, open_games, other_client, own, page_of, started_game, statements, text
from views import banner


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # assertions on English texts; French is the default
    return client


# --- the list of games ---------------------------------------------------------------------------


def test_games_in_progress_first_then_finished_newest_first(client, games):
    def game(players, finished):
        view, _ = games.create_game("classique", players, rounds=1, first_dealer=0)
        if finished:
            games.record_manche(view.id, MancheEntry(players[0], {p: ["5C"] for p in players[1:]}))
        return view.id

    old_done = game(["Ana", "Bob"], True)
    old_playing = game(["Bob", "Chloé"], False)
    new_done = game(["Chloé", "Ana"], True)
    new_playing = game(["Ana", "Dan"], False)
    open_games(client, old_done, old_playing, new_done, new_playing)
    page = page_of(client, "/games")
    assert listed(page) == [new_playing, old_playing, new_done, old_done]
    assert page.count("in progress") == 2 and "Won by Chloé" in page and "Won by Ana" in page
    assert listed(page_of(client, "/games?player=ana")) == [new_playing, new_done, old_done]
    assert listed(page_of(client, "/games?player=%20Dan%20")) == [new_playing]
    nobody = page_of(client, "/games?player=Zoé")
    assert listed(nobody) == [] and "No game with Zoé yet." in nobody


def test_games_list_costs_the_same_queries_for_two_games_or_twelve(app, client, games):
    open_games(client, *(started_game(games)[0].id for _ in range(2)))
    with statements(app) as few:
        client.get("/games")
    open_games(client, *(started_game(games)[0].id for _ in range(10)))
    with statements(app) as many:
        page = page_of(client, "/games")
    assert len(listed(page)) == 12
    assert len(few) == len(many) <= 8


def test_names_are_escaped_in_the_list_and_the_player_page(client, games):
    game, _ = games.create_game("classique", ["<b>Ana</b>", "Bob"], first_dealer=0)
    open_games(client, game.id)
    page = page_of(client, "/games")
    assert "<b>Ana</b>" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page
    player = page_of(client, "/players/%3Cb%3EAna%3C%2Fb%3E")
    assert "<b>Ana</b>" not in player and "&lt;b&gt;Ana&lt;/b&gt;" in player


# --- a player's page -----------------------------------------------------------------------------


def ana_games(games):
    """Ana's three games (worked by hand):

    A classique, 2 manches (finished): Bob out, Ana 8♠ K♥ 3♣ = 50 + 10 + 3 = 63; Ana out → 0.
      Totals Ana 63, Bob 50 (Bob's JK) → Bob wins (lowest).
    B les-huit, 1 manche (finished, winner collects): Ana out; Bob 8♥ = 50, Chloé 2♣ 5♦ = 7 → Ana 57, wins.
    C classique, in progress: Chloé out, Ana 8♦ 3♥ = 53; Chloé out, Ana typed 12.
    Ana's manches: 63, 0, 57, 53, 12 → 5 manches, 185 points, average 37.
    Best: 57 (points won, les-huit); worst: 63 penalty points (A, manche 1).
    Cards left: 8 ×2 = 100, K ×1 = 10, 3 ×2 = 6 (the typed 12 tells no card).
    """
    a, _ = games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0)
    games.record_manche(a.id, MancheEntry("Bob", {"Ana": ["8S", "KH", "3C"]}))
    games.record_manche(a.id, MancheEntry("Ana", {"Bob": ["JK"]}))
    b, _ = games.create_game("les-huit", ["Ana", "Bob", "Chloé"], rounds=1, first_dealer=0)
    games.record_manche(b.id, MancheEntry("Ana", {"Bob": ["8H"], "Chloé": ["2C", "5D"]}))
    c, _ = games.create_game("classique", ["Chloé", "Ana"], first_dealer=0)
    games.record_manche(c.id, MancheEntry("Chloé", {"Ana": ["8D", "3H"]}))
    games.record_manche(c.id, MancheEntry("Chloé", {}, typed={"Ana": 12}))
    return a, b, c


def test_player_page_numbers(app, client, games):
    a, b, c = ana_games(games)
    open_games(client, a.id, b.id, c.id)
    assert games.get(a.id).standing.winners == ["Bob"] and games.get(b.id).standing.winners == ["Ana"]
    page = page_of(client, "/players/Ana")
    assert "<h1>Ana</h1>" in page
    assert "<dt>Games played</dt><dd>3</dd>" in page
    assert "<dt>Games won</dt><dd>1 / 2 finished</dd>" in page
    assert "<dt>Rounds played</dt><dd>5</dd>" in page
    assert "<dt>Average points per round</dt><dd>37.0</dd>" in page
    best, worst = re.findall(r"<li><strong>(?:Best|Worst)</strong>: (\d+) pts —\s*<a href=\"/games/([^\"]+)\"", page)
    assert best == ("57", b.id) and worst == ("63", a.id)
    costs = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', page
    )
    assert costs == [("8", "2", "100"), ("King", "1", "10"), ("3", "2", "6")]
    assert listed(page) == [c.id, b.id, a.id]
    assert page.count('<rect class="bar') == 5 + 3  # a column per manche, a bar per rank
    assert 'class="bar best"' in page and 'class="bar worst"' in page
    assert "style=" not in page


def test_player_page_finds_the_name_whatever_its_case_and_says_when_nobody(client, games):
    open_games(client, *(g.id for g in ana_games(games)))
    assert "<dt>Games played</dt><dd>3</dd>" in page_of(client, "/players/ana")
    missing = client.get("/players/Zo%C3%A9")
    assert missing.status_code == 404 and "Nobody called “Zoé” has played here yet." in text(missing)


def test_player_page_costs_the_same_queries_whatever_the_games(app, client, games):
    open_games(client, *(g.id for g in ana_games(games)))
    with statements(app) as few:
        client.get("/players/Ana")
    open_games(client, *(g.id for g in ana_games(games) + ana_games(games)))
    with statements(app) as many:
        page = page_of(client, "/players/Ana")
    assert "<dt>Games played</dt><dd>9</dd>" in page
    assert len(few) == len(many) <= 6  # the state of the reader's games, then the page built
    with statements(app) as again:
        assert "<dt>Games played</dt><dd>9</dd>" in page_of(client, "/players/Ana")
    statement = " ".join(again[0].split()) if len(again) == 1 else ""  # the scope's state, one Core select
    assert (
        statement.startswith("SELECT count(*) AS games, coalesce(sum(game.revision)")
        and "WHERE game.id IN" in statement
    )


def test_no_page_of_this_issue_has_an_inline_style_or_script(app, client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    pages = [
        f"/games/{game.id}",
        f"/s/{game.share_id}",
        f"/s/{game.share_id}/live",
        "/games",
        "/players/Bob",
        "/games/import",
    ]
    created = text(client.post(f"/games/{game.id}/invites"))
    for body in [page_of(client, url) for url in pages] + [created]:
        assert "style=" not in body
        assert not re.search(r"<script(?![^>]*\bsrc=)", body)
        assert not re.search(r"\son[a-z]+=", body)


def test_nav_links_to_the_games(client):
    assert '<a href="/games">Games</a>' in page_of(client, "/")


# --- the page cache (issue 12) -------------------------------------------------------------------


def big_game(games, manches: int = 30):
    game, token = games.create_game("classique", PLAYERS, rounds=1000, first_dealer=0)
    for _ in range(manches):
        games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KH", "8S"], "Chloé": ["3C"]}))
    return games.get(game.id), token


def test_made_up_query_strings_and_languages_do_not_grow_the_page_cache(app, client, games):
    game, token = big_game(games)
    for n in range(300):
        response = client.get(f"/games/{game.id}?x={n}&saved={n}", headers={"Accept-Language": f"x{n}, en;q=0.1"})
        assert response.status_code == 200
    cache = app.extensions["page_cache"]
    assert len(cache) == 1  # one page: a read-only viewer, in English (the lang cookie)
    for n in range(50):
        client.get(f"/s/{game.share_id}?v={n}")
    assert len(cache) == 2  # and the shared view
    owner = other_client(app)
    own(owner, game.id, token)
    for n in range(100):  # the notices after a write: only real manche numbers make a page of their own
        owner.get(f"/games/{game.id}?saved={n + 29}&junk={n}")
    assert len(cache) == 2 + 3  # without notice, "Round 29 recorded.", "Round 30 recorded."
    assert "Round 30 recorded." in text(owner.get(f"/games/{game.id}?saved=30"))
    assert "recorded" not in text(client.get(f"/games/{game.id}?saved=30"))  # a notice is for the writer
    assert cache.bytes == sum(page.size for page, _ in cache.entries.values())


def test_the_page_cache_never_exceeds_its_byte_bound(app_config):
    app = create_app({**app_config, "PAGE_CACHE_BYTES": 40_000})
    try:
        games = app.extensions["games"]
        client = other_client(app)
        cache_sizes, page_sizes = [], []
        for _ in range(12):
            game, token = big_game(games, manches=3)
            own(client, game.id, token)  # an editable page, kept compressed like a read-only one
            assert client.get(f"/games/{game.id}").status_code == 200
            assert other_client(app).get(f"/s/{game.share_id}").status_code == 200  # read-only, compressed
            cache = app.extensions["page_cache"]
            cache_sizes.append(cache.bytes)
            page_sizes += [page.size for page, _ in cache.entries.values()]
            assert cache.bytes == sum(page.size for page, _ in cache.entries.values()) <= 40_000
        assert max(cache_sizes) > 40_000 - max(page_sizes)  # it filled up, then let the oldest pages go
        huge, _ = big_game(games, manches=25)
        page = client.get(f"/games/{huge.id}")
        assert page.status_code == 200 and len(page.data) > 40_000  # served, too large to keep
        assert app.extensions["page_cache"].bytes <= 40_000
    finally:
        app.extensions["database"].dispose()


def test_a_cached_page_sets_no_cookie_and_holds_nothing_of_one_phone(app, client, games):
    game, token = big_game(games, manches=2)
    for url in (f"/games/{game.id}", f"/s/{game.share_id}"):
        client.get(url)  # the first visit notes the game in the session
        again = client.get(url)
        assert again.status_code == 200
        assert "Set-Cookie" not in again.headers, url
        assert "csrf" not in text(again).lower(), url
    pages = []
    for _ in range(2):  # two phones holding the game's edit token: the same stored bytes, no token in them
        owner = other_client(app)
        own(owner, game.id, token)
        answer = owner.get(f"/games/{game.id}", headers={"Accept-Encoding": "br"})
        assert answer.headers["Content-Encoding"] == "br" and "Set-Cookie" not in answer.headers
        pages.append(answer.data)
        html = brotli.decompress(answer.data).decode()
        assert "csrf" not in html.lower() and token not in html and "/manches/new" in html
    assert pages[0] == pages[1] and len(app.extensions["page_cache"]) == 3


def test_a_phone_holding_the_page_gets_304(app, client, games):
    game, token = big_game(games, manches=2)
    own(client, game.id, token)
    for url in (f"/games/{game.id}", f"/s/{game.share_id}"):
        first = client.get(url, headers={"Accept-Encoding": "br"})
        assert first.headers["Cache-Control"] == "private, no-cache" and "Cookie" in first.headers["Vary"]
        etag = first.headers["ETag"]
        again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KS"], "Chloé": ["3C"]}))
    changed = client.get(f"/games/{game.id}", headers={"Accept-Encoding": "br", "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag  # a new revision: a new page


def test_a_phone_gets_the_same_stored_compressed_bytes_twice(app, client, games):
    game, _ = big_game(games)
    for url in (f"/games/{game.id}", f"/s/{game.share_id}"):
        first = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        second = client.get(url + "?utm_source=qr", headers={"Accept-Encoding": "br"})
        for response in (first, second):
            assert response.headers["Content-Encoding"] == "br"
            assert "Accept-Encoding" in response.headers["Vary"]
        assert first.data == second.data  # the stored bytes, compressed once
        html = brotli.decompress(first.data).decode()
        assert html.startswith("<!doctype html>") and "Bob" in html  # compressed once, not twice
        gzipped = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert gzipped.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(gzipped.data).decode() == html
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in plain.headers and text(plain) == html


# --- the run command's banner --------------------------------------------------------------------


def test_banner_prints_the_lan_url_and_its_qr_code(app):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=["192.168.1.20"])
    out = io.StringIO()
    printed = banner.print_banner(app, banner.RunSettings("0.0.0.0", 5123, False), stream=out)
    assert out.getvalue().strip() == printed.strip()
    assert "Carte ! — open http://192.168.1.20:5123 on the phones at the table" in printed
    assert "█" in printed  # the QR code, in text blocks
    # plain HTTP from another machine: no service worker there, and the banner says what works
    assert "the page open on a phone keeps working" in printed and "needs HTTPS" in printed


def test_banner_says_nothing_of_offline_over_https_or_on_this_machine(app):
    for settings in (banner.RunSettings("192.168.1.9", 8080, True), banner.RunSettings("127.0.0.1", 5000, False)):
        out = io.StringIO()
        assert "plain-HTTP" not in banner.print_banner(app, settings, stream=out)


def test_banner_url_choice(app):
    app.config.update(PUBLIC_URL=None, LAN_ADDRESSES=[])
    assert banner.table_url(app, banner.RunSettings("0.0.0.0", 5000, False)) == (
        "http://127.0.0.1:5000",
        "no network address found: only this machine can open it",
    )
    url, warning = banner.table_url(app, banner.RunSettings("127.0.0.1", 5000, False))
    assert url == "http://127.0.0.1:5000" and "--host 0.0.0.0" in warning
    assert banner.table_url(app, banner.RunSettings("192.168.1.9", 8080, True)) == ("https://192.168.1.9:8080", None)
    app.config["PUBLIC_URL"] = "https://carte.example.org"
    assert banner.table_url(app, banner.RunSettings("0.0.0.0", 5000, False)) == ("https://carte.example.org", None)


def test_banner_stays_quiet_outside_flask_run(app):
    out = io.StringIO()
    assert banner.run_settings() is None
    assert banner.print_banner(app, stream=out) is None and out.getvalue() == ""

"""The web pages of a game, through plain form posts (no JavaScript), after the first manches: edits,
deletes, who may write, the end of a game and "play again", teams, the chart and the lists.

Expected totals are computed by hand from SPEC §2's tables:
classique — JK 50, 8 50, A 20, 2 20, J 20, K 10, Q 10, 3–7 and 9 face value, 10 is 10;
standard (les-huit) — JK 50, 8 50, A 1, 2 2, K/Q/J 10, others face value.
"""

from __future__ import annotations

import html
import re

import pytest

from models.services.games import MancheEntry
from tests.e2e.test_web_games import game_page, new_game, post_manche, totals_shown


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # assertions on English texts; French is the default
    return client


# --- edits, deletes, rights, the end of a game, the pages ----------------------------------------


def test_edit_a_manche_prefilled_then_recomputed(client, games):
    game_id = new_game(client)
    post_manche(client, game_id, {"winner": "0", "p1-n_8": "1", "p1-n_K": "2", "p2-typed": "17"})
    post_manche(client, game_id, {"winner": "1", "p0-n_A": "1", "p2-n_A": "1"})
    form = client.get(f"/games/{game_id}/manches/1/edit")
    page = form.get_data(as_text=True)
    assert form.status_code == 200
    assert re.search(r'name="p1-n_8" value="1"', page)
    assert re.search(r'name="p1-n_K" value="2"', page)
    assert re.search(r'id="p2-typed" name="p2-typed"[^>]*value="17"', page)
    assert re.search(r'id="winner-0" name="winner" value="0"[^>]*checked', page)
    assert 'name="nonce"' not in page

    # Manche 1 again: Chloé went out; Ana Q = 10, Bob 8 K K = 70
    response = client.post(
        f"/games/{game_id}/manches/1", data={"winner": "2", "p0-n_Q": "1", "p1-n_8": "1", "p1-n_K": "2"}
    )
    assert response.status_code == 303
    page = game_page(client, game_id, "?edited=1")
    assert "Round 1 updated." in page
    # manche 2 unchanged: Ana 20, Chloé 20
    assert totals_shown(page) == {"Ana": 30, "Bob": 70, "Chloé": 20}

    response = client.post(f"/games/{game_id}/manches/1", data={"winner": "2", "p0-n_Q": "1"})
    assert response.status_code == 422
    assert 'id="err-hand-1"' in response.get_data(as_text=True)
    assert games.get(game_id).totals == {"Ana": 30, "Bob": 70, "Chloé": 20}
    assert client.get(f"/games/{game_id}/manches/9/edit").status_code == 404


def test_an_edit_that_ends_the_game_earlier_is_refused_with_the_rounds_named(client, games):
    """Issue 16. Target 50 (000: « La partie s'arrête quand un joueur atteint 500 points (ou
    dépasse) », here 50): Ana out twice, Bob 3 then 9 → 12. Manche 1 edited to Bob 8 + 2 + 3 =
    50 + 20 + 3 = 73 would end the game at manche 1, before manche 2: refused, nothing changed."""
    game_id = new_game(client, players=("Ana", "Bob"), target="50")
    post_manche(client, game_id, {"winner": "0", "p1-n_3": "1"})
    post_manche(client, game_id, {"winner": "0", "p1-n_9": "1"})
    response = client.post(
        f"/games/{game_id}/manches/1", data={"winner": "0", "p1-n_8": "1", "p1-n_2": "1", "p1-n_3": "1"}
    )
    assert response.status_code == 409
    page = html.unescape(response.get_data(as_text=True))
    assert "the game ends after round 1" in page and "come after the end: 2." in page
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 12}
    assert games.get(game_id).status == "playing"


def test_delete_only_the_last_manche(client, games):
    game_id = new_game(client)
    post_manche(client, game_id, {"winner": "0", "p1-n_3": "1", "p2-n_3": "1"})
    post_manche(client, game_id, {"winner": "0", "p1-n_4": "1", "p2-n_4": "1"})
    page = game_page(client, game_id)
    assert f'action="/games/{game_id}/manches/2/delete"' in page
    assert f'action="/games/{game_id}/manches/1/delete"' not in page
    assert client.post(f"/games/{game_id}/manches/1/delete", data={"confirm": "1"}).status_code == 409
    assert client.post(f"/games/{game_id}/manches/2/delete").status_code == 422  # not confirmed: kept
    assert len(games.get(game_id).manches) == 2
    response = client.post(f"/games/{game_id}/manches/2/delete", data={"confirm": "1"})
    assert response.status_code == 303
    assert "Round 2 deleted." in game_page(client, game_id, "?deleted=2")
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 3, "Chloé": 3}


def test_another_browser_sees_the_game_read_only(app, client, games):
    game_id = new_game(client)
    post_manche(client, game_id, {"winner": "0", "p1-n_3": "1", "p2-n_3": "1"})
    other = app.test_client()
    other.set_cookie("lang", "en")
    page = game_page(other, game_id, "?saved=1")
    assert totals_shown(page) == {"Ana": 0, "Bob": 3, "Chloé": 3}
    assert "/manches/new" not in page and "/delete" not in page and "/edit" not in page
    assert "<form" not in page.split('id="main"')[1]  # no write button at all
    assert other.get(f"/games/{game_id}/manches/new").status_code == 401
    assert other.post(f"/games/{game_id}/manches", data={"winner": "0", "p1-n_3": "1"}).status_code == 401
    assert other.post(f"/games/{game_id}/manches/1/delete", data={"confirm": "1"}).status_code == 401
    assert other.post(f"/games/{game_id}/replay").status_code == 401
    with other.session_transaction() as session:
        session["tokens"] = {game_id: "not-the-token"}
    assert other.post(f"/games/{game_id}/manches/1/delete").status_code == 403
    assert len(games.get(game_id).manches) == 1
    assert client.get("/games/does-not-exist").status_code == 404


def test_a_finished_game_shows_the_final_ranking_and_can_be_played_again(client, games):
    game_id = new_game(client, target="100")
    # Ana goes out; Bob 8 8 = 100 reaches the target; Chloé 3
    post_manche(client, game_id, {"winner": "0", "p1-n_8": "2", "p2-n_3": "1"})
    page = game_page(client, game_id)
    assert "Game over" in page and "Final ranking" in page
    assert "Won by Ana" in page
    assert totals_shown(page) == {"Ana": 0, "Chloé": 3, "Bob": 100}
    assert "/manches/new" not in page
    assert client.get(f"/games/{game_id}/manches/new").status_code == 409
    assert post_manche_raw(client, game_id).status_code == 409

    response = client.post(f"/games/{game_id}/replay")
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert new_id != game_id
    old, new = games.get(game_id), games.get(new_id)
    assert new.players == old.players and new.ruleset.target == 100 and new.manches == []
    assert new.first_dealer == 1  # Bob would have dealt next
    assert "Bob deals, Chloé starts." in game_page(client, new_id)


def post_manche_raw(client, game_id):
    return client.post(f"/games/{game_id}/manches", data={"winner": "0", "p1-n_3": "1", "p2-n_3": "1"})


def test_editing_a_finished_game_can_reopen_it(client, games):
    game_id = new_game(client, target="100")
    post_manche(client, game_id, {"winner": "0", "p1-n_8": "2", "p2-n_3": "1"})
    client.post(f"/games/{game_id}/manches/1", data={"winner": "0", "p1-n_8": "1", "p2-n_3": "1"})
    page = game_page(client, game_id)
    assert "Game over" not in page
    assert f'href="/games/{game_id}/manches/new"' in page


def test_les_huit_at_four_plays_in_teams(client, games):
    game_id = new_game(client, variant="les-huit", players=("Ana", "Bob", "Chloé", "Dan"), **{"opt-partners": "on"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana & Chloé": 0, "Bob & Dan": 0}
    assert "Ana &amp; Chloé" in page
    assert "Deal 5 cards each" in page
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert 'id="winner-blocked" name="winner" value="blocked"' in form
    # Ana goes out; her team scores Bob 8 K (50+10) and Dan A (1) = 61; Chloé, her partner, is left out
    post_manche(client, game_id, {"winner": "0", "p1-n_8": "1", "p1-n_K": "1", "p3-n_A": "1"})
    # blocked: Ana 2 + Chloé 3 = 5 against Bob 4 + Dan 10 = 14: Ana & Chloé score 14 − 5 = 9
    post_manche(client, game_id, {"winner": "blocked", "p0-n_2": "1", "p1-n_4": "1", "p2-n_3": "1", "p3-n_10": "1"})
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Ana & Chloé": 70, "Bob & Dan": 0}
    assert "Blocked: nobody went out." in page
    assert games.get(game_id).manches[1].blocked


def test_les_huit_without_partners(client, games):
    game_id = new_game(client, variant="les-huit", players=("Ana", "Bob", "Chloé", "Dan"))
    assert games.get(game_id).teams is None  # the checkbox left unticked: each for themselves
    assert totals_shown(game_page(client, game_id)) == {"Ana": 0, "Bob": 0, "Chloé": 0, "Dan": 0}


def test_the_progression_chart_has_a_line_per_side(client):
    game_id = new_game(client, players=("Ana", "Bob"), target="100")
    assert "<svg" not in game_page(client, game_id)
    post_manche(client, game_id, {"winner": "0", "p1-n_K": "5"})
    post_manche(client, game_id, {"winner": "1", "p0-n_5": "1"})
    page = game_page(client, game_id)
    lines = re.findall(r'<polyline class="series (s\d)" points="([^"]+)"', page)
    assert [css for css, _ in lines] == ["s0", "s1"]
    assert all(len(points.split()) == 3 for _, points in lines)  # 0, then after each manche
    assert 'class="target-line"' in page


def test_pages_link_the_manifest_and_keep_the_screen_awake(client):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/games/new"' in home
    assert 'rel="manifest" href="/static/manifest.webmanifest?v=' in home
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.status_code == 200
    data = manifest.get_json(force=True)
    assert data["name"] == "Carte !" and data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    game_id = new_game(client)
    assert "<body" in (page := game_page(client, game_id)) and re.search(r"<body[^>]*data-wake-lock", page)
    assert "data-wake-lock" not in home


def test_manche_entry_uses_the_service(client, games):
    """The form and the service agree: a manche recorded through the service shows in the page."""
    game_id = new_game(client)
    games.record_manche(game_id, MancheEntry("Bob", {"Ana": ["QH", "JS"], "Chloé": ["7D"]}))
    page = game_page(client, game_id)
    assert totals_shown(page) == {"Bob": 0, "Chloé": 7, "Ana": 30}
    edit = client.get(f"/games/{game_id}/manches/1/edit").get_data(as_text=True)
    assert re.search(r'name="p0-n_Q" value="1"', edit)  # a suited card goes to its rank's key


def test_names_are_escaped_everywhere(client):
    game_id = new_game(client, players=("<b>Ana</b>", "Bob"))
    post_manche(client, game_id, {"winner": "1", "p0-n_3": "1"})
    page = game_page(client, game_id, "?saved=1")
    assert "<b>Ana</b>" not in page
    assert "&lt;b&gt;Ana&lt;/b&gt;" in page
    form = client.get(f"/games/{game_id}/manches/new").get_data(as_text=True)
    assert "<b>Ana</b>" not in form


def test_htmx_swaps_only_the_settings_when_the_variant_changes(client):
    response = client.post(
        "/games/new",
        data={"variant": "les-huit", "shown_variant": "classique", "players": ["Ana", "Bob"]},
        headers={"HX-Request": "true"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<div id="game-settings"' in page and "<html" not in page
    assert 'id="chosen-variant" class="chosen-variant" hx-swap-oob="true">Les huit<' in page
    assert 'value="Ana"' in page and 'name="opt-partners"' in page


def resume_links(page: str) -> list[str]:
    """The game ids the home page offers to resume, in the order shown."""
    return re.findall(r'<a class="button resume-link[^"]*" href="/games/([^"]+)"', page)


def test_the_home_page_resumes_the_games_this_browser_plays(app, client, games):
    """Games in progress this browser holds rights to, the newest first; not a finished game, not
    a game only looked at (a share link), nothing for another browser."""
    assert resume_links(client.get("/").get_data(as_text=True)) == []
    first = new_game(client, players=("Ana", "Bob"), target="50")
    second = new_game(client, players=("Zoé", "Yann", "Xavier"))
    over = new_game(client, players=("Ana", "Bob"), target="20")
    post_manche(client, over, {"winner": "0", "p1-n_K": "2"})  # Bob K K = 20: the target, game over
    post_manche(client, first, {"winner": "1", "p0-n_4": "1"})
    elsewhere, _ = games.create_game("classique", ["Paul", "Jacques"])
    client.get(f"/s/{games.get(elsewhere.id).share_id}")  # opened here, not played here
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert resume_links(page) == [second, first]
    assert "Games in progress" in page and "Zoé, Yann, Xavier · round 1" in page and "Ana, Bob · round 2" in page
    assert response.headers["Cache-Control"] == "private, no-store"
    assert resume_links(app.test_client().get("/").get_data(as_text=True)) == []


def test_the_chart_has_round_gridlines_and_labels_that_never_collide(app, games):
    """Gridlines at round values up to the next round value over the highest total or target:
    target 500, Bob at 553 → 0, 200, 400, 600; target 100, highest 75 → 0, 20 … 100. Under the
    axis, from 1 to 30 manches, labels at least 18 chart units apart and the last manche shown."""
    from views import present

    game, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {}, typed={"Bob": 553}))
    with app.test_request_context():
        chart = present.progression_chart(games.get(game.id))
    assert [label for _, label in chart.y_ticks] == ["0", "200", "400", "600"]
    assert chart.y_ticks[0][1] == "0" and chart.y_ticks[0][0] == chart.bottom and chart.y_ticks[-1][0] == chart.top

    small, _ = games.create_game("classique", ["Ana", "Bob"], first_dealer=0, target=100)
    for _ in range(30):
        games.record_manche(small.id, MancheEntry("Ana", {}, typed={"Bob": 2}))
    with app.test_request_context():
        chart = present.progression_chart(games.get(small.id))
    assert [label for _, label in chart.y_ticks] == ["0", "20", "40", "60", "80", "100"]
    assert chart.x_ticks[-1][1] == "30"

    for count in range(1, 31):
        unit = (320 - 34 - 10) / count
        ticks = present.manche_ticks(count, unit)
        assert ticks[0] == 0 and ticks[-1] == count
        assert all((b - a) * unit >= present.LABEL_SPACING for a, b in zip(ticks, ticks[1:], strict=False)), count


def test_the_games_list_names_each_player_once(client, games):
    """A game played alone: each player once, with their total, linked to their page; in teams:
    each team with its total, then each player once."""
    solo = new_game(client, players=("Ana", "Bob"))
    post_manche(client, solo, {"winner": "0", "p1-n_K": "1"})  # Bob K = 10
    teams = new_game(client, variant="les-huit", players=("Zoé", "Yann", "Xavier", "Wes"), **{"opt-partners": "on"})
    page = client.get("/games").get_data(as_text=True)
    chunks = page.split('<li class="game-item')[1:]
    items = {re.search(r'href="/games/([^"]+)"', chunk).group(1): chunk for chunk in chunks}
    assert set(items) == {solo, teams}
    assert items[solo].count(">Ana<") == 1 and items[solo].count(">Bob<") == 1
    assert re.search(r'<a href="/players/Bob">Bob</a> <span class="num">10</span>', items[solo])
    assert items[teams].count("Zoé") == 2  # the team "Zoé & Xavier", then Zoé herself
    assert items[teams].count(">Zoé<") == 1 and re.search(r"Zoé &amp; Xavier</span> <span", items[teams])


def test_each_invite_says_when_it_was_made(client, games):
    game_id = new_game(client)
    client.post(f"/games/{game_id}/invites")
    client.post(f"/games/{game_id}/invites")
    page = game_page(client, game_id, "?share=1")
    made = re.findall(r'<span>Made on <time datetime="([0-9T:-]+Z)" data-local>([^<]+) UTC</time>', page)
    invites = games.invites(game_id)
    assert [iso for iso, _ in made] == [invite.created_at.strftime("%Y-%m-%dT%H:%M:%SZ") for invite in invites]
    assert page.count("never used") == 2  # told apart by their dates, not "Invite 1 … 2"
    assert all(str(invite.created_at.year)[-2:] in shown for invite, (_, shown) in zip(invites, made, strict=True))

"""Pages whose cost does not grow with the history (issue 17): the game page lists its last 20
manches and links to a paged history; the list of games is paged in SQL; a player's page lists
their last 20 games and adds up per-game summaries kept per revision; reads cost the rate
limiter nothing."""

from __future__ import annotations

import re

import pytest

from app import create_app
from models.services.games import MancheEntry

# Classique (SPEC §2, the penalty table): a 3 counts 3 points, a King 10, a 2 is a special card
# worth 20. Ana goes out; Bob keeps 3C (3 points), Chloé KD 2S (10 + 20 = 30).
MANCHE = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]})


def numbers(page: str) -> list[int]:
    """The numbers of the rounds listed (a writer's row header is the round's edit link)."""
    row = r'<tr class="manche-row">\s*<th scope="row">(?:\s*<span class="row-tools">\s*<a [^>]*>)?(\d+)'
    return [int(n) for n in re.findall(row, page)]


def text(client, url: str, status: int = 200) -> str:
    response = client.get(url, headers={"Accept-Encoding": "identity", "Accept-Language": "en"})
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def own(client, *games_and_tokens) -> None:
    with client.session_transaction() as session:
        session["tokens"] = [[game_id, token] for game_id, token in games_and_tokens]


def long_game(games, manches: int):
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    for _ in range(manches):
        games.record_manche(game.id, MANCHE)
    return game, token


def test_the_game_page_lists_the_last_20_rounds_and_links_to_the_earlier_ones(client, games):
    game, token = long_game(games, 45)
    own(client, (game.id, token))
    page = text(client, f"/games/{game.id}")
    assert numbers(page) == list(range(26, 46))
    assert f'href="/games/{game.id}/rounds?page=2">See the 25 earlier rounds</a>' in page
    assert page.count("data-delete-row") == 1 and 'aria-label="Delete round 45"' in page  # only the last one
    second = text(client, f"/games/{game.id}/rounds?page=2")
    assert numbers(second) == list(range(6, 26))
    assert "Delete round" not in second and "Edit round 6" in second  # every round stays editable
    assert numbers(text(client, f"/games/{game.id}/rounds?page=3")) == [1, 2, 3, 4, 5]
    for bad in ("4", "0", "x", "²"):
        text(client, f"/games/{game.id}/rounds?page={bad}", status=404)
    # the totals are the whole game's on every page: 45 × 3 and 45 × 30
    assert ">135</td>" in second and ">1350</td>" in second


def test_the_shared_view_pages_its_history_without_naming_the_game(client, games):
    game, _ = long_game(games, 21)
    shared = text(client, f"/s/{game.share_id}")
    assert numbers(shared) == list(range(2, 22))
    assert f'href="/s/{game.share_id}/rounds?page=2">See the 1 earlier round</a>' in shared
    older = text(client, f"/s/{game.share_id}/rounds?page=2")
    assert numbers(older) == [1] and game.id not in older and "csrf" not in older


def test_the_list_of_games_is_paged_with_plain_links(client, games):
    made = [games.create_game("classique", ["Ana", "Bob"], rounds=3, first_dealer=0) for _ in range(45)]
    own(client, *[(g.id, t) for g, t in made[-20:]])
    with client.session_transaction() as session:
        session["opened"] = [g.id for g, _ in made[:-20]]
    listed, url = [], "/games"
    while url:
        page = text(client, url)
        listed += re.findall(r'class="game-link" href="/games/([^"]+)"', page)
        following = re.search(r'rel="next" href="([^"]+)"', page)
        url = following and following.group(1).replace("&amp;", "&")
    assert sorted(listed) == sorted(g.id for g, _ in made) and len(listed) == 45
    assert "Games 41 to 45 of 45" in text(client, "/games?page=3")
    text(client, "/games?page=4", status=404)
    assert 'href="/games?page=2&amp;player=Ana"' in text(client, "/games?player=Ana")


def test_a_player_page_adds_up_its_games_and_follows_a_change(client, games):
    made = [long_game(games, 2) for _ in range(25)]
    own(client, *[(g.id, t) for g, t in made[-20:]])
    with client.session_transaction() as session:
        session["opened"] = [g.id for g, _ in made[:-20]]
    page = text(client, "/players/Bob")
    assert "<dt>Games played</dt><dd>25</dd>" in page and "<dt>Rounds played</dt><dd>50</dd>" in page
    assert "<dt>Average points per round</dt><dd>3.0</dd>" in page  # 3 points every round (one decimal, as 3.1)
    assert len(re.findall(r'class="game-link"', page)) == 20 and "See all 25 games" in page
    assert text(client, "/players/Bob") == page  # the second time from the summaries: the same page
    # Bob keeps a King (10) in one more round: (50 × 3 + 10) / 51 = 3.137… → 3.1
    games.record_manche(made[0][0].id, MancheEntry("Ana", {"Bob": ["KD"], "Chloé": ["3C"]}))
    again = text(client, "/players/Bob")
    assert "<dt>Rounds played</dt><dd>51</dd>" in again and "<dt>Average points per round</dt><dd>3.1</dd>" in again


@pytest.fixture
def limited(app_config):
    application = create_app({**app_config, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "2 per minute"})
    yield application
    application.extensions["database"].dispose()


def test_reads_are_never_counted_by_the_rate_limits(limited):
    client = limited.test_client()
    for _ in range(5):
        assert client.get("/rules/classique").status_code == 200
        assert "X-RateLimit-Limit" not in client.get("/healthz").headers
    check = {"variant": "huit-americain", "top": "AH", "card": "8C", "pending": True}
    statuses = [client.post("/api/v1/referee/check", json=check).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]

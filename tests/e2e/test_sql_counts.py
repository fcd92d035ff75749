"""The number of SQL statements per page does not grow with the number of manches (issue 7)."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from models.services.games import MancheEntry


class StatementCounter:
    """The statements a database runs meanwhile, as SQLAlchemy's ``before_cursor_execute`` event
    sees them (every statement of the app goes through SQLAlchemy). A transaction's ``BEGIN`` is not
    counted: SQLite's is a statement of its own (``Database.snapshot``), PostgreSQL's goes from its
    driver unseen."""

    def __init__(self, database):
        self.database = database
        self.engines = list(dict.fromkeys(database.engines))
        self.count = 0
        self.run: list[str] = []

    def _count(self, _conn, _cursor, statement, *args, **kwargs):
        if statement == "BEGIN":
            return
        self.count += 1
        self.run.append(statement)

    def __enter__(self):
        for engine in self.engines:
            event.listen(engine, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *exc):
        for engine in self.engines:
            event.remove(engine, "before_cursor_execute", self._count)


def game_with(games, manches: int):
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=1000, first_dealer=0)
    for _ in range(manches):
        games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD", "2S"]}))
    return game.id, token


def statements(app, client, path: str) -> int:
    database = app.extensions["database"]
    with StatementCounter(database) as counter:
        response = client.get(path)
        assert response.status_code == 200, path
    return counter.count


@pytest.mark.parametrize("path", ["/games/{id}", "/api/v1/games/{id}", "/games/{id}/manches/new"])
def test_statements_per_page_do_not_grow_with_manches(app, client, games, path):
    (small, small_token), (large, large_token) = game_with(games, 3), game_with(games, 60)
    with client.session_transaction() as session:
        session["tokens"] = {small: small_token, large: large_token}  # this browser holds both games' rights
    assert statements(app, client, path.format(id=small)) == statements(app, client, path.format(id=large))


def import_document(manches: int) -> dict:
    """A classique game (penalty, over 1,000 manches) of ``manches`` manches: Ana goes out, Bob
    keeps 3C (3 points), Chloé KD 2S (10 + 20)."""
    return {
        "format": "carte-game/1",
        "game": {
            "variant": "classique",
            "players": ["Ana", "Bob", "Chloé"],
            "rounds": 1000,
            "first_dealer": 0,
            "manches": [
                {"number": n + 1, "winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["KD", "2S"]}}
                for n in range(manches)
            ],
        },
        "totals": {"Ana": 0, "Bob": 3 * manches, "Chloé": 30 * manches},
    }


def import_statements(app, client, manches: int) -> int:
    database = app.extensions["database"]
    with StatementCounter(database) as counter:
        response = client.post("/api/v1/games/import", json=import_document(manches))
        assert response.status_code == 201, response.get_json()
    return counter.count


def test_statements_per_import_do_not_grow_with_manches(app, client):
    """An import is written in a fixed number of statements (game, players, manches, their ids,
    hands; then the new game read back), however many manches it holds: 1 or the most a game may
    have."""
    small, large = import_statements(app, client, 1), import_statements(app, client, 1000)
    assert small == large <= 10


@pytest.mark.parametrize("path", ["/games/{id}/rounds", "/games/{id}/rounds?page=2", "/s/{share}/rounds"])
def test_statements_of_the_paged_history_do_not_grow_with_manches(app, client, games, path):
    (small, small_token), (large, large_token) = game_with(games, 21), game_with(games, 60)
    with client.session_transaction() as session:
        session["tokens"] = {small: small_token, large: large_token}
    shares = {small: games.get(small).share_id, large: games.get(large).share_id}
    assert statements(app, client, path.format(id=small, share=shares[small])) == statements(
        app, client, path.format(id=large, share=shares[large])
    )


@pytest.mark.parametrize("path", ["/games", "/games?player=Bob", "/players/Bob"])
def test_statements_of_the_lists_do_not_grow_with_games(app, client, games, path):
    """The same statements for 3 games as for 40, read for the first time (each game summed up)
    or again (the summaries kept); never more than the first time."""
    counts = []
    for number in (3, 40):
        made = [game_with(games, 2) for _ in range(number)]
        browser = app.test_client()
        with browser.session_transaction() as session:
            session["tokens"] = made[-20:]
            session["opened"] = [game_id for game_id, _ in made[:-20]]
        counts.append((statements(app, browser, path), statements(app, browser, path)))
    assert counts[0] == counts[1]
    assert counts[0][1] <= counts[0][0]

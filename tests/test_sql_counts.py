"""The number of SQL statements per page does not grow with the number of manches (issue 7)."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from models.games import MancheEntry


class StatementCounter:
    def __init__(self, engines):
        self.engines = list(dict.fromkeys(engines))
        self.count = 0

    def _count(self, *args, **kwargs):
        self.count += 1

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
    with StatementCounter([database.reader, database.writer]) as counter:
        response = client.get(path)
        assert response.status_code == 200, path
    return counter.count


@pytest.mark.parametrize("path", ["/games/{id}", "/api/v1/games/{id}", "/games/{id}/manches/new"])
def test_statements_per_page_do_not_grow_with_manches(app, client, games, path):
    (small, small_token), (large, large_token) = game_with(games, 3), game_with(games, 60)
    with client.session_transaction() as session:
        session["tokens"] = {small: small_token, large: large_token}  # this browser holds both games' rights
    assert statements(app, client, path.format(id=small)) == statements(app, client, path.format(id=large))

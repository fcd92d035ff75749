"""A page across games already kept (the list of games, a player's page) asks one small question
before its stored bytes are sent, and that question's work does not grow with a group's games:
measured on SQLite as the virtual machine's steps (``set_progress_handler`` on the DB-API
connection each statement runs on), for the administrator (every game) and for a member of the
group, before and after the group gains 30 games."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import event

from tests.e2e.test_groups import make_group, phone

pytestmark = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="SQLite's steps are what is counted"
)

ADMIN = {"Authorization": "Bearer admin-secret"}
PATHS = ("/games", "/players/Ana")


class StepCounter:
    """The steps SQLite's virtual machine takes for the statements run meanwhile."""

    def __init__(self, database):
        self.engines = list(dict.fromkeys(database.engines))
        self.steps = 0
        self.connections = []

    def _tick(self) -> int:
        self.steps += 1
        return 0  # go on

    def _watch(self, _conn, cursor, *args, **kwargs):
        cursor.connection.set_progress_handler(self._tick, 1)
        self.connections.append(cursor.connection)

    def __enter__(self):
        for engine in self.engines:
            event.listen(engine, "before_cursor_execute", self._watch)
        return self

    def __exit__(self, *exc):
        for engine in self.engines:
            event.remove(engine, "before_cursor_execute", self._watch)
        for connection in self.connections:
            connection.set_progress_handler(None, 1)


def add_games(games, group_id: str, count: int) -> None:
    for _ in range(count):
        games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0, group=group_id)


def kept_visit_steps(app, client, headers: dict) -> dict:
    """Each list's steps on a visit once its page is kept (the first visit draws it)."""
    steps = {}
    for path in PATHS:
        assert client.get(path, headers=headers).status_code == 200, path
        with StepCounter(app.extensions["database"]) as counter:
            response = client.get(path, headers=headers)
        assert response.status_code == 200, path
        steps[path] = counter.steps
    return steps


def test_a_kept_list_asks_the_same_work_for_a_group_of_5_games_as_of_35(app, games):
    app.config["ADMIN_TOKEN"] = "admin-secret"
    member, admin = phone(app), phone(app)
    group_id = make_group(member)
    games.create_game("classique", ["Ana", "Chloé"], rounds=2, first_dealer=0)  # a game of no group
    add_games(games, group_id, 5)
    before = kept_visit_steps(app, admin, ADMIN), kept_visit_steps(app, member, {})
    add_games(games, group_id, 30)
    after = kept_visit_steps(app, admin, ADMIN), kept_visit_steps(app, member, {})
    assert after == before

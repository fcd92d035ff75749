"""A group's page costs a constant number of SQL statements whatever its number of games (issue
42): counted with SQLAlchemy's ``before_cursor_execute`` event for a group of 2 finished games and
one of 12, the first time (every game played through) and again (summaries kept per revision)."""

from __future__ import annotations

from models.services.games import MancheEntry
from tests.e2e.test_groups import make_group, phone
from tests.e2e.test_sql_counts import statements


def group_with(app, games, client, count: int) -> str:
    """A group of ``count`` finished games of two manches each (Ana goes out, Bob keeps 3C)."""
    group_id = make_group(client, f"Group of {count}")
    for _ in range(count):
        game, _token = games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0, group=group_id)
        for _manche in range(2):
            games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    return group_id


def test_a_groups_page_costs_the_same_statements_for_2_games_and_12(app, games):
    client = phone(app)
    small, large = group_with(app, games, client, 2), group_with(app, games, client, 12)
    cold = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert cold[0] == cold[1], cold
    warm = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert warm[0] == warm[1], warm
    assert warm[0] <= cold[0]  # 10 the first time, 6 again, on SQLite and PostgreSQL alike

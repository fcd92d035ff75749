"""A group's page costs a constant number of SQL statements whatever its number of games and of
ended club nights (its championship): counted with SQLAlchemy's ``before_cursor_execute`` event
for a group of 2 finished games and one of 12, one of 1 ended night and one of 3, the first time
(every game played through) and again (summaries kept per revision)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import update

from models.services.db import GroupMember
from models.services.games import MancheEntry
from models.services.unit_of_work import unit_of_work
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


def with_nights(app, games, group_id: str, count: int) -> str:
    """``count`` ended club nights of the group, each 4 players at 2 tables of 2 for one turn of
    one manche (Ana and Chloé go out)."""
    nights = app.extensions["nights"]
    for number in range(count):
        night_id, _ = nights.start(group_id, f"Soirée {number}", "classique", None, 1,
                                   [["Ana", "Bob"], ["Chloé", "Dan"]], f"night-{number}")  # fmt: skip
        first, second = (table.game_id for table in nights.state(night_id).current)
        games.record_manche(first, MancheEntry("Ana", {"Bob": ["3C"]}))
        games.record_manche(second, MancheEntry("Chloé", {"Dan": ["KD"]}))
        nights.end(night_id)
    return group_id


def seen_today(app) -> None:
    """Every member's last visit is today: a page opened now writes nothing."""
    with unit_of_work(app.extensions["database"]) as session:
        session.execute(update(GroupMember).values(seen_at=datetime.now(UTC)))


def test_a_groups_page_costs_the_same_statements_for_2_games_and_12(app, games):
    client = phone(app)
    small, large = group_with(app, games, client, 2), group_with(app, games, client, 12)
    seen_today(app)  # a phone's first visit of the day also writes that day (test_group_links)
    cold = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert cold[0] == cold[1], cold
    warm = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert warm[0] == warm[1], warm
    # The first time every game is played through and the page drawn (its ended club nights and
    # their byes and leavers, for the championship, two statements more); again, only the membership and the group's revision
    # are asked (one lookup), on SQLite and PostgreSQL alike.
    assert (cold[0], warm[0]) == (12, 1), (cold, warm)


def test_a_groups_page_costs_the_same_statements_for_1_ended_night_and_3(app, games):
    client = phone(app)
    small = with_nights(app, games, group_with(app, games, client, 2), 1)
    large = with_nights(app, games, group_with(app, games, client, 2), 3)
    seen_today(app)
    cold = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert cold[0] == cold[1], cold
    warm = statements(app, client, f"/groups/{small}"), statements(app, client, f"/groups/{large}")
    assert warm == (1, 1), warm
    assert "Soirée 2" in client.get(f"/groups/{large}").get_data(as_text=True)  # the season's table shows them


def test_a_groups_page_kept_is_drawn_again_once_one_of_its_games_changes(app, games):
    """The page is kept per revision of the group, which a manche of one of its games moves: the
    next visit shows it. Two manches, Ana goes out of both with 0 (penalty mode, SPEC §2): once
    the second is recorded the game is finished and Ana has won it, 1 of 1."""
    client = phone(app)
    group_id = make_group(client, "Samedi")
    game, _token = games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0, group=group_id)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    ana = re.compile(r'<tr data-person="Ana"><th scope="row">Ana</th><td class="num" data-won>1</td>'
                     r'<td class="num" data-played>1</td>')  # fmt: skip
    assert not ana.search(client.get(f"/groups/{group_id}").get_data(as_text=True))  # not finished
    assert statements(app, client, f"/groups/{group_id}") == 1  # kept
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KD"]}))  # the last manche: finished
    assert ana.search(client.get(f"/groups/{group_id}").get_data(as_text=True))

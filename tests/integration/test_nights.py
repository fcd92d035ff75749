"""Club nights on the real database (SQLite, and PostgreSQL with DATABASE_URL): a night and its
first turn's games in one transaction, a turn started once however often it is sent (a retry, two
phones at once), nothing written on a refusal, and the ranking the page shows from the games.

Classique in penalty mode, one manche a game (``rounds=1``): the player who goes out scores 0, every
other player their hand (SPEC §2: 3♣ = 3, K♦ = 10, 2♠ = 20).
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from models.core import club_night
from models.core.errors import NotFound, ValidationError
from models.services.db import ClubNight, Game
from models.services.games import MancheEntry


@pytest.fixture
def group(app):
    group_id, _token = app.extensions["groups"].create("Mardi")
    return group_id


@pytest.fixture
def nights(app):
    return app.extensions["nights"]


def count(app, query) -> int:
    return app.extensions["database"].first(query)[0]


def night_games(app, night_id: str) -> list[tuple]:
    query = select(Game.night_round, Game.night_table, Game.group_id, Game.variant, Game.rounds).where(
        Game.night_id == night_id
    )
    return sorted(tuple(row) for row in app.extensions["database"].all(query))


SEATING = [["Ana", "Bob"], ["Chloé", "Dan"]]


def test_a_night_starts_every_table_of_its_first_turn_in_the_group(app, nights, group):
    night_id, started = nights.start(group, "Soirée", "classique", None, 1, SEATING, "key-1")
    assert len(started) == 2 and all(token for _, token in started)
    assert night_games(app, night_id) == [(1, 1, group, "classique", 1), (1, 2, group, "classique", 1)]
    state = nights.state(night_id)
    assert (state.night.round, state.night.name, state.night.group_id) == (1, "Soirée", group)
    assert [(t.round, t.table) for t in state.current] == [(1, 1), (1, 2)]
    players = {t.table: app.extensions["games"].get(t.game_id).players for t in state.tables}
    assert players == {1: ["Ana", "Bob"], 2: ["Chloé", "Dan"]}


def test_the_same_form_sent_again_makes_no_second_night(app, nights, group):
    first, started = nights.start(group, "Soirée", "classique", None, 1, SEATING, "key-1")
    again, none = nights.start(group, "Soirée", "classique", None, 1, SEATING, "key-1")
    assert (again, none, len(started)) == (first, [], 2)
    assert count(app, select(func.count()).select_from(ClubNight)) == 1
    assert count(app, select(func.count()).select_from(Game)) == 2


def test_a_refused_seating_writes_nothing(app, nights, group):
    with pytest.raises(ValidationError) as refused:
        nights.start(group, "Soirée", "classique", None, 1, [["Ana", "Bob", "Chloé"], ["Dan"]], "key-2")
    assert refused.value.params["number"] == 2  # table 2 seats one player: classique needs 2
    for name in (" ", "x" * 61):  # no name, or longer than a group's (60 characters)
        with pytest.raises(ValidationError) as unnamed:
            nights.start(group, name, "classique", None, 1, SEATING, "key-3")
        assert str(unnamed.value) == "Give the night a name (at most 60 characters)."  # the night's words
    assert count(app, select(func.count()).select_from(ClubNight)) == 0
    assert count(app, select(func.count()).select_from(Game)) == 0


def test_the_ranking_from_the_games_and_the_next_turn_started_once(app, nights, group):
    games = app.extensions["games"]
    night_id, _ = nights.start(group, "Soirée", "classique", None, 1, SEATING, "key-1")
    state = nights.state(night_id)
    table_one, table_two = (t.game_id for t in state.current)
    games.record_manche(table_one, MancheEntry("Ana", {"Bob": ["3C"]}))  # Ana 0, Bob 3: Ana wins
    games.record_manche(table_two, MancheEntry("Chloé", {"Dan": ["KD", "2S"]}))  # Chloé 0, Dan 30
    state = nights.state(night_id)
    summaries = nights.summaries(app.extensions["summaries"], state)
    lines = nights.ranking(state, summaries, (), nights.lower_is_better(state.night))
    # Ana and Chloé: one table won each, 0 points: tied first; Bob 3 points, Dan 30.
    assert [(p.place, p.name, p.wins, p.points, p.tied) for p in lines] == [
        (1, "Ana", 1, 0, True),
        (1, "Chloé", 1, 0, True),
        (3, "Bob", 0, 3, False),
        (4, "Dan", 0, 30, False),
    ]
    seating = club_night.spread([p.name for p in lines], 2)
    assert seating == [["Ana", "Dan"], ["Chloé", "Bob"]]  # 1st T1, 2nd T2, 3rd T2, 4th T1
    started = nights.next_round(state.night, 2, seating)
    assert len(started) == 2
    assert nights.next_round(state.night, 2, seating) == []  # sent again: nothing more
    assert nights.next_round(nights.state(night_id).night, 2, seating) == []
    with pytest.raises(ValidationError):
        nights.next_round(nights.state(night_id).night, 4, seating)  # not the next turn
    assert [row[:2] for row in night_games(app, night_id)] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert nights.state(night_id).night.round == 2


def test_two_phones_starting_the_same_turn_start_it_once(app, nights, group):
    night_id, _ = nights.start(group, "Soirée", "classique", None, 1, SEATING, "key-1")
    night = nights.state(night_id).night
    barrier, answers = threading.Barrier(2), []

    def start():
        barrier.wait(timeout=10)
        answers.append(len(nights.next_round(night, 2, SEATING)))

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answers) == [0, 2]  # one phone started both tables, the other nothing
    assert [row[:2] for row in night_games(app, night_id)] == [(1, 1), (1, 2), (2, 1), (2, 2)]


def test_a_groups_nights_and_an_unknown_night_not_found(nights, group):
    first, _ = nights.start(group, "Première", "classique", None, 1, SEATING, "key-1")
    second, _ = nights.start(group, "Seconde", "classique", None, 1, SEATING, "key-2")
    assert {n.id for n in nights.nights(group)} == {first, second}
    assert nights.look_of(first) == ("1", 0)  # turn 1, no change of the night itself yet
    with pytest.raises(NotFound):
        nights.state("no-such-night-id-at-all")

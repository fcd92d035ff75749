"""A group's revision moves with every change of one of its games, whichever write made it
(migration 0015: the database bumps it, on SQLite and PostgreSQL alike), and never for a game of
no group: the group's page is kept per revision and must never be stale.

Classique in penalty mode: Ana goes out (0), Bob keeps 3♣ (SPEC §2: 3 points)."""

from __future__ import annotations

from sqlalchemy import select

from models.services.db import PlayGroup
from models.services.games import MancheEntry


def revision(app, group_id: str) -> int:
    return app.extensions["database"].first(select(PlayGroup.revision).where(PlayGroup.id == group_id))[0]


def test_every_write_of_a_groups_game_moves_the_groups_revision(app, games):
    groups = app.extensions["groups"]
    group_id, _token = groups.create("Dimanche")
    seen = [revision(app, group_id)]

    def moved():
        seen.append(revision(app, group_id))
        return seen[-1] > seen[-2]

    game, _owner = games.create_game("classique", ["Ana", "Bob"], rounds=3, first_dealer=0, group=group_id)
    assert moved()  # a game made in the group
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    assert moved()  # a manche recorded
    games.edit_manche(game.id, 1, MancheEntry("Bob", {"Ana": ["3C"]}))
    assert moved()  # corrected
    games.delete_manche(game.id, 1)
    assert moved()  # deleted
    before, _other = games.create_game("classique", ["Ana", "Bob"], rounds=3, first_dealer=0)
    assert not moved()  # a game of no group
    games.record_manche(before.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    assert not moved()
    groups.add_game(group_id, before.id)
    assert moved()  # a game made before, added to the group
    games.record_manche(before.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    assert moved()  # and now one of its games


def test_a_game_of_one_group_leaves_the_other_groups_revision_alone(app, games):
    groups = app.extensions["groups"]
    ours, _token = groups.create("Nous")
    theirs, _token = groups.create("Eux")
    game, _owner = games.create_game("classique", ["Ana", "Bob"], rounds=3, first_dealer=0, group=ours)
    before = revision(app, theirs)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"]}))
    assert revision(app, theirs) == before

"""A game taken out of its group and put back (#55 item 5), on the real database (SQLite, and
PostgreSQL with DATABASE_URL): one statement in one transaction, the group's revision moved by
migration 0015's triggers each way, the score sheet's game numbers without a gap, and every
refusal said (not the owner nor the maker, a night's table, a game not in the group, nothing left
to undo).

Classique in penalty mode, one manche a game: the player who goes out scores 0, the other the
cards left in their hand (SPEC §2: 3♣ = 3).
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from models.core.errors import Conflict, Forbidden, NotFound, ValidationError
from models.services import group_file, group_games
from models.services.db import Game, PlayGroup
from models.services.games import MancheEntry
from tests.integration.test_nights import SEATING


def revision(app, group_id: str) -> int:
    return app.extensions["database"].first(select(PlayGroup.revision).where(PlayGroup.id == group_id))[0]


def where(app, game_id: str) -> tuple:
    row = app.extensions["database"].first(
        select(Game.group_id, Game.taken_from, Game.revision).where(Game.id == game_id)
    )
    return tuple(row)


def sheet_numbers(app, group_id: str) -> list[tuple]:
    """(game number, the first player's name) of each game in the group's score sheet (Dan plays
    them all), in order."""
    groups, summaries = app.extensions["groups"], app.extensions["summaries"]
    rows = group_file.score_sheet(groups.summaries(summaries, group_id), groups.aliases(group_id))
    return sorted({(row[0], row[4]) for row in rows if row[4] != "Dan"})


def owner_of(app, group_id: str) -> str:
    return next(m.id for m in app.extensions["groups"].members(group_id) if m.owner)


@pytest.fixture
def three_games(app, games):
    group_id, _token = app.extensions["groups"].create("Dimanche")
    ids = []
    for first in ("Ana", "Bob", "Chloé"):
        game, _owner = games.create_game("classique", [first, "Dan"], rounds=1, first_dealer=0, group=group_id)
        games.record_manche(game.id, MancheEntry(first, {"Dan": ["3C"]}))
        ids.append(game.id)
    return group_id, ids


def test_a_game_taken_out_leaves_no_gap_and_comes_back(app, three_games):
    database = app.extensions["database"]
    group_id, (first, second, third) = three_games
    assert sheet_numbers(app, group_id) == [(1, "Ana"), (2, "Bob"), (3, "Chloé")]
    group_before, (_, _, game_before) = revision(app, group_id), where(app, second)

    owner = owner_of(app, group_id)
    group_games.take_out(database, group_id, second, owner=owner, maker=False)
    assert where(app, second) == (None, group_id, game_before + 1)  # its streams ask their rights again
    assert revision(app, group_id) > group_before  # the trigger on game's update (0015)
    # The sheet numbers the group's games in order: Chloé's game is number 2 now, no gap.
    assert sheet_numbers(app, group_id) == [(1, "Ana"), (2, "Chloé")]
    assert group_games.taken_out(database, group_id, second) == (second, game_before + 1)

    moved = revision(app, group_id)
    group_games.put_back(database, group_id, second, owner=None, maker=True)  # the game's maker may
    assert where(app, second) == (group_id, None, game_before + 2)
    assert revision(app, group_id) > moved
    assert sheet_numbers(app, group_id) == [(1, "Ana"), (2, "Bob"), (3, "Chloé")]
    assert group_games.taken_out(database, group_id, second) is None
    with pytest.raises(Conflict):  # undone already: nothing to undo, nothing written
        group_games.put_back(database, group_id, second, owner=owner, maker=False)
    assert where(app, second) == (group_id, None, game_before + 2)


def test_who_may_take_a_game_out_and_what_stays(app, games, three_games):
    database, groups = app.extensions["database"], app.extensions["groups"]
    group_id, (first, _second, _third) = three_games
    owner = owner_of(app, group_id)
    with pytest.raises(Forbidden):  # a member neither owner nor maker
        group_games.take_out(database, group_id, first, owner=None, maker=False)
    other, _token = groups.create("Eux")
    with pytest.raises(NotFound):  # not a game of this group
        group_games.take_out(database, other, first, owner=owner_of(app, other), maker=False)
    with pytest.raises(Forbidden):  # the owner of another group is not this one's
        group_games.take_out(database, group_id, first, owner=owner_of(app, other), maker=False)
    assert where(app, first)[:2] == (group_id, None)

    group_games.take_out(database, group_id, first, owner=owner, maker=False)
    groups.add_game(other, first)  # its maker adds it to another group since
    with pytest.raises(Conflict):  # the undo no longer finds it out of ours
        group_games.put_back(database, group_id, first, owner=owner, maker=False)
    assert where(app, first)[:2] == (other, None)

    night_id, started = app.extensions["nights"].start(group_id, "Soirée", "classique", None, 1, SEATING, "key-1")
    table = started[0][0]
    with pytest.raises(ValidationError):  # a club night's table stays in its night's group
        group_games.take_out(database, group_id, table, owner=owner, maker=False)
    assert where(app, table)[:2] == (group_id, None) and night_id


def test_an_owner_who_handed_the_group_over_takes_no_game_out(app, three_games):
    """The page said « Retirer de la tablée » while this phone owned the group; it has handed the
    group over since: the service asks again inside the write, and refuses."""
    database, groups = app.extensions["database"], app.extensions["groups"]
    group_id, (first, _second, _third) = three_games
    owner = owner_of(app, group_id)
    invite = groups.create_invite(group_id, by=owner)
    groups.join(group_id, invite, "Bob")
    bob = next(m.id for m in groups.members(group_id) if m.name == "Bob")
    groups.hand_over(group_id, owner, bob)
    with pytest.raises(Forbidden):
        group_games.take_out(database, group_id, first, owner=owner, maker=False)
    assert where(app, first)[:2] == (group_id, None)

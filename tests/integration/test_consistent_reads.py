"""A read of several statements sees one state of the database (``Database.snapshot``): a manche
recorded by another phone while a game is being read is in all of that read or in none of it.

On PostgreSQL each statement outside a transaction sees what was committed when it started, so a
game read as its row, then its manches, could hold revision 1 with manche 2: the live table told
that as revision 1 and never told revision 2 (a phone back at an older revision missed a change
for good), and the pages kept per revision kept it too. Each test here records a manche at the
exact moment the read reaches the manche rows, on both databases.

Classique (SPEC §2): 3 counts 3, K 10; the others add their hands.
"""

from __future__ import annotations

import pytest
from sqlalchemy import event

from models.services import backup, history
from models.services.games import MancheEntry

ANA_OUT = MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]})  # Bob 3, Chloé 10


@pytest.fixture
def database(app):
    return app.extensions["database"]


@pytest.fixture
def game(games):
    created, _ = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(created.id, ANA_OUT)  # revision 1, one manche
    return games.get(created.id)


@pytest.fixture
def written_amid(database, games, game):
    """Records a second manche of the game once, as a read is about to ask for the manches."""
    written = []

    def write_first(_connection, _cursor, statement, _parameters, _context, _many):
        if not written and "FROM manche" in statement and "FROM hand" not in statement:
            written.append(True)
            games.record_manche(game.id, ANA_OUT)  # revision 2, two manches: committed at once

    event.listen(database.reader, "before_cursor_execute", write_first)
    yield written
    event.remove(database.reader, "before_cursor_execute", write_first)


def one_state(revision: int, manches: int) -> bool:
    """Revision 1 holds one manche, revision 2 two: nothing else is one state of this game."""
    return (revision, manches) in ((1, 1), (2, 2))


def test_a_game_read_while_a_manche_is_recorded_is_one_state(games, game, written_amid):
    view = games.get(game.id)
    assert written_amid, "the manche was recorded during the read"
    assert view.revision == 1 and len(view.manches) == 1
    assert games.get(game.id).revision == 2  # the next read sees it


def test_a_summary_read_while_a_manche_is_recorded_is_one_state(database, games, game, written_amid):
    # asked by id and revision: the games' rows, then their manches (the home page's list)
    (summary,) = history.Summaries(database, games.views).of([(game.id, game.revision)])
    assert written_amid
    assert one_state(summary.revision, summary.manche_count)


def test_a_backup_taken_while_a_manche_is_recorded_is_one_state(database, game, written_amid):
    (saved,) = backup.backup(database)["games"]
    assert written_amid
    assert one_state(saved["game"]["revision"], len(saved["manches"]))


def test_a_game_listed_then_written_is_summed_up_as_it_now_stands(database, games, game):
    """The list reads its page's games as (id, revision), then sums up those it does not know: a
    game written in between is shown as it now stands, not left out of the list."""
    listed = (game.id, game.revision)  # revision 1, as the list's first statement saw it
    games.record_manche(game.id, ANA_OUT)  # revision 2
    (summary,) = history.Summaries(database, games.views).of([listed])
    assert (summary.revision, summary.manche_count) == (2, 2)

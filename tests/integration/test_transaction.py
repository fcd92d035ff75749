"""A write's transaction on the DBAPI connection (``models/services/transaction.py``, issue 29):
all or nothing, the driver's errors as SQLAlchemy's, and values stored as SQLAlchemy stores them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from models.services.db import Game, Manche
from models.services.transaction import transaction
from models.services.undo import NEW_MANCHE

THREE = ["Ana", "Bob", "Chloé"]


def manche_row(game_id: str, number: int, when: datetime) -> dict:
    return {"game_id": game_id, "number": number, "winner_seat": 0, "blocked": True, "last_card": None,
            "created_at": when}  # fmt: skip


def test_a_failed_statement_leaves_nothing_of_the_transaction(games):
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    database = games.db
    when = datetime(2026, 11, 25, 8, 30, tzinfo=UTC)
    with pytest.raises(IntegrityError):  # SQLAlchemy's error, which the service and the error pages know
        with transaction(database) as write:
            assert write.execute(NEW_MANCHE, [manche_row(game.id, 1, when)]).scalar_one() > 0
            write.execute(NEW_MANCHE, [manche_row(game.id, 1, when)])  # manche 1 again: (game_id, number) is unique
    with Session(database.reader) as session:
        assert session.execute(select(Manche).where(Manche.game_id == game.id)).all() == []


def test_values_are_stored_as_sqlalchemy_stores_them(games):
    """The same manche written by the ORM and by a transaction is stored the same (a date, a
    boolean: converted by their columns' types), as the driver reads it back and as the ORM does."""
    game, _ = games.create_game("classique", THREE, first_dealer=0)
    database = games.db
    when = datetime(2026, 11, 25, 8, 30, 15, 250, tzinfo=UTC)
    with Session(database.writer) as session, session.begin():
        session.add(Manche(**manche_row(game.id, 1, when)))
    with transaction(database) as write:
        write.execute(NEW_MANCHE, [manche_row(game.id, 2, when)])
    with Session(database.reader) as session:
        first, second = session.execute(
            select(Manche.created_at, Manche.blocked).where(Manche.game_id == game.id).order_by(Manche.number)
        ).all()
        assert first == second
        assert session.get(Game, game.id) is not None
    stored = database.lookup_all("SELECT created_at, blocked FROM manche WHERE game_id = ? ORDER BY number", game.id)
    assert stored[0] == stored[1]

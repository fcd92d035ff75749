"""A game's rows as stored, typed: one record type per table, its fields the columns read.

Each record names its columns once (its fields); ``columns_of`` gives them to a ``select()``, in
that order, and ``Record._make(row)`` reads a row of that select back by name. Nothing indexes a
stored row by position.
"""

from __future__ import annotations

from typing import NamedTuple

from .db import Hand, Manche, Player


class StoredPlayer(NamedTuple):
    """A player by seat: name, team, who joined or left when, and where they sit (place)."""

    name: str
    team: str | None
    joined_after: int
    left_after: int | None
    start_total: int
    place: int


class StoredManche(NamedTuple):
    """A manche: who went out (or blocked) and with which last card."""

    id: int
    number: int
    winner_seat: int | None
    blocked: bool
    last_card: str | None


class StoredHand(NamedTuple):
    """A hand of a manche, by seat: its cards (canonical text) or its typed total, and its value."""

    seat: int
    cards: str | None
    typed: int | None
    value: int


def columns_of(record: type[NamedTuple], table) -> list:
    """The columns of ``table`` that ``record`` holds, in its fields' order."""
    return [getattr(table, name) for name in record._fields]


PLAYER_COLUMNS = columns_of(StoredPlayer, Player)
MANCHE_COLUMNS = columns_of(StoredManche, Manche)
HAND_COLUMNS = columns_of(StoredHand, Hand)


def stored_manche_of(row) -> StoredManche:
    """A manche read back, its ``blocked`` a bool whatever the database gives."""
    manche = StoredManche._make(row)
    return manche._replace(blocked=bool(manche.blocked))

"""A game's rows as stored, typed: one record type per table, its fields the columns read.

A manche's shape is declared once, here (``MANCHE_PARTS``): each part beside its key (``id``,
``number``) with its name in JSON (the API, the file, the undo record, the backup, the form), how a
value sent for it is checked, whether it counts in the manche's version (a correction of it is a
change the other phones hear) and whether the core's score gives it (else it is stored as it was
entered). ``StoredManche`` is made from that declaration; the insert, the undo record, the backup,
the JSON of the API and of the file, their readers, the form's reader, the OpenAPI schema and the
version digest all go through it, so that a new part of a manche is one line here and a column.

Each record names its columns once (its fields); ``columns_of`` gives them to a ``select()``, in
that order, and ``Record._make(row)`` reads a row of that select back by name. Nothing indexes a
stored row by position.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..core.errors import N_, ValidationError
from ..core.names import InvalidName, clean_name
from .db import Hand, Manche, Player

PHONE_NAME = 40  # the longest name a phone gives itself (views/live.py takes it through clean_name)


class StoredPlayer(NamedTuple):
    """A player by seat: name, team, who joined or left when, and where they sit (place)."""

    name: str
    team: str | None
    joined_after: int
    left_after: int | None
    start_total: int
    place: int


def _unchecked(value):
    return value


def phone_name(value, field: str):
    """The name of the phone that saved a manche: a name (the one rule for names), or None."""
    if value is None or value == "":
        return None
    try:
        return clean_name(value, PHONE_NAME, field=field)
    except InvalidName:
        raise ValidationError(
            N_("The name of the phone that saved a round is a name of at most %(max)s characters."),
            field=field,
            max=PHONE_NAME,
        ) from None


class Part(NamedTuple):
    """One part of a stored manche beside its key.

    ``json``: its name in JSON and in the form; ``check(value, field)``: a value sent for it,
    checked (a ``ValidationError`` naming ``field``) into what is stored; ``schema``: its OpenAPI
    schema; ``version``: whether it counts in the manche's version digest; ``scored``: whether the
    core's score of the entry gives it (who went out, blocked, the last card), else it is stored
    as sent; ``typed``: whether a phone or an API client sends it (else the write sets it)."""

    name: str
    json: str
    check: Callable = _unchecked
    schema: Mapping = {}
    version: bool = True
    scored: bool = False
    typed: bool = True


MANCHE_PARTS = (
    Part("winner_seat", "winner_seat", scored=True),
    Part("blocked", "blocked", scored=True),
    Part("last_card", "last_card", scored=True),
    # The name of the phone that saved it (« enregistrée par le téléphone d'Ana »): said by the
    # write, not by what was typed; not a change of the manche itself.
    Part(
        "saved_by",
        "saved_by",
        phone_name,
        {"type": ["string", "null"], "maxLength": PHONE_NAME},
        version=False,
        typed=False,
    ),
)
KEY = ("id", "number")


class StoredManche(namedtuple("StoredManche", KEY + tuple(part.name for part in MANCHE_PARTS))):
    """A manche as stored: its id and number, then each of ``MANCHE_PARTS``."""

    __slots__ = ()


# The parts stored as sent: those a manche keeps besides what the core scores.
AS_SENT = tuple(part for part in MANCHE_PARTS if not part.scored)
# The parts a phone or an API client sends with a manche (its form's and its JSON's fields).
TYPED = tuple(part for part in AS_SENT if part.typed)
# What a manche's version is made of: the scored parts always, the parts stored as sent by name
# when they hold something (so that a part added later leaves the versions of older manches be).
VERSIONED = tuple(part.name for part in MANCHE_PARTS if part.version and part.scored)
VERSIONED_AS_SENT = tuple(part.name for part in AS_SENT if part.version)


class StoredHand(NamedTuple):
    """A hand of a manche, by seat: its cards (canonical text) or its typed total, and its value."""

    seat: int
    cards: str | None
    typed: int | None
    value: int


def columns_of(record, table) -> list:
    """The columns of ``table`` that ``record`` holds, in its fields' order."""
    return [getattr(table, name) for name in record._fields]


PLAYER_COLUMNS = columns_of(StoredPlayer, Player)
MANCHE_COLUMNS = columns_of(StoredManche, Manche)
HAND_COLUMNS = columns_of(StoredHand, Hand)


def stored_manche_of(row) -> StoredManche:
    """A manche read back, its ``blocked`` a bool whatever the database gives."""
    manche = StoredManche._make(row)
    return manche._replace(blocked=bool(manche.blocked))


def manche_record(manche_id: int, number: int, columns: Mapping) -> StoredManche:
    """A manche's record from its key and its parts (a part not given: None)."""
    return StoredManche(manche_id, number, *(columns.get(part.name) for part in MANCHE_PARTS))


def kept_parts(manche: StoredManche) -> dict:
    """The parts stored as sent, by name: what a correction keeps unless it sends them again."""
    return {part.name: getattr(manche, part.name) for part in AS_SENT}


def parts_from(kept: Mapping) -> dict:
    """The parts of a manche from a record written by any version (the undo record, a backup): a
    part it does not hold is None."""
    return {part.name: kept.get(part.json) for part in MANCHE_PARTS}


def parts_json(manche: StoredManche) -> dict:
    """A manche's parts as the undo record and the backup write them (by their JSON names)."""
    return {part.json: getattr(manche, part.name) for part in MANCHE_PARTS}


def sent_json(manche: StoredManche) -> dict:
    """The parts stored as sent, by their JSON names (the API's and the file's manche)."""
    return {part.json: getattr(manche, part.name) for part in AS_SENT}


def read_sent(data: Mapping, where: str = "", parts=TYPED) -> dict:
    """The parts ``parts`` as ``data`` (a form, a JSON body, a file's manche) sends them, checked;
    those it does not send are left out."""
    return {
        part.name: part.check(data[part.json], where + part.json) for part in parts if data.get(part.json) is not None
    }


def version_of(manche: StoredManche, hands) -> tuple:
    """What a manche's version digest is made of: its versioned parts and its hands."""
    held = tuple((name, value) for name in VERSIONED_AS_SENT if (value := getattr(manche, name)) is not None)
    return (*(getattr(manche, name) for name in VERSIONED), tuple(tuple(hand) for hand in hands), *held)

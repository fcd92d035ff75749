"""Who is entering a manche right now (« Chloé saisit la manche 7… »), for the other phones.

A phone's manche entry says it is there when it opens and every ``HEARTBEAT_SECONDS`` after,
and that it is gone when it saves or leaves; a phone that vanishes (battery, Wi-Fi) is forgotten
``PRESENCE_SECONDS`` after its last sign of life. Kept in the small ``presence`` table so that
every worker process and every app server on the database sees the same table (the change feed
reads it when it is told something changed); never part of a game's history, file or backup.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from .db import Database, Presence
from .ids import checked_id
from .unit_of_work import along, unit_of_work

HEARTBEAT_SECONDS = 10  # the entry page's sign of life
PRESENCE_SECONDS = 30  # forgotten this long after the last one
MAX_ENTERING = 16  # phones noted entering one game at once: a table of 8, each with a spare phone


@dataclass(frozen=True)
class Entering:
    """One phone entering manche ``number`` (``editing``: correcting that recorded manche;
    ``owner``: the phone holds the game's own token, else a scorekeeper's)."""

    phone: str
    name: str | None
    number: int
    editing: bool
    seen: float
    owner: bool = False

    def fresh(self, now: float) -> bool:
        return now - self.seen < PRESENCE_SECONDS


COLUMNS = (Presence.game_id, Presence.phone, Presence.name, Presence.number, Presence.editing, Presence.seen,
           Presence.owner)  # fmt: skip


class PresenceService:
    def __init__(self, database: Database, clock=time.time):
        self.db = database
        self.clock = clock
        dialect = sqlite if database.is_sqlite else postgresql
        self._insert = dialect.insert

    def enter(
        self, game_id: str, phone: str, name: str | None, number: int, editing: bool = False, owner: bool = False
    ) -> bool:
        """The phone is entering (or correcting) manche ``number``: noted or refreshed, in one
        short transaction that also forgets the game's phones gone silent. A new phone is not
        noted (False) while ``MAX_ENTERING`` others are: one invite opened by many new phones
        fills no watcher's screen."""
        now = self.clock()
        row = {"game_id": checked_id(game_id), "phone": phone, "name": name, "number": number}
        row |= {"editing": editing, "owner": owner, "seen": now}
        upsert = self._insert(Presence).values(**row)
        upsert = upsert.on_conflict_do_update(
            index_elements=["game_id", "phone"],
            set_={"name": name, "number": number, "editing": editing, "owner": owner, "seen": now},
        )
        with unit_of_work(self.db) as connection:
            connection.execute(
                delete(Presence).where(Presence.game_id == row["game_id"], Presence.seen < now - PRESENCE_SECONDS)
            )
            noted = set(connection.execute(select(Presence.phone).where(Presence.game_id == row["game_id"])).scalars())
            if phone not in noted and len(noted) >= MAX_ENTERING:
                return False
            connection.execute(upsert)
        return True

    def leave(self, game_id: str, phone: str, with_the_write: bool = False) -> None:
        """The phone left its entry: it is no longer entering anything. ``with_the_write``: it is
        saving it, and is gone with that write (``unit_of_work.along``), or not at all."""
        statement = delete(Presence).where(Presence.game_id == checked_id(game_id), Presence.phone == phone)
        if with_the_write:
            along(lambda session: session.execute(statement))
            return
        with unit_of_work(self.db) as connection:
            connection.execute(statement)

    def of_games(self, game_ids) -> dict[str, tuple[Entering, ...]]:
        """The phones entering a manche in each of these games (one statement)."""
        ids = list(game_ids)
        if not ids:
            return {}
        now = self.clock()
        query = (
            select(*COLUMNS)
            .where(Presence.game_id.in_(ids), Presence.seen >= now - PRESENCE_SECONDS)
            .order_by(Presence.phone)
        )
        found: dict[str, list] = {game_id: [] for game_id in ids}
        with self.db.reader.connect() as connection:
            for game_id, phone, name, number, editing, seen, owner in connection.execute(query):
                found[game_id].append(Entering(phone, name, number, bool(editing), seen, bool(owner)))
        return {game_id: tuple(entries) for game_id, entries in found.items()}

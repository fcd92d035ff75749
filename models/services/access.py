"""Who may change what: the one answer to "may this token write to this game / these house rules?".

A game's creator holds its edit token (the OWNER: it may also invite and revoke scorekeepers); a
scorekeeper holds an invite token (SCOREKEEPER: it records, edits and deletes manches) until the
owner revokes it. House rules have an owner only. Tokens are never stored, only their SHA-256
(``db.token_hash``), compared in constant time. One statement per question.

The web layer resolves a request's rights once (``views/rights.py``: the bearer token of the API,
or the tokens kept in the browser's signed session) and asks here.
"""

from __future__ import annotations

import hmac
from datetime import timedelta
from enum import IntEnum

from sqlalchemy import bindparam, exists, func, or_, select, update
from sqlmodel import Session

from ..core.errors import N_, NotFound
from .db import Database, Game, HouseVariant, Invite, Manche, token_hash, utcnow
from .ids import checked_house_id, checked_id
from .lru import LRU
from .unit_of_work import unit_of_work

MAX_TOKEN = 200
USE_GRAIN = timedelta(minutes=1)  # an invite's last use is noted to the minute


# Whether the token (its hash) is a live invite of the game.
INVITED = (
    exists()
    .where(Invite.game_id == Game.id, Invite.token_hash == bindparam("digest"), Invite.revoked_at.is_(None))
    .label("invited")
)
LAST_NUMBER = (
    select(func.coalesce(func.max(Manche.number), 0)).where(Manche.game_id == Game.id).scalar_subquery().label("last")
)
# A write's question: the game's edit token (its hash) and whether the token is a live invite.
GAME_LEVEL = select(Game.edit_token_hash, INVITED).where(Game.id == bindparam("game_id"))
# The game page's question: the revision and last manche its cache key holds, and what the token
# allows, in one statement.
PAGE_LEVEL = select(Game.revision, LAST_NUMBER, Game.edit_token_hash, INVITED).where(Game.id == bindparam("game_id"))


class Level(IntEnum):
    NONE = 0
    SCOREKEEPER = 1
    OWNER = 2


def _usable(token) -> bool:
    return isinstance(token, str) and 0 < len(token) <= MAX_TOKEN


def _level_of(edit_token_hash: str, digest: str, invited) -> Level:
    """OWNER when the token is the game's edit token, SCOREKEEPER when it is a live invite."""
    if not digest:
        return Level.NONE
    if hmac.compare_digest(edit_token_hash, digest):
        return Level.OWNER
    return Level.SCOREKEEPER if invited else Level.NONE


OWNERS_KEPT = 4096  # (game, edit token's hash) pairs found to be the game's owner, per process


class AccessService:
    def __init__(self, database: Database):
        self.db = database
        # A game's edit token never changes and a game is never deleted: once a token was found to
        # be a game's own, it stays so, and the owner's next writes ask nothing. An invite can be
        # revoked: a scorekeeper's rights are asked every time.
        self.owners = LRU(OWNERS_KEPT)

    def game(self, game_id: str, token: str | None) -> Level:
        """What ``token`` allows on the game: OWNER (its edit token), SCOREKEEPER (an invite not
        revoked) or NONE. A game that does not exist is not found, whatever the token."""
        digest = token_hash(token) if _usable(token) else ""
        game_id = checked_id(game_id)
        if digest and self.owners.get((game_id, digest)):
            return Level.OWNER
        row = self.db.first(GAME_LEVEL, {"digest": digest, "game_id": game_id})
        if row is None:
            raise NotFound(N_("No game with this id."), field="id")
        level = _level_of(row.edit_token_hash, digest, row.invited)
        if level == Level.OWNER:
            self.owners.put((game_id, digest), True)
        return level

    def page(self, game_id: str, token: str | None) -> tuple[int, int, Level] | None:
        """The game's revision, the number of its last manche (0 before the first) and what
        ``token`` allows on it, in one statement; None when there is no such game."""
        digest = token_hash(token) if _usable(token) else ""
        row = self.db.first(PAGE_LEVEL, {"digest": digest, "game_id": checked_id(game_id)})
        if row is None:
            return None
        return row.revision, row.last, _level_of(row.edit_token_hash, digest, row.invited)

    def note_use(self, game_id: str, token: str) -> None:
        """Note that an invite wrote to its game: one UPDATE, and only when the last use noted is
        more than ``USE_GRAIN`` old (a table entering manches does not write this every time)."""
        if not _usable(token):
            return
        now = utcnow()
        with unit_of_work(self.db) as session:
            session.execute(
                update(Invite)
                .where(
                    Invite.game_id == checked_id(game_id),
                    Invite.token_hash == token_hash(token),
                    Invite.revoked_at.is_(None),
                    or_(Invite.last_used_at.is_(None), Invite.last_used_at < now - USE_GRAIN),
                )
                .values(last_used_at=now)
            )

    def house(self, variant_id: str, token: str | None) -> Level:
        """OWNER for the edit token of saved house rules, else NONE; unknown house rules are not found."""
        with Session(self.db.reader) as session:
            stored = session.execute(
                select(HouseVariant.edit_token_hash).where(HouseVariant.id == checked_house_id(variant_id))
            ).scalar_one_or_none()
        if stored is None:
            raise NotFound(N_("No house rules with this id."), field="id")
        if _usable(token) and hmac.compare_digest(stored, token_hash(token)):
            return Level.OWNER
        return Level.NONE

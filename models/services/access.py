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

from sqlalchemy import or_, select, update
from sqlmodel import Session

from ..core.errors import N_, NotFound
from .db import Database, HouseVariant, Invite, token_hash, utcnow
from .ids import checked_house_id, checked_id
from .lru import LRU

MAX_TOKEN = 200
USE_GRAIN = timedelta(minutes=1)  # an invite's last use is noted to the minute


GAME_LEVEL = (
    "SELECT edit_token_hash, EXISTS (SELECT 1 FROM invite WHERE invite.game_id = game.id"
    " AND invite.token_hash = ? AND invite.revoked_at IS NULL) FROM game WHERE id = ?"
)


# The game page's question (issue 29): the revision and last manche its cache key holds, and what
# the token allows, in one statement.
PAGE_LEVEL = (
    "SELECT revision, (SELECT COALESCE(MAX(number), 0) FROM manche WHERE manche.game_id = game.id),"
    " edit_token_hash, EXISTS (SELECT 1 FROM invite WHERE invite.game_id = game.id"
    " AND invite.token_hash = ? AND invite.revoked_at IS NULL) FROM game WHERE id = ?"
)


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
        # be a game's own, it stays so, and the owner's next writes ask nothing (issue 29: the
        # lookup and its Python were 30 µs of a manche's write). An invite can be revoked: a
        # scorekeeper's rights are asked every time.
        self.owners = LRU(OWNERS_KEPT)

    def game(self, game_id: str, token: str | None) -> Level:
        """What ``token`` allows on the game: OWNER (its edit token), SCOREKEEPER (an invite not
        revoked) or NONE. A game that does not exist is not found, whatever the token."""
        digest = token_hash(token) if _usable(token) else ""
        game_id = checked_id(game_id)
        if digest and self.owners.get((game_id, digest)):
            return Level.OWNER
        row = self.db.lookup(GAME_LEVEL, digest, game_id)  # every other write asks: a lookup
        if row is None:
            raise NotFound(N_("No game with this id."), field="id")
        level = _level_of(row[0], digest, row[1])
        if level == Level.OWNER:
            self.owners.put((game_id, digest), True)
        return level

    def page(self, game_id: str, token: str | None) -> tuple[int, int, Level] | None:
        """The game's revision, the number of its last manche (0 before the first) and what
        ``token`` allows on it, in one statement; None when there is no such game."""
        digest = token_hash(token) if _usable(token) else ""
        row = self.db.lookup(PAGE_LEVEL, digest, checked_id(game_id))
        if row is None:
            return None
        return row[0], row[1], _level_of(row[2], digest, row[3])

    def note_use(self, game_id: str, token: str) -> None:
        """Note that an invite wrote to its game: one UPDATE, and only when the last use noted is
        more than ``USE_GRAIN`` old (a table entering manches does not write this every time)."""
        if not _usable(token):
            return
        now = utcnow()
        with Session(self.db.writer) as session, session.begin():
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

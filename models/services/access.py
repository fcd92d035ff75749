"""Who may change what: the one answer to "may this token write to this game / these house rules?".

A game's creator holds its edit token (the OWNER: it may also invite and revoke scorekeepers); a
scorekeeper holds an invite token (SCOREKEEPER: it records, edits and deletes manches) until the
owner revokes it, or the member token of the group the game was played in (a SCOREKEEPER too)
until the group's owner removes that phone. House rules have an owner only. Tokens are never stored, only their SHA-256
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
from .db import Database, Game, GroupMember, HouseVariant, Invite, Manche, token_hash, utcnow
from .ids import checked_house_id, checked_id
from .lru import LRU
from .unit_of_work import along

MAX_TOKEN = 200
USE_GRAIN = timedelta(minutes=1)  # an invite's last use is noted to the minute


# Whether the token (its hash) is a live invite of the game.
INVITED = (
    exists()
    .where(Invite.game_id == Game.id, Invite.token_hash == bindparam("digest"), Invite.revoked_at.is_(None))
    .label("invited")
)
MAX_MEMBERSHIPS = 10  # the member tokens one request may show (a phone keeps its 10 latest groups)
# One parameter per member token a request may show, unused ones empty (no token hashes to ""):
# the statement is the same whatever their number, compiled once.
MEMBER_PARAMS = tuple(f"member{i}" for i in range(MAX_MEMBERSHIPS))
# Whether one of the member tokens (their hashes) is a member, not removed, of the game's group.
MEMBER = (
    exists()
    .where(
        GroupMember.group_id == Game.group_id,
        GroupMember.token_hash.in_([bindparam(name) for name in MEMBER_PARAMS]),
        GroupMember.removed_at.is_(None),
    )
    .label("member")
)
# Whether one of the member tokens is a member the owner removed from the game's group.
REMOVED = select(Game.id).where(
    Game.id == bindparam("game_id"),
    exists().where(
        GroupMember.group_id == Game.group_id,
        GroupMember.token_hash.in_([bindparam(name) for name in MEMBER_PARAMS]),
        GroupMember.removed_at.is_not(None),
    ),
)
LAST_NUMBER = (
    select(func.coalesce(func.max(Manche.number), 0)).where(Manche.game_id == Game.id).scalar_subquery().label("last")
)
# A write's question: the game's edit token (its hash), whether the token is a live invite,
# whether a member token opens the game's group, and the group (a group's game is closed to a
# request that holds none of its rights).
GAME_LEVEL = select(Game.edit_token_hash, INVITED, MEMBER, Game.group_id).where(Game.id == bindparam("game_id"))
# The game page's question: the revision and last manche its cache key holds, what the token
# allows and whether the game is in a group, in one statement.
PAGE_LEVEL = select(Game.revision, LAST_NUMBER, Game.edit_token_hash, INVITED, MEMBER, Game.group_id).where(
    Game.id == bindparam("game_id")
)


class Level(IntEnum):
    NONE = 0
    SCOREKEEPER = 1
    OWNER = 2


def _usable(token) -> bool:
    return isinstance(token, str) and 0 < len(token) <= MAX_TOKEN


MAX_MEMBERSHIPS = 10  # the member tokens one request may show (a phone keeps its 10 latest groups)


def _level_of(edit_token_hash: str, digest: str, invited, member=False) -> Level:
    """OWNER when the token is the game's edit token, SCOREKEEPER when it is a live invite or a
    member token opens the game's group."""
    if digest and hmac.compare_digest(edit_token_hash, digest):
        return Level.OWNER
    return Level.SCOREKEEPER if (digest and invited) or member else Level.NONE


def closed(level: Level, group_id: str | None) -> bool:
    """A game of a group, to a request that holds none of its rights: its id alone reads nothing."""
    return group_id is not None and level == Level.NONE


def member_digests(members) -> list[str]:
    """The hashes of the member tokens a request shows (the usable ones, at most ``MAX_MEMBERSHIPS``)."""
    return [token_hash(t) for t in members if _usable(t)][:MAX_MEMBERSHIPS]


def member_params(members) -> dict[str, str]:
    """``MEMBER``'s parameters for the member tokens a request shows."""
    digests = member_digests(members)
    return {name: digests[i] if i < len(digests) else "" for i, name in enumerate(MEMBER_PARAMS)}


OWNERS_KEPT = 4096  # (game, edit token's hash) pairs found to be the game's owner, per process


class AccessService:
    def __init__(self, database: Database):
        self.db = database
        # A game's edit token never changes and a game is never deleted: once a token was found to
        # be a game's own, it stays so, and the owner's next writes ask nothing. An invite can be
        # revoked: a scorekeeper's rights are asked every time. The figure that needs it: manche
        # writes ≥ 0.33× a bare INSERT (0.35×); without it a write costs 15 % more CPU
        # (bench/memos.py: +3.6× the bare page's CPU on 23.3×), about 0.30×.
        self.owners = LRU(OWNERS_KEPT)

    def game(self, game_id: str, token: str | None, members=()) -> Level:
        """What ``token`` allows on the game: OWNER (its edit token), SCOREKEEPER (an invite not
        revoked, or one of ``members`` a member token of the game's group) or NONE. A game that
        does not exist is not found, whatever the token. A member's rights are asked every time:
        a phone removed from the group loses them at once."""
        return self.sight(game_id, token, members)[0]

    def sight(self, game_id: str, token: str | None, members=()) -> tuple[Level, bool]:
        """``game``'s level, and whether the game is closed to these tokens: a group's game that
        none of them opens (neither its own rights nor a member token of its group), which the id
        alone does not read. One statement (none for an owner already known)."""
        digest = token_hash(token) if _usable(token) else ""
        game_id = checked_id(game_id)
        if digest and self.owners.get((game_id, digest)):
            return Level.OWNER, False
        params = {"digest": digest, "game_id": game_id, **member_params(members)}
        row = self.db.first(GAME_LEVEL, params)
        if row is None:
            raise NotFound(N_("No game with this id."), field="id")
        level = _level_of(row.edit_token_hash, digest, row.invited, row.member)
        if level == Level.OWNER:
            self.owners.put((game_id, digest), True)
        return level, closed(level, row.group_id)

    def page(self, game_id: str, token: str | None, members=()) -> tuple[int, int, Level, bool] | None:
        """The game's revision, the number of its last manche (0 before the first), what
        ``token`` (or one of the member tokens ``members``) allows on it and whether the game is
        closed to them (``sight``), in one statement; None when there is no such game."""
        digest = token_hash(token) if _usable(token) else ""
        params = {"digest": digest, "game_id": checked_id(game_id), **member_params(members)}
        row = self.db.first(PAGE_LEVEL, params)
        if row is None:
            return None
        level = _level_of(row.edit_token_hash, digest, row.invited, row.member)
        return row.revision, row.last, level, closed(level, row.group_id)

    def removed(self, game_id: str, members) -> bool:
        """Whether one of the member tokens ``members`` is a phone removed from the game's group
        (asked only when a write is refused, to say why): one statement."""
        if not member_digests(members):
            return False
        params = {"game_id": checked_id(game_id), **member_params(members)}
        return self.db.first(REMOVED, params) is not None

    @staticmethod
    def note_use(game_id: str, token: str) -> None:
        """Note that an invite writes to its game, with the write itself (``unit_of_work.along``):
        one UPDATE in its transaction, changing a row only when the last use noted is more than
        ``USE_GRAIN`` old; a request that writes nothing notes nothing."""
        if not _usable(token):
            return
        now = utcnow()
        statement = (
            update(Invite)
            .where(
                Invite.game_id == checked_id(game_id),
                Invite.token_hash == token_hash(token),
                Invite.revoked_at.is_(None),
                or_(Invite.last_used_at.is_(None), Invite.last_used_at < now - USE_GRAIN),
            )
            .values(last_used_at=now)
        )
        along(lambda session: session.execute(statement))

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

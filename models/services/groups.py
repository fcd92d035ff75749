"""Groups (« une tablée »): people who play together, the phones that are its members, and its games.

A phone becomes a member by an invite link (its token stored hashed, revocable by the owner) and
then holds a member token of its own (stored hashed too): it sees every game of the group and may
record them (``access.py`` asks the same table: a member is a scorekeeper of the group's games).
The owner removes a phone (its rights end with the next request; the streams of the group's games
in progress hear a change of rights and end) and hands the group over. ``watch_id`` opens a
read-only page that shows no invite.

Every write is one unit of work; every question one statement.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from ..core import standings
from ..core.errors import N_, Conflict, Forbidden, NotFound, ValidationError
from ..core.names import InvalidName, clean_name
from . import history
from .access import MEMBER_PARAMS, member_digests, member_params
from .db import Database, Game, GroupAlias, GroupInvite, GroupMember, Player, PlayGroup, token_hash, utcnow
from .group_links import LIVE, JoinLinks, acting
from .ids import checked_id, new_id
from .lru import LRU
from .stored import columns_of
from .unit_of_work import unit_of_work

MAX_GROUP_NAME = 60


class StoredGroup(NamedTuple):
    id: str
    name: str
    watch_id: str
    revision: int
    created_at: datetime


class StoredMember(NamedTuple):
    """A phone in a group: ``number`` is its place in the order of joining (1 the first, the
    phones removed since counted), which tells apart the phones that gave no name."""

    id: str
    name: str | None
    owner: bool
    joined_at: datetime
    number: int
    seen_at: datetime | None  # the day it last opened the group's page (None: not since it joined)


class RemovedMember(NamedTuple):
    """A phone the owner removed from the group, as the owner's list still names it."""

    name: str | None
    number: int  # its place in the order of joining
    removed_at: datetime


class StoredAlias(NamedTuple):
    """A merge: ``person`` counts as ``counted_as`` in the group's standings."""

    id: str
    person: str
    counted_as: str
    created_at: datetime


class Membership(NamedTuple):
    """The member a request is in a group: its id, whether it owns the group, and the group's
    revision (it moves with every change of the group or of one of its games: migration 0015)."""

    member_id: str
    owner: bool
    revision: int
    seen_at: datetime | None = None  # the day this phone last opened the group's page


GROUP_COLUMNS = columns_of(StoredGroup, PlayGroup)
EARLIER = aliased(GroupMember)
JOIN_ORDER = (
    select(func.count(EARLIER.id))
    .where(
        EARLIER.group_id == GroupMember.group_id,
        or_(
            EARLIER.joined_at < GroupMember.joined_at,
            and_(EARLIER.joined_at == GroupMember.joined_at, EARLIER.id <= GroupMember.id),
        ),
    )
    .correlate(GroupMember)
    .scalar_subquery()
)
MEMBER_COLUMNS = [
    GroupMember.id,
    GroupMember.name,
    GroupMember.owner,
    GroupMember.joined_at,
    JOIN_ORDER.label("number"),
    GroupMember.seen_at,
]
ALIAS_COLUMNS = columns_of(StoredAlias, GroupAlias)
# The group page's first question: one parameter per member token a phone may show.
MEMBERSHIP = (
    select(GroupMember.id, GroupMember.owner, PlayGroup.revision, GroupMember.seen_at)
    .join(PlayGroup, PlayGroup.id == GroupMember.group_id)
    .where(
        GroupMember.group_id == bindparam("group_id"),
        GroupMember.token_hash.in_([bindparam(name) for name in MEMBER_PARAMS]),
        LIVE,
    )
)


def checked_name(name, field: str = "name", refused: str = N_("Give the group a name (at most 60 characters).")) -> str:
    """A group's name, or a club night's (``refused``: what to say of an empty or unreadable one,
    the night's words), through the one rule for names, at most ``MAX_GROUP_NAME`` characters."""
    try:
        return clean_name(name if isinstance(name, str) else "", MAX_GROUP_NAME, field=field)
    except InvalidName as error:
        raise ValidationError(refused, field=field) from error


def phone_name(name) -> str | None:
    """What a joining phone calls itself: a clean name, or None."""
    try:
        return clean_name(name, 40, field="name") if isinstance(name, str) and name.strip() else None
    except InvalidName:
        return None


class GroupService(JoinLinks):
    def __init__(self, database: Database):
        self.db = database
        # (game id, revision) -> the game's ``standings.GameResult``, or None while it is not
        # finished: derived from the game's rows (their one owner) under the revision just read.
        # bench/group.py's group of 5,000 games (1.47× a bare page, budget ≤ 2×) needs it.
        self.results = LRU(100_000, 32 * 1024 * 1024, result_bytes)
        # group id -> (its revision, when it was read), a copy of play_group.revision (its one owner)
        # at most ``fresh`` seconds old: what the open group pages ask every second. The figure that
        # needs it: a poll answered from it costs 351 µs of CPU, 699 µs when it reads (bench/README.md).
        self.revisions = LRU(100_000)

    # --- questions ---------------------------------------------------------------------------

    def membership(self, group_id: str, tokens) -> Membership | None:
        """The member one of ``tokens`` is in the group (not removed), or None: one statement."""
        if not member_digests(tokens):
            return None
        row = self.db.first(MEMBERSHIP, {"group_id": checked_id(group_id), **member_params(tokens)})
        return None if row is None else Membership._make(row)

    def member_of(self, group_id: str, tokens) -> Membership:
        """The membership, or not found: a group says nothing to a phone that is not a member."""
        found = self.membership(group_id, tokens)
        if found is None:
            raise NotFound(N_("No group with this id."), field="id")
        return found

    def revision(self, group_id: str, fresh: float) -> int | None:
        """The group's revision (None: no such group) as read at most ``fresh`` seconds ago in this
        process: one statement per group and ``fresh`` seconds, whatever the number of its pages asking."""
        kept, now = self.revisions.get(group_id), time.monotonic()
        if kept is not None and now - kept[1] < fresh:
            return kept[0]
        row = self.db.first(select(PlayGroup.revision).where(PlayGroup.id == checked_id(group_id)))
        revision = None if row is None else row.revision
        self.revisions.put(group_id, (revision, now))
        return revision

    def groups_of(self, tokens) -> list[StoredGroup]:
        """The groups ``tokens`` are members of (not removed), by name: one statement."""
        digests = member_digests(tokens)
        if not digests:
            return []
        query = (
            select(*GROUP_COLUMNS)
            .join(GroupMember, GroupMember.group_id == PlayGroup.id)
            .where(GroupMember.token_hash.in_(digests), LIVE)
            .order_by(PlayGroup.name, PlayGroup.id)
        )
        return [StoredGroup._make(row) for row in self.db.all(query)]

    def group(self, group_id: str) -> StoredGroup:
        row = self.db.first(select(*GROUP_COLUMNS).where(PlayGroup.id == checked_id(group_id)))
        if row is None:
            raise NotFound(N_("No group with this id."), field="id")
        return StoredGroup._make(row)

    def watched(self, watch_id: str) -> StoredGroup:
        row = self.db.first(select(*GROUP_COLUMNS).where(PlayGroup.watch_id == checked_id(watch_id)))
        if row is None:
            raise NotFound(N_("No group with this id."), field="id")
        return StoredGroup._make(row)

    def members(self, group_id: str) -> list[StoredMember]:
        """The phones in the group now, the owner first, then by joining."""
        return self.roll(group_id)[0]

    def roll(self, group_id: str) -> tuple[list[StoredMember], list[RemovedMember]]:
        """The phones in the group now, the owner first, then by joining, and those removed from it,
        the latest removed first (the owner's list names them): one statement."""
        query = (
            select(*MEMBER_COLUMNS, GroupMember.removed_at)
            .where(GroupMember.group_id == checked_id(group_id))
            .order_by(GroupMember.owner.desc(), GroupMember.joined_at, GroupMember.id)
        )
        rows = self.db.all(query)
        members = [StoredMember._make(row[:-1]) for row in rows if row.removed_at is None]
        removed = [RemovedMember(row.name, row.number, row.removed_at) for row in rows if row.removed_at is not None]
        return members, sorted(removed, key=lambda m: m.removed_at, reverse=True)

    def visited(self, group_id: str, membership: Membership, now: datetime) -> Membership:
        """This phone opened the group's page at ``now``: its last visit is kept by the day (one
        write a member a day, which moves the group's revision, as the owner's page shows it)."""
        if membership.seen_at is not None and membership.seen_at.date() >= now.date():
            return membership
        with unit_of_work(self.db) as session:
            session.execute(update(GroupMember).where(GroupMember.id == membership.member_id).values(seen_at=now))
            revision = session.execute(
                update(PlayGroup)
                .where(PlayGroup.id == checked_id(group_id))
                .values(revision=PlayGroup.revision + 1)
                .returning(PlayGroup.revision)
            ).scalar_one()
        return membership._replace(seen_at=now, revision=revision)

    def rename(self, group_id: str, member_id: str, name, *, by: str) -> None:
        """The owner ``by`` names a phone of the group (as it would have named itself)."""
        name = phone_name(name)
        if name is None:
            raise ValidationError(N_("Give this phone a name (at most 40 characters)."), field="name")
        with unit_of_work(self.db) as session:
            acting(session, group_id, by)
            done = session.execute(
                update(GroupMember)
                .where(GroupMember.group_id == checked_id(group_id), GroupMember.id == checked_id(member_id), LIVE)
                .values(name=name)
            )
            if done.rowcount != 1:
                raise NotFound(N_("No such phone in this group."), field="member")
            self._bump(session, group_id)

    def group_of_game(self, game_id: str) -> str | None:
        """The group a game is played in, or None (no such game either): one statement."""
        row = self.db.first(select(Game.group_id).where(Game.id == checked_id(game_id)))
        return None if row is None else row.group_id

    def aliases(self, group_id: str) -> list[StoredAlias]:
        """The owner's merges of two spellings, oldest first: one statement."""
        query = select(*ALIAS_COLUMNS).where(GroupAlias.group_id == checked_id(group_id))
        return [StoredAlias._make(row) for row in self.db.all(query.order_by(GroupAlias.created_at, GroupAlias.id))]

    def people(self, group_id: str, limit: int | None = None) -> list[str]:
        """The group's players, each person once, by the spelling the group last used, its merges
        followed, the most played first (``standings.people``): two statements."""
        group_id = checked_id(group_id)
        query = (
            select(Player.name, func.count(func.distinct(Player.game_id)), func.max(Game.created_at))
            .join(Game, Game.id == Player.game_id)
            .where(Game.group_id == group_id)
            .group_by(Player.name)
        )
        uses = [tuple(row) for row in self.db.all(query)]
        return standings.people(uses, merges_of(self.aliases(group_id)), limit)

    # --- writes ------------------------------------------------------------------------------

    def create(self, name, member_name=None, game_id: str | None = None) -> tuple[str, str]:
        """A new group and its owner (this phone): returns (group id, the owner's member token).
        ``game_id``, a game the caller owns, is played in the group from now on."""
        name = checked_name(name)
        group_id, token = new_id(), secrets.token_urlsafe(24)
        with unit_of_work(self.db) as session:
            session.add(PlayGroup(id=group_id, name=name, watch_id=new_id()))
            session.flush()
            session.add(
                GroupMember(
                    id=new_id(),
                    group_id=group_id,
                    token_hash=token_hash(token),
                    name=phone_name(member_name),
                    owner=True,
                )
            )
            if game_id is not None:
                self._move_game(session, group_id, game_id)
        return group_id, token

    def join(self, group_id: str, invite_token, name=None, phone: str | None = None, secret: bytes = b"") -> str:
        """A phone joins by an invite that opens (``open_invite``, asked again inside the write,
        the invite's row locked): returns its own member token. ``phone`` (who joins, with the
        server's ``secret``) makes the member's id and token derived from it and the invite: the
        same phone joining by the same link again, even at the same moment, is the same member,
        answered the same token."""
        self.open_invite(group_id, invite_token)
        member_id, token = new_id(), secrets.token_urlsafe(24)
        if phone is not None:
            digest = hashlib.sha256(f"carte-join\0{group_id}\0{invite_token}\0{phone}".encode()).digest()
            member_id = base64.urlsafe_b64encode(digest).decode()[:22]
            token = derived_token(secret, member_id)
        try:
            with unit_of_work(self.db) as session:
                locked = token_hash(invite_token)
                session.execute(select(GroupInvite.id).where(GroupInvite.token_hash == locked).with_for_update())
                invite = self.open_invite(group_id, invite_token, session)
                session.add(
                    GroupMember(
                        id=member_id,
                        group_id=group_id,
                        token_hash=token_hash(token),
                        name=phone_name(name),
                        invite_id=invite.id,
                    )
                )
                self._bump(session, group_id)
        except IntegrityError as error:  # this phone joined by this link already, maybe at the same moment
            if phone is None:
                raise
            if self.membership(group_id, [token]) is None:
                raise Conflict(
                    N_("This phone was removed from the group: ask for a new link."), field="token"
                ) from error
        return token

    def remove(self, group_id: str, member_id: str, *, by: str) -> None:
        """The owner ``by`` takes a phone out: its rights end now. The group's games in progress get
        a new revision, so that their open streams ask their rights again (and the phone's end)."""
        with unit_of_work(self.db) as session:
            acting(session, group_id, by)
            done = session.execute(
                update(GroupMember)
                .where(GroupMember.group_id == checked_id(group_id), GroupMember.id == checked_id(member_id))
                .where(LIVE, GroupMember.owner.is_(False))
                .values(removed_at=utcnow())
            )
            if done.rowcount != 1:
                raise NotFound(N_("No such phone in this group."), field="member")
            session.execute(
                update(Game)
                .where(Game.group_id == group_id, Game.finished_at.is_(None))
                .values(revision=Game.revision + 1)
            )
            self._bump(session, group_id)

    def removed(self, group_id: str, tokens) -> bool:
        """Whether one of ``tokens`` is a phone the owner removed from the group (asked only when
        a write is refused, to say why): one statement."""
        if not member_digests(tokens):
            return False
        query = select(GroupMember.id).where(
            GroupMember.group_id == checked_id(group_id),
            GroupMember.token_hash.in_(member_digests(tokens)),
            GroupMember.removed_at.is_not(None),
        )
        return self.db.first(query) is not None

    def hand_over(self, group_id: str, owner_id: str, member_id: str) -> None:
        """The owner gives the group to another member (and stays a member). Inside the
        transaction, the caller stops being the owner only if it still is (one statement, which
        holds its row: a hand-over sent at the same moment waits, then finds it no longer owner
        and is refused), then the member becomes it: the group has one owner whatever the timing."""
        if owner_id == member_id:
            raise ValidationError(N_("This phone owns the group already."), field="member")
        group_id = checked_id(group_id)
        with unit_of_work(self.db) as session:
            mine = session.execute(
                update(GroupMember)
                .where(GroupMember.group_id == group_id, GroupMember.id == owner_id, GroupMember.owner.is_(True), LIVE)
                .values(owner=False)
            )
            if mine.rowcount != 1:
                raise Forbidden(N_("Only the group's owner can do this."))
            target = session.execute(
                update(GroupMember)
                .where(GroupMember.group_id == group_id, GroupMember.id == checked_id(member_id), LIVE)
                .values(owner=True)
            )
            if target.rowcount != 1:
                raise NotFound(N_("No such phone in this group."), field="member")
            self._bump(session, group_id)

    def add_game(self, group_id: str, game_id: str) -> None:
        """A game made before (the caller owns it) is played in the group from now on."""
        with unit_of_work(self.db) as session:
            self._move_game(session, checked_id(group_id), game_id)

    def _move_game(self, session, group_id: str, game_id: str) -> None:
        done = session.execute(
            update(Game)
            .where(Game.id == checked_id(game_id), Game.group_id.is_(None))
            .values(group_id=group_id, taken_from=None, revision=Game.revision + 1)
        )
        if done.rowcount != 1:
            raise ValidationError(N_("This game is already in a group."), field="game")

    def merge(self, group_id: str, person: str, counted_as: str, *, by: str) -> None:
        """``person`` counts as ``counted_as`` in the group's standings from now on (the view has
        shown the preview and checked both are persons of the group, neither merged already).
        Checked again inside the transaction, the group's row held first (two merges of one group
        take turns): neither may be merged already, so that no merge closes a loop."""
        if standings.person(person) != person or standings.person(counted_as) != counted_as or person == counted_as:
            raise ValidationError(N_("Choose two different players of the group."), field="b")
        group_id = checked_id(group_id)
        try:
            with unit_of_work(self.db) as session:
                acting(session, group_id, by)
                self._bump(session, group_id)
                merged = set(
                    session.execute(
                        select(GroupAlias.person).where(
                            GroupAlias.group_id == group_id, GroupAlias.person.in_([person, counted_as])
                        )
                    ).scalars()
                )
                if person in merged:
                    raise ValidationError(N_("This player is merged already."), field="b")
                if counted_as in merged:
                    raise ValidationError(
                        N_("This player counts as another one already: merge into that one."), field="a"
                    )
                session.add(GroupAlias(id=new_id(), group_id=group_id, person=person, counted_as=counted_as))
        except IntegrityError as error:  # merged already, by another request
            raise ValidationError(N_("This player is merged already."), field="b") from error

    def unmerge(self, group_id: str, alias_id: str, *, by: str) -> None:
        """The merge undone by the owner ``by``: the two spellings are two people again (nothing
        else was changed)."""
        with unit_of_work(self.db) as session:
            acting(session, group_id, by)
            done = session.execute(
                delete(GroupAlias).where(
                    GroupAlias.group_id == checked_id(group_id), GroupAlias.id == checked_id(alias_id)
                )
            )
            if done.rowcount != 1:
                raise NotFound(N_("No such merge in this group."), field="merge")
            self._bump(session, group_id)

    @staticmethod
    def _bump(session, group_id: str) -> None:
        session.execute(update(PlayGroup).where(PlayGroup.id == group_id).values(revision=PlayGroup.revision + 1))

    # --- the games ---------------------------------------------------------------------------

    def game_rows(self, group_id: str) -> list[tuple[str, int]]:
        """The group's games as ``(id, revision)``, oldest first: one statement."""
        query = (
            select(Game.id, Game.revision)
            .where(Game.group_id == checked_id(group_id))
            .order_by(Game.created_at, Game.id)
        )
        return [tuple(row) for row in self.db.all(query)]

    def summaries(self, summaries: history.Summaries, group_id: str) -> list:
        """The group's games summed up (``summaries``: each game played through once per
        revision), oldest first: a constant number of statements whatever their number."""
        return summaries.of(self.game_rows(group_id))

    def games(self, summaries: history.Summaries, group_id: str, newest: int) -> GroupGames:
        """The group's games as its page reads them: their number, the ``newest`` summed up, and
        the finished ones as the standings read them. Those are kept per game and revision
        (``results``, far smaller than a summary): after a change only the games it touched are
        played through again. A constant number of statements whatever the number of games."""
        rows = self.game_rows(group_id)
        known = {row: self.results.get(row, MISSING) for row in rows}
        missing = [row for row, result in known.items() if result is MISSING]
        for summary in summaries.of(missing) if missing else ():
            key = (summary.id, summary.revision)
            known[key] = self.results.put(key, result_of(summary) if summary.finished else None)
        latest = summaries.of(rows[::-1][:newest])
        finished = [result for result in known.values() if result is not None and result is not MISSING]
        return GroupGames(len(rows), latest, finished)


class GroupGames(NamedTuple):
    """A group's games as its page reads them (``GroupService.games``)."""

    count: int
    newest: list  # history.GameSummary, newest first
    finished: list  # standings.GameResult, oldest first, each game under the names it was played with


MISSING = object()  # not known at this revision yet


def result_bytes(result) -> int:
    """An upper estimate of the memory a game's result holds: its names and points per manche."""
    return 512 if result is None else 1024 + 64 * sum(len(points) for points in result.points.values())


def derived_token(secret: bytes, member_id: str) -> str:
    """A member's token derived from its id with the server's ``secret`` (which nobody else has):
    every answer to one phone's join, or one importer's import, gives the same one. Without a
    secret anyone could make it: refused."""
    if not secret:
        raise ValueError("a member's token is derived with the server's secret")
    digest = hmac.new(secret, b"carte-member-token\0" + member_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:32]


def merges_of(aliases) -> dict[str, str]:
    """The group's merges (``StoredAlias`` rows) as the standings apply them: person -> counted as."""
    return {alias.person: alias.counted_as for alias in aliases}


def result_of(summary) -> standings.GameResult:
    """A finished game as the standings read it: its names, each side's points per manche and its
    winners, by person."""
    names, points, winners = {}, {}, set()
    for name in summary.players:
        who = standings.person(name)
        part = summary.parts[name]
        names[who] = name
        points[who] = tuple(p for _, p in part.manches)
        if part.side in summary.standing.winners:
            winners.add(who)
    return standings.GameResult(
        summary.created_at, summary.variant.id, names, points, frozenset(winners), summary.lower_is_better, summary.id
    )


def results(summaries, aliases=()) -> list[standings.GameResult]:
    """The finished games among ``summaries``, for the standings, each merged person (``aliases``,
    the group's ``StoredAlias`` rows) counted as the one they were merged into."""
    return standings.merged([result_of(s) for s in summaries if s.finished], merges_of(aliases))


def addable(database: Database, game_ids) -> list[tuple[str, int]]:
    """Of ``game_ids`` (the games a phone owns), those in no group yet, newest first: one statement."""
    ids = list(game_ids)
    if not ids:
        return []
    query = select(Game.id, Game.revision).where(Game.id.in_(ids), Game.group_id.is_(None))
    return [tuple(row) for row in database.all(query.order_by(Game.created_at.desc(), Game.id))]

"""A group's join links (« liens d'invitation »): each for one phone, a number of phones or any
number, until revoked or a last day; a link used by a phone the owner removed since opens no more.
And the one check of a member's write (``acting``), asked inside the write.

Every write is one unit of work; every question one statement.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import func, select, update

from ..core.errors import N_, Forbidden, NotFound, ValidationError
from .access import member_digests
from .db import GroupInvite, GroupMember, token_hash, utcnow
from .ids import checked_id, new_id
from .unit_of_work import unit_of_work

LIVE = GroupMember.removed_at.is_(None)
REMOVED_FROM_GROUP = N_(
    "This phone was removed from the group: it no longer belongs to it and can change nothing in it."
    " To come back, ask the group's owner for a new join link."
)


MAX_LINK_USES = 50  # the most phones one join link may be for, when limited


class StoredGroupInvite(NamedTuple):
    """A join link: ``uses`` the phones that joined through it, ``removed`` how many of them the
    owner has removed since (the link then opens no more), ``max_uses`` its limit (None: none),
    ``expires_at`` the moment it stops opening (None: never)."""

    id: str
    created_at: datetime
    revoked_at: datetime | None
    max_uses: int | None
    expires_at: datetime | None
    uses: int
    removed: int

    @property
    def used_up(self) -> bool:
        return self.max_uses is not None and self.uses >= self.max_uses

    @property
    def last_day(self):
        """The last day the link opens (it stops at the next midnight, UTC), or None."""
        return None if self.expires_at is None else (self.expires_at - timedelta(days=1)).date()

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= utcnow()

    @property
    def closed(self) -> bool:
        """Whether the link opens no more though it was not revoked: used up, past its day, or
        used by a phone removed since."""
        return self.removed > 0 or self.used_up or self.expired


JOINED_THROUGH = GroupMember.invite_id == GroupInvite.id


def _count_of(*where):
    return select(func.count(GroupMember.id)).where(*where).correlate(GroupInvite).scalar_subquery()


INVITE_COLUMNS = [
    GroupInvite.id,
    GroupInvite.created_at,
    GroupInvite.revoked_at,
    GroupInvite.max_uses,
    GroupInvite.expires_at,
    _count_of(JOINED_THROUGH).label("uses"),
    _count_of(JOINED_THROUGH, GroupMember.removed_at.is_not(None)).label("removed"),
]


class JoinLinks:
    """A group service's join links (``GroupService`` holds ``db`` and ``_bump``)."""

    def invites(self, group_id: str) -> list[StoredGroupInvite]:
        query = select(*INVITE_COLUMNS).where(GroupInvite.group_id == checked_id(group_id))
        return [StoredGroupInvite._make(row) for row in self.db.all(query.order_by(GroupInvite.created_at))]

    def create_invite(
        self, group_id: str, max_uses: int | None = None, expires_at: datetime | None = None, *, by: str
    ) -> str:
        """A new invite link's token (shown once, stored hashed), for ``max_uses`` phones (None: as
        many as open it) until ``expires_at`` (None: until revoked); made by ``by``, a member
        (still one: ``acting``)."""
        if max_uses is not None and not (isinstance(max_uses, int) and 1 <= max_uses <= MAX_LINK_USES):
            raise ValidationError(
                N_("A join link is for 1 to %(max)s phones, or for any number."), field="uses", max=MAX_LINK_USES
            )
        if expires_at is not None and expires_at <= utcnow():
            raise ValidationError(N_("A join link's last day cannot be in the past."), field="until")
        token = secrets.token_urlsafe(24)
        with unit_of_work(self.db) as session:
            acting(session, group_id, by, owner=False)
            session.add(
                GroupInvite(
                    id=new_id(),
                    group_id=checked_id(group_id),
                    token_hash=token_hash(token),
                    max_uses=max_uses,
                    expires_at=expires_at,
                )
            )
            self._bump(session, group_id)
        return token

    def revoke_invite(self, group_id: str, invite_id: str, *, by: str) -> None:
        """The owner ``by`` revokes a link: it opens nothing from now on."""
        with unit_of_work(self.db) as session:
            acting(session, group_id, by)
            done = session.execute(
                update(GroupInvite)
                .where(GroupInvite.group_id == checked_id(group_id), GroupInvite.id == checked_id(invite_id))
                .where(GroupInvite.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )
            if done.rowcount != 1:
                raise NotFound(N_("No such invite."), field="invite")
            self._bump(session, group_id)

    def open_invite(self, group_id: str, token, session=None) -> StoredGroupInvite:
        """The invite ``token`` opens in the group, or why it opens nothing: not found when it is
        revoked or not of this group, refused when it is used up or a phone that joined through it
        was removed (such a phone comes back only through a new link)."""
        row = None
        if member_digests([token]):
            query = select(*INVITE_COLUMNS).where(
                GroupInvite.group_id == checked_id(group_id), GroupInvite.token_hash == token_hash(token)
            )
            row = self.db.first(query) if session is None else session.execute(query).first()
        if row is None or row.revoked_at is not None:
            raise NotFound(N_("This invite was revoked or is not for this group: ask for a new one."), field="token")
        invite = StoredGroupInvite._make(row)
        if invite.removed:
            raise Forbidden(
                N_(
                    "A phone that joined through this link was removed from the group: the link opens no more."
                    " Ask the group's owner for a new one."
                ),
                field="token",
            )
        if invite.expired:
            raise Forbidden(N_("This link's last day has passed: ask the group's owner for a new one."), field="token")
        if invite.used_up and invite.max_uses == 1:
            raise Forbidden(N_("This link was for one phone, and it has joined: ask the group's owner for a new one."))
        if invite.used_up:
            raise Forbidden(
                N_("Every phone this link was for has joined: ask the group's owner for a new one."), field="token"
            )
        return invite


def acting(session, group_id: str, member_id: str, owner: bool = True) -> None:
    """A member's write goes on only if ``member_id`` is a member now (the owner, with
    ``owner``), asked inside the write: its member row read and held. A hand-over or a removal
    at the same moment (which changes that row) waits for this write to end, or this write
    for it and then finds it gone: refused, whatever the phone's page said when it was sent."""
    query = select(GroupMember.id).where(
        GroupMember.group_id == checked_id(group_id), GroupMember.id == checked_id(member_id), LIVE
    )
    if owner:
        query = query.where(GroupMember.owner.is_(True))
    if session.execute(query.with_for_update()).first() is None:
        raise Forbidden(N_("Only the group's owner can do this.") if owner else REMOVED_FROM_GROUP)

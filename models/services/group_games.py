"""A game taken out of its group, and put back by the notice that follows (the undo).

The group's owner, or the phone that made the game, takes it out: the game is then in no group
(its members no longer see it; its own phone keeps it), its revision moves (its open streams ask
their rights again) and the group's moves with it (migration 0015's triggers on ``game``). The
game keeps the group it was taken from (``Game.taken_from``, migration 0019): putting it back
finds it there, in no group, and in no other since. A club night's table stays in its night's
group. The group's score sheet numbers its games from the group's games in order: one taken out
leaves no gap. Each write is one unit of work, one statement on ``game``.
"""

from __future__ import annotations

from sqlalchemy import select, update

from ..core.errors import N_, Conflict, Forbidden, NotFound, ValidationError
from .db import Database, Game
from .group_links import acting
from .ids import checked_id
from .unit_of_work import unit_of_work

NOT_YOURS = N_("Only the group's owner or the phone that made this game can take it out of the group.")


def allowed(session, group_id: str, owner: str | None, maker: bool) -> None:
    """The game's maker may (its rights never change); else the group's owner, asked inside the
    write (``groups.acting``: a hand-over at the same moment is not gone round); anyone else is
    refused, and told who may."""
    if maker:
        return
    if owner is None:
        raise Forbidden(NOT_YOURS)
    acting(session, group_id, owner)


def take_out(database: Database, group_id: str, game_id: str, owner: str | None, maker: bool) -> None:
    """The game leaves the group (``owner``: the member id of the group's owner, when the request
    is; ``maker``: it holds the game's own rights). Refused for a club night's table and for a
    game not in the group."""
    group_id, game_id = checked_id(group_id), checked_id(game_id)
    with unit_of_work(database) as session:
        allowed(session, group_id, owner, maker)
        done = session.execute(
            update(Game)
            .where(Game.id == game_id, Game.group_id == group_id, Game.night_id.is_(None))
            .values(group_id=None, taken_from=group_id, revision=Game.revision + 1)
        )
        if done.rowcount == 1:
            return
        night = session.execute(select(Game.night_id).where(Game.id == game_id, Game.group_id == group_id)).first()
    if night is not None:
        raise ValidationError(N_("This game is a table of a club night: it stays in the group."), field="game")
    raise NotFound(N_("No such game in this group."), field="game")


def put_back(database: Database, group_id: str, game_id: str, owner: str | None, maker: bool) -> None:
    """The undo: the game taken out of the group is in it again, as long as it is in no group and
    was taken out of this one (else a clear conflict: nothing to undo)."""
    group_id, game_id = checked_id(group_id), checked_id(game_id)
    with unit_of_work(database) as session:
        allowed(session, group_id, owner, maker)
        done = session.execute(
            update(Game)
            .where(Game.id == game_id, Game.group_id.is_(None), Game.taken_from == group_id)
            .values(group_id=group_id, taken_from=None, revision=Game.revision + 1)
        )
        if done.rowcount != 1:
            raise Conflict(N_("This game is no longer out of the group: there is nothing to undo."), field="game")


def taken_out(database: Database, group_id: str, game_id: str) -> tuple[str, int] | None:
    """The game as ``(id, revision)`` while it is out of the group and may be put back, else None:
    one statement."""
    try:
        game_id = checked_id(game_id)
    except NotFound:
        return None
    query = select(Game.id, Game.revision).where(
        Game.id == game_id, Game.group_id.is_(None), Game.taken_from == checked_id(group_id)
    )
    row = database.first(query)
    return None if row is None else tuple(row)

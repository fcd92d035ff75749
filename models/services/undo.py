"""Undo: the write that brought a game to a revision, taken back from the notice
that follows it — a manche saved (deleted again), edited (put back as it was) or deleted (put back
at its number), a player who joined (they no longer sit there, the others' places as they were) or
who left (back at their place, with their total).

Valid only while the game is still at that revision: any write in between makes the undo refused
(``changed()``), since undoing then would undo something else. What an edit, a deletion, a join or
a leave replaced is kept in the game's one ``UndoRecord`` (``game_input.keep_undo``); a save needs
none (the manche is simply the last one). The service runs the plan in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, insert, update
from sqlmodel import Session

from ..core.errors import N_, Conflict, NotFound, ValidationError
from . import keys
from .db import Hand, Manche, Player
from .game_input import check_no_change_after, existing_number, hand_rows, stored_row
from .game_view import GameRows, GameView
from .stored import StoredHand, manche_record, parts_from

MANCHE_KINDS = ("saved", "edited", "deleted")
SEAT_KINDS = ("joined", "left")
UNDO_KINDS = MANCHE_KINDS + SEAT_KINDS
MAX_SEATS = 100  # a seat number in a form beyond any table: there is nothing to undo there

NEW_MANCHE = insert(Manche.__table__).returning(Manche.id)
NEW_HANDS = insert(Hand.__table__)
PLAYER = Player.__table__
NEW_PLACE = (
    update(PLAYER)
    .where(PLAYER.c.game_id == bindparam("game"), PLAYER.c.seat == bindparam("at"))
    .values(place=bindparam("moved_to"))
)


def changed() -> Conflict:
    return Conflict(N_("The game changed since: this can no longer be undone. It is shown as it stands now."))


def replace_manche(session: Session, manche_id: int, columns: dict, hands: list[tuple]) -> None:
    """A recorded manche's columns and hands replaced (an edit, or its undo)."""
    session.execute(update(Manche).where(Manche.id == manche_id).values(**columns))
    session.execute(delete(Hand).where(Hand.manche_id == manche_id))
    session.execute(NEW_HANDS, hand_rows(manche_id, hands))


def move_places(session: Session, game: GameView, rows: GameRows) -> None:
    """Store the places of ``rows`` where they differ from ``game``'s (one batched statement)."""
    before = {seat: row.place for seat, row in enumerate(game.rows.players)}
    moved = [
        {"game": game.id, "at": seat, "moved_to": row.place}
        for seat, row in enumerate(rows.players)
        if seat in before and before[seat] != row.place
    ]
    if moved:
        session.execute(NEW_PLACE, moved)


@dataclass(frozen=True)
class UndoPlan:
    """An undo checked against the game as it stands: ``probe``, the rows as they will stand (a
    manche put back has no id yet: -1), and ``put_back``, its statements, answering the rows as
    written."""

    probe: GameRows
    put_back: Callable[[Session], GameRows]


def undo_target(kind, number, revision) -> int:
    """The manche number (or, for a join or a leave, the seat) an undo form names, checked."""
    if kind not in UNDO_KINDS:
        raise ValidationError(N_("There is nothing to undo."), field="kind")
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
        raise ValidationError(N_("There is nothing to undo."), field="revision")
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValidationError(N_("There is nothing to undo."), field="number")
    if kind in MANCHE_KINDS:
        return existing_number(number)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < MAX_SEATS:
        raise NotFound(N_("There is nothing to undo."), field="number")
    return number


def plan_undo(current: GameView, kind: str, number: int, record) -> UndoPlan:
    """The undo of the ``kind`` write about ``number`` that brought ``current`` to its revision;
    ``record`` is the game's ``UndoRecord`` (None if it has none). Refused (``changed()``) when
    that is not the last write made."""
    if kind == "saved":
        return _unsave(current, number)
    if record is None or (record.revision, record.kind, record.number) != (current.revision, kind, number):
        raise changed()
    kept = json.loads(record.manche_json)
    if kind in SEAT_KINDS:
        return (_unjoin if kind == "joined" else _unleave)(current, number, kept)
    columns = parts_from(kept)
    hands = [StoredHand._make(hand) for hand in kept["hands"]]
    if kind == "edited":
        stored = stored_row(current, number)

        def put_edit_back(session: Session) -> GameRows:
            replace_manche(session, stored.id, columns, hands)
            return current.rows.with_manche(manche_record(stored.id, number, columns), hands)

        return UndoPlan(current.rows.with_manche(manche_record(stored.id, number, columns), hands), put_edit_back)
    if number != current.next_number:
        raise changed()

    def put_deleted_back(session: Session) -> GameRows:
        keys.bring_back(session, current.id, current.revision)  # the keys the deletion marked
        row = {**columns, "game_id": current.id, "number": number, "created_at": record.created_at}
        manche_id = session.execute(NEW_MANCHE, [row]).scalar_one()
        session.execute(NEW_HANDS, hand_rows(manche_id, hands))
        return current.rows.with_manche(manche_record(manche_id, number, columns), hands)

    return UndoPlan(current.rows.with_manche(manche_record(-1, number, columns), hands), put_deleted_back)


def _unsave(current: GameView, number: int) -> UndoPlan:
    """A manche just saved, deleted again (only the last, nobody sat down or left after it)."""
    stored = stored_row(current, number)
    if number != current.rows.manches[-1].number:
        raise changed()
    check_no_change_after(current, number)
    rows = current.rows.without_manche(number)

    def put_back(session: Session) -> GameRows:
        keys.mark_gone(session, current.id, number, current.revision + 1)  # its keys stay, marked
        session.execute(delete(Hand).where(Hand.manche_id == stored.id))
        session.execute(delete(Manche).where(Manche.id == stored.id))
        return rows

    return UndoPlan(rows, put_back)


def _unjoin(current: GameView, seat: int, kept: dict) -> UndoPlan:
    """The newcomer at ``seat`` (the last seat: nobody joined after them) no longer sits at the
    table; the others go back to the places they had."""
    if seat != len(current.players) - 1 or current.players[seat] != kept.get("name"):
        raise changed()
    order = [other for other in current.table_seats if other != seat]
    rows = current.rows.without_player(seat).in_order(order)

    def put_back(session: Session) -> GameRows:
        session.execute(delete(Player).where(Player.game_id == current.id, Player.seat == seat))
        move_places(session, current, rows)
        return rows

    return UndoPlan(rows, put_back)


def _unleave(current: GameView, seat: int, kept: dict) -> UndoPlan:
    """The player at ``seat`` back at their place with their total, dealt from the next manche."""
    if seat >= len(current.players) or current.players[seat] != kept.get("name"):
        raise changed()
    row = current.rows.players[seat]
    rows = current.rows.with_player(seat, row._replace(left_after=None))

    def put_back(session: Session) -> GameRows:
        session.execute(update(Player).where(Player.game_id == current.id, Player.seat == seat).values(left_after=None))
        return rows

    return UndoPlan(rows, put_back)

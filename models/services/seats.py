"""Players joining or leaving mid-game, as plans for the game service: each checks the change
against the game as it stands and answers the game as it will stand, the statements that make it
so and what its "Undo" keeps (``game_work.run`` makes them in one transaction, the revision
compared and bumped).

A newcomer sits where they really sit: right after the player they name (by default after the
last one at the table, in table order). Their seat is the next one (a seat never changes: hands
and winners are stored by seat); their place around the table is right after that player's, and
the places after it move up by one. A player who leaves keeps their place, empty: the deal skips
it and the others keep their order.
"""

from __future__ import annotations

from sqlalchemy import insert, update
from sqlmodel import Session

from ..core import scoring, seating
from ..core.errors import N_, GameFinished, UnknownPlayer, ValidationError
from .db import Player
from .game_view import GameView, build_view
from .stored import StoredPlayer
from .undo import move_places


def refuse_taken(current: GameView, name: str) -> None:
    """Refuse a newcomer's name that a player of the game already has (case aside). A player who
    left comes back under another name, starting from the total the group chooses like any
    newcomer: their own total, frozen while they were away, would let a player sit out the
    manches they fear (in penalty mode, an advantage), and one name stays one stretch at the table."""
    taken = next((p for p in current.players if name.casefold() == p.casefold()), None)
    if taken is None:
        return
    if taken in current.gone:
        raise ValidationError(
            N_(
                "%(name)s left the table; their rounds and total stay under that name. To deal them in "
                "again, add them under another name (such as “%(name)s 2”), from the total you choose."
            ),
            field="name",
            name=taken,
        )
    raise ValidationError(N_("Two players are called “%(name)s”: tell them apart."), field="name", name=name)


def join_plan(name: str, start: str, after):
    """The plan of a newcomer ``name`` sitting down after the player ``after`` (None: after the
    last at the table), from the total ``start`` the group chose; dealt from the next manche."""

    def plan(current: GameView):
        if current.finished:
            raise GameFinished(N_("The game is over: nobody can join it any more."))
        refuse_taken(current, name)
        playing = current.seated
        scoring.check_roster_change(current.ruleset, current.teams, playing, joining=True)
        total = scoring.start_total(current.totals, playing, start)
        neighbour = seating.neighbour(playing, after)
        seat = len(current.players)
        order = seating.sit_after(current.table_seats, current.players.index(neighbour), seat)
        played = len(current.manches) + len(current.after_end)
        newcomer = StoredPlayer(name, None, joined_after=played, left_after=None, start_total=total, place=0)
        rows = current.rows.with_player(seat, newcomer).in_order(order)
        row = {"game_id": current.id, "seat": seat, **rows.players[seat]._asdict()}

        def write(session: Session) -> None:
            move_places(session, current, rows)
            session.execute(insert(Player.__table__), [row])

        return build_view(rows, current.ruleset), write, ("joined", seat, {"name": name})

    return plan


def leave_plan(name):
    """The plan of the player ``name`` leaving the table: their rounds and total stay, their place
    stays empty, they are no longer dealt to."""

    def plan(current: GameView):
        if current.finished:
            raise GameFinished(N_("The game is over: nobody can leave it any more."))
        if name not in current.seated:
            raise UnknownPlayer(N_("“%(player)s” is not at the table."), field="name", player=str(name))
        scoring.check_roster_change(current.ruleset, current.teams, current.seated, joining=False)
        seat = current.players.index(name)
        played = len(current.manches) + len(current.after_end)
        row = current.rows.players[seat]

        def write(session: Session) -> None:
            session.execute(
                update(Player).where(Player.game_id == current.id, Player.seat == seat).values(left_after=played)
            )

        rows = current.rows.with_player(seat, row._replace(left_after=played))
        return build_view(rows, current.ruleset), write, ("left", seat, {"name": name})

    return plan

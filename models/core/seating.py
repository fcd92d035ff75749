"""Who sits at the table, and where: when each player sat down or left, the total
a newcomer starts from, and the order around the table in which the deal and the play go.

A player's *seat* is their index in the game's list of players: it never changes (what was entered,
a hand, a manche's winner, is stored by seat). The *table order* is where they sit: the seats as
they follow each other around the table, the way play goes (to the left, clockwise: seed 000 « Le
joueur à gauche du donneur commence. Puis on joue dans le sens horaire »). It is the list of
seats when nobody joined elsewhere than after the last; a newcomer may sit between two players,
and a player who leaves leaves an empty place that the deal skips, the others keeping their order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import N_, UnknownPlayer, ValidationError
from .variant import Ruleset


@dataclass(frozen=True)
class Seat:
    """When a player sat at the table: ``joined`` is the number of manches played before they sat
    down (0: from the start), ``left`` the number played when they left (None: still playing),
    ``start`` the total they started from (0 from the start; the group's choice for a newcomer)."""

    joined: int = 0
    left: int | None = None
    start: int = 0

    def plays(self, number: int) -> bool:
        """Whether this player is dealt in manche ``number`` (1-based)."""
        return self.joined < number and (self.left is None or number <= self.left)


SEAT = Seat()

START_CHOICES = ("average", "zero", "highest")
# The newcomer's start when nobody says: the average of the totals of those playing. In a game to
# a target where the lowest total wins, 0 would hand the newcomer a lead they never earned and the
# highest total would put them last before their first card; the average puts them in the middle,
# as if they had played as well as the table (interpretation: the sources say nothing of late-comers).
DEFAULT_START = "average"


def start_total(totals: dict, playing: list, choice: str = DEFAULT_START) -> int:
    """The total a newcomer starts from: 0, the highest total of those playing, or their average
    (rounded to the nearest whole point, a half up)."""
    values = [totals[side] for side in playing]
    if choice == "zero" or not values:
        return 0
    if choice == "highest":
        return max(values)
    if choice == "average":
        return (2 * sum(values) + len(values)) // (2 * len(values))
    raise ValidationError(N_("Choose the newcomer's starting total: 0, the highest or the average."), field="start")


# --- the table order ------------------------------------------------------------------------------


def ring(count: int, order=None) -> tuple:
    """The seats in table order: ``order`` as given, or the seats one after the other."""
    return tuple(order) if order is not None else tuple(range(count))


def sit_after(order, after: int, seat: int) -> tuple:
    """The table order once the newcomer at ``seat`` sat down right after seat ``after`` (on their
    left: the newcomer plays just after them); the others keep their order."""
    order = tuple(order)
    place = order.index(after) + 1
    return order[:place] + (seat,) + order[place:]


def seated(players: list[str], roster: dict | None, number: int, order=None) -> list[str]:
    """The players dealt in manche ``number``, in table order (everybody without a roster)."""
    around = [players[seat] for seat in order] if order is not None else list(players)
    if not roster:
        return around
    return [name for name in around if roster.get(name, SEAT).plays(number)]


def next_seated(players: list[str], roster: dict | None, number: int, after: int, order=None) -> int:
    """The seat of the first player dealt in manche ``number`` going left from seat ``after``, in
    table order (``after`` itself last: the same dealer when nobody else sits there)."""
    count = len(players)
    if not roster and order is None:  # everybody sits in seat order (this runs for every manche read)
        return (after + 1) % count
    around = ring(count, order)
    start = around.index(after % count)
    following = [around[(start + step) % count] for step in range(1, count + 1)]
    if not roster:
        return following[0]
    return next((seat for seat in following if roster.get(players[seat], SEAT).plays(number)), after % count)


def starter(players: list[str], roster: dict | None, number: int, dealer: int, order=None) -> str:
    """Who plays first in manche ``number``: the player on the dealer's left (the next at the
    table, seed 000 « Le joueur à gauche du donneur commence »); the first at the table when the
    dealer is not dealt in."""
    around = seated(players, roster, number, order)
    if players[dealer] not in around:
        return around[0]
    return around[(around.index(players[dealer]) + 1) % len(around)]


def check_count(count: int, low: int, high: int, table: int | None = None) -> None:
    """Refuse ``count`` players at one table where the variant is played by ``low`` to ``high``: a
    new game's players, or (``table``: its number) one table of a club night's seating."""
    if low <= count <= high:
        return
    if table is None:
        raise ValidationError(
            N_("This variant is played by %(min)s to %(max)s players."), field="players", min=low, max=high
        )
    raise ValidationError(
        N_("Table %(number)s has %(count)s players: a table seats %(low)s to %(high)s."),
        field="players",
        number=table,
        count=count,
        low=low,
        high=high,
    )


def is_full(variant, playing: list[str]) -> bool:
    """Whether the table already holds as many players as the variant is played by at most."""
    return len(playing) >= variant.max_players


def check_roster_change(ruleset: Ruleset, teams: dict | None, playing: list[str], joining: bool) -> None:
    """Refuse a player joining or leaving where the game cannot go on that way: a team game (a
    newcomer would make a team of three, a leaver leave a partner alone), or a table that would
    hold more or fewer players than the variant is played by."""
    if teams:
        raise ValidationError(
            N_("This game is played in teams of two: a player joining or leaving would break a partnership."),
            field="players",
        )
    variant = ruleset.variant
    count = len(playing) + (1 if joining else -1)
    if joining and is_full(variant, playing):
        raise ValidationError(
            N_("This variant is played by %(min)s to %(max)s players: the table is full."),
            field="players",
            min=variant.min_players,
            max=variant.max_players,
        )
    if not joining and count < variant.min_players:
        raise ValidationError(
            N_("This variant is played by %(min)s to %(max)s players: nobody else can leave."),
            field="players",
            min=variant.min_players,
            max=variant.max_players,
        )


def neighbour(playing: list[str], after) -> str:
    """Whom a newcomer sits after: ``after`` when it names a player at the table, the last of them
    in table order when it is None (sitting after the last: the place a newcomer took before they
    could choose); anything else is refused."""
    if after is None:
        return playing[-1]
    if not isinstance(after, str) or after not in playing:
        raise UnknownPlayer(N_("“%(player)s” is not at the table."), field="after", player=str(after))
    return after

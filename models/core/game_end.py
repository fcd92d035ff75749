"""The end of a game in numbers (SPEC §2): each side's manches played and won, best, worst and
average manche, and the sides that crossed the target."""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import lower_is_better
from .variant import Ruleset


@dataclass(frozen=True)
class SideStats:
    """One side's game in a few numbers: manches played and won (went out), its best and worst
    manche (by the points it scored there: the fewest are best where the lowest total wins) and
    its average per manche played, to one decimal."""

    played: int
    won: int
    best: int | None
    worst: int | None
    average: float | None


def side_stats(ruleset: Ruleset, sides: list, manches) -> dict:
    """Each side's ``SideStats`` from the manches that count, ``[(winning side or None, {side:
    points})]``: a side absent from a manche's points was not dealt in it."""
    low_wins = lower_is_better(ruleset)
    out = {}
    for side in sides:
        scored = [points[side] for _, points in manches if side in points]
        won = sum(1 for winning, _ in manches if winning == side)
        if not scored:
            out[side] = SideStats(0, won, None, None, None)
            continue
        best, worst = (min(scored), max(scored)) if low_wins else (max(scored), min(scored))
        out[side] = SideStats(len(scored), won, best, worst, round(sum(scored) / len(scored), 1))
    return out


def crossed_target(ruleset: Ruleset, totals: dict) -> list:
    """The sides whose total reached the target (none in a game played over a number of manches)."""
    if ruleset.rounds or not ruleset.target:
        return []
    return [side for side, total in totals.items() if total >= ruleset.target]

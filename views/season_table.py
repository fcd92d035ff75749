"""A group's championship as asked (``?period=&variant=&scale=&own=&best=``): the one function
the group's page, its CSV and the API read it from."""

from __future__ import annotations

from typing import NamedTuple

from models.core import championship, standings

SEASON_ASKED = ("scale", "own", "best")  # what the championship is asked, besides period and variant


class Championship(NamedTuple):
    """The championship as asked: its ``rule`` and ``best``, the ``nights`` of the period (oldest
    first), its ``lines``; ``held`` when the group has ended a night at all."""

    period: str
    variant: str | None
    rule: championship.Scale
    best: int | None
    nights: list
    lines: list
    held: bool


def championship_of(ended, args, names: dict, variant: str | None, today) -> Championship:
    """The championship of the ended nights ``ended`` (``NightService.season``) the query ``args``
    asks for: the standings' period and ``variant`` (already checked), the scale and the number of
    nights counted (a 422 that says how to write them otherwise); ``names`` the group's spellings."""
    period = args.get("period") if args.get("period") in standings.PERIODS else "all"
    rule = championship.scale(args.get("own") or args.get("scale"))
    best = championship.best(args.get("best"))
    picked = sorted(standings.chosen(ended, period, variant, today), key=lambda night: night.played_at)
    lines = championship.table(picked, rule, best, names)
    return Championship(period, variant, rule, best, picked, lines, bool(ended))

"""The season chart of a group's page, drawn on the server as SVG: this module only turns the
core's numbers (``standings.Season``) into coordinates. The page shows the same numbers as a
table for screen readers."""

from __future__ import annotations

from dataclasses import dataclass

MONTHS = 12


@dataclass(frozen=True)
class SeasonLine:
    name: str
    css: str  # its colour and dash (s0 … s7: told apart without colour too, s0 alone solid)
    points: str  # the polyline's "x,y x,y …"
    wins: tuple  # the cumulative counts, January to the season's last month
    end: tuple  # where its last point is (x, y), for its label


@dataclass(frozen=True)
class SeasonChart:
    width: int
    height: int
    left: int
    bottom: int
    top: int
    right: int
    high: int
    lines: list
    months: list  # (x, month number) of each tick, January to December
    counted: list  # the month numbers the lines reach (none to come)


def season_chart(season, width: int = 320, height: int = 170) -> SeasonChart | None:
    """One line per person: their wins counted up month by month, January on the left, up to the
    season's last month (the axis goes on to December, the lines stop there)."""
    if not season.persons or season.most == 0:
        return None
    left, right, top, bottom = 24, width - 8, 10, height - 22
    high = season.most
    step = (right - left) / (MONTHS - 1)

    def y(count: int) -> float:
        return round(bottom - (bottom - top) * count / high, 1)

    lines = []
    for index, who in enumerate(season.persons):
        wins = season.wins[who]
        xy = [(round(left + month * step, 1), y(count)) for month, count in enumerate(wins)]
        lines.append(SeasonLine(season.names[who], f"s{index % 8}", " ".join(f"{a},{b}" for a, b in xy), wins, xy[-1]))
    months = [(round(left + month * step, 1), month + 1) for month in range(MONTHS)]
    counted = list(range(1, len(season.wins[season.persons[0]]) + 1))
    return SeasonChart(width, height, left, bottom, top, right, high, lines, months, counted)

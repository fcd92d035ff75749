"""A group's standings: pure functions of its games' manches, as the scoring core played them.

Each finished game comes in as a ``GameResult``: the points each player's side scored in each
manche they were dealt in (what ``scoring.play_through`` made of the stored hands) and who won.
Inside a group a player is one person across games: names that differ only by case, accents or
spacing are one person (``person``), shown by their latest spelling; each game keeps its names.

Only finished games count (a game in progress has no winner yet). No Flask, no database, no
language: numbers and names only.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime


def person(name: str) -> str:
    """Who a name is inside a group: "Chloé", "chloe" and " CHLOE " are one person."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class GameResult:
    """One finished game of the group, by person: ``names`` the spelling each person was played
    with in it, ``points`` their side's points in each manche they were dealt in, in order,
    ``winners`` the persons whose side won. ``lower_is_better`` when points count against."""

    played_at: datetime
    variant: str
    names: dict
    points: dict
    winners: frozenset
    lower_is_better: bool = True
    game_id: str = ""

    def merit(self, points: int) -> int:
        """Higher is better whatever the game's mode."""
        return -points if self.lower_is_better else points


@dataclass
class Line:
    """One person's standing over some games."""

    person: str
    name: str  # their latest spelling
    played: int = 0
    won: int = 0
    manches: int = 0
    points: int = 0
    best: int | None = None  # the points of their best manche (fewest penalty points, or most won)
    worst: int | None = None
    longest_run: int = 0  # the most games won one after another (games they did not play break nothing)
    _run: int = field(default=0, repr=False)
    _best_merit: int | None = field(default=None, repr=False)
    _worst_merit: int | None = field(default=None, repr=False)

    @property
    def win_rate(self) -> int | None:
        """Games won out of games played, in whole per cent (rounded half up)."""
        return None if not self.played else (200 * self.won + self.played) // (2 * self.played)

    @property
    def average(self) -> float | None:
        """Points per manche, to one decimal."""
        return None if not self.manches else round(self.points / self.manches, 1)

    def add(self, game: GameResult, who: str) -> None:
        self.name = game.names[who]
        self.played += 1
        won = who in game.winners
        self.won += int(won)
        self._run = self._run + 1 if won else 0
        self.longest_run = max(self.longest_run, self._run)
        for points in game.points.get(who, ()):
            self.manches += 1
            self.points += points
            merit = game.merit(points)
            if self._best_merit is None or merit > self._best_merit:
                self._best_merit, self.best = merit, points
            if self._worst_merit is None or merit < self._worst_merit:
                self._worst_merit, self.worst = merit, points


def counted_as(aliases: dict, who: str) -> str:
    """The person ``who`` counts as once the owner's merges (``aliases``: person → person) are
    followed to their end (a loop, which no write makes, stops where it would come back)."""
    seen = {who}
    while who in aliases and aliases[who] not in seen:
        who = aliases[who]
        seen.add(who)
    return who


def merged(games, aliases: dict) -> list[GameResult]:
    """The games with each merged person counted as the one they were merged into; each game
    keeps the spellings it was played with."""
    if not aliases:
        return list(games)
    out = []
    for game in games:
        key = {who: counted_as(aliases, who) for who in game.names}
        out.append(
            replace(
                game,
                names={key[w]: name for w, name in game.names.items()},
                points={key[w]: pts for w, pts in game.points.items()},
                winners=frozenset(key[w] for w in game.winners),
            )
        )
    return out


def spellings(games) -> dict:
    """Each person's latest spelling over ``games``."""
    return {who: name for game in chronological(games) for who, name in game.names.items()}


@dataclass(frozen=True)
class MergePreview:
    """What merging ``second`` into ``first`` would do: the games of each (as ``(game, spelling)``
    pairs, oldest first) and the games both sat in (then they are two people: no merge)."""

    first: str
    second: str
    first_games: tuple
    second_games: tuple
    together: tuple

    @property
    def possible(self) -> bool:
        return not self.together and bool(self.first_games) and bool(self.second_games)


def merge_preview(games, first: str, second: str) -> MergePreview:
    """Which games and which names merging ``second`` into ``first`` concerns (``games`` already
    merged as the group stands)."""
    games = chronological(games)
    return MergePreview(
        first,
        second,
        tuple((g, g.names[first]) for g in games if first in g.names),
        tuple((g, g.names[second]) for g in games if second in g.names),
        tuple(g for g in games if first in g.names and second in g.names),
    )


def chronological(games) -> list[GameResult]:
    return sorted(games, key=lambda game: game.played_at)


def table(games) -> list[Line]:
    """Everyone's standing over ``games``: most games won first, then the better win rate, then
    the fewer games played, then the name."""
    lines: dict[str, Line] = {}
    for game in chronological(games):
        for who in game.names:
            lines.setdefault(who, Line(who, game.names[who])).add(game, who)
    return sorted(
        lines.values(), key=lambda line: (-line.won, -(line.win_rate or 0), line.played, line.name.casefold())
    )


def in_period(games, start: datetime | None = None, end: datetime | None = None) -> list[GameResult]:
    """The games played from ``start`` (included) to ``end`` (excluded)."""
    return [g for g in games if (start is None or g.played_at >= start) and (end is None or g.played_at < end)]


def this_year(games, today: datetime) -> list[GameResult]:
    start = today.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return in_period(games, start, start.replace(year=start.year + 1))


def this_month(games, today: datetime) -> list[GameResult]:
    start = today.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    end = start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)
    return in_period(games, start, end)


def of_variant(games, variant: str) -> list[GameResult]:
    return [g for g in games if g.variant == variant]


def variants(games) -> list[str]:
    """The variants the games were played in, most played first."""
    counts: dict[str, int] = defaultdict(int)
    for game in games:
        counts[game.variant] += 1
    return sorted(counts, key=lambda v: (-counts[v], v))


@dataclass(frozen=True)
class HeadToHead:
    """Two persons over the games they both played: how many, and who of them won each."""

    first: str
    second: str
    games: int
    first_won: int
    second_won: int

    @property
    def neither(self) -> int:
        """Games that another player won (or that both won, as partners)."""
        return self.games - self.first_won - self.second_won


def head_to_head(games, first: str, second: str) -> HeadToHead:
    """``first`` against ``second`` (persons) over the games both sat in; a game both won (as
    partners) counts for neither."""
    both = [g for g in games if first in g.names and second in g.names]
    first_won = sum(1 for g in both if first in g.winners and second not in g.winners)
    second_won = sum(1 for g in both if second in g.winners and first not in g.winners)
    return HeadToHead(first, second, len(both), first_won, second_won)


@dataclass(frozen=True)
class Season:
    """Games won by each person, month by month, over one year: ``wins[person]`` is twelve
    cumulative counts (January to December), ``names`` their latest spelling, most wins first."""

    year: int
    persons: tuple
    names: dict
    wins: dict

    @property
    def most(self) -> int:
        return max((counts[-1] for counts in self.wins.values()), default=0)


def season(games, year: int, most: int = 5) -> Season:
    """The year's race: each person's wins counted up month by month (the ``most`` who won most)."""
    games = [g for g in chronological(games) if g.played_at.year == year]
    monthly: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for game in games:
        for who in game.names:
            names[who] = game.names[who]
            monthly.setdefault(who, [0] * 12)
            if who in game.winners:
                monthly[who][game.played_at.month - 1] += 1
    cumulative = {}
    for who, counts in monthly.items():
        running, total = [], 0
        for count in counts:
            total += count
            running.append(total)
        cumulative[who] = running
    persons = sorted(cumulative, key=lambda w: (-cumulative[w][-1], names[w].casefold()))[:most]
    return Season(year, tuple(persons), {w: names[w] for w in persons}, {w: tuple(cumulative[w]) for w in persons})


PERIODS = ("all", "year", "month")


def chosen(games, period: str, variant: str | None, today: datetime) -> list[GameResult]:
    """The games a standings page asks for: all time, this year or this month, one variant or all."""
    if period == "year":
        games = this_year(games, today)
    elif period == "month":
        games = this_month(games, today)
    return of_variant(games, variant) if variant else list(games)

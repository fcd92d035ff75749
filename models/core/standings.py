"""A group's standings: pure functions of its games' manches, as the scoring core played them.

Each finished game comes in as a ``GameResult``: the points each player's side scored in each
manche they were dealt in (what ``scoring.play_through`` made of the stored hands) and who won.
Inside a group a player is one person across games: names that differ only by case, accents or
spacing are one person (``person``), shown by their latest spelling; each game keeps its names.

Points are of two kinds, which never add together: penalty points (fewer is better) and points
won (more is better). A game's kind comes from its rules (its scoring mode, the variant's data),
carried in ``GameResult.lower_is_better``; a line keeps its points per kind (``Line.kinds``),
while games and wins count across all kinds.

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


PENALTY, WON = "penalty", "won"
KINDS = (PENALTY, WON)  # the kinds of points, in the order a page shows them


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

    @property
    def kind(self) -> str:
        """The kind of its points: ``PENALTY`` (fewer is better) or ``WON`` (more is better)."""
        return PENALTY if self.lower_is_better else WON


@dataclass
class Points:
    """One person's manches of one kind of points: how many, their total, the best and the worst
    manche (fewest penalty points, or most points won)."""

    kind: str
    manches: int = 0
    points: int = 0
    best: int | None = None
    worst: int | None = None

    @property
    def average(self) -> float | None:
        """Points per manche, to one decimal."""
        return None if not self.manches else round(self.points / self.manches, 1)

    def add(self, points: int) -> None:
        self.manches += 1
        self.points += points
        better = min if self.kind == PENALTY else max
        worse = max if self.kind == PENALTY else min
        self.best = points if self.best is None else better(self.best, points)
        self.worst = points if self.worst is None else worse(self.worst, points)


@dataclass
class Line:
    """One person's standing over some games: games and wins of every kind, points per kind."""

    person: str
    name: str  # their latest spelling
    played: int = 0
    won: int = 0
    longest_run: int = 0  # the most games won one after another (games they did not play break nothing)
    kinds: dict = field(default_factory=dict)  # kind -> Points, only the kinds they played
    _run: int = field(default=0, repr=False)

    @property
    def win_rate(self) -> int | None:
        """Games won out of games played, in whole per cent (rounded half up)."""
        return None if not self.played else (200 * self.won + self.played) // (2 * self.played)

    def add(self, game: GameResult, who: str) -> None:
        self.name = game.names[who]
        self.played += 1
        won = who in game.winners
        self.won += int(won)
        self._run = self._run + 1 if won else 0
        self.longest_run = max(self.longest_run, self._run)
        for points in game.points.get(who, ()):
            self.kinds.setdefault(game.kind, Points(game.kind)).add(points)


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


def kinds(lines) -> list[str]:
    """The kinds of points the ``lines`` hold, in ``KINDS`` order: one table of points each."""
    held = {kind for line in lines for kind in line.kinds}
    return [kind for kind in KINDS if kind in held]


def people(uses, aliases: dict, limit: int | None = None) -> list[str]:
    """Each person once, by the spelling the group last used, merges (``aliases``) followed, the
    most played first: ``uses`` are ``(name, games, last played)`` per spelling as stored."""
    count: dict[str, int] = defaultdict(int)
    latest: dict[str, tuple] = {}
    for name, games, last in uses:
        who = counted_as(aliases, person(name))
        count[who] += games
        if who not in latest or (last, name) > latest[who]:
            latest[who] = (last, name)
    order = sorted(count, key=lambda who: (-count[who], latest[who][1].casefold()))
    return [latest[who][1] for who in order[:limit]]


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


def table(games, names: dict | None = None) -> list[Line]:
    """Everyone's standing over ``games``: most games won first, then the better win rate, then
    the fewer games played, then the name. ``names`` (person -> spelling: the group's latest over
    all its games, ``spellings``) names each person whatever games were picked."""
    lines: dict[str, Line] = {}
    for game in chronological(games):
        for who in game.names:
            lines.setdefault(who, Line(who, game.names[who])).add(game, who)
    for line in lines.values():
        line.name = (names or {}).get(line.person, line.name)
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
    """Games won by each person, month by month, over one year: ``wins[person]`` is the
    cumulative counts from January to the last month played so far (December for a year gone by,
    this month for this year: a month to come holds nothing yet), ``names`` their latest spelling,
    most wins first; ``persons`` everyone who played in the year, a player who won nothing too."""

    year: int
    persons: tuple
    names: dict
    wins: dict

    @property
    def most(self) -> int:
        return max((counts[-1] for counts in self.wins.values()), default=0)


def season(games, today: datetime, names: dict | None = None) -> Season:
    """This year's race (the year of ``today``): each person who played in it, their wins counted
    up month by month to ``today``'s month. ``names``: each person's spelling (``table``)."""
    year, months = today.year, today.month
    played = [g for g in chronological(games) if g.played_at.year == year and g.played_at <= today]
    monthly: dict[str, list[int]] = {}
    spelled: dict[str, str] = {}
    for game in played:
        for who in game.names:
            spelled[who] = (names or {}).get(who, game.names[who])
            monthly.setdefault(who, [0] * months)
            if who in game.winners:
                monthly[who][game.played_at.month - 1] += 1
    cumulative = {}
    for who, counts in monthly.items():
        running, total = [], 0
        for count in counts:
            total += count
            running.append(total)
        cumulative[who] = tuple(running)
    persons = sorted(cumulative, key=lambda w: (-cumulative[w][-1], spelled[w].casefold()))
    return Season(year, tuple(persons), {w: spelled[w] for w in persons}, {w: cumulative[w] for w in persons})


PERIODS = ("all", "year", "month")


def chosen(games, period: str, variant: str | None, today: datetime) -> list[GameResult]:
    """The games a standings page asks for: all time, this year or this month, one variant or all."""
    if period == "year":
        games = this_year(games, today)
    elif period == "month":
        games = this_month(games, today)
    return of_variant(games, variant) if variant else list(games)

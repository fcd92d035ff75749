"""A club night: several tables of one group at once, round after round — its ranking across the
tables and the seating proposed for the next round. Pure functions of numbers and names.

What "wins" means: a table is won when its game ends, by that game's winners (ties shared, as
the scoring core says). Until then the table's points count in the ranking and its win does not:
a round still being played ranks its players by the wins of the rounds before and by points.
The night's ranking is by wins first (most), then by points (fewest when points count against,
most otherwise), over every table a player sat at; players equal on both are tied (« ex æquo »)
and share a place, the next place skipping as many (1, 1, 3).

The three seatings of the next round take the ranking's order and the number of tables; the
tables are as even as can be, the bigger ones first (7 players at 2 tables: 4 and 3):

- ``spread``: by the ranking, the strongest spread over the tables (1st at table 1, 2nd at table
  2…, back again at the last table: a snake), so that every table has strong and weak players;
- ``together``: the strongest together (the best at table 1, the next ones at table 2…);
- ``shuffled``: by chance (a seed makes the same proposal again on the next page);
- ``fresh``: avoiding opponents met already — the seating where the fewest pairs of players who
  shared a table earlier in the night share one again. As a rule: no pair meets twice while
  another seating avoids it (the search is whole for a night of up to about 24 players; beyond
  ``SEARCH_LIMIT`` seatings tried it keeps the best found, never worse than ``spread``).

Inside a night a player is one person whatever the spelling's case or accents
(``standings.person``), shown by their latest spelling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from .errors import N_, Nn_, ValidationError
from .seating import check_count
from .standings import person

METHODS = ("spread", "together", "shuffled", "fresh")
SEARCH_LIMIT = 50_000  # partial seatings the fresh search tries before keeping the best found
MAX_TABLES = 50


@dataclass(frozen=True)
class TableResult:
    """One table of one round: each player's total in its game (their side's), its winners (names,
    empty until the game ends)."""

    round: int
    table: int
    totals: dict
    winners: frozenset = frozenset()
    finished: bool = False


@dataclass(frozen=True)
class Placed:
    """A player's place in the night: ``tied`` when another player has the same place."""

    place: int
    name: str
    wins: int
    points: int
    tables: int  # the tables they sat at
    tied: bool = False


def podium(ranking: list[Placed]) -> list[Placed]:
    """The players placed first, second and third: more than three when places are shared."""
    return [line for line in ranking if line.place <= 3]


def ranking(results, lower_is_better: bool = True) -> list[Placed]:
    """The night's ranking over ``results`` (``TableResult``s, in the order they were played)."""
    lines: dict = {}  # person -> [latest name, wins, points, tables]
    for result in sorted(results, key=lambda r: (r.round, r.table)):
        for name, total in result.totals.items():
            line = lines.setdefault(person(name), [name, 0, 0, 0])
            line[0] = name
            line[1] += int(result.finished and name in result.winners)
            line[2] += total
            line[3] += 1
    sign = 1 if lower_is_better else -1

    def key(line) -> tuple:
        return (-line[1], sign * line[2])

    ordered = sorted(lines.values(), key=lambda line: (*key(line), person(line[0])))
    placed = []
    for index, line in enumerate(ordered):
        place = placed[-1].place if placed and key(ordered[index - 1]) == key(line) else index + 1
        placed.append(Placed(place, line[0], line[1], line[2], line[3]))
    counts: dict = {}
    for line in placed:
        counts[line.place] = counts.get(line.place, 0) + 1
    return [Placed(p.place, p.name, p.wins, p.points, p.tables, counts[p.place] > 1) for p in placed]


def sizes(players: int, tables: int) -> list[int]:
    """The size of each table, as even as can be, the bigger first: 7 at 2 tables, [4, 3]."""
    if tables < 1:
        return []
    return [players // tables + (1 if index < players % tables else 0) for index in range(tables)]


def _in_chunks(order: list, tables: int) -> list[list]:
    seated, start = [], 0
    for size in sizes(len(order), tables):
        seated.append(list(order[start : start + size]))
        start += size
    return seated


def together(order, tables: int) -> list[list[str]]:
    """The strongest together: table 1 the first of ``order``, table 2 the next ones…"""
    return _in_chunks(list(order), tables)


def spread(order, tables: int) -> list[list[str]]:
    """The strongest spread: the players in ``order`` dealt to the tables in a snake (1, 2, …, n,
    n, …, 1, 1, 2 …), a full table skipped."""
    room = sizes(len(order), tables)
    seated: list[list[str]] = [[] for _ in room]
    snake = list(range(len(room))) + list(reversed(range(len(room))))
    turn = 0
    for name in order:
        while len(seated[snake[turn % len(snake)]]) >= room[snake[turn % len(snake)]]:
            turn += 1
        seated[snake[turn % len(snake)]].append(name)
        turn += 1
    return seated


def shuffled(order, tables: int, seed: int) -> list[list[str]]:
    """By chance: the players shuffled (the same ``seed``, the same proposal), then in chunks."""
    names = list(order)
    random.Random(seed).shuffle(names)
    return _in_chunks(names, tables)


def met(results) -> frozenset:
    """The pairs of persons who shared a table in ``results`` (``TableResult``s)."""
    return frozenset(
        frozenset(pair) for result in results for pair in combinations(sorted({person(n) for n in result.totals}), 2)
    )


def fresh(order, tables: int, met_before: frozenset) -> list[list[str]]:
    """Avoiding opponents met already: the players of ``order`` at ``tables`` tables so that the
    fewest pairs in ``met_before`` share a table again. A search from ``spread``'s seating as the
    bound, the players tried in ``order`` at each table with room (the fewest repeats first, then
    the emptiest: the tables fill evenly; empty tables of one size are alike, so only one is
    tried), a branch dropped as soon as it repeats as many pairs as the best found."""
    keys = [person(name) for name in order]
    room = sizes(len(keys), tables)
    best = spread(range(len(keys)), tables)
    best_cost = sum(frozenset((keys[a], keys[b])) in met_before for table in best for a, b in combinations(table, 2))
    seated: list[list[int]] = [[] for _ in room]
    tried = 0

    def place(index: int, cost: int) -> None:
        nonlocal best, best_cost, tried
        if cost >= best_cost or tried > SEARCH_LIMIT:
            return
        if index == len(keys):
            best, best_cost = [list(table) for table in seated], cost
            return
        tried += 1
        options, empty_sizes = [], set()
        for number, table in enumerate(seated):
            if len(table) >= room[number] or (not table and room[number] in empty_sizes):
                continue
            if not table:
                empty_sizes.add(room[number])
            added = sum(frozenset((keys[index], keys[other])) in met_before for other in table)
            options.append((added, len(table) - room[number], number))
        for added, _room, number in sorted(options):
            seated[number].append(index)
            place(index + 1, cost + added)
            seated[number].pop()

    place(0, 0)
    return [[order[index] for index in table] for table in best]


def proposal(method: str, order, tables: int, seed: int = 0, met_before: frozenset = frozenset()) -> list[list[str]]:
    """The seating ``method`` (one of ``METHODS``) proposes for ``order`` at ``tables`` tables
    (``met_before``: the pairs who shared a table already, for ``fresh``)."""
    if method == "fresh":
        return fresh(list(order), tables, met_before)
    if method == "together":
        return together(order, tables)
    if method == "shuffled":
        return shuffled(order, tables, seed)
    return spread(order, tables)


def checked_tables(count, players: int, low: int, high: int) -> int:
    """A number of tables for ``players`` players where each table seats ``low`` to ``high``."""
    if not isinstance(count, int) or not 1 <= count <= MAX_TABLES:
        raise ValidationError(N_("Choose a number of tables."), field="tables")
    few, many = players < low * count, players > high * count
    if few or many:  # one refusal, said with the limit it passes
        raise ValidationError(
            Nn_("Too few players (%(players)s) for %(tables)s table: at least %(low)s a table.",
                "Too few players (%(players)s) for %(tables)s tables: at least %(low)s a table.")
            if few
            else Nn_("Too many players (%(players)s) for %(tables)s table: at most %(high)s a table.",
                     "Too many players (%(players)s) for %(tables)s tables: at most %(high)s a table."),
            field="tables",
            plural_by="tables",
            players=players,
            tables=count,
            **({"low": low} if few else {"high": high}),
        )  # fmt: skip
    return count


def checked_seating(tables, low: int, high: int) -> list[list[str]]:
    """A seating as the organiser left it: the tables with someone at them (an emptied table is
    dropped), each of ``low`` to ``high`` players, nobody at two tables."""
    kept = [list(table) for table in tables if table]
    if not kept:
        raise ValidationError(N_("Choose the players present."), field="players")
    seen: set = set()
    for number, table in enumerate(kept, start=1):
        check_count(len(table), low, high, table=number)
        for name in table:
            if person(name) in seen:
                raise ValidationError(N_("%(name)s is seated twice."), field="players", name=name)
            seen.add(person(name))
    return kept

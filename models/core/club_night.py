"""A club night: several tables of one group at once, round after round — its ranking across the
tables and the seating proposed for the next round. Pure functions of numbers and names.

What "wins" means: a table is won when its game ends, by that game's winners (ties shared, as
the scoring core says). Until then the table's points count in the ranking and its win does not:
a round still being played ranks its players by the wins of the rounds before and by points.
The night's ranking is by wins first (most), then by points (fewest when points count against,
most otherwise), over every table a player sat at; players equal on both are tied (« ex æquo »)
and share a place, the next place skipping as many (1, 1, 3). The organiser may rank per table
played instead (``RANKINGS``): by points per table (then wins per table), or by wins per table
(then points per table) — fractions compared exactly — so that a player who played fewer tables
is neither helped nor harmed by it.

A *bye* (a turn sat out because the tables are full) is a table not played: it adds no win, no
point and no table, and is shown beside the player. Ranked per table played, a bye changes
nothing in a player's figures; ranked by total, it leaves them a table short, which the page says.
A player who *left* the night keeps every table they played and is seated no more. A player who
played no table yet (a bye in turn 1) is ranked after every player who did.

When the players present are more than the tables seat, the ones over sit out (``sitting_out``):
the fewest byes so far first, so that nobody sits out twice while another present player has not
sat out yet; among those, the most tables played, then the last in the order given (the ranking's).

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
from fractions import Fraction
from itertools import combinations

from .errors import N_, Nn_, ValidationError
from .seating import check_count
from .standings import person

METHODS = ("spread", "together", "shuffled", "fresh")
RANKINGS = ("total", "points_per_table", "wins_per_table")
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
    """A player's place in the night: ``tied`` when another player has the same place, ``byes``
    the turns they sat out, ``gone`` when they left the night."""

    place: int
    name: str
    wins: int
    points: int
    tables: int  # the tables they sat at
    tied: bool = False
    byes: int = 0
    gone: bool = False

    @property
    def points_per_table(self) -> Fraction | None:
        """Their points divided by the tables they sat at (None: no table yet)."""
        return Fraction(self.points, self.tables) if self.tables else None

    @property
    def wins_per_table(self) -> Fraction | None:
        """Their wins divided by the tables they sat at (None: no table yet)."""
        return Fraction(self.wins, self.tables) if self.tables else None


def podium(ranking: list[Placed]) -> list[Placed]:
    """The players placed first, second and third: more than three when places are shared."""
    return [line for line in ranking if line.place <= 3]


def checked_ranking(method) -> str:
    """One of ``RANKINGS``, or refused."""
    if method not in RANKINGS:
        raise ValidationError(
            N_("Choose how the night is ranked: by total, by points per table or by wins per table."), field="ranking"
        )
    return method


def _rank_key(line: list, method: str, sign: int) -> tuple:
    """What places a player (``line``: name, wins, points, tables): the smaller, the better."""
    _, wins, points, tables = line
    if not tables:
        return (1,)  # no table played: after every player who played one
    if method == "points_per_table":
        return (0, sign * Fraction(points, tables), -Fraction(wins, tables))
    if method == "wins_per_table":
        return (0, -Fraction(wins, tables), sign * Fraction(points, tables))
    return (0, -wins, sign * points)


def ranking(results, lower_is_better: bool = True, method: str = "total", byes=(), gone=()) -> list[Placed]:
    """The night's ranking over ``results`` (``TableResult``s, in the order they were played),
    by ``method`` (one of ``RANKINGS``); ``byes``: the ``(turn, name)`` of each turn sat out,
    ``gone``: the names of the players who left."""
    lines: dict = {}  # person -> [latest name, wins, points, tables]
    for result in sorted(results, key=lambda r: (r.round, r.table)):
        for name, total in result.totals.items():
            line = lines.setdefault(person(name), [name, 0, 0, 0])
            line[0] = name
            line[1] += int(result.finished and name in result.winners)
            line[2] += total
            line[3] += 1
    sat_out: dict = {}
    for _turn, name in byes:
        lines.setdefault(person(name), [name, 0, 0, 0])
        sat_out[person(name)] = sat_out.get(person(name), 0) + 1
    left = {person(name) for name in gone}
    sign = 1 if lower_is_better else -1

    def key(line) -> tuple:
        return _rank_key(line, method, sign)

    ordered = sorted(lines.values(), key=lambda line: (*key(line), person(line[0])))
    places = []
    for index, line in enumerate(ordered):
        places.append(places[-1] if places and key(ordered[index - 1]) == key(line) else index + 1)
    counts: dict = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return [
        Placed(
            place,
            line[0],
            line[1],
            line[2],
            line[3],
            counts[place] > 1,
            sat_out.get(person(line[0]), 0),
            person(line[0]) in left,
        )  # fmt: skip
        for place, line in zip(places, ordered, strict=True)
    ]


def sitting_out(order, seats: int, byes: dict, tables: dict) -> list[str]:
    """Who sits out a turn whose tables seat ``seats`` of the players of ``order``: as many as are
    over, the fewest byes so far first (``byes``: person → turns sat out), then the most tables
    played (``tables``: person → tables), then the last in ``order``. Returned in ``order``."""
    names = list(order)
    over = max(0, len(names) - seats)
    if not over:
        return []
    position = {name: index for index, name in enumerate(names)}
    chosen = set(
        sorted(names, key=lambda name: (byes.get(person(name), 0), -tables.get(person(name), 0), -position[name]))[
            :over
        ]
    )
    return [name for name in names if name in chosen]


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


def turn_seating(method: str, order, tables: int, high: int, seed: int = 0, met_before: frozenset = frozenset(),
                 byes: dict | None = None, played: dict | None = None) -> tuple[list[list[str]], list[str]]:  # fmt: skip
    """A turn's seating for the players present (``order``, the ranking's) at ``tables`` tables of
    at most ``high``: the players over sit out (``sitting_out``, from ``byes`` and the tables
    ``played`` so far), the others are seated by ``method``. Returns the tables and who sits out."""
    out = sitting_out(order, high * tables, byes or {}, played or {})
    seated = [name for name in order if name not in set(out)]
    return proposal(method, seated, tables, seed, met_before), out


def checked_tables(count, players: int, low: int, high: int, byes: bool = False) -> int:
    """A number of tables for ``players`` players where each table seats ``low`` to ``high``
    (``byes``: the players over the tables' seats sit out, so that only too few is refused)."""
    if not isinstance(count, int) or not 1 <= count <= MAX_TABLES:
        raise ValidationError(N_("Choose a number of tables."), field="tables")
    few, many = players < low * count, players > high * count and not byes
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


def checked_seating(tables, low: int, high: int, out=(), gone=()) -> list[list[str]]:
    """A seating as the organiser left it: the tables with someone at them (an emptied table is
    dropped), each of ``low`` to ``high`` players, nobody at two tables, nor seated while sitting
    out (``out``) or gone from the night (``gone``)."""
    kept = [list(table) for table in tables if table]
    if not kept:
        raise ValidationError(N_("Choose the players present."), field="players")
    check_not_gone([name for table in kept for name in table], gone)
    seen: set = {person(name) for name in out}
    for number, table in enumerate(kept, start=1):
        check_count(len(table), low, high, table=number)
        for name in table:
            if person(name) in seen:
                raise ValidationError(
                    N_("%(name)s is seated twice.")
                    if person(name) not in {person(o) for o in out}
                    else N_("%(name)s is seated and sits out at once."),
                    field="players",
                    name=name,
                )
            seen.add(person(name))
    return kept


def check_not_gone(names, gone) -> None:
    """Refuse a player of ``names`` (seated, or sitting out) who left the night (``gone``)."""
    left = {person(name) for name in gone}
    for name in names:
        if person(name) in left:
            raise ValidationError(
                N_("%(name)s has left the night: mark their return before seating them."), field="players", name=name
            )

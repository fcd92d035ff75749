"""How a game is laid out on its pages (the game page, the shared view, the manche form).

No rule of the game lives here (the service's ``GameView`` carries every score); these helpers
only shape its numbers for the screen: the context every game template gets, the "Share" panel,
distance to the target, who is close to it, the chart's coordinates, a stored hand turned back
into keypad counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import url_for

from models.core import game_end, scoring
from models.core.cards import JOKER, Card, format_card

from . import links
from .kit import games
from .numbers import whole_number
from .rights import can_edit, is_owner
from .texts import card_with_article, join_or

# --- the context of a game's pages -----------------------------------------------------------------


def forbidden_cards(game) -> str:
    """ "an 8 or a Joker" / « un 8 ou un Joker »: the cards nobody may go out on, for a sentence."""
    return join_or(card_with_article(Card(rank), "a") for rank in game.ruleset.finish_forbidden)


def game_context(game, history_page: int = 1, **extra) -> dict:
    return {
        "game": game,
        "history": HistoryPage.of(game, history_page),
        "editable": can_edit(game.id),
        "share": share_panel(game),
        "rows": scoreboard(game),
        "chart": progression_chart(game),
        "colours": series_index(game),
        "forbidden": forbidden_cards(game),
        "start_choices": start_choices(game),
        "final": final_table(game) if game.finished else None,
        "live_url": None,  # where the live part is fetched again after a change (the pages that listen)
        "events_url": None,  # the game's event stream, for a page that listens to it
        **extra,
    }


@dataclass(frozen=True)
class NewInvite:
    url: str
    qr: str  # a data: URL (the token is in it, so it is not served from an address of its own)


@dataclass
class SharePanel:
    url: str
    qr_svg: str
    qr_png: str
    only_local: bool  # the address is only reachable from this machine
    plain_http: bool  # plain HTTP from another machine: no service worker, offline on the open page only
    owner: bool  # this browser holds the game's edit token (it may invite scorekeepers)
    invites: list = field(default_factory=list)


def share_panel(game) -> SharePanel:
    """What the game page's "Share" section shows."""
    base, only_local = links.public_base()
    owner = is_owner(game.id)
    return SharePanel(
        url=base + url_for("share.shared", share_id=game.share_id),
        qr_svg=url_for("share.qr_svg", share_id=game.share_id),
        qr_png=url_for("share.qr_png", share_id=game.share_id),
        only_local=only_local,
        plain_http=links.plain_http(base),
        owner=owner,
        invites=games().invites(game.id) if owner else [],
    )


def final_table(game) -> list[tuple[str, game_end.SideStats]]:
    """The end of the game's table: each side in the order of the ranking, with its numbers."""
    stats = game.final_stats()
    return [(side, stats[side]) for _, side, _ in game.standing.ranking]


def start_choices(game) -> list[tuple[str, int]]:
    """The totals a newcomer may start from, as the core computes them: (choice, total), the
    default first (none in a team game: nobody joins one)."""
    if game.teams:
        return []
    return [(choice, scoring.start_total(game.totals, game.seated, choice)) for choice in scoring.START_CHOICES]


HISTORY_ROWS = 20  # the manches a game page lists; the earlier ones are a link away


@dataclass(frozen=True)
class HistoryPage:
    """The manches one page of a game's history lists, newest page first: page 1 is the last
    ``HISTORY_ROWS`` manches (what the game page shows), page 2 the ones before, and so on; each
    page lists its manches oldest first, like the whole history."""

    rows: list
    page: int
    pages: int
    earlier: int  # manches before the first one listed

    @classmethod
    def of(cls, game, page: int = 1, size: int = HISTORY_ROWS) -> HistoryPage | None:
        """The page, or None when there is no such page (page 1 always exists)."""
        manches = game.manches
        pages = max((len(manches) + size - 1) // size, 1)
        if not 1 <= page <= pages:
            return None
        end = len(manches) - (page - 1) * size
        start = max(end - size, 0)
        return cls(manches[start:end], page, pages, start)


# --- numbers for the screen ---------------------------------------------------------------------

CLOSE_SHARE = 0.8  # a side within 20 % of the target is highlighted
SERIES_COLOURS = 8  # CSS classes s0 … s7


@dataclass(frozen=True)
class ScoreRow:
    place: int
    side: str
    total: int
    members: tuple  # the players of a team (empty when each plays for themselves)
    to_go: int | None  # points still to score before the target (None without one, or for who left)
    close: bool  # within 20 % of the target while the game goes on
    winner: bool
    series: int  # colour of the side in the chart


def series_index(game) -> dict:
    """A stable colour per side, in seating order."""
    return {side: index % SERIES_COLOURS for index, side in enumerate(game.sides)}


def scoreboard(game) -> list[ScoreRow]:
    """The ranking as shown: place, side, total, distance to the target (none for a player who
    left the table: they score no more) and closeness."""
    target = game.ruleset.target
    colours = series_index(game)
    teams = game.teams or {}
    gone = set(game.gone)
    rows = []
    for place, side, total in game.standing.ranking:
        to_go = max(target - total, 0) if target and side not in gone else None
        close = bool(target) and not game.standing.finished and side not in gone and total >= CLOSE_SHARE * target
        rows.append(
            ScoreRow(
                place=place,
                side=side,
                total=total,
                members=tuple(teams.get(side, ())),
                to_go=to_go,
                close=close,
                winner=side in game.standing.winners,
                series=colours[side],
            )
        )
    return rows


def last_card_ranks(ruleset) -> list[str]:
    """The ranks offered for the winner's last card: the deck's ranks (A … K, less any taken out),
    and JK where the deck has jokers."""
    return list(ruleset.deck.ranks) + ([JOKER] if ruleset.jokers else [])


def counts_from_cards(cards, keys) -> dict[str, int]:
    """Keypad counts (per key token) for a stored hand: a card goes to its own key (``2S`` under
    a table that tells suits apart), else to its rank's key (``8H`` entered through the API → 8)."""
    tokens = {key.token for key in keys}
    counts: dict[str, int] = {}
    for card in cards or ():
        token = format_card(card)
        if token not in tokens:
            token = card.rank
        if token in tokens:
            counts[token] = counts.get(token, 0) + 1
    return counts


def hand_to_enter(selected: str, winner: int | None, sides: list[str], filled: list[bool]) -> int:
    """The seat whose hand the one keypad of the manche form enters: the seat chosen (``selected``,
    as posted) unless it is the winner's, who has no cards to count; else the next seat after the
    winner, in the order the hands are listed (around the table), whose hand is still to enter — not the winner's partner, whose hand
    is not counted, and nothing entered yet — else the next such seat even if entered, else seat 0."""
    count = len(sides)
    chosen = whole_number(selected, 0, count - 1)
    if chosen is not None and chosen != winner:
        return chosen
    start = 0 if winner is None else winner + 1
    order = [(start + step) % count for step in range(count)]
    counted = [s for s in order if winner is None or (s != winner and sides[s] != sides[winner])]
    return next((s for s in counted if not filled[s]), counted[0] if counted else 0)


def keypad_subtotal(keys, counts: dict) -> int:
    """What the keypad shows before app.js takes over: the sum of the tapped keys' points."""
    return sum(key.points * counts.get(key.token, 0) for key in keys)


@dataclass(frozen=True)
class Series:
    side: str
    css: str
    points: str  # SVG polyline points
    last_x: float
    last_y: float
    total: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    series: list
    y_ticks: list  # [(y, label)]
    x_ticks: list  # [(x, label)]
    target_y: float | None
    target: int | None


NICE_STEPS = (1, 2, 2.5, 5)
LABEL_SPACING = 18  # chart units between two labels under the axis ("30" is about 12 wide)


def round_step(span: float, parts: int) -> int:
    """A round step (1, 2, 5, 10, 20, 25, 50, 100 …) cutting ``span`` in at most about ``parts``."""
    magnitude = 1
    while True:
        for nice in NICE_STEPS:
            step = nice * magnitude
            if step == int(step) and span / step <= parts:
                return int(step)
        magnitude *= 10


def manche_ticks(count: int, unit: float) -> list[int]:
    """The manches labelled under the axis, ``unit`` apart each: every 1, 2, 5, 10 … so that labels
    stay LABEL_SPACING apart, and the last manche always (in place of a multiple too close to it)."""
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if s * unit >= LABEL_SPACING or s == 500)
    ticks = list(range(0, count + 1, step))
    if ticks[-1] != count:
        if (count - ticks[-1]) * unit < LABEL_SPACING and len(ticks) > 1:
            ticks.pop()
        ticks.append(count)
    return ticks


def progression_chart(game, width: int = 320, height: int = 180) -> Chart | None:
    """Coordinates of the score-progression chart: one polyline per side, from 0 before the
    first manche to each total after it; the target as a dashed line when the game has one;
    gridlines at round values (0, 100, 200 … or 0, 25, 50 …) and the manches labelled without
    overlapping."""
    if not game.progression:
        return None
    left, right, top, bottom = 34, width - 10, 10, height - 22
    steps = [dict.fromkeys(game.sides, 0), *game.progression]
    highest = max(max(step.values()) for step in steps)
    target = game.ruleset.target
    grid = round_step(max(highest, target or 0, 1), 5)
    scale_top = -(-max(highest, target or 0, 1) // grid) * grid  # the next round value up
    count = len(steps) - 1

    def x_of(index: int) -> float:
        return round(left + (right - left) * index / count, 1)

    def y_of(value: int) -> float:
        return round(bottom - (bottom - top) * value / scale_top, 1)

    colours = series_index(game)
    series = []
    for side in game.sides:
        coords = [(x_of(i), y_of(step.get(side, 0))) for i, step in enumerate(steps)]
        series.append(
            Series(
                side=side,
                css=f"s{colours[side]}",
                points=" ".join(f"{x},{y}" for x, y in coords),
                last_x=coords[-1][0],
                last_y=coords[-1][1],
                total=game.totals.get(side, 0),  # a newcomer's start counts before their first manche
            )
        )
    x_ticks = [(x_of(i), str(i)) for i in manche_ticks(count, (right - left) / count)]
    y_ticks = [(y_of(value), str(value)) for value in range(0, scale_top + 1, grid)]
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        series=series,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        target_y=y_of(target) if target else None,
        target=target,
    )

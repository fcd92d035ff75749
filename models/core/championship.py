"""A group's championship: its club nights of a period, each night's places turned into points,
the best nights of each player added up. Pure functions of places and names.

Each ended night comes in as a ``NightPlaces``: every person's place in it, as the night's own
ranking (``club_night.ranking``, the podium's) placed them. A scale turns a place into points:

- ``points``: a list of points from first place down (« 10-8-6-5-4-3-2-1 »), more is better;
  a place beyond the list scores 0, and so does a night a player missed;
- ``places``: the place itself (the sum of placings), fewer is better; a night a player missed
  counts as that night's number of players plus one (one place behind its last).

Players sharing a place in a night (« ex æquo », 1, 1, 3) both score that shared place: two tied
second with 10-8-6 each score 8, the next one (4th) scores what 4th scores. With ``best`` set,
only each player's ``best`` nights count (the most points, or the smallest places; among equal
ones a night played before a night missed, then the earliest); every night counts otherwise. Players with equal totals share their place in
the championship, the next place skipping as many (1, 1, 3), as in a night.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .errors import N_, ValidationError
from .standings import person

PLACES = "places"
DEFAULT_SCALE = "10-8-6-5-4-3-2-1"
SCALES = (DEFAULT_SCALE, "25-18-15-12-10-8-6-4-2-1", "12-10-8-7-6-5-4-3-2-1", PLACES)  # offered on the page
MAX_STEPS = 30
MAX_POINTS = 1000
MAX_BEST = 100
SCALE_REFUSED = N_("Write the scale as the points of each place from the first, with dashes: 10-8-6-5-4-3-2-1.")
BEST_REFUSED = N_("Choose how many nights count: a whole number from 1 to 100, or every night.")


@dataclass(frozen=True)
class Scale:
    """How a night's place becomes points: ``steps`` from first place down, or the place itself
    (``steps`` empty: the sum of placings)."""

    steps: tuple = ()

    @property
    def lower_is_better(self) -> bool:
        return not self.steps

    @property
    def text(self) -> str:
        """The scale as it is asked for: « 10-8-6 » or « places »."""
        return "-".join(str(step) for step in self.steps) if self.steps else PLACES

    def points(self, place: int | None, players: int) -> int:
        """What ``place`` (None: the night missed) in a night of ``players`` scores."""
        if not self.steps:
            return players + 1 if place is None else place
        return 0 if place is None or place > len(self.steps) else self.steps[place - 1]


def scale(text) -> Scale:
    """The scale written ``text``: « places », or points from first place down separated by dashes
    (spaces and commas too), none above the one before, at most ``MAX_STEPS`` of them."""
    text = DEFAULT_SCALE if text is None or (isinstance(text, str) and not text.strip()) else text
    if not isinstance(text, str) or len(text) > 200:
        raise ValidationError(SCALE_REFUSED, field="scale")
    if text.strip().casefold() == PLACES:
        return Scale()
    parts = text.replace(",", "-").replace(" ", "-").split("-")
    words = [part for part in parts if part]
    if not 0 < len(words) <= MAX_STEPS or not all(w.isascii() and w.isdigit() for w in words):
        raise ValidationError(SCALE_REFUSED, field="scale")
    steps = tuple(int(word) for word in words)
    if any(step > MAX_POINTS for step in steps) or any(b > a for a, b in zip(steps, steps[1:], strict=False)):
        raise ValidationError(SCALE_REFUSED, field="scale")
    return Scale(steps)


def best(text) -> int | None:
    """How many nights count (None: every night), as asked: empty, or a whole number from 1 to ``MAX_BEST``."""
    if text is None or text == "" or text == "all":
        return None
    word = str(text).strip()
    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= MAX_BEST:
        raise ValidationError(BEST_REFUSED, field="best")
    return int(word)


@dataclass(frozen=True)
class NightPlaces:
    """One ended night as the championship reads it: ``places`` person -> place, ``names`` person
    -> the spelling the night showed; ``played_at`` (its start) and ``variant`` pick it as a game
    is picked (``standings.chosen``)."""

    night_id: str
    name: str
    played_at: datetime
    places: dict
    names: dict
    variant: str = ""

    @property
    def players(self) -> int:
        return len(self.places)


@dataclass(frozen=True)
class Score:
    """A player's night: their place (None: missed), what it scores, and whether it counts."""

    night_id: str
    place: int | None
    points: int
    counted: bool


@dataclass(frozen=True)
class SeasonLine:
    """A player's championship: ``total`` of the nights counted, ``played`` the nights they sat,
    ``scores`` one per night of the period (in the nights' order)."""

    place: int
    person: str
    name: str
    total: int
    played: int
    scores: tuple
    tied: bool = False

    @property
    def counted(self) -> int:
        return sum(score.counted for score in self.scores)


def table(nights, rule: Scale, best_of: int | None = None, names: dict | None = None) -> list[SeasonLine]:
    """The championship over ``nights`` (``NightPlaces``, any order: shown by date): everyone who
    played one of them, by total (most points, or fewest places), equal totals sharing a place.
    ``names`` (person -> spelling) names each person, else their latest night's spelling."""
    ordered = sorted(nights, key=lambda night: (night.played_at, night.night_id))
    spelled: dict = {}
    for night in ordered:
        spelled.update(night.names)
    spelled.update({who: name for who, name in (names or {}).items() if who in spelled})
    sign = 1 if rule.lower_is_better else -1
    lines = []
    for who in spelled:
        raw = [(night, night.places.get(who)) for night in ordered]
        values = [rule.points(place, night.players) for night, place in raw]
        keep = len(values) if best_of is None else min(best_of, len(values))
        chosen = set(sorted(range(len(values)), key=lambda i: (sign * values[i], raw[i][1] is None, i))[:keep])
        scores = tuple(Score(night.night_id, place, values[i], i in chosen) for i, (night, place) in enumerate(raw))
        total = sum(values[i] for i in chosen)
        lines.append((who, total, sum(place is not None for _, place in raw), scores))
    lines.sort(key=lambda line: (sign * line[1], person(spelled[line[0]])))
    placed = []
    for index, (who, total, played, scores) in enumerate(lines):
        place = placed[-1].place if placed and placed[-1].total == total else index + 1
        placed.append(SeasonLine(place, who, spelled[who], total, played, scores))
    shared = [line.place for line in placed]
    return [
        SeasonLine(
            line.place, line.person, line.name, line.total, line.played, line.scores, shared.count(line.place) > 1
        )
        for line in placed
    ]

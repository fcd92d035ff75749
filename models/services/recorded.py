"""What recording a manche answers (``GameService.record_manche``): its number, its points, the
totals and the standing after it, whether it was a retry, and the game as it now stands — the
last built only when asked (the JSON API's answer never asks for it)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import scoring
from .game_input import PlannedManche
from .game_view import GameView, extend_view
from .latest import LatestViews
from .stored import manche_record


@dataclass(frozen=True)
class Recorded:
    """A manche recorded: ``game`` (the game with it) is built from ``view()`` when first asked."""

    number: int
    points: dict
    totals: dict
    standing: scoring.Standing
    replayed: bool
    view: Callable[[], GameView] = field(repr=False, compare=False)

    @functools.cached_property
    def game(self) -> GameView:
        return self.view()


def written(latest: LatestViews, current: GameView, planned: PlannedManche, manche_id: int) -> Recorded:
    """The answer to ``planned``, just written after ``current`` as manche ``manche_id``.

    Where the game goes on from its view (``GameView.goes_on``) the answer is the plan's — the
    core's points and the totals that decided the end — and the view with the manche is built
    only when asked; this process's next write of the game reads the manche back with whatever
    another process added meanwhile, one ``extend_view`` for both. Else (somebody joined or
    left, a manche after the end) the view is built now, whole, as a read builds it."""
    manche = manche_record(manche_id, planned.number, planned.columns)

    def view() -> GameView:
        rows = current.rows.with_manche(manche, planned.hands).with_game(
            revision=current.revision + 1, finished_at=planned.finished_at
        )
        return latest.advance(extend_view(current, rows))

    if not current.goes_on:
        game = view()
        return Recorded(planned.number, game.manches[-1].points, game.totals, game.standing, False, lambda: game)
    standing = scoring.standing(current.ruleset, planned.totals, planned.number)
    return Recorded(planned.number, planned.points, planned.totals, standing, False, view)


def replayed(game: GameView, number: int) -> Recorded:
    """The answer to a retried write of manche ``number``, as ``game`` (read after it) stands."""
    if number > len(game.manches):  # after the end: answered as the game stands
        return Recorded(number, {}, game.totals, game.standing, True, lambda: game)
    after = game.progression[number - 1]
    standing = scoring.standing(game.ruleset, after, number)
    return Recorded(number, game.manches[number - 1].points, after, standing, True, lambda: game)

"""The per-process memos bounded by bytes (issue 27, item 7): each entry's estimate is above what it
really holds (measured here with tracemalloc, as when the estimates were set), not far above, and
the memo of latest views stays under its bound whatever the games. A worker's memory after one
write to each of 66 big games: tests/e2e/test_club_deployment.py."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from models.services.history import GameSummary, summary_bytes
from models.services.latest import VIEWS_BYTES, LatestViews, view_bytes

NAMES = ["Ana", "Bob", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo"]
DECK = [rank + suit for rank in ("A", "2", "3", "4", "5", "6", "7", "9", "10", "J", "Q", "K") for suit in "CDHS"]


def document(players: int, manches: int, cards: int) -> dict:
    """A huit-américain game: ``manches`` manches, each hand 1 to ``cards`` cards (0: typed totals)."""
    rng = random.Random(players * 1000 + manches)
    names = NAMES[:players]
    rounds = []
    for number in range(1, manches + 1):
        winner = names[number % players]
        others = [name for name in names if name != winner]
        if cards:
            drawn = rng.sample(DECK * 2, 8 * len(others))  # two packs: two copies of a card at most
            hands = {name: drawn[8 * i : 8 * i + rng.randint(1, cards)] for i, name in enumerate(others)}
            rounds.append({"number": number, "winner": winner, "hands": hands})
        else:
            rounds.append(
                {"number": number, "winner": winner, "hands": {}, "points": {n: rng.randrange(60) for n in others}}
            )
    game = {"variant": "huit-americain", "players": names, "rounds": 1000, "first_dealer": 0, "manches": rounds}
    return {"format": "carte-game/1", "game": game}


def measured(build) -> tuple[object, int]:
    """What ``build()`` returns and the bytes it holds once built (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        value = build()
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return value, held


@pytest.mark.parametrize(
    ("players", "manches", "cards"), [(2, 10, 3), (4, 50, 4), (5, 300, 8), (8, 990, 2), (8, 990, 0)]
)
def test_the_estimates_are_upper_bounds_not_far_off(games, players, manches, cards):
    made, _ = games.import_game(document(players, manches, cards))
    games.get(made.id)  # the caches every view shares (parsed cards, rules) are warm
    view, held = measured(lambda: games.get(made.id))
    view.side_of  # noqa: B018 (what a page asks of it: kept on the view)
    assert held <= view_bytes(view) <= 2.5 * held, (held, view_bytes(view))
    summary, held = measured(lambda: GameSummary.of(view))
    assert held <= summary_bytes(summary) <= 3 * held, (held, summary_bytes(summary))


def test_the_latest_views_stay_under_their_bound(games):
    made, _ = games.import_game(document(8, 990, 4))
    view = games.get(made.id)
    memo = LatestViews()
    for number in range(66):  # as many games as issue 27's: each a view of its own
        memo.remember(view.__class__(**{**view.__dict__, "id": f"g{number}"}))
    assert memo.views.bytes <= VIEWS_BYTES
    assert 3 <= len(memo.views) < 66  # the most recent ones, as many as the bound holds
    assert memo.views.get("g65") is not None and memo.views.get("g0") is None


def test_a_weight_carried_from_write_to_write_is_the_weight_of_the_rows(games):
    """The rows a write makes carry their weight from the rows before it (what the memo of views
    weighs): after manches recorded, one replaced and one deleted, it is what the rows hold."""
    from models.services.game_view import hands_weight
    from models.services.games import MancheEntry

    game, _ = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C", "KD"], "Chloé": ["8H"]}))
    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["10S"], "Chloé": ["2C", "2D", "QH"]}))
    games.edit_manche(game.id, 1, MancheEntry("Chloé", {"Ana": ["AS"], "Bob": ["JC", "9D"]}))
    rows = games.delete_manche(game.id, 2).rows
    assert rows.carried_weight is not None  # carried, not worked out again
    assert rows.weight == hands_weight(rows.hands.values()) == (2, 7)  # "AS" and "JC 9D": 2 hands, 2 + 5 characters

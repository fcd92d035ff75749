"""The latest view of the games this process wrote or read for a write: a write that finds its
game here at the revision the database holds skips reading the game again — one small indexed
statement instead of four and the whole game recomputed. When another process has only added
manches since (the game's count of reshapes unchanged: ``Game.reshaped``), the view is brought
up to date with those manches alone (read in the same one statement, ``CATCH_UP``;
``extend_view``).

The figure that needs it: manche writes ≥ 0.33× a bare INSERT (``bench/run.py``, 0.35× with it);
without it a write on a game of 200 manches costs 71 % more CPU (``bench/memos.py``: +17.2× the
bare page's CPU on 24.2×), which would bring that figure near 0.20×.

Correct with several worker processes and PostgreSQL: the revision is read from the database
before the memo is trusted, and the write itself still compares and bumps it in one statement
(``game_work.bump``), so a view another process has made stale is never written over. Every
change to a game bumps its revision (the shared view's ETag and the page cache rely on it too).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from sqlalchemy import and_, bindparam, select

from .db import Database, Game, Hand, Manche
from .game_view import GameView, extend_view
from .lru import LRU
from .stored import StoredHand, StoredManche, stored_manche_of

# A write's one question before it is planned: the game's revision, count of reshapes and end,
# and the manches another process added after the kept view's last one, with their hands.
CATCH_UP = (
    select(
        Game.revision,
        Game.reshaped,
        Game.finished_at,
        *[getattr(Manche, name).label(f"manche_{name}") for name in StoredManche._fields],
        *[getattr(Hand, name).label(f"hand_{name}") for name in StoredHand._fields],
    )
    .select_from(Game)
    .outerjoin(Manche, and_(Manche.game_id == Game.id, Manche.number > bindparam("after")))
    .outerjoin(Hand, Hand.manche_id == Manche.id)
    .where(Game.id == bindparam("game_id"))
    .order_by(Manche.number, Hand.seat)
)
GAMES_KEPT = 64  # per process: the games being played right now
VIEWS_BYTES = 32 * 1024 * 1024  # per process, as estimated by view_bytes

# What a view holds, in bytes: measured with tracemalloc on views built from games of 2 to
# 8 players, 10 to 990 manches, typed totals or 1 to 8 cards a hand, and taken above every one of
# them (a game of 8 players and 990 manches of 2-card hands: 3.1 MB measured, 4.6 MB estimated;
# of 8-card hands: 6.6 MB measured, 7.3 MB estimated; of 2 players and 10 manches: 16 KB, 19 KB).
VIEW_BASE = 12 * 1024
PER_MANCHE = 300
PER_HAND = 400
PER_CARD_CHARACTER = 45  # a hand's cards as stored ("KH 3C": 5), parsed and shown


def view_bytes(view: GameView) -> int:
    """An upper estimate of the memory ``view`` holds (from its rows' weight: a pass over its
    hands once, then carried from write to write)."""
    hands, characters = view.rows.weight
    return VIEW_BASE + PER_MANCHE * len(view.rows.manches) + PER_HAND * hands + PER_CARD_CHARACTER * characters


class LatestViews:
    def __init__(self, size: int = GAMES_KEPT, max_bytes: int = VIEWS_BYTES):
        self.views = LRU(size, max_bytes, view_bytes)
        self.turns_lock = threading.Lock()
        self.turns: dict[str, list] = {}  # game id -> [its lock, how many writes hold or wait for it]

    @contextmanager
    def turn(self, game_id: str):
        """One manche recorded at a time per game in this process: two phones saving the same game
        at once in one worker do not both plan on the view kept before either wrote — the second
        waits (a pause of that request alone under gevent), then finds the view the first one
        kept, at the revision the database holds, instead of finding the revision moved once it
        holds the database's lock and planning again there."""
        with self.turns_lock:
            entry = self.turns.setdefault(game_id, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self.turns_lock:
                entry[1] -= 1
                if not entry[1]:
                    del self.turns[game_id]

    def remember(self, view: GameView) -> GameView:
        return self.views.put(view.id, view)

    def advance(self, view: GameView) -> GameView:
        """Keep ``view`` (the game once a write went through, built after it) unless the view
        kept of the game is as recent (a later write of this process kept its own meanwhile)."""
        kept = self.views.get(view.id)
        if kept is None or kept.revision < view.revision:
            self.remember(view)
        return view

    def current(self, database: Database, game_id: str) -> GameView | None:
        """The view kept for ``game_id`` if the game is still at its revision, or brought up to
        date when manches were only added since (or its revision moved without a change to what
        a view holds: an invite); else None. One statement whichever (``CATCH_UP``): the game's
        revision, count of reshapes and end, with the manches after the view's last one and their
        hands — one consistent state, so nothing needs checking again."""
        view = self.views.get(game_id)
        if view is None:
            return None
        after = view.rows.manches[-1].number if view.rows.manches else 0
        found = database.all(CATCH_UP, {"after": after, "game_id": game_id})
        if not found:
            return None
        state = found[0]
        if state.revision == view.revision:
            return view
        if state.reshaped != view.rows.game["reshaped"] or not view.goes_on:
            return None
        manches, hands = _added(found)
        game = {**view.rows.game, "revision": state.revision, "finished_at": state.finished_at}
        rows = view.rows.with_manches(game, tuple(manches.values()), {m: tuple(hands.get(m, ())) for m in manches})
        return self.remember(extend_view(view, rows))


def _added(found) -> tuple[dict, dict]:
    """The manches (by id) and their hands (by manche id) in the rows of ``CATCH_UP``."""
    manches: dict = {}
    hands: dict = {}
    for row in found:
        mapping = row._asdict()
        if mapping["manche_id"] is None:
            continue
        manche = stored_manche_of([mapping[f"manche_{name}"] for name in StoredManche._fields])
        manches.setdefault(manche.id, manche)
        if mapping["hand_seat"] is not None:
            hand = StoredHand._make([mapping[f"hand_{name}"] for name in StoredHand._fields])
            hands.setdefault(manche.id, []).append(hand)
    return manches, hands

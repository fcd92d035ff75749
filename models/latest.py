"""The latest view of the games this process wrote or read for a write (issue 17): a write that
finds its game here at the revision the database holds skips reading the game again — one small
indexed statement instead of four and the whole game recomputed.

Correct with several worker processes and PostgreSQL: the revision is read from the database
before the memo is trusted, and the write itself still compares and bumps it in one statement
(``GameService._bump``), so a view another process has made stale is never written over. Every
change to a game bumps its revision (the shared view's ETag and the page cache rely on it too).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from .db import Database
from .game_view import GameView

REVISION = "SELECT revision FROM game WHERE id = ?"
GAMES_KEPT = 64  # per process: the games being played right now


class LatestViews:
    def __init__(self, size: int = GAMES_KEPT):
        self.size = size
        self.views: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def remember(self, view: GameView) -> GameView:
        with self.lock:
            self.views[view.id] = view
            self.views.move_to_end(view.id)
            while len(self.views) > self.size:
                self.views.popitem(last=False)
        return view

    def current(self, database: Database, game_id: str) -> GameView | None:
        """The view kept for ``game_id`` if the game is still at its revision (one statement when
        a view is kept, none otherwise), else None."""
        with self.lock:
            view = self.views.get(game_id)
        if view is None:
            return None
        row = database.lookup(REVISION, game_id)
        return view if row is not None and row[0] == view.revision else None

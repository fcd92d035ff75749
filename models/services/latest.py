"""The latest view of the games this process wrote or read for a write (issue 17): a write that
finds its game here at the revision the database holds skips reading the game again — one small
indexed statement instead of four and the whole game recomputed. When another process has only
added manches since (the game's count of reshapes unchanged: ``Game.reshaped``), the view is
brought up to date with those manches alone (``game_view.appended_rows``, ``extend_view``).

Correct with several worker processes and PostgreSQL: the revision is read from the database
before the memo is trusted, and the write itself still compares and bumps it in one statement
(``GameService._bump``), so a view another process has made stale is never written over. Every
change to a game bumps its revision (the shared view's ETag and the page cache rely on it too).
"""

from __future__ import annotations

from .db import Database
from .game_view import GameView, appended_rows, extend_view
from .lru import LRU

REVISION = "SELECT revision, reshaped FROM game WHERE id = ?"
GAMES_KEPT = 64  # per process: the games being played right now
VIEWS_BYTES = 32 * 1024 * 1024  # per process, as estimated by view_bytes (issue 27)

# What a view holds, in bytes (issue 27): measured with tracemalloc on views built from games of 2 to
# 8 players, 10 to 990 manches, typed totals or 1 to 8 cards a hand, and taken above every one of
# them (a game of 8 players and 990 manches of 2-card hands: 3.1 MB measured, 4.6 MB estimated;
# of 8-card hands: 6.6 MB measured, 7.3 MB estimated; of 2 players and 10 manches: 16 KB, 19 KB).
VIEW_BASE = 12 * 1024
PER_MANCHE = 300
PER_HAND = 400
PER_CARD_CHARACTER = 45  # a hand's cards as stored ("KH 3C": 5), parsed and shown


def view_bytes(view: GameView) -> int:
    """An upper estimate of the memory ``view`` holds (one pass over its hands)."""
    hands = characters = 0
    for held in view.rows.hands.values():
        hands += len(held)
        characters += sum(len(hand[1]) for hand in held if hand[1])
    return VIEW_BASE + PER_MANCHE * len(view.rows.manches) + PER_HAND * hands + PER_CARD_CHARACTER * characters


class LatestViews:
    def __init__(self, size: int = GAMES_KEPT, max_bytes: int = VIEWS_BYTES):
        self.views = LRU(size, max_bytes, view_bytes)

    def remember(self, view: GameView) -> GameView:
        return self.views.put(view.id, view)

    def current(self, database: Database, game_id: str) -> GameView | None:
        """The view kept for ``game_id`` if the game is still at its revision (one statement when
        a view is kept, none otherwise); brought up to date if manches were only added since
        (three more); else None."""
        view = self.views.get(game_id)
        if view is None:
            return None
        row = database.lookup(REVISION, game_id)
        if row is None:
            return None
        if row[0] == view.revision:
            return view
        if row[1] != view.rows.game["reshaped"] or view.roster or view.after_end:
            return None
        with database.reader.connect() as session:  # only manches were added since: read those
            rows = appended_rows(session, view.rows)
        if rows is None or rows.game["reshaped"] != view.rows.game["reshaped"]:
            return None
        # Read in several statements: trusted only if no write came in between (a player who
        # joined, then a manche, would be a manche with a seat the kept players lack).
        if database.lookup(REVISION, game_id) != (rows.game["revision"], rows.game["reshaped"]):
            return None
        return self.remember(extend_view(view, rows))

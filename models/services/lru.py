"""A per-process memo of at most ``size`` entries, the least recently used let go first, safe to
share between threads: the one kind of bounded memo the app keeps (a game's latest view, game
summaries, session cookies verified lately). The page cache is bounded in bytes instead
(``views/pagecache.py``)."""

from __future__ import annotations

import threading
from collections import OrderedDict


class LRU:
    def __init__(self, size: int):
        self.size = size
        self.entries: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, default=None):
        with self.lock:
            value = self.entries.get(key, default)
            if key in self.entries:
                self.entries.move_to_end(key)
            return value

    def put(self, key, value):
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self.entries)

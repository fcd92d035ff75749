"""A per-process memo bounded by count and by bytes, the least recently used let go first, safe to
share between threads: the one kind of bounded memo the app keeps (a game's latest view, game
summaries, session cookies verified lately, the pages kept compressed: ``views/pagecache.py``).

A count alone does not bound memory (a few games of 8 players and 990 manches weigh hundreds of
megabytes): each memo gives ``weigh``, an estimate of what an entry holds in
bytes (an upper bound measured with tracemalloc, see the memo's own docstring), and the memo keeps
the sum under ``max_bytes``. An entry heavier than the whole bound is answered but not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable


class LRU:
    """At most ``size`` entries (None: as many as ``max_bytes`` holds) and ``max_bytes`` of them."""

    def __init__(self, size: int | None, max_bytes: int | None = None, weigh: Callable[[object], int] | None = None):
        self.size = size
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.entries: OrderedDict = OrderedDict()  # key -> (value, its weight in bytes)
        self.bytes = 0  # the sum of the weights kept
        self.lock = threading.Lock()

    def get(self, key, default=None):
        with self.lock:
            found = self.entries.get(key)
            if found is None:
                return default
            self.entries.move_to_end(key)
            return found[0]

    def put(self, key, value):
        weight = self.weigh(value) if self.weigh else 0  # outside the lock: it may read the whole value
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if self.max_bytes is not None and weight > self.max_bytes:
                return value  # heavier than the whole bound: answered, not kept
            self.entries[key] = (value, weight)
            self.bytes += weight
            while (self.size is not None and len(self.entries) > self.size) or (
                self.max_bytes is not None and self.bytes > self.max_bytes
            ):
                _, (_, dropped) = self.entries.popitem(last=False)
                self.bytes -= dropped
        return value

    def __len__(self) -> int:
        return len(self.entries)

"""What the rate limits cost (issue 17): nothing on a read, one counter on a write.

- Reads (GET, HEAD, OPTIONS) are never limited: the limiter leaves them at its first check,
  before it resolves any limit or touches its storage.
- The in-process counters (``sweptmemory://``, the default without Redis) are limits'
  ``MemoryStorage`` without its timer thread: the stock storage starts a ``threading.Timer``
  whenever the previous one has ended — one thread per write under load — to drop expired
  counters. Here a counter past its window is dropped when it is next counted (so a new window
  always starts from zero), and the rest are swept inline at most once a second.
"""

from __future__ import annotations

import time

from flask import request
from limits.storage import MemoryStorage

READS = ("GET", "HEAD", "OPTIONS")
SWEEP_SECONDS = 1.0


def is_read() -> bool:
    """A request the limits never count (Flask-Limiter's ``request_filter``)."""
    return request.method in READS


class SweptMemoryStorage(MemoryStorage):
    STORAGE_SCHEME = ["sweptmemory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()  # the one the stock storage starts at once
        self.swept = time.monotonic()

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 (the stock storage's private hook)
        now = time.monotonic()
        if now - self.swept >= SWEEP_SECONDS:
            self.swept = now
            self._MemoryStorage__expire_events()

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        with self.locks[key]:
            if key in self.expirations and self.expirations[key] <= time.time():  # its window is over
                self.storage.pop(key, None)
                self.expirations.pop(key, None)
        return super().incr(key, expiry, amount)

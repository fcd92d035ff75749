"""The one bounded memo (models/services/lru.py): at most ``size`` entries, the least recently used first out."""

from models.services.lru import LRU


def test_the_least_recently_used_goes_first():
    memo = LRU(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" used: "b" is now the least recent
    memo.put("c", 3)
    assert len(memo) == 2
    assert memo.get("b") is None and memo.get("a") == 1 and memo.get("c") == 3
    assert memo.put("a", 4) == 4 and memo.get("a") == 4 and len(memo) == 2
    assert memo.get("missing", "default") == "default"

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


def test_the_memo_is_bounded_by_bytes_too():
    """Issue 27: a count alone let 64 views of 3 MB each stay; the weights' sum is kept under max_bytes."""
    memo = LRU(100, max_bytes=10, weigh=len)
    memo.put("a", "xxxx")
    memo.put("b", "xxxx")
    assert memo.bytes == 8 and len(memo) == 2
    memo.put("c", "xxxx")  # 12 > 10: the least recently used goes
    assert memo.get("a") is None and memo.get("b") == "xxxx" and memo.bytes == 8
    memo.put("b", "x")  # replaced: its old weight no longer counts
    assert memo.bytes == 5
    assert memo.put("huge", "x" * 11) == "x" * 11  # heavier than the whole bound: answered, not kept
    assert memo.get("huge") is None and memo.bytes == 5 and len(memo) == 2

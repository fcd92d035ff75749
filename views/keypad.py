"""A card keypad read from a form: the count of each key (``n_<token>``, prefixed per player in
the manche form) and the tap a form without JavaScript sends (``tap=+8`` / ``tap=-8``)."""

from __future__ import annotations

from .numbers import keypad_count


def read_keypad(data, keys, prefix: str = "") -> tuple[dict[str, int], bool]:
    """The counts per key token (each within the deck's limit for it) with the tap applied, and
    whether a tap was sent (the form comes back instead of being submitted)."""
    counts = {key.token: keypad_count(data.get(f"{prefix}n_{key.token}"), key.limit) for key in keys}
    limits = {key.token: key.limit for key in keys}
    tap = data.get(f"{prefix}tap", "")
    if len(tap) > 1 and tap[0] in "+-" and tap[1:] in counts:
        token = tap[1:]
        counts[token] = max(0, min(limits[token], counts[token] + (1 if tap[0] == "+" else -1)))
        return counts, True
    return counts, False

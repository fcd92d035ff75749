"""Numbers typed into a request (forms, query strings), read in one place.

Only ASCII digits make a number here. ``str.isdigit()`` also says yes to "²", "⁵" or "١٢", which
``int()`` then refuses (or reads as digits nobody at the table meant), and ``int()`` of thousands
of digits raises too: no view calls either on request text. The services and the pure core take
real ints; a view converts text with these functions. The JSON API sends JSON numbers through
unchanged (a string where the contract says integer is the service's validation_error).
"""

from __future__ import annotations

from models.core.errors import N_, NotFound, ValidationError

MAX_DIGITS = 9  # far above every bound the app has; keeps int() away from huge inputs


def whole_number(text, low: int = 0, high: int | None = None) -> int | None:
    """The whole number written in ``text`` (ASCII digits, surrounding spaces ignored) when it lies
    in ``low``..``high``; None for anything else."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not (0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    if value < low or (high is not None and value > high):
        return None
    return value


def number_or_text(text):
    """For a service that names its own bounds: ``text`` as an int when it is a whole number, None
    when it is empty, else the text itself (which the service refuses with its message and field)."""
    if text is None or not str(text).strip():
        return None
    value = whole_number(text)
    return text if value is None else value


def keypad_count(text, high: int) -> int:
    """A keypad count: a whole number up to ``high`` (larger ones are ``high``); 0 for anything else."""
    if isinstance(text, str) and text.strip().isascii() and text.strip().isdigit():
        value = whole_number(text)
        return high if value is None else min(value, high)
    return 0


def required_whole_number(text, field: str, low: int, high: int) -> int:
    """``whole_number`` or a validation_error naming ``field`` and the bounds."""
    value = whole_number(text, low, high)
    if value is None:
        raise ValidationError(
            N_("%(what)s: a whole number from %(low)s to %(high)s."), field=field, what=field, low=low, high=high
        )
    return value


def page_number(args) -> int:
    """``?page=`` of a paged list: a whole number from 1, 1 when absent; anything else is a 404."""
    page = whole_number(args.get("page", "1"), 1)
    if page is None:
        raise NotFound(N_("No such page."), field="page")
    return page

"""JSON documents from requests (API bodies, uploaded files): text that cannot be encoded is refused.

JSON may escape a lone UTF-16 surrogate ("\\ud800" alone); Python decodes it into a str that can be
neither stored nor sent back as UTF-8, so echoing it in a message would fail with a 500.
"""

from __future__ import annotations

import re

from models.core.errors import N_, ValidationError

SURROGATE = re.compile("[\ud800-\udfff]")


def refuse_unencodable(document, field: str | None = None) -> None:
    """A validation_error when the decoded document holds a lone surrogate anywhere (keys too),
    naming where (``field`` when given, as for an uploaded file)."""
    where = surrogate_in(document)
    if where is not None:
        raise ValidationError(
            N_("The text holds a character that cannot be encoded (a lone UTF-16 surrogate)."),
            field=field or where or None,
        )


def may_hold_surrogate(raw: bytes) -> bool:
    """Whether JSON text ``raw`` can decode into a lone surrogate at all: only through a ``\\u``
    escape, or through bytes that are not plain UTF-8 (``json.loads`` decodes bytes with
    "surrogatepass", and UTF-16 or UTF-32 text holds NUL bytes). Plain UTF-8 without an escape — a
    phone's manche, every time — needs no walk through the document."""
    if b"\\u" in raw or b"\x00" in raw:
        return True
    try:
        raw.decode("utf-8")  # strict: an encoded surrogate is refused
    except UnicodeDecodeError:
        return True
    return False


def surrogate_in(document) -> str | None:
    """Where the decoded JSON document holds a lone surrogate (the JSON escape for U+D800 alone is
    one; a pair is decoded into its character): the dotted path of clean keys up to it ("" at the
    top), or None. Such text can be neither stored nor echoed back as UTF-8. Walked without
    recursion: the document may be deeply nested."""
    stack = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if SURROGATE.search(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if SURROGATE.search(key):
                    return path
                stack.append((item, f"{path}.{key}" if path else key))
        elif isinstance(value, list):
            stack.extend((item, f"{path}.{index}" if path else str(index)) for index, item in enumerate(value))
    return None

"""One rule for every name people type (players, teams, house rules): ``clean_name``.

A name is normalised once (Unicode NFC, spaces trimmed and collapsed) and then must be printable
text: no control characters, no bidirectional overrides or isolates (U+202A–U+202E,
U+2066–U+2069, which could make a name display as something else), no zero-width characters
(U+200B, U+200C, U+2060, U+FEFF …) except the zero-width joiner inside an emoji sequence
(👨‍👩‍👧), and a length limit counted in characters (code points) after normalisation.

Pure: no Flask, no ORM. The errors are ``ValidationError`` with ``field`` set by the caller and a
``reason`` (``not_text``, ``empty``, ``invisible``, ``too_long``) for callers that word one case
differently.
"""

from __future__ import annotations

import unicodedata

from .errors import N_, ValidationError

ZWJ = "\u200d"
VARIATION_SELECTOR_16 = "\ufe0f"
SKIN_TONES = range(0x1F3FB, 0x1F400)  # emoji modifiers: 🏻 … 🏿
TAGS = range(0xE0020, 0xE0080)  # the tags of subdivision flags (🏴 + tags + cancel tag)
BLACK_FLAG = "\U0001f3f4"
# Blocks set aside for pictographs: a code point not yet assigned in this Python's Unicode
# version there is a newer emoji, not garbage.
PICTOGRAPHS = range(0x1F000, 0x1FB00)


class InvalidName(ValidationError):
    """A name that cannot be kept; ``reason`` says which rule it broke."""

    def __init__(self, template: str, reason: str, field: str | None = None, **params):
        super().__init__(template, field=field, **params)
        self.reason = reason


def _is_emoji(ch: str) -> bool:
    """A pictograph that may join another in a sequence (👨, ❤, 🔥, ♀, 🦰 …)."""
    return unicodedata.category(ch) == "So" or (ord(ch) in PICTOGRAPHS and unicodedata.category(ch) == "Cn")


def _joins_emoji(text: str, index: int) -> bool:
    """Whether the zero-width joiner at ``index`` sits between two emoji (a modifier or VS16 may
    follow the first one)."""
    before = index - 1
    while before >= 0 and (text[before] == VARIATION_SELECTOR_16 or ord(text[before]) in SKIN_TONES):
        before -= 1
    after = index + 1
    return before >= 0 and after < len(text) and _is_emoji(text[before]) and _is_emoji(text[after])


def _in_flag(text: str, index: int) -> bool:
    """Whether the tag character at ``index`` belongs to a subdivision flag (🏴 then tags)."""
    start = index
    while start > 0 and ord(text[start - 1]) in TAGS:
        start -= 1
    return start > 0 and text[start - 1] == BLACK_FLAG


def _allowed(text: str, index: int) -> bool:
    ch = text[index]
    if ch.isprintable():
        return True
    if ch == ZWJ:
        return _joins_emoji(text, index)
    if ord(ch) in TAGS:
        return _in_flag(text, index)
    return ord(ch) in PICTOGRAPHS and unicodedata.category(ch) == "Cn"


def normalize_name(text: str) -> str:
    """A name as kept: NFC, trimmed, any run of spaces made one space (nothing refused)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def clean_name(text, max_length: int, field: str | None = None) -> str:
    """The name as it will be kept, or an ``InvalidName`` naming ``field``.

    Normalised: NFC, leading and trailing spaces removed, any run of spaces (tabs, new lines,
    no-break spaces …) made one space. Refused: not text, empty, a character that is not
    printable (control, format — bidirectional overrides, zero-width characters — surrogate,
    private use, unassigned) save the joiner of an emoji sequence and the tags of a flag, more
    than ``max_length`` characters.
    """
    if not isinstance(text, str):
        raise InvalidName(N_("A name is text."), "not_text", field=field)
    name = normalize_name(text)
    if not name:
        raise InvalidName(N_("A name cannot be empty."), "empty", field=field)
    if not all(_allowed(name, i) for i in range(len(name))):
        raise InvalidName(
            N_("A name may hold only visible characters (no control, invisible or direction characters)."),
            "invisible",
            field=field,
        )
    if len(name) > max_length:
        raise InvalidName(N_("A name has at most %(max)s characters."), "too_long", field=field, max=max_length)
    return name


SEPARATORS = " -"


def _parts(name: str) -> list[str]:
    """The words of a name, split at spaces and hyphens ("Jean-Baptiste" → Jean, Baptiste)."""
    return [part for part in name.replace("-", " ").split(" ") if part] or [name]


def _starts_another(prefix: str, name: str, names: list[str]) -> bool:
    folded = prefix.casefold()
    return any(other != name and other.casefold().startswith(folded) for other in names)


def _cut(name: str, names: list[str], room: int) -> str | None:
    """The shortest prefix no other name starts with, ended by a full stop, within ``room``: cut
    after the first word and one letter of the next at the earliest ("Jean-B."), never on a
    separator; None when the letter that tells the name apart lies beyond the room."""
    first = len(_parts(name)[0])
    start = first + 2 if first + 1 < len(name) else room - 1
    for length in range(max(1, start), min(room - 1, len(name) - 1) + 1):
        prefix = name[:length]
        if prefix[-1] not in SEPARATORS and not _starts_another(prefix, name, names):
            return prefix + "."
    return None


def _initials(name: str, names: list[str], room: int) -> str:
    """The initials ("JB"), with more letters of the last word while another name of ``names`` has
    the same ones ("JPi", "JPa")."""
    parts = _parts(name)
    head = "".join(part[0] for part in parts[:-1]).upper()
    last = parts[-1]
    others = {"".join(p[0] for p in _parts(other)).upper() for other in names if other != name}
    for length in range(1, len(last) + 1):
        label = head + (last[0].upper() + last[1:length])
        clash = {o for o in others if o.casefold() == label.casefold()}
        if not clash or len(label) >= room:
            return label
    return head + last


def tell_apart(names: list[str], room: int) -> dict[str, str]:
    """Each name as a label of at most ``room`` characters (give or take a full stop) that tells it
    from the others in the list: the whole name when it fits; else its shortest distinct start
    ("Jean-B.", "Jean-Pi.", "Jean-Pa."); else its initials ("JB"). Where two labels still meet,
    the later one gets its place in the list added, so no two are ever the same."""
    labels = {name: name if len(name) <= room else _cut(name, names, room) for name in names}
    rest = [name for name in names if labels[name] is None]
    for name in rest:
        labels[name] = _initials(name, rest, room)
    seen: set[str] = set()
    for index, name in enumerate(names):
        if labels[name].casefold() in seen:
            labels[name] = f"{labels[name]}{index + 1}"
        seen.add(labels[name].casefold())
    return labels

"""What the core says, without knowing the language: one text carrier, ``Message``.

The pure modules never build a sentence. They return (or raise with) a ``Message``: an English
msgid marked with ``N_`` so that Babel extracts it, and its parameters as data — numbers, plain
strings, cards, suits, lists of cards, texts of the variant files (``{"fr": …, "en": …}``) and
other messages. The web layer (``views/texts.py``) words a ``Message`` in the reader's language:
it translates the template, names each card with its article where ``forms`` asks for one, and
renders every parameter the same way everywhere (pages, forms, the JSON API).
"""

from __future__ import annotations

from dataclasses import dataclass, field


def N_(text: str) -> str:
    """Mark a string for extraction without translating it (translated later, per request)."""
    return text


def Nn_(singular: str, plural: str) -> tuple:
    """Mark a message with a plural for extraction (``-k Nn_:1,2``): the pair is chosen from per
    language by Babel's ``ngettext``, with the number of the parameter ``Message.plural_by``."""
    return (singular, plural)


@dataclass(frozen=True)
class SuitRef:
    """A suit as a message parameter (named in the reader's language)."""

    suit: str


@dataclass(frozen=True)
class DataText:
    """A text of the variant files (``{"fr": …, "en": …}`` or one plain string) as a parameter;
    ``inside``: it is quoted after a colon, so its first letter is made small."""

    text: object
    inside: bool = False


@dataclass(frozen=True)
class Owner:
    """A person's name as the owner of what follows it (« le téléphone d'Ana / de Bob », “Ana's
    phone”): each language joins it its own way."""

    name: str


@dataclass(frozen=True)
class Message:
    """A message template (an English msgid) and its parameters.

    ``forms`` says how a card parameter is named in the sentence: ``"the"`` (le 8, l'As, la Dame /
    the 8, the Ace), ``"a"`` (un 8, une Dame / an 8, a Joker) or ``"plural"`` (a rank: Rois, 8 /
    Kings, 8s); without a form, the bare name.
    A list of cards takes the form on each card ("un As ou un 8"). A template made with ``Nn_``
    (singular, plural) is chosen from by the number ``params[plural_by]``.
    """

    template: str | tuple
    params: dict = field(default_factory=dict)
    forms: dict = field(default_factory=dict)
    plural_by: str | None = None

    @property
    def msgid(self) -> str:
        """The English msgid (the singular of a plural pair): what identifies the message."""
        return self.template[0] if isinstance(self.template, tuple) else self.template


def english_template(template, params: dict, plural_by: str | None) -> str:
    """The English form of a template: the singular or the plural of a pair, by the count."""
    if not isinstance(template, tuple):
        return template
    return template[0] if params.get(plural_by) == 1 else template[1]


def plain(value, form: str | None = None) -> str:
    """A message (or parameter) in plain, untranslated English with cards as codes (``8H``): for
    developers' logs and the core's own tests. People read ``views/texts.say``."""
    if isinstance(value, Message):
        params = {k: plain(v, value.forms.get(k)) for k, v in value.params.items()}
        template = english_template(value.template, value.params, value.plural_by)
        return template % params if params else template
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, DataText):
        value = value.text
    if isinstance(value, dict):
        return value.get("en") or value.get("fr") or ""
    if isinstance(value, SuitRef):
        return value.suit
    if hasattr(value, "rank"):  # a card: its canonical text (8H, JK)
        if form == "plural":
            return str(value) + "s"
        return {"the": "the ", "a": "an " if value.rank in ("A", "8") else "a "}.get(form, "") + str(value)
    return " / ".join(plain(v, form) for v in value)


def gloss_first(text: str, glossary: dict[str, str], seen: set[str]) -> str:
    """``text`` with each name of ``glossary`` not yet in ``seen`` followed by its gloss, in
    brackets, where it first appears: a French name explained once on an English page, however
    many of the page's texts use it. A text that is the name alone (a heading, a choice) stays as
    it is; ``seen`` grows with every name glossed."""
    if text.strip() in glossary:
        return text
    for name, gloss in glossary.items():
        at = text.find(name)
        if name in seen or at < 0:
            continue
        seen.add(name)
        end = at + len(name)
        text = f"{text[:end]} ({gloss}){text[end:]}"
    return text

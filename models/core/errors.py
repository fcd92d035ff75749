"""Domain errors: a stable code from SPEC §4, the input it is about, and what to say (a ``Message``).

The pure modules do not know the user's language: an error carries a ``Message`` (an English
msgid and its parameters, ``models/core/text.py``); the web layer words it in the request's language
(``views/texts.py``) for a page, a form or the JSON API.
"""

from __future__ import annotations

from .text import N_, Message, Nn_, english_template

__all__ = ["N_", "Nn_", "DomainError"]


class DomainError(Exception):
    """A rule of the game or of the API was broken by the input.

    ``code`` is one of SPEC §4's codes, ``field`` the input it is about (optional), ``text`` what
    to say: ``template`` (an English msgid with ``%(name)s`` placeholders, or a pair made with
    ``Nn_`` chosen from by the number ``params[plural_by]``), ``params`` (data: numbers, strings,
    cards, other messages) and ``forms`` (the article a card parameter takes, as in ``Message``).
    """

    code = "validation_error"
    status = 422

    def __init__(self, template, field: str | None = None, *, forms=None, plural_by=None, **params):
        super().__init__(template)
        self.template = template
        self.field = field
        self.params = params
        self.forms = dict(forms or {})
        self.plural_by = plural_by

    @property
    def text(self) -> Message:
        return Message(self.template, self.params, self.forms, self.plural_by)

    def __str__(self) -> str:
        plain = {k: v if isinstance(v, (str, int)) else str(v) for k, v in self.params.items()}
        template = english_template(self.template, self.params, self.plural_by)
        return template % plain if plain else template


class InvalidCard(DomainError):
    code = "invalid_card"


class AmbiguousCard(DomainError):
    code = "ambiguous_card"


class TooManyCopies(DomainError):
    code = "too_many_copies"


class UnknownVariant(DomainError):
    code = "unknown_variant"


class UnknownPlayer(DomainError):
    code = "unknown_player"


class MissingHand(DomainError):
    code = "missing_hand"


class FinishForbidden(DomainError):
    code = "finish_forbidden"


class GameFinished(DomainError):
    code = "game_finished"
    status = 409


class Conflict(DomainError):
    code = "conflict"
    status = 409


class EditCollision(Conflict):
    """Two phones corrected the same recorded manche: the other phone's correction was saved first.
    ``theirs`` is the manche as it now stands (the web layer shows both versions)."""

    def __init__(self, message, theirs=None, version=None, **params):
        super().__init__(message, **params)
        self.theirs = theirs
        self.version = version


class AlreadyRecorded(Conflict):
    """The manche a phone saves was recorded meanwhile by another phone (``saved_by``: its name,
    or None). ``theirs`` is that manche as recorded and ``version`` its version, for the phone to
    offer its own hands as a correction where they differ."""

    def __init__(self, message, theirs=None, version=None, saved_by=None, **params):
        super().__init__(message, **params)
        self.theirs = theirs
        self.version = version
        self.saved_by = saved_by


class EntryMoved(Conflict):
    """A phone saves the open entry as it last drew it, and a hand changed on another phone
    since: nothing is recorded; the phone draws the entry again."""


class Unauthorized(DomainError):
    code = "unauthorized"
    status = 401


class Forbidden(DomainError):
    code = "forbidden"
    status = 403


class NotFound(DomainError):
    code = "not_found"
    status = 404


class ValidationError(DomainError):
    code = "validation_error"


class TooManyStreams(DomainError):
    """More live pages open from one address than a server keeps (``STREAMS_PER_CLIENT``)."""

    code = "too_many_streams"
    status = 429

"""Domain errors: a stable code from SPEC §4, the input it is about, and what to say (a ``Message``).

The pure modules do not know the user's language: an error carries a ``Message`` (an English
msgid and its parameters, ``models/core/text.py``); the web layer words it in the request's language
(``views/texts.py``) for a page, a form or the JSON API.
"""

from __future__ import annotations

from .text import N_, Message

__all__ = ["N_", "DomainError"]


class DomainError(Exception):
    """A rule of the game or of the API was broken by the input.

    ``code`` is one of SPEC §4's codes, ``field`` the input it is about (optional), ``text`` what
    to say: ``template`` (an English msgid with ``%(name)s`` placeholders) and ``params`` (data:
    numbers, strings, cards, other messages).
    """

    code = "validation_error"
    status = 422

    def __init__(self, template: str, field: str | None = None, **params):
        super().__init__(template)
        self.template = template
        self.field = field
        self.params = params

    @property
    def text(self) -> Message:
        return Message(self.template, self.params)

    def __str__(self) -> str:
        plain = {k: v if isinstance(v, (str, int)) else repr(v) for k, v in self.params.items()}
        return self.template % plain if plain else self.template


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

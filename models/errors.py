"""Domain errors: a stable code from SPEC §4, a message template and its parameters.

The pure modules do not know the user's language. A message template is an English msgid
marked with ``N_`` so that Babel extracts it; the web layer translates it with the request's
locale and fills in the parameters (``error.message(gettext)``).
"""

from __future__ import annotations


def N_(text: str) -> str:
    """Mark a string for extraction without translating it (translated later, per request)."""
    return text


class Translatable(str):
    """A message parameter that is itself a msgid, translated along with the template."""


class DomainError(Exception):
    """A rule of the game or of the API was broken by the input.

    ``code`` is one of SPEC §4's codes, ``field`` the input it is about (optional),
    ``template`` an English msgid with ``%(name)s`` placeholders filled from ``params``.
    """

    code = "validation_error"
    status = 422

    def __init__(self, template: str, field: str | None = None, **params):
        super().__init__(template % params if params else template)
        self.template = template
        self.field = field
        self.params = params

    def message(self, translate=None) -> str:
        """The message in the language ``translate`` (a gettext function) speaks."""
        text = translate(self.template) if translate else self.template
        if not self.params:
            return text
        params = {
            key: translate(value) if translate and isinstance(value, Translatable) else value
            for key, value in self.params.items()
        }
        return text % params

    def to_dict(self, translate=None) -> dict:
        body = {"code": self.code, "message": self.message(translate)}
        if self.field:
            body["field"] = self.field
        return body


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


class VariantFileError(Exception):
    """A variant or table file is malformed: raised at start-up, names the file and the field."""

    def __init__(self, path: str, field: str, problem: str):
        super().__init__(f"{path}: field '{field}': {problem}")
        self.path = path
        self.field = field
        self.problem = problem

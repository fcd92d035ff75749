"""The pieces every part of the OpenAPI description of /api/v1 is made of (``views/openapi.py``
assembles the document): cards, names, errors, a JSON body, an answer, the shared parameters."""

from __future__ import annotations

from models.services.stored import TYPED

CARD = {"type": "string", "description": "A card: rank (A 2–10 J Q K) + suit (S H D C or ♠♥♦♣), or JK", "example": "8H"}
CARDS = {"type": "array", "items": CARD, "maxItems": 300}
NAME = {"type": "string", "minLength": 1, "maxLength": 40}
OPTIONS = {"type": "object", "description": "House options of the variant (id → value)", "additionalProperties": True}
MODE = {"type": "string", "enum": ["penalty", "winner", "wins"]}
ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "field": {"type": "string"}},
        }
    },
}
MANCHE_BODY = {
    "type": "object",
    "properties": {
        "winner": {"type": ["string", "null"]},
        "blocked": {"type": "boolean"},
        "hands": {"type": "object", "additionalProperties": CARDS},
        "points": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        "last_card": CARD,
        "number": {"type": "integer", "minimum": 1},
        **{part.json: dict(part.schema) for part in TYPED},  # the parts a client sends (stored.MANCHE_PARTS)
    },
}
GAME = {"type": "object", "description": "A game (SPEC §4)", "additionalProperties": True}
EXPORT = {
    "type": "object",
    "description": "The game file (models/services/game_file.py)",
    "required": ["format", "exported_at", "game"],
    "properties": {
        "format": {"type": "string", "enum": ["carte-game/2"]},
        "exported_at": {"type": "string"},
        "game": GAME,
    },
}


def errors(*codes) -> dict:
    described = {
        "401": "No edit token",
        "403": "Wrong edit token",
        "404": "Not found",
        "409": "Conflict (the manche number, a finished game)",
        "413": "Body too large",
        "415": "Not JSON: a body is sent as application/json (code unsupported_media_type)",
        "422": "Invalid input",
        "429": "Too many requests",
    }
    return {
        code: {
            "description": described[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in codes
    }


def json_body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def ok(description: str, schema: dict | None = None, status: str = "200") -> dict:
    return {status: {"description": description, "content": {"application/json": {"schema": schema or GAME}}}}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
AUTH = [{"bearer": []}]
READ_AUTH = [{}, {"bearer": []}]  # a game outside any group needs no token; a group's game needs one that opens it
GROUP_GAME_READ = (
    "A game outside any group is read by its id alone. A group's game is read only with a bearer token "
    "that opens it (its edit token, a live scorekeeper invite, or the member token of a phone of its "
    "group); to anyone else it is not found (404 `not_found`), as a game that does not exist. Its "
    "share link reads it without a token."
)
VARIANT_ID = {"name": "variant_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "maxLength": 128},
}

"""The OpenAPI 3 description of /api/v1 (SPEC §4), as data; ``views/api.py`` serves it at
/api/v1/openapi.json."""

from __future__ import annotations

from .openapi_nights import night_paths

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
VARIANT_ID = {"name": "variant_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
HOUSE_DOCUMENT = {
    "type": "object",
    "description": "House rules: the fields of a variant file; those left out are the base's",
    "required": ["base", "name"],
    "properties": {
        "base": {"type": "string", "description": "The built-in variant it is built from", "example": "classique"},
        "name": {"oneOf": [{"type": "string", "maxLength": 60}, {"type": "object"}]},
        "summary": {"oneOf": [{"type": "string"}, {"type": "object"}]},
        "deck": {"type": "object"},
        "players": {"type": "object"},
        "deal": {"type": "object"},
        "scoring": {
            "type": "object",
            "description": "mode, target, table (a built-in table id, or {ranks, cards})",
        },
        "finish": {"type": "object"},
        "options": {"type": "array"},
        "cards": {"type": "array", "description": "Special cards (effects the referee knows)"},
        "play": {"type": "object"},
    },
}

ENTRY = {
    "type": "object",
    "description": "The open entry: the next manche, counted by several phones, one hand each",
    "required": ["number", "version", "winner", "winner_seat", "blocked", "expected", "missing", "progress", "hands"],
    "properties": {
        "winner": {"type": ["string", "null"], "description": "Who went out (null: blocked, or not said yet)"},
        "winner_seat": {"type": ["integer", "null"], "minimum": 0, "description": "The winner's seat"},
    },
    "additionalProperties": True,
}
ENTRY_NUMBER = {"type": "integer", "minimum": 1, "description": "The manche being entered (the game's next)"}
SEAT = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}
HAND_BODY = {
    "type": "object",
    "required": ["number"],
    "properties": {
        "number": ENTRY_NUMBER,
        "cards": {"type": "array", "items": {"type": "string"}, "maxItems": 120},
        "typed": {"type": ["integer", "null"], "minimum": 0},
        "done": {"type": "boolean"},
        "me": {"type": ["string", "null"], "description": "The player this writer counts for (shown to the others)"},
    },
}
WINNER_BODY = {
    "type": "object",
    "required": ["number"],
    "properties": {"number": ENTRY_NUMBER, "winner": {"type": ["string", "null"]}, "blocked": {"type": "boolean"}},
}
SAVE_BODY = {"type": "object", "required": ["number"], "properties": {"number": ENTRY_NUMBER, "last_card": CARD}}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "maxLength": 128},
}
ENTRY_PATHS = {
    "/games/{game_id}/entry": {
        "get": {
            "operationId": "getOpenEntry",
            "security": AUTH,
            "parameters": [GAME_ID],
            "responses": {**ok("The open entry", ENTRY), **errors("401", "403", "404", "429")},
        }
    },
    "/games/{game_id}/entry/hands/{seat}": {
        "put": {
            "operationId": "putOpenHand",
            "description": "One hand of the open entry (the later change wins; `replaced` keeps another writer's).",
            "security": AUTH,
            "parameters": [GAME_ID, SEAT],
            "requestBody": json_body(HAND_BODY),
            "responses": {**ok("The open entry", ENTRY), **errors("401", "403", "404", "409", "413", "422", "429")},
        }
    },
    "/games/{game_id}/entry/winner": {
        "put": {
            "operationId": "putOpenWinner",
            "security": AUTH,
            "parameters": [GAME_ID],
            "requestBody": json_body(WINNER_BODY),
            "responses": {**ok("The open entry", ENTRY), **errors("401", "403", "404", "409", "413", "422", "429")},
        }
    },
    "/games/{game_id}/entry/save": {
        "post": {
            "operationId": "saveOpenEntry",
            "description": "Record the open entry as its manche, once (every hand that counts done or typed).",
            "security": AUTH,
            "parameters": [GAME_ID, IDEMPOTENCY_KEY],
            "requestBody": json_body(SAVE_BODY),
            "responses": {
                **ok("The manche's number and the totals", status="201"),
                **errors("401", "403", "404", "409", "413", "422", "429"),
            },
        }
    },
}
GROUP_ID = {"name": "group_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
MERGES = {
    "type": "array",
    "description": "The owner's merges of two spellings, as the standings write persons: person counts as counted_as",
    "items": {
        "type": "object",
        "required": ["person", "counted_as"],
        "properties": {"person": {"type": "string"}, "counted_as": {"type": "string"}},
    },
}
GROUP = {
    "type": "object",
    "description": "A group (« une tablée »): its games, newest first, and its merged spellings",
    "required": ["id", "name", "revision", "games", "merges"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "revision": {"type": "integer"},
        "games": {"type": "array", "items": {"type": "object"}},
        "merges": MERGES,
    },
}
STANDINGS = {
    "type": "object",
    "description": "Finished games only: won, played, win_rate (%), average points per manche, best and worst"
    " manche, longest_run",
    "required": ["period", "lines"],
    "properties": {
        "period": {"type": "string", "enum": ["all", "year", "month"]},
        "variant": {"type": ["string", "null"]},
        "lines": {"type": "array", "items": {"type": "object"}},
    },
}
GROUP_DOC = "For a member of the group (its member token as bearer token); a 404 for anyone else"
GROUP_ARCHIVE = {
    "type": "object",
    "description": "A group's archive (models/services/group_file.py): its name, its games each in the game file's"
    " shape (carte-game/2), its merged spellings; no phone, token or invite",
    "required": ["format", "group", "games"],
    "properties": {
        "format": {"type": "string", "enum": ["carte-group/1"]},
        "exported_at": {"type": "string"},
        "group": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 60}}},
        "games": {"type": "array", "items": EXPORT},
        "merges": MERGES,
    },
}
GROUP_FILE_PATHS = {
    "/groups/{group_id}/export": {
        "get": {
            "operationId": "exportGroup",
            "description": GROUP_DOC,
            "security": AUTH,
            "parameters": [GROUP_ID],
            "responses": {**ok("The group's archive (carte-group/1)", GROUP_ARCHIVE), **errors("404", "429")},
        }
    },
    "/groups/{group_id}/export.csv": {
        "get": {
            "operationId": "exportGroupSheet",
            "description": GROUP_DOC + ". The score sheet, the page's own: CSV in UTF-8 with a byte-order mark,"
            " one row per manche per player (game number, date, variant, manche, name played, person counted, points,"
            " won the game: 1, 0, or empty while it is played), in the request's language",
            "security": AUTH,
            "parameters": [GROUP_ID],
            "responses": {
                "200": {"description": "The score sheet", "content": {"text/csv": {"schema": {"type": "string"}}}},
                **errors("404", "429"),
            },
        }
    },
    "/groups/import": {
        "post": {
            "operationId": "importGroup",
            "description": "A new group from its archive, this client its owner (the answer's member_token is its"
            " bearer token). The same Idempotency-Key and file again answer the same group (200, imported_before;"
            " a new member_token unless the bearer token held is sent), never a second one. A damaged file: 422,"
            " nothing written.",
            "security": [{}, {"bearer": []}],
            "parameters": [{**IDEMPOTENCY_KEY, "required": True}],
            "requestBody": json_body(GROUP_ARCHIVE),
            "responses": {
                **ok("The group made: group, member_token, imported_before", {"type": "object"}, status="201"),
                **ok("The group this key and file made before", {"type": "object"}),
                **errors("409", "413", "415", "422", "429"),
            },
        }
    },
}

# --- a group's club nights (views/api_nights.py): their paths are views/openapi_nights.py's ----------
NIGHT_PATHS = night_paths(ok=ok, errors=errors, json_body=json_body, auth=AUTH, group_id=GROUP_ID, name=NAME)

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {
        "title": "Carte ! API",
        "version": "1",
        "description": "Scores and referee for 8 américain (SPEC §4). Bodies are JSON"
        " (Content-Type: application/json; anything else is a 415), numbers are JSON numbers.",
    },
    "servers": [{"url": "/api/v1"}],
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {"Error": ERROR},
    },
    "paths": {
        "/groups/{group_id}": {
            "get": {
                "operationId": "getGroup",
                "description": GROUP_DOC,
                "security": AUTH,
                "parameters": [GROUP_ID],
                "responses": {**ok("The group", GROUP), **errors("404", "429")},
            }
        },
        "/groups/{group_id}/members": {
            "post": {
                "operationId": "joinGroup",
                "description": "Join by an invite link's token: the answer's member_token is the bearer token",
                "parameters": [GROUP_ID],
                "requestBody": json_body(
                    {
                        "type": "object",
                        "required": ["invite"],
                        "properties": {"invite": {"type": "string", "maxLength": 64}, "name": NAME},
                    }
                ),
                "responses": {
                    **ok("The member token (shown once)", {"type": "object"}, status="201"),
                    **errors("404", "413", "422", "429"),
                },
            }
        },
        "/groups/{group_id}/standings": {
            "get": {
                "operationId": "getGroupStandings",
                "description": GROUP_DOC,
                "security": AUTH,
                "parameters": [
                    GROUP_ID,
                    {"name": "period", "in": "query", "schema": {"type": "string", "enum": ["all", "year", "month"]}},
                    {"name": "variant", "in": "query", "schema": {"type": "string", "maxLength": 64}},
                ],
                "responses": {**ok("The standings", STANDINGS), **errors("404", "429")},
            }
        },
        "/variants": {
            "get": {
                "operationId": "listVariants",
                "responses": ok(
                    "The built-in variants, then the house rules (house: true)", {"type": "array", "items": GAME}
                ),
            },
            "post": {
                "operationId": "createVariant",
                "requestBody": json_body(HOUSE_DOCUMENT),
                "responses": {
                    **ok("The new house rules: id, edit_token, variant", status="201"),
                    **errors("413", "422", "429"),
                },
            },
        },
        "/variants/import": {
            "post": {
                "operationId": "importVariant",
                "requestBody": json_body({"type": "object", "description": "An export document (carte-variant/1)"}),
                "responses": {**ok("The new house rules", status="201"), **errors("413", "422", "429")},
            }
        },
        "/variants/{variant_id}": {
            "get": {
                "operationId": "getVariant",
                "parameters": [VARIANT_ID],
                "responses": {**ok("One variant (built-in or house rules)"), **errors("404")},
            },
            "put": {
                "operationId": "updateVariant",
                "security": AUTH,
                "parameters": [VARIANT_ID],
                "requestBody": json_body(HOUSE_DOCUMENT),
                "responses": {**ok("The house rules as saved"), **errors("401", "403", "404", "413", "422", "429")},
            },
            "delete": {
                "operationId": "deleteVariant",
                "security": AUTH,
                "parameters": [VARIANT_ID],
                "responses": {
                    "204": {"description": "Deleted (games played with them keep their rules)"},
                    **errors("401", "403", "404", "429"),
                },
            },
        },
        "/variants/{variant_id}/export": {
            "get": {
                "operationId": "exportVariant",
                "parameters": [VARIANT_ID],
                "responses": {**ok("carte-variant/1 document"), **errors("404")},
            }
        },
        "/score": {
            "post": {
                "operationId": "scoreHand",
                "requestBody": json_body(
                    {
                        "type": "object",
                        "required": ["variant", "cards"],
                        "properties": {
                            "variant": {"type": "string"},
                            "cards": CARDS,
                            "options": OPTIONS,
                            "table": {"type": "string"},
                        },
                    }
                ),
                "responses": {**ok("The hand's value"), **errors("413", "422", "429")},
            }
        },
        "/games": {
            "post": {
                "operationId": "createGame",
                "requestBody": json_body(
                    {
                        "type": "object",
                        "required": ["variant", "players"],
                        "properties": {
                            "variant": {"type": "string"},
                            "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 12},
                            "teams": {"type": "object", "additionalProperties": {"type": "array", "items": NAME}},
                            "options": OPTIONS,
                            "table": {"type": "string"},
                            "mode": MODE,
                            "target": {"type": ["integer", "null"], "minimum": 1},
                            "rounds": {"type": ["integer", "null"], "minimum": 1},
                            "first_dealer": {"type": "integer", "minimum": 0},
                        },
                    }
                ),
                "responses": {**ok("The new game, with its edit_token", status="201"), **errors("413", "422", "429")},
            }
        },
        "/games/import": {
            "post": {
                "operationId": "importGame",
                "requestBody": json_body(
                    {
                        "type": "object",
                        "description": "An export document: carte-game/2 (what the export writes) or carte-game/1 "
                        "(the earlier files, read forever: a manche's typed totals under `points`, the totals "
                        "beside the game)",
                    }
                ),
                "responses": {**ok("The new game", status="201"), **errors("413", "422", "429")},
            }
        },
        "/games/{game_id}": {
            "get": {"operationId": "getGame", "parameters": [GAME_ID], "responses": {**ok("The game"), **errors("404")}}
        },
        "/games/{game_id}/export": {
            "get": {
                "operationId": "exportGame",
                "parameters": [GAME_ID],
                "responses": {
                    **ok(
                        "A carte-game/2 document: `format`, `exported_at` and `game`, which is the game as "
                        "getGame answers it (less `id`, `revision`, `share_url`, `share_qr_url`) with "
                        "`first_dealer`, `created_at` and, for house rules, `rules`",
                        EXPORT,
                    ),
                    **errors("404"),
                },
            }
        },
        "/games/{game_id}/manches": {
            "post": {
                "operationId": "recordManche",
                "security": AUTH,
                "parameters": [
                    GAME_ID,
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string", "maxLength": 128},
                    },
                ],
                "requestBody": json_body(MANCHE_BODY),
                "responses": {
                    **ok("The manche's points and the totals", status="201"),
                    **errors("401", "403", "404", "409", "413", "422", "429"),
                },
            }
        },
        "/games/{game_id}/manches/{number}": {
            "put": {
                "operationId": "editManche",
                "security": AUTH,
                "parameters": [GAME_ID, NUMBER],
                "requestBody": json_body(MANCHE_BODY),
                "responses": {**ok("The game recomputed"), **errors("401", "403", "404", "413", "422", "429")},
            },
            "delete": {
                "operationId": "deleteManche",
                "security": AUTH,
                "parameters": [GAME_ID, NUMBER],
                "responses": {**ok("The game recomputed"), **errors("401", "403", "404", "409", "429")},
            },
        },
        **ENTRY_PATHS,
        **GROUP_FILE_PATHS,
        **NIGHT_PATHS,
        "/games/{game_id}/players": {
            "post": {
                "operationId": "joinPlayer",
                "description": "A player joins mid-game and is dealt from the next manche on. The newcomer starts from "
                "the total the group chooses: the average of the totals of those playing (the default), 0, or the "
                "highest; they sit right after the player named by `after` (a player at the table; by default the "
                "last one in table order), and the deal and the play go round the table in that order from the "
                "next manche (the game's `seated` and `table_order` list the players that way). Refused in a team "
                "game (it would break a partnership) and beyond the variant's players.",
                "security": AUTH,
                "parameters": [GAME_ID],
                "requestBody": json_body(
                    {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": NAME,
                            "start": {"type": "string", "enum": ["average", "zero", "highest"], "default": "average"},
                            "after": {
                                **NAME,
                                "description": "The player at the table the newcomer sits right after (on their "
                                "left: the newcomer plays just after them); the last in table order by default",
                            },
                        },
                    }
                ),
                "responses": {
                    **ok("The game with the newcomer", status="201"),
                    **errors("401", "403", "404", "409", "413", "422", "429"),
                },
            }
        },
        "/games/{game_id}/players/leave": {
            "post": {
                "operationId": "leavePlayer",
                "description": "A player leaves the table: their history and total stay, they are no more dealt to "
                "and cannot win; the others keep their places and order around the table. Refused in a team game and "
                "below the variant's players.",
                "security": AUTH,
                "parameters": [GAME_ID],
                "requestBody": json_body({"type": "object", "required": ["name"], "properties": {"name": NAME}}),
                "responses": {
                    **ok("The game without them at the table"),
                    **errors("401", "403", "404", "409", "413", "422", "429"),
                },
            }
        },
        "/referee/check": {
            "post": {
                "operationId": "refereeCheck",
                "requestBody": json_body(
                    {
                        "type": "object",
                        "required": ["variant", "top", "card"],
                        "properties": {
                            "variant": {"type": "string"},
                            "options": OPTIONS,
                            "players": {"type": "integer", "minimum": 2, "maximum": 12},
                            "top": CARD,
                            "active_suit": {"type": "string", "enum": ["S", "H", "D", "C"]},
                            "pending": {"type": "boolean"},
                            "pending_draw": {
                                "type": "integer",
                                "minimum": 1,
                                "maximum": 100,
                                "description": "The cards a pending draw counts so far, when it was already sent on "
                                "(by default the top card's own)",
                            },
                            "card": CARD,
                            "last_card": {"type": "boolean"},
                            "covered": {
                                **CARD,
                                "description": "The card under the top card, when the top card counts as the card "
                                "it covers (les-huit's 8); a rank alone is enough",
                            },
                        },
                    }
                ),
                "responses": {
                    **ok(
                        "The verdict",
                        {
                            "type": "object",
                            "properties": {
                                "legal": {"type": "boolean"},
                                "reason": {"type": "string"},
                                "rule": {"type": "string"},
                                "effect": {"type": "string"},
                                "cost": {
                                    "type": ["string", "null"],
                                    "description": "What the card costs if it was laid against the rules anyway "
                                    "(the variant's penalty, or that it sets none); null for a legal card",
                                },
                                "turn_lost": {
                                    "type": "boolean",
                                    "description": "The player asking loses the turn (a pending skip, or an "
                                    "attack paid with the turn)",
                                },
                                "depends_on": {
                                    "type": ["string", "null"],
                                    "enum": ["covered", None],
                                    "description": "The answer depends on this input, not given (covered: the card "
                                    "under the top card)",
                                },
                            },
                        },
                    ),
                    **errors("413", "422", "429"),
                },
            }
        },
    },
}


for _path in DOCUMENT["paths"].values():  # every operation with a body takes JSON only
    for _operation in _path.values():
        if "requestBody" in _operation:
            _operation["responses"].update(errors("415"))

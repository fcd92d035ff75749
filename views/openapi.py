"""The OpenAPI 3 description of /api/v1 (SPEC §4), as data; ``views/api.py`` serves it at
/api/v1/openapi.json."""

from __future__ import annotations

from .openapi_groups import (
    GROUP,
    GROUP_DOC,
    GROUP_FILE_PATHS,
    GROUP_GAME_PATHS,
    GROUP_ID,
    GROUP_MEMBER_PATHS,
    LIST_MEMBERS,
    SEASON_PATHS,
    STANDINGS,
)
from .openapi_nights import night_paths
from .openapi_parts import (
    AUTH,
    CARD,
    CARDS,
    ERROR,
    EXPORT,
    GAME,
    GAME_ID,
    GROUP_GAME_READ,
    IDEMPOTENCY_KEY,
    MANCHE_BODY,
    MODE,
    NAME,
    NUMBER,
    OPTIONS,
    READ_AUTH,
    VARIANT_ID,
    errors,
    json_body,
    ok,
)

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
# --- a group's club nights (views/api_nights.py): their paths are views/openapi_nights.py's ----------
NIGHT_PATHS = night_paths()

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
            "get": LIST_MEMBERS,
            "post": {
                "operationId": "joinGroup",
                "description": "Join by an invite link's token: the answer's member_token is the bearer token. A link"
                " revoked or of another group: 404; a link used up (made for one phone), or one a phone that joined"
                " through it was removed from the group: 403, no member_token (such a phone comes back only through"
                " a new link)",
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
                    **errors("403", "404", "413", "422", "429"),
                },
            },
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
            "get": {
                "operationId": "getGame",
                "description": GROUP_GAME_READ,
                "security": READ_AUTH,
                "parameters": [GAME_ID],
                "responses": {**ok("The game"), **errors("404")},
            }
        },
        "/games/{game_id}/export": {
            "get": {
                "operationId": "exportGame",
                "description": GROUP_GAME_READ,
                "security": READ_AUTH,
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
        **GROUP_GAME_PATHS,
        **GROUP_MEMBER_PATHS,
        **SEASON_PATHS,
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

"""The OpenAPI description of a group in /api/v1 (``views/api_groups.py``, ``views/group_files.py``):
the group, its standings, its archive and score sheet, and its import."""

from __future__ import annotations

from .openapi_parts import AUTH, EXPORT, GAME_ID, IDEMPOTENCY_KEY, errors, json_body, ok

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
KINDS = ["penalty", "won"]
POINTS = {
    "type": "object",
    "description": "A person's manches of one kind of points: rounds, their total, average per manche, best and"
    " worst manche (penalty: fewer is better; won: more is better)",
    "required": ["rounds", "total", "average", "best", "worst"],
    "properties": {
        name: {"type": "number" if name == "average" else "integer"}
        for name in ("rounds", "total", "average", "best", "worst")
    },
}
STANDING_LINE = {
    "type": "object",
    "description": "A person, by the group's latest spelling, merges followed: games won and played in every"
    " variant, win_rate (%), longest_run; points per kind of points, never added together",
    "required": ["name", "won", "played", "win_rate", "longest_run", "points"],
    "properties": {
        "name": {"type": "string"},
        "won": {"type": "integer"},
        "played": {"type": "integer"},
        "win_rate": {"type": "integer"},
        "longest_run": {"type": "integer"},
        "points": {"type": "object", "properties": {kind: POINTS for kind in KINDS}, "additionalProperties": False},
    },
}
STANDINGS = {
    "type": "object",
    "description": "Finished games only; kinds: the kinds of points the lines hold (penalty: fewer is better;"
    " won: more is better, the kind of a variant that scores points won), each line's points per kind",
    "required": ["period", "kinds", "lines"],
    "properties": {
        "period": {"type": "string", "enum": ["all", "year", "month"]},
        "variant": {"type": ["string", "null"]},
        "kinds": {"type": "array", "items": {"type": "string", "enum": KINDS}},
        "lines": {"type": "array", "items": STANDING_LINE},
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
            " the same member_token, or none when it is sent as the bearer token), never a second one, even at once. A damaged file: 422,"
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

TAKEN_OUT = {
    "type": "object",
    "description": "The game and its group now: taken out (group null, taken_from the group), or put back",
    "required": ["id", "group", "taken_from"],
    "properties": {
        "id": {"type": "string"},
        "group": {"type": ["string", "null"]},
        "taken_from": {"type": ["string", "null"]},
    },
}
GROUP_GAME_PATHS = {
    "/groups/{group_id}/games/{game_id}": {
        "delete": {
            "operationId": "takeGameOutOfGroup",
            "description": "Take a game out of the group: for the group's owner (its member token) or the client"
            " holding the game's own edit token. The game is then in no group (the group's members no longer see"
            " it; its score sheet numbers the group's games left without a gap); PUT puts it back. A club night's"
            " table stays (422); a game not in the group: 404; a member neither owner nor maker: 403",
            "security": AUTH,
            "parameters": [GROUP_ID, GAME_ID],
            "responses": {**ok("Taken out", TAKEN_OUT), **errors("403", "404", "422", "429")},
        },
        "put": {
            "operationId": "putGameBackInGroup",
            "description": "The undo of a game taken out of the group (an empty JSON object as body), for the same"
            " rights; 409 when the game is no longer out of this group (put back already, or in another group)",
            "security": AUTH,
            "parameters": [GROUP_ID, GAME_ID],
            "requestBody": json_body({"type": "object"}),
            "responses": {**ok("Put back", TAKEN_OUT), **errors("403", "404", "409", "413", "415", "422", "429")},
        },
    }
}

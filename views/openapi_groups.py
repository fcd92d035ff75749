"""The OpenAPI description of a group in /api/v1 (``views/api_groups.py``, ``views/group_files.py``,
``views/group_season.py``): the group, its standings, its club nights' championship, its archive and
score sheet, and its import."""

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

MEMBER = {
    "type": "object",
    "description": "A phone of the group: its name (null: none given), number (its place in the order of joining),"
    " joined_at, last_visit (the day it last opened the group's page; null: none since it joined)",
    "required": ["id", "name", "owner", "number", "joined_at", "last_visit"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": ["string", "null"]},
        "owner": {"type": "boolean"},
        "number": {"type": "integer"},
        "joined_at": {"type": "string", "format": "date-time"},
        "last_visit": {"type": ["string", "null"], "format": "date"},
    },
}
INVITE = {
    "type": "object",
    "description": "A join link: max_uses (null: any number of phones), until (its last day, null: none), uses"
    " (the phones that joined through it), open (whether it still lets a phone in)",
    "required": ["id", "created_at", "max_uses", "until", "uses", "open"],
    "properties": {
        "id": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "max_uses": {"type": ["integer", "null"]},
        "until": {"type": ["string", "null"], "format": "date"},
        "uses": {"type": "integer"},
        "open": {"type": "boolean"},
    },
}
MEMBERS = {
    "type": "object",
    "required": ["members", "invites"],
    "properties": {
        "members": {"type": "array", "items": MEMBER},
        "invites": {"type": ["array", "null"], "items": INVITE, "description": "For the owner; null for a member"},
    },
}
NEW_INVITE = {
    "type": "object",
    "required": ["invite", "link"],
    "properties": {"invite": {"type": "string"}, "link": {"type": "string", "format": "uri"}},
}
MEMBER_ID = {"name": "member_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
LIST_MEMBERS = {
    "operationId": "listGroupMembers",
    "description": GROUP_DOC + ". The owner also gets the join links and how many phones each let in",
    "security": AUTH,
    "parameters": [GROUP_ID],
    "responses": {**ok("The phones of the group", MEMBERS), **errors("404", "429")},
}
GROUP_MEMBER_PATHS = {
    "/groups/{group_id}/members/{member_id}": {
        "put": {
            "operationId": "renameGroupMember",
            "description": "The owner names a phone of the group (1 to 40 characters): 403 for a member who is not"
            " the owner; 404 for a phone not (or no longer) in the group",
            "security": AUTH,
            "parameters": [GROUP_ID, MEMBER_ID],
            "requestBody": json_body(
                {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 40}}}
            ),
            "responses": {**ok("The phone renamed", MEMBER), **errors("403", "404", "413", "415", "422", "429")},
        }
    },
    "/groups/{group_id}/invites": {
        "post": {
            "operationId": "createGroupInvite",
            "description": "A member makes a join link: uses (1 to 50 phones; absent or null: any number) and until"
            " (its last day, which ends at midnight UTC; absent or null: none). The token is shown once",
            "security": AUTH,
            "parameters": [GROUP_ID],
            "requestBody": json_body(
                {
                    "type": "object",
                    "properties": {
                        "uses": {"type": ["integer", "null"], "minimum": 1, "maximum": 50},
                        "until": {"type": ["string", "null"], "format": "date"},
                    },
                }
            ),
            "responses": {
                **ok("The new link", NEW_INVITE, status="201"),
                **errors("403", "404", "413", "415", "422", "429"),
            },
        }
    },
}

SEASON_QUERY = [
    GROUP_ID,
    {"name": "period", "in": "query", "schema": {"type": "string", "enum": ["all", "year", "month"]}},
    {"name": "variant", "in": "query", "schema": {"type": "string", "maxLength": 64}},
    {
        "name": "scale",
        "in": "query",
        "description": "Points per place from the first, with dashes (10-8-6-5-4-3-2-1, the default; none above the"
        " one before, at most 30 places, each at most 1000), or places: the sum of placings, fewer is better. Else 422",
        "schema": {"type": "string", "maxLength": 200},
    },
    {
        "name": "best",
        "in": "query",
        "description": "How many nights count, each player's best; empty or absent: every night. Else 422",
        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
    },
]
SEASON_SCORE = {
    "type": "object",
    "description": "A player's night: their place (null: missed), what it scores, whether it counts",
    "required": ["night", "place", "points", "counted"],
    "properties": {
        "night": {"type": "string"},
        "place": {"type": ["integer", "null"]},
        "points": {"type": "integer"},
        "counted": {"type": "boolean"},
    },
}
SEASON = {
    "type": "object",
    "description": "The championship of the group's ended nights in the period (a night going on counts for nothing),"
    " each player's place in each from the night's own ranking (its podium's): a scale gives points by place, a place"
    " further down or a night missed 0; with places, the place itself, a night missed counting as its players plus"
    " one. Players sharing a place in a night both score that place; with best, each player's best nights only;"
    " equal totals share a place (tied), the next place skipping as many",
    "required": ["period", "variant", "scale", "lower_is_better", "best", "nights", "lines"],
    "properties": {
        "period": {"type": "string", "enum": ["all", "year", "month"]},
        "variant": {"type": ["string", "null"]},
        "scale": {"type": "string"},
        "lower_is_better": {"type": "boolean", "description": "True for the sum of places"},
        "best": {"type": ["integer", "null"]},
        "nights": {
            "type": "array",
            "description": "The nights counted, oldest first",
            "items": {
                "type": "object",
                "required": ["id", "name", "created_at", "players"],
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "created_at": {"type": "string"},
                    "players": {"type": "integer"},
                },
            },
        },
        "lines": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["place", "tied", "name", "total", "played", "counted", "nights"],
                "properties": {
                    "place": {"type": "integer"},
                    "tied": {"type": "boolean"},
                    "name": {"type": "string"},
                    "total": {"type": "integer"},
                    "played": {"type": "integer", "description": "The nights they sat"},
                    "counted": {"type": "integer", "description": "The nights counted (a night missed may be one)"},
                    "nights": {"type": "array", "items": SEASON_SCORE},
                },
            },
        },
    },
}
SEASON_PATHS = {
    "/groups/{group_id}/season": {
        "get": {
            "operationId": "getGroupSeason",
            "description": GROUP_DOC + ". The club nights' championship, the group page's own",
            "security": AUTH,
            "parameters": SEASON_QUERY,
            "responses": {**ok("The championship", SEASON), **errors("404", "422", "429")},
        }
    },
    "/groups/{group_id}/season.csv": {
        "get": {
            "operationId": "exportGroupSeason",
            "description": GROUP_DOC + ". The championship as the page's CSV: UTF-8 with a byte-order mark, one row a"
            " player (place, name, total, nights played, nights counted, then their place in each night, empty when"
            " missed), in the request's language",
            "security": AUTH,
            "parameters": SEASON_QUERY,
            "responses": {
                "200": {"description": "The championship", "content": {"text/csv": {"schema": {"type": "string"}}}},
                **errors("404", "422", "429"),
            },
        }
    },
}

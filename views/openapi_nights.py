"""The OpenAPI description of a group's club nights in /api/v1 (``views/api_nights.py``), drawn
into ``views/openapi.py``'s document from the pieces every part shares (``views/openapi_parts.py``)."""

from __future__ import annotations

from .openapi_groups import GROUP_ID
from .openapi_parts import AUTH, NAME, errors, json_body, ok

METHOD = {"type": "string", "enum": ["spread", "together", "shuffled", "fresh"]}
RANKING_METHOD = {
    "type": "string",
    "enum": ["total", "points_per_table", "wins_per_table"],
    "description": "How the night is ranked: total (tables won, then points), points_per_table (points per table"
    " played, then tables won per table played) or wins_per_table (tables won per table played, then points per"
    " table played). A bye or a departure counts no table.",
}
NIGHT_ID = {"name": "night_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
NIGHT_DOC = "For a member of the night's group (its member token as bearer token); a 404 for anyone else"
NIGHT_LINE = {
    "type": "object",
    "required": ["id", "name", "variant", "turn", "created_at", "ended_at", "ranking_method"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "variant": {"type": "string"},
        "target": {"type": ["integer", "null"]},
        "rounds": {"type": ["integer", "null"], "description": "Each table's game ends after this many manches"},
        "turn": {"type": "integer", "description": "The turn being played"},
        "created_at": {"type": "string"},
        "ended_at": {
            "type": ["string", "null"],
            "description": "When the night was ended (its ranking final, no turn starts), or null while it goes on",
        },
        "ranking_method": RANKING_METHOD,
    },
}
PER_TABLE = {"type": ["number", "null"], "description": "Per table played (null: no table played yet)"}
RANKING_LINE = {
    "type": "object",
    "required": ["place", "name", "wins", "points", "tables", "tied", "byes", "gone"],
    "properties": {
        "place": {"type": "integer"},
        "name": {"type": "string"},
        "wins": {"type": "integer", "description": "Tables won"},
        "points": {"type": "integer"},
        "tables": {"type": "integer", "description": "Tables played"},
        "tied": {"type": "boolean"},
        "byes": {"type": "integer", "description": "Turns sat out because the tables were full"},
        "gone": {"type": "boolean", "description": "Left the night: seated in no later turn"},
        "points_per_table": PER_TABLE,
        "wins_per_table": PER_TABLE,
    },
}
NIGHTS = {
    "type": "object",
    "required": ["group", "nights"],
    "properties": {"group": {"type": "string"}, "nights": {"type": "array", "items": NIGHT_LINE}},
}
QUERY = [
    {"name": "method", "in": "query", "schema": METHOD},
    {"name": "tables", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 50}},
    {"name": "seed", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1_000_000_000}},
]


def night_schema(seating: dict) -> dict:
    """A night as ``GET /nights/{night_id}`` answers it."""
    proposal = {
        "type": "object",
        "required": ["turn", "method", "tables", "seed", "seating"],
        "properties": {
            "turn": {"type": "integer"},
            "method": METHOD,
            "tables": {"type": "integer"},
            "seed": {"type": "integer", "description": "The same seed proposes the same shuffled seating"},
            "seating": seating,
            "byes": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Who sits the turn out: the players over the tables' seats, the fewest turns sat out"
                " first, then the most tables played, then the last in the ranking",
            },
            "error": {
                "type": ["string", "null"],
                "description": "Why the turn's own number of tables cannot seat the players (then proposed anyway)",
            },
        },
    }
    return {
        "type": "object",
        "description": "A club night: the tables of the turn being played (each its game's id and each side's"
        " total), the ranking across every table played by its ranking_method (by total: wins first, then"
        " points, the fewest when lower_is_better; equal is tied, the same place), each player's byes and"
        " whether they left, and the next turn's seating proposed with who sits it out",
        "required": [*NIGHT_LINE["required"], "group", "lower_is_better", "tables", "ranking", "proposal"],
        "properties": {
            **NIGHT_LINE["properties"],
            "group": {"type": "string"},
            "lower_is_better": {"type": "boolean"},
            "tables": {"type": "array", "items": {"type": "object"}},
            "ranking": {"type": "array", "items": RANKING_LINE},
            "proposal": proposal,
        },
    }


def end_paths() -> dict:
    """The paths of a night's end: ended or going on again, and its ranking as a CSV."""
    return {
        "/nights/{night_id}/end": {
            "post": {
                "operationId": "endNight",
                "description": NIGHT_DOC + ". Ends the night: its ranking as it stands is its result, and no turn"
                " starts after it (409). Sent again, the same answer.",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "requestBody": json_body({"type": "object", "description": "Nothing is read from it: {}"}),
                "responses": {**ok("The night, ended", NIGHT_LINE), **errors("404", "415", "429")},
            },
            "delete": {
                "operationId": "reopenNight",
                "description": NIGHT_DOC + ". The night goes on again (the end undone).",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "responses": {**ok("The night, going on", NIGHT_LINE), **errors("404", "429")},
            },
        },
        "/nights/{night_id}/results.csv": {
            "get": {
                "operationId": "nightResultsCsv",
                "description": NIGHT_DOC + ". The night's ranking, one row a player (place, player, wins, points,"
                " tables, byes, left, and the figure per table played when ranked per table), UTF-8 with a"
                " byte-order mark, its headings in the request's language.",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "responses": {
                    "200": {"description": "The ranking", "content": {"text/csv": {"schema": {"type": "string"}}}},
                    **errors("404", "429"),
                },
            }
        },
    }


def player_paths() -> dict:
    """The paths of a night's players leaving (or back) and of how the night is ranked."""
    gone_body = {
        "type": "object",
        "required": ["name"],
        "properties": {"name": NAME, "gone": {"type": "boolean", "default": True}},
    }
    gone_answer = {
        "type": "object",
        "required": ["name", "gone"],
        "properties": {"name": {"type": "string"}, "gone": {"type": "boolean"}},
    }
    ranking_body = {"type": "object", "required": ["method"], "properties": {"method": RANKING_METHOD}}
    return {
        "/nights/{night_id}/gone": {
            "post": {
                "operationId": "markNightPlayerGone",
                "description": NIGHT_DOC + ". The player `name` left the night (gone: true, the default): seated in"
                " no later turn, ranked with the tables they played; gone: false undoes it. Marking twice changes"
                " nothing; a name the night never seated nor had sit out is a 422.",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "requestBody": json_body(gone_body),
                "responses": {
                    **ok("The player, as the night spells them, and whether gone", gone_answer),
                    **errors("404", "415", "422", "429"),
                },
            }
        },
        "/nights/{night_id}/ranking": {
            "put": {
                "operationId": "rankNight",
                "description": NIGHT_DOC + ". How the night is ranked: its page, podium, result sheet and CSV follow.",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "requestBody": json_body(ranking_body),
                "responses": {**ok("The night", NIGHT_LINE), **errors("404", "415", "422", "429")},
            }
        },
    }


def night_paths() -> dict:
    """The paths of the nights: the group's nights, a night, the next turn started."""
    seating = {"type": "array", "items": {"type": "array", "items": NAME, "maxItems": 12}, "maxItems": 50}
    turn_body = {
        "type": "object",
        "required": ["turn", "seating"],
        "properties": {
            "turn": {"type": "integer", "minimum": 1},
            "seating": seating,
            "byes": {"type": "array", "items": NAME, "maxItems": 100, "description": "Who sits the turn out"},
        },
    }
    return {
        "/groups/{group_id}/nights": {
            "get": {
                "operationId": "listGroupNights",
                "description": NIGHT_DOC,
                "security": AUTH,
                "parameters": [GROUP_ID],
                "responses": {**ok("The group's nights, newest first", NIGHTS), **errors("404", "429")},
            }
        },
        "/nights/{night_id}": {
            "get": {
                "operationId": "getNight",
                "description": NIGHT_DOC + ". The query asks the next turn's seating: spread (the strongest spread"
                " over the tables), together (the strongest together), shuffled (by the seed) or fresh (the fewest"
                " pairs who shared a table already sharing one again); a number of"
                " tables the players cannot fill is a 422.",
                "security": AUTH,
                "parameters": [NIGHT_ID, *QUERY],
                "responses": {**ok("The night", night_schema(seating)), **errors("404", "422", "429")},
            }
        },
        **end_paths(),
        **player_paths(),
        "/nights/{night_id}/rounds": {
            "post": {
                "operationId": "startNightTurn",
                "description": NIGHT_DOC + ". Starts turn `turn` (the one after the turn being played), one game a"
                " table of `seating`, `byes` sitting it out (none of them a player who left), in one transaction: 201 with each game's id and edit token. Sent again, or"
                " started by another member first: 200, nothing started (started: false), the turn's games.",
                "security": AUTH,
                "parameters": [NIGHT_ID],
                "requestBody": json_body(turn_body),
                "responses": {
                    **ok("The turn started: turn, started, games (table, id, edit_token)", {"type": "object"}, "201"),
                    **ok("Started before: nothing started", {"type": "object"}),
                    **errors("404", "409", "413", "422", "429"),
                },
            }
        },
    }

"""The game file: a whole game as a versioned JSON document (``carte-game/2``), and back.

Enough to rebuild a game exactly on another server (export, import): the game as the API shows it
(``game_json.game_fields``: its rules, players, every manche as it was entered, the totals, which
an import checks against the manches it scores again) and what rebuilding it needs besides — the
first dealer, the house-rules document it keeps (if any), when it began.

``carte-game/1``, the format SPEC §4 first named, is read too, forever: the same fields, except
that a manche's typed totals were called ``points`` (in ``carte-game/2`` and the API, ``points``
is each side's points for that manche, and the typed totals are ``typed``) and the game's totals
sat beside the game, not in it.
"""

from __future__ import annotations

from ..core.errors import N_, ValidationError
from ..core.scoring import MancheEntry, Seat
from ..core.variant import MAX_MANCHES
from .db import utcnow
from .game_json import game_fields
from .game_view import GameView
from .stored import AS_SENT, read_sent

EXPORT_FORMAT = "carte-game/2"
# Each format read -> where its manches keep the totals typed instead of cards, and whether its
# totals are in the game (else beside it).
FORMATS = {"carte-game/2": ("typed", True), "carte-game/1": ("points", False)}
NOT_A_GAME_FILE = N_("This is not a Carte ! game file (format carte-game/2 or carte-game/1).")


def export_document(game: GameView, exported_at: str | None = None) -> dict:
    """The whole game as a versioned document: the game as the API shows it, and what rebuilding
    it needs besides; made now, or at ``exported_at`` (a group's archive: one moment for all)."""
    rules = game.rules
    return {
        "format": EXPORT_FORMAT,
        "exported_at": exported_at or utcnow().isoformat(timespec="seconds"),
        "game": {
            **game_fields(game),
            **({"rules": rules} if rules else {}),
            "first_dealer": game.first_dealer,
            "created_at": game.created_at.isoformat(timespec="seconds") if game.created_at else None,
        },
    }


def _read_manche(index: int, m, typed_key: str) -> tuple[MancheEntry, dict]:
    """One manche of an export document, checked for its number and the shape of its hands (the
    totals typed instead of cards under ``typed_key``), and its parts stored as sent (who saved
    it…: ``stored.read_sent``)."""
    if not isinstance(m, dict) or m.get("number") != index + 1:
        raise ValidationError(
            N_("The file is damaged: round %(number)s is out of sequence."),
            field=f"game.manches.{index}",
            number=index + 1,
        )
    hands, typed, winner = m.get("hands", {}), m.get(typed_key, {}), m.get("winner")
    readable = (
        isinstance(hands, dict)
        and isinstance(typed, dict)
        and all(isinstance(c, list) and all(isinstance(x, str) for x in c) for c in hands.values())
        and all(isinstance(v, int) and not isinstance(v, bool) for v in typed.values())
        and (winner is None or isinstance(winner, str))
    )
    if not readable:
        raise ValidationError(N_("The file is damaged: a round's hands are unreadable."), field=f"game.manches.{index}")
    entry = MancheEntry(
        winner=winner,
        hands=hands,
        typed=typed,
        blocked=m.get("blocked") is True,
        last_card=m.get("last_card") if isinstance(m.get("last_card"), str) else None,
    )
    return entry, read_sent(m, f"game.manches.{index}.", AS_SENT)


def read_document(document) -> tuple[dict, list, dict | None]:
    """Check an export document's shape (``carte-game/2`` or ``/1``); return the game's settings,
    its manches (each ``(MancheEntry, parts sent)``), its totals."""
    if (
        not isinstance(document, dict)
        or not isinstance(document.get("format"), str)
        or document["format"] not in FORMATS
    ):
        raise ValidationError(NOT_A_GAME_FILE, field="format")
    typed_key, totals_inside = FORMATS[document["format"]]
    game = document.get("game")
    if not isinstance(game, dict):
        raise ValidationError(N_("The file is damaged: the game is missing."), field="game")
    manches = game.get("manches", [])
    if not isinstance(manches, list):
        raise ValidationError(N_("The file is damaged: the rounds are not a list."), field="game.manches")
    if len(manches) > MAX_MANCHES:
        raise ValidationError(
            N_("A game has at most %(max)s rounds; this file has %(count)s."),
            field="game.manches",
            max=MAX_MANCHES,
            count=len(manches),
        )
    settings = _read_settings(game)
    entries = [_read_manche(index, m, typed_key) for index, m in enumerate(manches)]
    settings["roster"] = read_roster(game.get("roster"), len(entries))
    settings["table_order"] = game.get("table_order")
    totals = (game if totals_inside else document).get("totals")
    return settings, entries, totals if isinstance(totals, dict) else None


def _read_settings(game: dict) -> dict:
    """The rules and players of an export document's game, as ``GameService`` creates a game."""
    first_dealer = game.get("first_dealer", 0)
    for name in ("variant", "table", "mode"):
        if game.get(name) is not None and not isinstance(game.get(name), str):
            raise ValidationError(N_("The file is damaged: “%(name)s” is unreadable."), field=f"game.{name}", name=name)
    return {
        "variant": game.get("variant"),
        "players": game.get("players"),
        "teams": game.get("teams"),
        "options": game.get("options"),
        "table": game.get("table"),
        "mode": game.get("mode"),
        "target": game.get("target"),
        "rounds": game.get("rounds"),
        "first_dealer": first_dealer if isinstance(first_dealer, int) and not isinstance(first_dealer, bool) else 0,
        "rules": game.get("rules"),
        "no_teams": "teams" in game and game["teams"] is None,
    }


def _count(value, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high


def read_roster(roster, played: int) -> dict:
    """Who joined or left mid-game (absent from files written before players could): player ->
    ``Seat``, each number checked against the manches the file holds."""
    if roster is None:
        return {}
    damaged = ValidationError(
        N_("The file is damaged: who joined or left the table is unreadable."), field="game.roster"
    )
    if not isinstance(roster, list):
        raise damaged
    seats = {}
    for item in roster:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or item["name"] in seats:
            raise damaged
        joined, left, start = item.get("joined_after", 0), item.get("left_after"), item.get("start_total", 0)
        if not _count(joined, played) or not isinstance(start, int) or isinstance(start, bool) or abs(start) > 10**9:
            raise damaged
        if left is not None and (not _count(left, played) or left < joined):
            raise damaged
        seats[item["name"]] = Seat(joined, left, start)
    return seats


def read_order(names, players: list) -> tuple | None:
    """The seats in table order from a file's ``table_order`` (every player's name once, the way
    play goes round); absent from files written before a newcomer could choose their place: the
    players sat in the order they are listed."""
    if names is None:
        return None
    if not isinstance(names, list) or sorted(map(str, names)) != sorted(players) or len(set(names)) != len(names):
        raise ValidationError(N_("The file is damaged: where the players sit is unreadable."), field="game.table_order")
    order = tuple(players.index(name) for name in names)
    return None if order == tuple(range(len(players))) else order

"""The game file: a whole game as a versioned JSON document (``carte-game/1``), and back.

Enough to rebuild a game exactly on another server (export, import, backups): the rules it is
played with (and the house-rules document it keeps, if any), the players, every manche as it was
entered, and the totals, which an import checks against the manches it scores again.
"""

from __future__ import annotations

from ..core.cards import format_cards
from ..core.errors import N_, ValidationError
from ..core.scoring import MancheEntry, Seat
from ..core.variant import MAX_MANCHES
from .db import utcnow
from .game_view import GameView

EXPORT_FORMAT = "carte-game/1"


def export_document(game: GameView) -> dict:
    """The whole game as a versioned document: its rules, players and every manche as entered."""
    manches = []
    for m in game.manches:
        manches.append(
            {
                "number": m.number,
                "winner": m.winner,
                "blocked": m.blocked,
                "last_card": m.last_card,
                "hands": {n: format_cards(h.cards).split() for n, h in m.hands.items() if h.cards is not None},
                "points": {n: h.typed for n, h in m.hands.items() if h.typed is not None},
            }
        )
    rules = game.rules
    return {
        "format": EXPORT_FORMAT,
        "exported_at": utcnow().isoformat(timespec="seconds"),
        "game": {
            **game.rules_fields(),
            **({"rules": rules} if rules else {}),
            "first_dealer": game.first_dealer,
            "roster": game.roster_fields(),
            "table_order": game.table_order,
            "created_at": game.created_at.isoformat(timespec="seconds") if game.created_at else None,
            "manches": manches,
        },
        "totals": game.totals,
        "status": game.status,
        "winners": game.standing.winners,
    }


def _read_manche(index: int, m) -> MancheEntry:
    """One manche of an export document, checked for its number and the shape of its hands."""
    if not isinstance(m, dict) or m.get("number") != index + 1:
        raise ValidationError(
            N_("The file is damaged: round %(number)s is out of sequence."),
            field=f"game.manches.{index}",
            number=index + 1,
        )
    hands, typed, winner = m.get("hands", {}), m.get("points", {}), m.get("winner")
    readable = (
        isinstance(hands, dict)
        and isinstance(typed, dict)
        and all(isinstance(c, list) and all(isinstance(x, str) for x in c) for c in hands.values())
        and all(isinstance(v, int) and not isinstance(v, bool) for v in typed.values())
        and (winner is None or isinstance(winner, str))
    )
    if not readable:
        raise ValidationError(N_("The file is damaged: a round's hands are unreadable."), field=f"game.manches.{index}")
    return MancheEntry(
        winner=winner,
        hands=hands,
        typed=typed,
        blocked=m.get("blocked") is True,
        last_card=m.get("last_card") if isinstance(m.get("last_card"), str) else None,
    )


def read_document(document) -> tuple[dict, list, dict | None]:
    """Check an export document's shape; return the game's settings, its manches, its totals."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValidationError(N_("This is not a Carte ! game file (format carte-game/1)."), field="format")
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
    first_dealer = game.get("first_dealer", 0)
    for name in ("variant", "table", "mode"):
        if game.get(name) is not None and not isinstance(game.get(name), str):
            raise ValidationError(N_("The file is damaged: “%(name)s” is unreadable."), field=f"game.{name}", name=name)
    settings = {
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
    entries = [_read_manche(index, m) for index, m in enumerate(manches)]
    settings["roster"] = read_roster(game.get("roster"), len(entries))
    settings["table_order"] = game.get("table_order")
    totals = document.get("totals")
    return settings, entries, totals if isinstance(totals, dict) else None


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

"""What a game looks like as JSON: one shape, here, for the API, the game file
and the phone's offline copy. Each adds fields to it; none renames a field or gives it another
meaning.

- ``game_fields(game)``: the game as the API answers it (SPEC §4), less what only the server
  knows (its id, revision and sharing addresses, added by ``views/api.py``), its keys in the
  API's order: its rules and players (``rules_fields``), who joined or left (``roster_fields``),
  who sits where, every manche (``manche_fields``: ``points`` is each
  side's points for that manche, ``typed`` the totals typed instead of cards, ``values`` each
  hand's value), the totals, the standing, who deals and starts next.
- The game file, ``carte-game/2`` (``game_file.export_document``): ``game_fields`` and what
  rebuilding the game needs besides (the first dealer, the house-rules document, when it began).
- The offline copy (``offline_fields``), which the game page hands to ``static/js/score.js``:
  the rules as data (``models/core/scorer_data.py``: ``mode``, ``keys``, ``end``, ``deal``),
  ``seats_fields`` and, of each manche, only what the scorer reads (``scorer_manche``: the page
  carries it for every manche, so it is kept small).
"""

from __future__ import annotations

from ..core.cards import format_card
from ..core.scorer_data import scorer_data
from .stored import sent_json


def rules_fields(game) -> dict:
    """The game's variant, players (by seat), teams (``{name: [members]}``, listed in the order of
    their first member's seat, or null) and the settings chosen."""
    return {
        "variant": game.variant.id,
        "players": list(game.players),
        "teams": game.teams,
        "options": dict(game.ruleset.options),
        "mode": game.ruleset.mode,
        "table": game.ruleset.table.id,
        "target": game.ruleset.target,
        "rounds": game.ruleset.rounds,
    }


def roster_fields(roster: dict) -> list:
    """Who joined or left the table mid-game (player -> ``scoring.Seat``): each such player with
    the manches played before they sat down, when they left, their start."""
    return [
        {"name": name, "joined_after": seat.joined, "left_after": seat.left, "start_total": seat.start}
        for name, seat in (roster or {}).items()
    ]


def seats_fields(players: list, teams: dict | None, roster: dict | None, table_order: list) -> dict:
    """The seats as ``game_fields`` names them: the players and teams (as ``rules_fields``), who
    joined or left (``roster_fields``), every player in table order (those who left too: the way
    the deal and the play go round)."""
    return {"players": list(players), "teams": teams, "roster": roster_fields(roster), "table_order": list(table_order)}


def _values(manche) -> dict:
    return {name: hand.value for name, hand in manche.hands.items()}


def manche_fields(manche) -> dict:
    """One manche: who went out (null when blocked), the last card, its dealer, each hand's cards
    or typed total, each hand's value, each side's points for it, and its parts stored as sent
    (``stored.MANCHE_PARTS``: who saved it…)."""
    return {
        "number": manche.number,
        "winner": manche.winner,
        "blocked": manche.blocked,
        "last_card": manche.last_card,
        "dealer": manche.dealer,
        "hands": {name: [format_card(c) for c in h.cards] for name, h in manche.hands.items() if h.cards is not None},
        "typed": {name: h.typed for name, h in manche.hands.items() if h.typed is not None},
        "values": _values(manche),
        "points": manche.points,
        **sent_json(manche.stored),
    }


def game_fields(game) -> dict:
    """The game (a ``GameView``) as the API, the file and the offline copy name it."""
    return {
        **rules_fields(game),
        "roster": roster_fields(game.roster),
        "seated": game.seated,  # those dealt in the next manche, in table order
        "table_order": game.table_order,  # every player, those who left too, the way play goes round
        "finish_forbidden": list(game.ruleset.finish_forbidden),
        "manches": [manche_fields(m) for m in game.manches],
        "after_end": [manche_fields(m) for m in game.after_end],  # stored after the end: not counted
        "totals": game.totals,
        "ranking": [{"place": place, "side": side, "total": total} for place, side, total in game.standing.ranking],
        "status": game.status,
        "winners": game.standing.winners,
        "dealer": game.dealer_name,
        "starter": game.starter_name,
        "cards_to_deal": game.cards_to_deal,
    }


def scorer_manche(manche) -> dict:
    """A manche as the phone's scorer reads it: ``manche_fields``'s number, winner and values only."""
    return {"number": manche.number, "winner": manche.winner, "values": _values(manche)}


def scorer_fields(ruleset, first_dealer: int, seats: dict, manches=(), after_end=()) -> dict:
    """What ``static/js/score.js`` plays a game through with: the rules as data, the seats
    (``seats_fields``), the manches that count and those stored after the end (``scorer_manche``)."""
    return {**scorer_data(ruleset, first_dealer), **seats, "manches": list(manches), "after_end": list(after_end)}


def offline_fields(game) -> dict:
    """The game as the page hands it to the phone: ``scorer_fields`` and each stored manche's
    version, as its correction page carries it (the phone keeps that page again when it changed)."""
    seats = seats_fields(game.players, game.teams, game.roster, game.table_order)
    versions = game.rows.manche_versions()
    return {
        **scorer_fields(
            game.ruleset,
            game.first_dealer,
            seats,
            [scorer_manche(m) for m in game.manches],
            [scorer_manche(m) for m in game.after_end],
        ),
        "versions": [versions[m.number] for m in [*game.manches, *game.after_end]],
    }

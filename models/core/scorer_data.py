"""What the phone's provisional scorer reads (issue 25 item 5): a game's rules and seats as data.

The phone scores the manches waiting to be sent (and those corrected offline) with
``static/js/score.js``, which is an interpreter of this document, not a second copy of the rules:

- ``mode``: the scoring mode's numbers (``variant.MODES``: what each side pays, what the winners
  collect, a tie in a blocked manche, whether the lowest total wins), which ``manche_points``
  reads too;
- ``keys``: each keypad key's points (the scoring table, ``scoring.keypad``);
- ``end``: the target or the number of manches;
- ``deal``: the first dealer's seat and whether the loser of a manche deals the next one;
- ``players`` (by seat), ``teams`` (``[[name, [members]]]``: in order), ``order`` (the seats in table order: the deal and the play go
  round in it, ``seating.ring``), ``roster`` (player -> [manches played before they sat down,
  manches played when they left or null, their start]);
- ``results``: each recorded manche as ``play_through`` takes it, ``[winner or null, {player:
  hand value}]``.

``tests/browser/test_offline_scorer.py`` plays the same games through ``play_through`` and through
the phone's script, fed this document, and requires the same points, totals and dealers.
"""

from __future__ import annotations

from .scoring import keypad
from .seating import ring
from .variant import MODES, Ruleset


def scorer_data(
    ruleset: Ruleset,
    players: list[str],
    teams: dict | None,
    first_dealer: int,
    results=(),
    roster: dict | None = None,
    order=None,
) -> dict:
    """The document above for one game (``results`` as ``play_through`` takes them)."""
    return {
        "mode": MODES[ruleset.mode].as_dict(),
        "keys": {key.token: key.points for key in keypad(ruleset)},
        "end": {"target": ruleset.target, "rounds": ruleset.rounds},
        "deal": {"first": first_dealer, "loser_deals": ruleset.loser_deals},
        "players": list(players),
        "teams": [[name, list(members)] for name, members in teams.items()] if teams else None,
        "order": list(ring(len(players), order)),
        "roster": {name: [seat.joined, seat.left, seat.start] for name, seat in (roster or {}).items()},
        "results": [[winner, dict(values)] for winner, values in results],
    }

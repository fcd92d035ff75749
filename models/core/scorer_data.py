"""What the phone's provisional scorer reads: a game's rules as data.

The phone scores the manches waiting to be sent (and those corrected offline) with
``static/js/score.js``, which is an interpreter of this data, not a second copy of the rules:

- ``mode``: the scoring mode's numbers (``variant.MODES``: what each side pays, what the winners
  collect, a tie in a blocked manche, whether the lowest total wins), which ``manche_points``
  reads too;
- ``keys``: each keypad key's points (the scoring table, ``scoring.keypad``);
- ``end``: the target or the number of manches;
- ``deal``: the first dealer's seat and whether the loser of a manche deals the next one.

The game itself (its players, teams, seats and manches) is added beside it in the shape every
other JSON of a game has (``models/services/game_json.py`` ``scorer_fields``).
``tests/browser/test_offline_scorer.py`` plays the same games through ``play_through`` and
through the phone's script, fed that document, and requires the same points, totals and dealers.
"""

from __future__ import annotations

from .scoring import keypad
from .variant import MODES, Ruleset


def scorer_data(ruleset: Ruleset, first_dealer: int) -> dict:
    """The rules above for one game."""
    return {
        "mode": MODES[ruleset.mode].as_dict(),
        "keys": {key.token: key.points for key in keypad(ruleset)},
        "end": {"target": ruleset.target, "rounds": ruleset.rounds},
        "deal": {"first": first_dealer, "loser_deals": ruleset.loser_deals},
    }

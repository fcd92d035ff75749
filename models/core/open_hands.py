"""One manche counted by several phones: what one hand is worth as it is counted, and which hands
the manche still waits for.

Each phone counts one hand (or types its total) while the others count theirs; the hands are
checked together against the deck, and scored, only when the manche is saved (``scoring``). Here
each hand alone: its value under the game's table, a typed total at most what one hand can be
worth, and the seats whose hands count — everyone dealt but the winner (and, in teams, the
winner's partner: their hand is not counted).
"""

from __future__ import annotations

from .cards import check_deck, parse_cards
from .errors import N_, ValidationError
from .scoring import hand_value, max_hand_value, sides_of
from .variant import Ruleset

BLOCKED = "blocked"


def open_hand_value(ruleset: Ruleset, cards: list[str], typed) -> int:
    """The value of one hand as counted: its typed total (a whole number from 0 to the most one
    hand can be worth), else its cards' points under the table (the cards checked against the
    deck, as one hand)."""
    if typed is not None:
        high = max_hand_value(ruleset)
        if isinstance(typed, bool) or not isinstance(typed, int) or not 0 <= typed <= high:
            raise ValidationError(N_("A hand is worth a whole number from 0 to %(high)s."), field="typed", high=high)
        return typed
    parsed = parse_cards(cards)
    check_deck([parsed], ruleset.deck)
    return hand_value(parsed, ruleset.table)


def counted_seats(players: list[str], teams: dict | None, dealt, winner: str | None) -> list[int]:
    """The seats whose hands count in this manche: those dealt, but for the winner's (a seat as
    text) and, in teams, their partner's; a blocked manche (or none chosen yet) counts them all."""
    side_of = sides_of(players, teams)
    out = int(winner) if winner not in (None, BLOCKED) else None
    seats = [seat for seat, name in enumerate(players) if name in dealt]
    if out is None:
        return seats
    return [seat for seat in seats if seat != out and not (teams and side_of[players[seat]] == side_of[players[out]])]

"""The unit after a hand's value on the entry page follows the number the page's script writes
(issue 58): French says 0 and 1 in the singular (« 0 pt », « 1 pt », « 2 pts »), English only 1.

les-huit table (SPEC §2, standard): A 1, 2 2.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_games_flow import choose_winner, create_game, tap


def shows(page, where: str, said: str):
    """The number and its unit as ``where`` shows them ("1 pt")."""
    number, unit = said.split()
    expect(page.locator(f"{where} [data-hand-total], {where} [data-subtotal]")).to_have_text(number)
    expect(page.locator(f"{where} small")).to_have_text(unit)


@pytest.mark.parametrize(
    ("lang", "zero", "one", "two"), [("fr", "0 pt", "1 pt", "2 pts"), ("en", "0 pts", "1 pt", "2 pts")]
)
def test_the_unit_after_a_hand_follows_the_number_the_script_writes(phone, live_server, lang, zero, one, two):
    page = phone(360, 740)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url}])
    game = create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "les-huit")
    page.goto(f"{game}/manches/new")
    choose_winner(page, 0)
    tap(page, 1, "A")  # Bob: one ace, 1
    shows(page, "#hand-1 .hand-value", one)
    shows(page, "#keypad .entry-value", one)
    shows(page, "#hand-2 .hand-value", zero)  # Chloé: nothing yet
    tap(page, 1, "A")  # two aces, 2
    shows(page, "#hand-1 .hand-value", two)
    tap(page, 1, "A A", step=-1)  # none again, 0
    shows(page, "#hand-1 .hand-value", zero)

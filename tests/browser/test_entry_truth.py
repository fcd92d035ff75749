"""The manche being counted, as one phone shows it, is what the table counted: the button « comptée »
follows the hand on the keypad, the entry's number follows the manches waiting on this phone, a
recorded manche's draft never comes back in the next one. Phones at 360 px; a phone's network is
cut for real (its requests refused and its event stream ended, its reconnections failing too).

Classique (SPEC §2, tables.toml): K 10, 7 7, 8 50, 3 3; in penalty mode the others add their
hands and the one who went out scores 0.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import open_listening
from .test_games_flow import select_hand, tap
from .test_live_table import SECOND, phones
from .test_many_hands import FIVE, table_of

pytestmark = pytest.mark.on_postgresql  # the entry's changes reach the other phones by NOTIFY there

# Every event stream a page opens, kept where the test can end it (htmx-ext-sse opens them).
KEEPS_STREAMS = """(() => {
  const Stream = window.EventSource;
  window.streams = [];
  window.EventSource = class extends Stream {
    constructor(url, init) { super(url, init); window.streams.push(this); }
  };
})();"""


def refused(route):
    route.abort("internetdisconnected")


def cut(context) -> None:
    """``context``'s network cut for real: offline, every request refused, and each page's open
    event stream ended as a lost network ends it (htmx-ext-sse then tries again, and fails)."""
    context.set_offline(True)
    context.route("**/*", refused)
    for page in context.pages:
        page.evaluate("() => window.streams.forEach((s) => { s.close(); s.dispatchEvent(new Event('error')); })")


def back(context) -> None:
    """``context``'s network back (its streams open again by themselves)."""
    context.unroute("**/*", refused)
    context.set_offline(False)


def phone_of(phone):
    """A phone (``phones``) whose pages keep their event streams where ``cut`` ends them."""
    context = phone()
    context.add_init_script(KEEPS_STREAMS)
    return context


def test_counted_follows_the_hand_on_the_keypad_of_a_phone_counting_for_the_table(browser, live_server):
    """A phone counting for the table marks Ana's hand (K: 10) counted, puts Dan's on the keypad:
    « comptée » is not pressed for Dan; his 7 tapped and « comptée » tapped, Dan's hand is counted
    on every phone, and Ana's still is."""
    table = table_of(live_server, FIVE)
    with phones(browser, "light") as phone:
        bob = table.on_entry(phone(), "Bob", name="Bob")
        keeper = table.page(phone(), "Chloé")
        open_listening(keeper, table.entry_url)
        keeper.locator("#who-am-i summary").click()
        keeper.locator("#who-am-i").get_by_role("button", name="Personne : je compte pour la table").click()
        counted = keeper.get_by_role("button", name="Cette main est comptée ✓")

        tap(keeper, 0, "K")
        counted.click()
        expect(counted).to_have_attribute("aria-pressed", "true")
        expect(keeper.locator("#hands-status")).to_contain_text("Ana\u00a0: 10 pts ✓", timeout=SECOND)

        select_hand(keeper, 3)
        expect(counted).to_have_attribute("aria-pressed", "false")
        tap(keeper, 3, "7")
        counted.click()
        expect(counted).to_have_attribute("aria-pressed", "true")
        for page in (keeper, bob):
            expect(page.locator("#hands-status")).to_contain_text("Dan\u00a0: 7 pts ✓", timeout=SECOND)
            expect(page.locator("#hands-status")).to_contain_text("Ana\u00a0: 10 pts ✓")
        select_hand(keeper, 0)
        expect(counted).to_have_attribute("aria-pressed", "true")
        select_hand(keeper, 4)
        expect(counted).to_have_attribute("aria-pressed", "false")

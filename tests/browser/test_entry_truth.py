"""The manche being counted, as one phone shows it, is what the table counted: the button « comptée »
follows the hand on the keypad, the entry's number follows the manches waiting on this phone, a
recorded manche's draft never comes back in the next one. Phones at 360 px; a phone's network is
cut for real (its requests refused and its event stream ended, its reconnections failing too).

Classique (SPEC §2, tables.toml): K 10, 7 7, 8 50, 3 3; in penalty mode the others add their
hands and the one who went out scores 0.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, open_listening
from .test_games_flow import choose_winner, select_hand, tap, type_total
from .test_live_table import SECOND, THREE, phones
from .test_many_hands import FIVE, NAVIGATION, table_of

pytestmark = pytest.mark.on_postgresql  # the entry's changes reach the other phones by NOTIFY there

# Every event stream a page opens, kept where the test can end it (htmx-ext-sse opens them).
KEEPS_STREAMS = """(() => {
  const Stream = window.EventSource;
  window.streams = [];
  window.EventSource = class extends Stream {
    constructor(url, init) { super(url, init); window.streams.push(this); }
  };
})();"""


NO_NETWORK = "Pas de réseau\u00a0: ce téléphone garde la saisie et l'enverra."
# the phone's copy of the manche being counted (entry.js) holds no entry typed, new or corrected
NO_DRAFT = "() => window.CarteEntry && !CarteEntry.now.fields && !Object.values(CarteEntry.now.edits).some(Boolean)"


def refused(route):
    route.abort("internetdisconnected")


def cut(context, *, offline: bool = True) -> None:
    """``context``'s network cut for real: offline, every request refused, and each page's open
    event stream ended as a lost network ends it (htmx-ext-sse then tries again, and fails). Not
    ``offline``: the table's server out of reach while the browser still says it is online."""
    context.set_offline(offline)
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


def test_a_correction_saved_leaves_no_draft_for_the_next_manche(browser, live_server):
    """Bob's phone, cut while counting his hand (K + 7 = 17), misses manche 1's save; back, it saves
    the correction with its hand, then opens manche 2's entry: empty, nothing of manche 1 back."""
    table = table_of(live_server, THREE)
    game = table.game
    with phones(browser, "light") as phone:
        bob_phone = phone_of(phone)
        bob = table.on_entry(bob_phone, "Bob")
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        choose_winner(bob, 0)
        expect(keeper.locator("#winner-0")).to_be_checked(timeout=SECOND)

        cut(bob_phone)
        tap(bob, 1, "K 7")
        type_total(keeper, 1, "5")
        tap(keeper, 2, "3")
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)

        back(bob_phone)
        expect(bob.locator("#hand-late")).to_contain_text("enregistrée sans votre main", timeout=5 * SECOND)
        bob.get_by_role("link", name="La corriger avec votre main").click()
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("17")
        bob.get_by_role("button", name="Enregistrer les modifications").click()
        expect(bob).to_have_url(re.compile(rf"/games/{game.id}\?edited=1"), timeout=NAVIGATION)
        (manche,) = table.manches()
        assert manche.points == {"Ana": 0, "Bob": 17, "Chloé": 3}  # Ana went out; K + 7; a 3
        bob.wait_for_function(NO_DRAFT)  # the manche saved took its drafts with it

        bob.get_by_role("link", name="Saisir la manche 2").click()
        expect(bob).to_have_url(re.compile(rf"/games/{game.id}/manches/new$"), timeout=NAVIGATION)
        expect(bob.locator("h1")).to_have_text("Manche 2")
        bob.wait_for_function("() => window.CarteOffline && window.CarteOffline.settled === true")
        expect(bob.locator(".draft-note")).to_have_count(0)
        expect(bob.locator("input[name=winner]:checked")).to_have_count(0)
        expect(bob.locator("[data-hand-total]").filter(has_not_text=re.compile("^0$"))).to_have_count(0)
        assert table.games.get(game.id).next_number == 2


def test_a_phone_without_network_says_so_on_the_entry_and_the_game_page(browser, live_server):
    """Bob's phone counting its hand: its network cut, the entry says « Pas de réseau : … » while
    the hand stays on the phone; back, the line goes and the hand reaches the table. The table's
    server out of reach while the browser says it is online: the hand's request fails, and the line
    says so until the stream is open again. The game page says it too."""
    table = table_of(live_server, THREE)
    with phones(browser, "light") as phone:
        bob_phone = phone_of(phone)
        bob = table.on_entry(bob_phone, "Bob")
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        line = bob.get_by_text(NO_NETWORK)
        expect(line).to_be_hidden()

        cut(bob_phone)
        expect(line).to_be_visible(timeout=SECOND)
        tap(bob, 1, "K")
        bob.get_by_role("button", name="Cette main est comptée ✓").click()
        ARTIFACTS.mkdir(exist_ok=True)
        bob.screenshot(path=str(ARTIFACTS / "entry-no-network-360.png"), full_page=True)
        back(bob_phone)
        expect(line).to_be_hidden(timeout=SECOND)
        expect(keeper.locator("#hands-status")).to_contain_text("Bob\u00a0: 10 pts ✓", timeout=5 * SECOND)

        cut(bob_phone, offline=False)
        tap(bob, 1, "7")
        expect(line).to_be_visible(timeout=SECOND)
        back(bob_phone)
        expect(line).to_be_hidden(timeout=10 * SECOND)  # htmx-ext-sse's next try opens the stream

        bob.goto(f"{table.base}/games/{table.game.id}")
        bob.wait_for_function("() => window.listening === true")
        expect(line).to_be_hidden()
        cut(bob_phone)
        expect(line).to_be_visible(timeout=SECOND)
        bob.set_viewport_size({"width": 320, "height": 640})
        bob.screenshot(path=str(ARTIFACTS / "game-no-network-320.png"), full_page=True)
        assert bob.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        back(bob_phone)
        expect(line).to_be_hidden(timeout=SECOND)


def test_a_hand_still_on_its_way_is_sent_after_the_page_is_opened_again(browser, live_server):
    """Bob's phone counts K + 7 = 17 and marks it counted while the open entry refuses its hands
    (the table's server out of reach for them); the page is opened again before they went through:
    the hand is still this phone's, on its way, and once the server takes hands again it reaches
    the table (the scorekeeper reads it) instead of being drawn over by the table's empty one."""
    table = table_of(live_server, THREE)
    with phones(browser, "light") as phone:
        bob = table.on_entry(phone(), "Bob")
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        choose_winner(keeper, 0)
        expect(bob.locator("#winner-0")).to_be_checked(timeout=SECOND)

        bob.route("**/entry/hands/**", refused)
        tap(bob, 1, "K 7")
        bob.get_by_role("button", name="Cette main est comptée ✓").click()
        expect(bob.get_by_text(NO_NETWORK)).to_be_visible(timeout=SECOND)  # the hand's request failed
        bob.reload()
        bob.wait_for_function("() => window.CarteOffline && window.CarteOffline.settled === true")
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("17")
        expect(keeper.locator("#hands-status")).not_to_contain_text("Bob")

        bob.unroute("**/entry/hands/**", refused)
        bob.evaluate("dispatchEvent(new Event('online'))")  # what a phone hears when its network is back
        expect(keeper.locator("#hands-status")).to_contain_text("Bob\u00a0: 17 pts ✓", timeout=5 * SECOND)
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("17")


SETTLED = "() => window.CarteOffline && window.CarteOffline.settled === true"
DISABLED = "Array.from(document.querySelectorAll('form[data-manche-form] input:disabled'), (input) => input.name.split('-')[0])"


def test_the_keypad_changes_the_entry_and_the_form_is_drawn_from_it(browser, live_server):
    """The whole-manche form of a phone that has not said who it is: a key tapped changes the
    entry (entry.js's object), which the form shows after a reload and another page of the same
    phone reads; a winner chosen, then another, disables the new winner's fields only, the first
    winner's cards back as they were tapped, none stale."""
    table = table_of(live_server, THREE)
    with phones(browser, "light") as phone:
        context = phone()
        page = table.page(context)
        open_listening(page, table.entry_url)
        page.wait_for_function(SETTLED)
        tap(page, 1, "7 7 K")
        assert page.evaluate("CarteEntry.now.fields['p1-n_7']") == 2
        choose_winner(page, 1)  # Bob went out: his cards stay in the entry, not sent
        expect(page.locator("#hand-1")).to_have_class(re.compile(r"\bis-winner\b"))
        assert set(page.evaluate(DISABLED)) == {"p1"}
        choose_winner(page, 2)
        expect(page.locator("#hand-1 [data-hand-total]")).to_have_text("24")  # 7 + 7 + K
        assert set(page.evaluate(DISABLED)) == {"p2"}
        assert page.evaluate("CarteEntry.now.fields.winner") == "2"

        page.reload()
        page.wait_for_function(SETTLED)
        expect(page.locator(".draft-note")).to_contain_text("gardée sur ce téléphone")
        expect(page.locator("#winner-2")).to_be_checked()
        expect(page.locator("#hand-1 [data-hand-total]")).to_have_text("24")
        assert set(page.evaluate(DISABLED)) == {"p2"}

        other = context.new_page()  # the same phone, another page: the same entry
        open_listening(other, table.entry_url)
        other.wait_for_function(SETTLED)
        expect(other.locator("#hand-1 [data-hand-total]")).to_have_text("24")
        assert other.evaluate("CarteEntry.now.fields['p1-n_K']") == 1
        tap(other, 0, "3")
        page.reload()
        page.wait_for_function(SETTLED)
        expect(page.locator("#hand-0 [data-hand-total]")).to_have_text("3")
        page.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(page).to_have_url(re.compile(rf"/games/{table.game.id}\?saved=1$"), timeout=NAVIGATION)
        assert table.manches()[0].points == {"Ana": 3, "Bob": 24, "Chloé": 0}

"""A ten-manche evening on four phones at one table of five (Ana, Bob, Chloé, Dan, Eve), two at
360 px and two at 320 px, which change sizes after manche 5 (each role played at both: no second
evening to pay for). Ana's phone (the owner's) counts Ana's hand, chooses who went out and saves; Bob's and Dan's count
their own hands; Chloé's counts for the table (Chloé's hand and Eve's). In manche 3 Ana and Bob
save at the same moment; in manche 5 Dan's phone has its network cut for real (requests refused,
event stream ended) while it counts, the table saves with Chloé's 0 for Dan, and back online Dan
corrects the manche with his hand. After every step each phone on the entry shows, for every hand,
only what was counted in that manche, with nothing to scroll sideways; at the end every total is
the one worked out by hand.

Classique (SPEC §2, tables.toml): K 10, 7 7, 3 3; in penalty mode the others add up their hands
and the one who went out scores 0.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .conftest import open_listening
from .test_entry_truth import back, cut, phone_of
from .test_games_flow import choose_winner, tap, type_total
from .test_live_table import SECOND, phones
from .test_many_hands import FIVE, NAVIGATION, table_of

pytestmark = pytest.mark.on_postgresql  # the entry's changes reach the other phones by NOTIFY there

ANA, BOB, CHLOE, DAN, EVE = range(5)
# Each manche: who went out, then the cards of each other hand (seat: cards).
EVENING = [
    (ANA, {BOB: "K", CHLOE: "7", DAN: "3", EVE: "K 3"}),
    (BOB, {ANA: "7 3", CHLOE: "K", DAN: "7", EVE: "3"}),
    (CHLOE, {ANA: "K", BOB: "3 3", DAN: "K 7", EVE: "7"}),  # Ana and Bob save at once
    (DAN, {ANA: "3", BOB: "7", CHLOE: "K K", EVE: "K"}),
    (EVE, {ANA: "K", BOB: "K 7", CHLOE: "3", DAN: "7 3"}),  # Dan's phone offline, then his correction
    (ANA, {BOB: "7", CHLOE: "3", DAN: "K", EVE: "7 7"}),
    (BOB, {ANA: "K 3", CHLOE: "7", DAN: "3", EVE: "K"}),
    (CHLOE, {ANA: "7", BOB: "K", DAN: "3 3", EVE: "3"}),
    (DAN, {ANA: "3", BOB: "7 3", CHLOE: "K", EVE: "7"}),
    (EVE, {ANA: "K", BOB: "3", CHLOE: "7 7", DAN: "K 3"}),
]
VALUE = {"K": 10, "7": 7, "3": 3}
# Worked by hand, manche by manche (the one out scores 0, the others their hand):
#   Ana   0 + 10 + 10 +  3 + 10 +  0 + 13 +  7 +  3 + 10 = 66
#   Bob  10 +  0 +  6 +  7 + 17 +  7 +  0 + 10 + 10 +  3 = 70
#   Chloé 7 + 10 +  0 + 20 +  3 +  3 +  7 +  0 + 10 + 14 = 74
#   Dan   3 +  7 + 17 +  0 + 10 + 10 +  3 +  6 +  0 + 13 = 69  (manche 5: 0 saved, 7 + 3 corrected)
#   Eve  13 +  3 +  7 + 10 +  0 + 14 + 10 +  3 +  7 +  0 = 67
TOTALS = {"Ana": 66, "Bob": 70, "Chloé": 74, "Dan": 69, "Eve": 67}

SHOWN = "() => Array.from(document.querySelectorAll('[data-hand]'), (hand) => hand.querySelector('[data-hand-total]').textContent)"
COUNTED = "Cette main est comptée ✓"


def worth(cards: str) -> int:
    return sum(VALUE[card] for card in cards.split())


def shows(page, counted: dict[int, int]) -> None:
    """``page`` shows each hand as counted so far in this manche (``counted``), every other one at
    0: no value the table did not count in this manche."""
    want = [str(counted.get(seat, 0)) for seat in range(len(FIVE))]
    try:
        page.wait_for_function(
            f"(want) => JSON.stringify(({SHOWN})()) === JSON.stringify(want)", arg=want, timeout=5 * SECOND
        )
    except PlaywrightTimeout:
        assert page.evaluate(SHOWN) == want, (page.url, page.locator("h1").inner_text())


def sized(pages: list, width: int) -> None:
    for page in pages:
        page.set_viewport_size({"width": width, "height": 740})


def on_entry(page, base: str, game_id: str, number: int, player: str) -> None:
    """``page`` on manche ``number``'s entry, as the phone of ``player`` (it said so once): gone
    there by itself after the save (a phone that counted its hand), or from the game page it went
    to (a phone that counted no hand of its own, or corrected the last manche)."""
    after = rf"/games/{game_id}(/manches/new)?\?(saved|edited)={number - 1}\b"
    expect(page).to_have_url(re.compile(after), timeout=NAVIGATION)
    if "/manches/new" not in page.url:
        open_listening(page, f"{base}/games/{game_id}/manches/new")
    expect(page.locator("h1")).to_have_text(f"Manche {number}")
    expect(page.locator("#i-am")).to_contain_text(player)
    page.wait_for_function("() => window.CarteOffline && window.CarteOffline.settled === true")


def all_on_entry(everyone: dict, table, number: int) -> None:
    """Every phone on manche ``number``'s entry (``on_entry``), two at each width, none wider than
    its screen."""
    for page, player in everyone.items():
        if number > 1:
            on_entry(page, table.base, table.game.id, number, player)
        width, used = page.evaluate("[innerWidth, document.documentElement.scrollWidth]")
        assert used <= width, (player, number, used, width)
    assert sorted(page.evaluate("innerWidth") for page in everyone) == [320, 320, 360, 360]


@pytest.mark.slow
def test_a_ten_manche_evening_on_four_phones(browser, live_server):
    table = table_of(live_server, FIVE)
    game = table.game
    with phones(browser, "light") as phone:
        ana = table.on_entry(phone(), "Ana")
        bob = table.on_entry(phone(), "Bob", name="Bob")
        dan_phone = phone_of(phone)
        dan = table.on_entry(dan_phone, "Dan", name="Dan")
        chloe = table.page(phone(), "Chloé")
        open_listening(chloe, table.entry_url)
        chloe.locator("#who-am-i summary").click()
        chloe.locator("#who-am-i").get_by_role("button", name="Personne : je compte pour la table").click()
        everyone = {ana: "Ana", bob: "Bob", chloe: "Personne", dan: "Dan"}
        counts = {ANA: ana, BOB: bob, CHLOE: chloe, DAN: dan, EVE: chloe}
        sized([chloe, dan], 320)

        for number, (out, hands) in enumerate(EVENING, start=1):
            if number == 6:
                sized([ana, bob], 320)
                sized([chloe, dan], 360)
            all_on_entry(everyone, table, number)
            offline = number == 5
            choose_winner(ana, out)
            for page in everyone:
                expect(page.locator(f"#winner-{out}")).to_be_checked(timeout=SECOND)
                shows(page, {})
            if offline:
                cut(dan_phone)
            counted = count_hands(counts, hands, away=dan if offline else None)
            if offline:
                # the table goes on without Dan's phone: Chloé's phone counts Dan's hand at 0
                type_total(chloe, DAN, "0")
                chloe.get_by_role("button", name=COUNTED).click()
                counted[DAN] = 0
                for page in (ana, bob, chloe):
                    shows(page, counted)
            expect(ana.locator("#entry-missing")).to_have_text(
                "Toutes les mains sont là\u00a0: enregistrez la manche.", timeout=5 * SECOND
            )
            if number == 3:
                saved_at_once(ana, bob)
            else:
                ana.get_by_role("button", name=f"Enregistrer la manche {number}").click()
            expect(ana).to_have_url(re.compile(rf"/games/{game.id}\?saved={number}$"), timeout=NAVIGATION)
            assert len(table.manches()) == number  # one manche per round, even saved twice
            if offline:
                corrected_by_dan(dan, dan_phone, table, hands[DAN])

        manches = table.manches()
        assert [m.winner for m in manches] == [FIVE[out] for out, _ in EVENING]
        totals = {name: sum(m.points.get(name, 0) for m in manches) for name in FIVE}
        assert totals == TOTALS


def count_hands(counts: dict, hands: dict[int, str], away=None) -> dict[int, int]:
    """Each hand tapped and marked counted on the phone that counts it (``counts``), in turn: after
    each, every phone shows the hands counted so far. The phone ``away`` (its network cut) keeps
    its own hand, which no other phone shows. Returns the hands the table counted."""
    counted: dict[int, int] = {}
    everyone = [page for page in dict.fromkeys(counts.values()) if page is not away]
    for seat, cards in hands.items():
        page = counts[seat]
        tap(page, seat, cards)
        page.get_by_role("button", name=COUNTED).click()
        if page is away:
            shows(away, {seat: worth(cards)})  # cut before any hand: its own, kept on the phone, only
            continue
        counted[seat] = worth(cards)
        for each in everyone:
            shows(each, counted)
    return counted


def saved_at_once(ana, bob) -> None:
    """Ana and Bob tap « Enregistrer » together: both saves held until both have left their phones."""
    held = []

    def together(route):
        held.append(route)
        if len(held) == 2:
            for each in held:
                each.continue_()

    for page in (ana, bob):
        page.route("**/entry/save", together)
    ana.get_by_role("button", name="Enregistrer la manche 3").click()
    bob.get_by_role("button", name="Enregistrer la manche 3").click()
    expect(bob).to_have_url(re.compile(r"\?saved=3$"), timeout=NAVIGATION)
    assert len(held) == 2
    for page in (ana, bob):
        page.unroute("**/entry/save", together)


def corrected_by_dan(dan, dan_phone, table, cards: str) -> None:
    """Back online, Dan's phone is told manche 5 was saved without its hand and corrects it with it
    (the manche 6 it then opens shows nothing of manche 5: the evening's next step)."""
    back(dan_phone)
    expect(dan.locator("#hand-late")).to_contain_text("enregistrée sans votre main", timeout=5 * SECOND)
    dan.get_by_role("link", name="La corriger avec votre main").click()
    expect(dan.locator(f"#hand-{DAN} [data-hand-total]")).to_have_text(str(worth(cards)))
    dan.get_by_role("button", name="Enregistrer les modifications").click()
    expect(dan).to_have_url(re.compile(rf"/games/{table.game.id}\?edited=5"), timeout=NAVIGATION)
    assert table.manches()[4].points["Dan"] == worth(cards)

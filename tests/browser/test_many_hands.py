"""One manche, many hands (issue 45), three phones at 360 px in Debian's Chromium: the owner says
it is Bob's phone, picks the winner and counts Bob's hand; a scorekeeper who joined by the invite
says it is Chloé's and counts hers; each sees the other's hand within a second (waited for, never
slept); a watcher on the shared view follows « 1 main sur 2 » then « 2 mains sur 2 »; one tap saves
exactly one manche with both hands; the saving phone goes to the game page, the other, which was
counting its hand, to the next manche's entry. The presence line names who counts which hand.

Classique (SPEC §2, tables.toml): K 10, 7 7, 8 50, 3 3; in penalty mode the others add their
hands and the one who went out scores 0.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest
from playwright.sync_api import expect

from .conftest import open_listening
from .test_games_flow import choose_winner, tap, type_total
from .test_live_table import SECOND, THREE, phones, screenshots

# A save, then the page it goes to: a bound on a navigation (the browser loads and draws a page,
# the server renders it a first time), not the live table's 1-second promise. Beside the whole
# suite on two cores, the five-player save once took over 3 s to reach the game page.
NAVIGATION = 10 * SECOND
# A request the test holds goes through its own handler (Python, Playwright's pipe), slow on a
# loaded machine: what waits on it is not held to the live table's one second either.
THROUGH_THE_TEST = 5 * SECOND

pytestmark = pytest.mark.on_postgresql  # the entry's changes reach the other phones by NOTIFY there


def held_route(page, held: list):
    """The request a route of ``page`` holds (appended to ``held``), once Playwright has handed it
    to the test: each call to the page lets it."""
    for _ in range(200):
        if held:
            return held[0]
        page.evaluate("0")
    raise AssertionError("the request was never held")


class Table(NamedTuple):
    """A game of Classique on the live server (Ana deals first), with its owner's token and an
    invite: the phones of one table come to it through these."""

    games: object  # the game service
    game: object
    base: str
    owner_token: str
    invite_token: str

    @property
    def entry_url(self) -> str:
        return f"{self.base}/games/{self.game.id}/manches/new"

    def page(self, context, name: str | None = None):
        """A new page of ``context`` (a phone) that joined the game: by the owner's link, or by
        the invite naming the phone ``name``."""
        page = context.new_page()
        join = f"{self.base}/join/{self.game.id}"
        page.goto(f"{join}/{self.owner_token}" if name is None else f"{join}/{self.invite_token}?name={name}")
        return page

    def on_entry(self, context, player: str, name: str | None = None):
        """A new page of ``context`` that joined (``page``) and is on the manche entry as ``player``."""
        page = self.page(context, name)
        joined(page, self.entry_url, player)
        return page

    def manches(self) -> list:
        return self.games.get(self.game.id).manches


def table_of(live_server, players: list[str]) -> Table:
    games = live_server.app.extensions["games"]
    game, owner_token = games.create_game("classique", players, first_dealer=0)
    _invite, invite_token = games.create_invite(game.id)
    return Table(games, game, live_server.url, owner_token, invite_token)


@pytest.fixture
def table(live_server) -> Table:
    """Ana, Bob and Chloé's table."""
    return table_of(live_server, THREE)


def joined(page, url: str, player: str):
    """``page`` on the manche entry, listening, saying once which player it is."""
    open_listening(page, url)
    page.locator("#who-am-i summary").click()
    page.locator("#who-am-i").get_by_role("button", name=player, exact=True).click()
    expect(page.locator("[data-entry-name]")).to_have_text(player)
    expect(page.locator("#i-am")).to_contain_text(player)


def moved_on(page, game_id: str, number: int, player: str):
    """``page`` went on from manche ``number``'s entry to the next one's, saying it was saved, its
    keypad on ``player``'s hand."""
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/manches/new\?saved={number}$"), timeout=NAVIGATION)
    expect(page.locator("#saved-before")).to_have_text(f"Manche {number} enregistrée.")
    expect(page.locator("h1")).to_have_text(f"Manche {number + 1}")
    expect(page.locator("[data-entry-name]")).to_have_text(player)
    # once entry.js has settled (a draft would be back by then): the entry is empty, nothing of
    # the manche saved is brought back
    page.wait_for_function("() => window.CarteOffline && window.CarteOffline.settled === true")
    expect(page.locator(".draft-note")).to_have_count(0)
    expect(page.locator("input[name=winner]:checked")).to_have_count(0)
    expect(page.locator("[data-hand-total]").filter(has_not_text=re.compile("^0$"))).to_have_count(0)


KEEPS_A_DRAFT = "() => !!(window.CarteEntry && CarteEntry.now.fields)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_two_phones_count_their_own_hands_into_one_manche(browser, table, scheme):
    game = table.game
    with phones(browser, scheme) as phone:
        owner, keeper = table.page(phone()), table.page(phone(), "Chloé")
        watcher = phone().new_page()
        open_listening(watcher, f"{table.base}/s/{game.share_id}")
        joined(owner, table.entry_url, "Bob")
        joined(keeper, table.entry_url, "Chloé")

        # The owner says Ana went out: the scorekeeper's entry shows it.
        choose_winner(owner, 0)
        expect(keeper.locator("#winner-0")).to_be_checked(timeout=SECOND)
        expect(owner.locator("[data-entry-name]")).to_have_text("Bob")  # the phone stays on its hand

        # Bob's hand, K + 7 = 17, counted on the owner's phone (the others read who counts it),
        # then marked done.
        tap(owner, 1, "K 7")
        for page in (keeper, watcher):
            expect(page.locator("#presence")).to_contain_text("Bob saisit sa main (manche 1)…", timeout=SECOND)
        owner.get_by_role("button", name="Cette main est comptée ✓").click()
        expect(keeper.locator("#hands-status")).to_contain_text("Bob\u00a0: 17 pts ✓", timeout=SECOND)
        # done: no longer counting, and named by the player its phone said it is (it gave no name)
        expect(keeper.locator("#presence")).to_have_text("Bob saisit la manche 1…", timeout=SECOND)
        expect(watcher.locator("#entry-progress")).to_contain_text("Manche 1\u00a0: 1 main sur 2", timeout=SECOND)

        # Chloé's hand, 8 + 3 = 53, on the scorekeeper's phone: « Chloé compte… » first, then done.
        tap(keeper, 2, "8")
        expect(owner.locator("#hands-status")).to_contain_text("Chloé compte…", timeout=SECOND)
        for page in (owner, watcher):
            expect(page.locator("#presence")).to_contain_text("Chloé saisit sa main (manche 1)…", timeout=SECOND)
        screenshots(browser, scheme, "many-hands-counting", (("propriétaire : Bob", owner),
                                                             ("marqueur : Chloé", keeper), ("spectateur", watcher)))  # fmt: skip
        tap(keeper, 2, "3")
        keeper.get_by_role("button", name="Cette main est comptée ✓").click()
        expect(owner.locator("#hands-status")).to_contain_text("Chloé\u00a0: 53 pts ✓", timeout=SECOND)
        expect(watcher.locator("#entry-progress")).to_contain_text("Manche 1\u00a0: 2 mains sur 2", timeout=SECOND)
        expect(owner.locator("#hand-2 [data-hand-total]")).to_have_text("53")
        expect(owner.locator("#entry-missing")).to_have_text("Toutes les mains sont là\u00a0: enregistrez la manche.")
        screenshots(browser, scheme, "many-hands", (("propriétaire : Bob", owner), ("marqueur : Chloé", keeper),
                                                    ("spectateur", watcher)))  # fmt: skip

        owner.wait_for_function(KEEPS_A_DRAFT)  # entry.js keeps the owner's entry on the phone
        # One tap saves manche 1 with both hands: the saving phone goes to the game page; the owner's,
        # which was counting Bob's hand, goes on to manche 2's entry, on Bob's keypad again.
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        expect(keeper.locator("main .notice").first).to_contain_text("Manche 1 enregistrée")
        moved_on(owner, game.id, 1, "Bob")
        screenshots(browser, scheme, "many-hands-saved", (("propriétaire : manche 2", owner),
                                                          ("marqueur : la partie", keeper)))  # fmt: skip
        (manche,) = table.manches()
        # Ana went out: 0; Bob 17; Chloé 53.
        assert manche.winner == "Ana" and manche.points == {"Ana": 0, "Bob": 17, "Chloé": 53}


def bob_and_a_scorekeeper(table: Table, phone):
    """Bob's phone on the entry, counting his own hand, and Chloé's counting for the table."""
    bob = table.on_entry(phone(), "Bob")
    keeper = table.page(phone(), "Chloé")
    open_listening(keeper, table.entry_url)
    keeper.locator("#who-am-i summary").click()
    keeper.locator("#who-am-i").get_by_role("button", name="Personne : je compte pour la table").click()
    return bob, keeper


def test_the_later_change_of_a_hand_wins_and_the_other_phone_may_put_its_own_back(browser, table):
    """Bob's phone counts his hand (K: 10); the scorekeeper's phone, counting for the table,
    changes it (8: 50): the later wins on both phones, and Bob's phone is told in one line, its
    own version one tap away; that tap puts it back on every phone."""
    with phones(browser, "light") as phone:
        bob, keeper = bob_and_a_scorekeeper(table, phone)

        tap(bob, 1, "K")
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("10", timeout=SECOND)
        tap(keeper, 1, "K", step=-1)
        tap(keeper, 1, "8")
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("50", timeout=SECOND)
        expect(bob.locator("#hand-replaced")).to_contain_text(
            "Chloé a changé la main de Bob (la vôtre\u00a0: 10 pts).", timeout=SECOND
        )
        bob.get_by_role("button", name="Remettre la mienne").click()
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("10", timeout=SECOND)
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("10")
        expect(bob.locator("#hand-replaced")).to_be_hidden()
        expect(keeper.locator("#hand-replaced")).to_contain_text("Bob a changé la main de Bob")


def test_a_change_heard_while_this_phones_own_is_on_its_way_is_shown_once_its_answer_comes(browser, table):
    """Bob's phone counts his hand (K: 10), and its answer is slow to come back; meanwhile the
    scorekeeper changes it (8: 50) and Bob's phone hears that first. Once the late answer comes,
    Bob's phone shows the later hand, as every other phone does (seen in CI under load: it kept
    showing its own 10)."""
    with phones(browser, "light") as phone:
        bob, keeper = bob_and_a_scorekeeper(table, phone)

        held = []  # Bob's change, stored by the server; its answer held on the way back
        bob.route("**/entry/hands/1", lambda route: held.append((route, route.fetch())))
        tap(bob, 1, "K")
        # sent by the test's own handler (Python, through Playwright): not the product's path, so
        # not held to its one second
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("10", timeout=THROUGH_THE_TEST)
        tap(keeper, 1, "K", step=-1)
        tap(keeper, 1, "8")
        # Bob's phone has heard the scorekeeper's change (it says so) while its own is unanswered
        expect(bob.locator("#hand-replaced")).to_contain_text("Chloé a changé la main de Bob", timeout=SECOND)
        route, answer = held_route(bob, held)
        route.fulfill(response=answer)
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("50", timeout=THROUGH_THE_TEST)
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("50")


def test_a_hand_counted_offline_lands_in_a_correction_when_the_manche_was_saved_meanwhile(browser, table):
    """Bob's phone loses the network while counting (K + 7 = 17); meanwhile the scorekeeper types
    Bob's total (5), counts Chloé's (3) and saves manche 1. Back online, Bob's phone is told the
    manche was saved without its hand and offered the correction, which holds it: Bob 17."""
    game = table.game
    with phones(browser, "light") as phone:
        bob_phone = phone()
        bob = table.on_entry(bob_phone, "Bob")
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        choose_winner(bob, 0)
        expect(keeper.locator("#winner-0")).to_be_checked(timeout=SECOND)

        bob_phone.set_offline(True)
        tap(bob, 1, "K 7")
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("17")  # kept on the phone

        type_total(keeper, 1, "5")
        tap(keeper, 2, "3")
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        (manche,) = table.manches()
        assert manche.points == {"Ana": 0, "Bob": 5, "Chloé": 3}

        bob_phone.set_offline(False)
        expect(bob.locator("#hand-late")).to_contain_text("enregistrée sans votre main", timeout=5 * SECOND)
        bob.get_by_role("link", name="La corriger avec votre main").click()
        expect(bob.locator("#late-hand")).to_be_visible()
        expect(bob.locator("#hand-1 [data-hand-total]")).to_have_text("17")
        expect(bob.locator("#hand-2 [data-hand-total]")).to_have_text("3")
        bob.get_by_role("button", name="Enregistrer les modifications").click()
        expect(bob).to_have_url(re.compile(rf"/games/{game.id}\?edited=1"), timeout=NAVIGATION)
        (manche,) = table.manches()
        # Corrected: Ana went out, 0; Bob K + 7 = 17; Chloé 3.
        assert manche.points == {"Ana": 0, "Bob": 17, "Chloé": 3}


def test_two_phones_saving_at_the_same_moment_record_one_manche(browser, table):
    """Ana (she went out) picks the winner; Bob counts K + 7 = 17 and Chloé 8 + 3 = 53, each marked
    done; Bob and Chloé tap « Enregistrer » together: both saves are held until both have left
    their phones, then reach the server at once. One manche is recorded, with both hands; both
    phones end on the game page, and so does Ana's, which counted no hand (Classique, SPEC §2: in
    penalty mode the one who went out scores 0 and the others add up their hands)."""
    game = table.game
    with phones(browser, "light") as phone:
        # Ana on the phone that made the game, Bob and Chloé by the invite (named by it)
        ana = table.on_entry(phone(), "Ana")
        bob, chloe = (table.on_entry(phone(), name, name=name) for name in ("Bob", "Chloé"))
        choose_winner(ana, 0)
        expect(bob.locator("#winner-0")).to_be_checked(timeout=SECOND)
        expect(chloe.locator("#winner-0")).to_be_checked(timeout=SECOND)
        for page, cards in ((bob, "K 7"), (chloe, "8 3")):
            tap(page, THREE.index(page.locator("[data-entry-name]").inner_text()), cards)
            page.get_by_role("button", name="Cette main est comptée ✓").click()
        for page in (ana, bob, chloe):
            expect(page.locator("#entry-missing")).to_have_text(
                "Toutes les mains sont là\u00a0: enregistrez la manche.", timeout=SECOND
            )

        held = []

        def together(route):
            """Each save waits here until the other's has come too; then both go on at once."""
            held.append(route)
            if len(held) == 2:
                for each in held:
                    each.continue_()

        for page in (bob, chloe):
            page.route("**/entry/save", together)
        bob.get_by_role("button", name="Enregistrer la manche 1").click()
        chloe.get_by_role("button", name="Enregistrer la manche 1").click()
        for page in (bob, chloe, ana):
            expect(page).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        assert len(held) == 2
        (manche,) = table.manches()
        # Ana went out: 0; Bob K + 7 = 17; Chloé 8 + 3 = 53.
        assert manche.winner == "Ana" and manche.points == {"Ana": 0, "Bob": 17, "Chloé": 53}


def test_a_save_waits_for_the_hands_on_their_way(browser, table):
    """Bob's phone counts K + 7 = 17 and types Chloé's total, 5; the typed total is held on its way
    to the server when « Enregistrer » is tapped: the save leaves only once it was answered (else
    the server would find Chloé's hand missing). Classique: Ana went out, 0."""
    game = table.game
    with phones(browser, "light") as phone:
        bob = table.on_entry(phone(), "Bob")
        choose_winner(bob, 0)
        tap(bob, 1, "K 7")

        held, released, overtaken = [], [], []
        bob.route("**/entry/hands/2", lambda route: held.append(route))
        bob.route("**/entry/save", lambda route: (overtaken.append(not released), route.continue_()))
        with bob.expect_request("**/entry/hands/2"):
            type_total(bob, 2, "5")
        bob.get_by_role("button", name="Enregistrer la manche 1").click()
        held_route(bob, held).continue_()
        released.append(True)
        expect(bob).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        assert overtaken == [False]
        (manche,) = table.manches()
        # Ana 0; Bob K + 7 = 17; Chloé typed 5.
        assert manche.points == {"Ana": 0, "Bob": 17, "Chloé": 5}


def test_a_phone_that_has_not_said_who_it_is_keeps_the_whole_manche_form(browser, table):
    """Bob's phone says who it is and counts K (10) into the shared entry; the scorekeeper's phone
    says nothing: it keeps today's whole-manche form, which the shared entry never fills — it
    enters every hand itself (Bob 8 = 50, Chloé 3) and saves them with the form, none of its taps
    reaching the shared entry. Bob's phone, which was counting, goes on to manche 2's entry."""
    game = table.game
    with phones(browser, "light") as phone:
        bob = table.on_entry(phone(), "Bob")
        keeper = table.page(phone(), "Chloé")
        open_listening(keeper, table.entry_url)
        expect(keeper.locator("#who-am-i")).to_be_visible()
        for part in ("#hands-status", "#entry-missing", "[data-done]"):
            expect(keeper.locator(part)).to_be_hidden()

        choose_winner(bob, 0)
        tap(bob, 1, "K")
        bob.get_by_role("button", name="Cette main est comptée ✓").click()
        # The progress line comes on the same event as the entry: once it is here, the entry was
        # heard, and left aside.
        expect(keeper.locator("#entry-progress")).to_contain_text("Manche 1\u00a0: 1 main sur 2", timeout=SECOND)
        expect(keeper.locator("#winner-0")).not_to_be_checked()
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("0")

        choose_winner(keeper, 0)
        tap(keeper, 1, "8")
        tap(keeper, 2, "3")
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        (manche,) = table.manches()
        # Ana went out: 0; Bob 8 = 50 (the scorekeeper's count, not the shared entry's K); Chloé 3.
        assert manche.points == {"Ana": 0, "Bob": 50, "Chloé": 3}
        moved_on(bob, game.id, 1, "Bob")
        assert table.games.get(game.id).next_number == 2


def test_a_hand_counted_offline_lands_in_the_open_manche_when_back(browser, table):
    """Bob's phone loses the network while counting K + 7 = 17 and marks it done; back online, the
    hand reaches the shared entry (the scorekeeper reads it), which saves it: Bob 17."""
    game = table.game
    with phones(browser, "light") as phone:
        bob_phone = phone()
        bob = table.on_entry(bob_phone, "Bob")
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        choose_winner(keeper, 0)
        expect(bob.locator("#winner-0")).to_be_checked(timeout=SECOND)

        bob_phone.set_offline(True)
        tap(bob, 1, "K 7")
        bob.get_by_role("button", name="Cette main est comptée ✓").click()
        tap(keeper, 2, "3")
        keeper.get_by_role("button", name="Cette main est comptée ✓").click()
        expect(keeper.locator("#entry-missing")).to_have_text("Reste à compter\u00a0: Bob", timeout=SECOND)

        bob_phone.set_offline(False)
        expect(keeper.locator("#hands-status")).to_contain_text("Bob\u00a0: 17 pts ✓", timeout=5 * SECOND)
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        (manche,) = table.manches()
        # Ana went out: 0; Bob K + 7 = 17, counted offline; Chloé 3.
        assert manche.points == {"Ana": 0, "Bob": 17, "Chloé": 3}


FIVE = ["Ana", "Bob", "Chloé", "Dan", "Eve"]
COUNTS_TAPS = """addEventListener("pointerdown", (event) => {
  if (event.isTrusted) sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
}, true);"""


def taps(page) -> int:
    """The taps made on ``page`` since it was last asked (kept across its pages in the tab)."""
    return page.evaluate(
        "() => { const n = Number(sessionStorage.getItem('taps') || 0); sessionStorage.setItem('taps', '0'); return n; }"
    )


@pytest.mark.slow
def test_a_five_player_manche_costs_each_phone_its_own_cards_and_two_taps(browser, live_server):
    """The Playing guide's count of taps, its taps counted on each phone (every tap the test makes is
    counted by the page itself): saying who it is costs 2 taps, once; then Ana, who went out, taps
    the winner and « Enregistrer » (0 cards + 2); each other phone taps its cards and « main
    comptée » (cards + 1). Classique (SPEC §2): K 10, 7 7, 8 50, 3 3; the one out scores 0."""
    table = table_of(live_server, FIVE)
    game = table.game
    hands = {"Bob": "K 7", "Chloé": "8 3", "Dan": "7 3", "Eve": "K"}
    with phones(browser, "light") as phone:
        pages = {}
        for player in FIVE:
            page = table.page(phone(), None if player == "Ana" else player)
            page.add_init_script(COUNTS_TAPS)
            joined(page, table.entry_url, player)
            assert taps(page) == 2  # « Quel joueur êtes-vous ? », then the name: once per game
            pages[player] = page

        choose_winner(pages["Ana"], 0)
        for player, cards in hands.items():
            page = pages[player]
            expect(page.locator("#winner-0")).to_be_checked(timeout=SECOND)
            tap(page, FIVE.index(player), cards)
            page.get_by_role("button", name="Cette main est comptée ✓").click()
        expect(pages["Ana"].locator("#entry-missing")).to_have_text(
            "Toutes les mains sont là\u00a0: enregistrez la manche.", timeout=SECOND
        )
        pages["Ana"].get_by_role("button", name="Enregistrer la manche 1").click()
        expect(pages["Ana"]).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        for player, cards in hands.items():
            moved_on(pages[player], game.id, 1, player)
            assert taps(pages[player]) == len(cards.split()) + 1, player
        assert taps(pages["Ana"]) == 2
        (manche,) = table.manches()
        # Ana 0; Bob K + 7 = 17; Chloé 8 + 3 = 53; Dan 7 + 3 = 10; Eve K = 10.
        assert manche.points == {"Ana": 0, "Bob": 17, "Chloé": 53, "Dan": 10, "Eve": 10}


def test_a_save_tapped_while_a_hand_is_on_its_way_waits_for_it(browser, table):
    """On a slow network the hand's first change is still on its way when « Enregistrer » is
    tapped: the save waits for it, and marks the hand this phone counted as done, instead of
    reaching the server first and being told the hand is missing (seen under load, 2 runs in 5).
    Classique, penalty mode: Ana went out (0), Bob's total typed (5), Chloé a 3 (3 pts)."""
    game = table.game
    with phones(browser, "light") as phone:
        keeper = table.on_entry(phone(), "Chloé", name="Chloé")
        choose_winner(keeper, 0)
        type_total(keeper, 1, "5")

        held = []  # the hand's first change, held on the way; the later ones go through

        def hold_first(route):
            if held:
                route.continue_()
            else:
                held.append(route)

        keeper.route("**/entry/hands/2", hold_first)
        with keeper.expect_request(lambda request: request.url.endswith("/entry/hands/2")):
            tap(keeper, 2, "3")
        first = held_route(keeper, held)
        keeper.get_by_role("button", name="Enregistrer la manche 1").click()
        first.continue_()
        expect(keeper).to_have_url(re.compile(rf"/games/{game.id}\?saved=1$"), timeout=NAVIGATION)
        (manche,) = table.manches()
        # Ana went out: 0; Bob's typed total 5; Chloé's 3.
        assert manche.points == {"Ana": 0, "Bob": 5, "Chloé": 3}


def test_choosing_the_winner_leaves_the_keypad_on_this_phones_hand_before_the_next_tap(browser, live_server):
    """The winner chosen, this phone's keypad is on its own hand before any other tap can land (seen
    in CI: the keypad came back to it a moment later, after the player had tapped another hand,
    and the total typed there went nowhere). The choice and the keypad are read in one task."""
    games = live_server.app.extensions["games"]
    game, _owner_token = games.create_game("classique", THREE, first_dealer=0)
    _invite, invite_token = games.create_invite(game.id)
    base, entry_url = live_server.url, f"{live_server.url}/games/{game.id}/manches/new"
    with phones(browser, "light") as phone:
        keeper = phone().new_page()
        keeper.goto(f"{base}/join/{game.id}/{invite_token}?name=Chloé")
        joined(keeper, entry_url, "Chloé")
        on_keypad = keeper.evaluate(
            "() => { document.querySelector('label[for=\"winner-0\"]').click();"
            " return document.querySelector('[data-selected]').value; }"
        )
        assert on_keypad == "2"  # Chloé's seat, not Bob's (the next hand after Ana's)
        type_total(keeper, 1, "5")
        expect(keeper.locator("#hand-1 [data-hand-total]")).to_have_text("5")

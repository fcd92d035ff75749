"""Offline at the table on the plain-HTTP address the other phones open: no service worker there
(not a secure context), so the page itself keeps what is typed (a draft per game and manche) and
queues what the network does not take, in the same queue the worker uses, sent by the same code.

The phones open ``http://table.lan:PORT``: Chromium maps that name to the loopback
(``--host-resolver-rules``) and the app says that address (PUBLIC_URL). The network is cut with
the entry already open (``context.set_offline``), as TESTING.md says. What reached the server is
read through the API, never through the page.

classique (SPEC §2's classique table): 8 = 50, JK = 50, A = 20, K = 10, others face value; penalty
mode: the winner adds 0, each other player their own hand; the deal passes to the left each manche.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, open_listening, served
from .test_entry_truth import KEEPS_STREAMS, cut
from .test_many_hands import held_route
from .test_offline import api_game, opened_phones, recorded, wait_js

PLAYERS = ["Ana", "Bob", "Chloé"]
LAN = "table.lan"


@pytest.fixture(scope="module")
def lan_browser(playwright):
    """Chromium that resolves table.lan to this machine: the address a phone at the table opens."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1"]
    )
    yield browser
    browser.close()


@pytest.fixture
def lan_server(app_config):
    """The app on 127.0.0.1 (a random port), saying the LAN address http://table.lan:PORT."""
    yield from served(app_config, host=LAN)


@pytest.fixture
def lan_phone(lan_browser, lan_server):
    """A phone (360 px, French) holding a game's edit token, at the LAN address; its page notes each
    document it loads (``page.loads``)."""
    phones = opened_phones(lan_browser)
    open_phone = next(phones)
    yield lambda game_id, token, scheme="light": open_phone(lan_server, game_id, token, scheme=scheme).page
    next(phones, None)  # closes them


@pytest.fixture
def worker_phones(browser):
    """Phones at 127.0.0.1, where the service worker runs (test_offline's ``Phone``)."""
    yield from opened_phones(browser)


def ready(page):
    """The offline scripts have their words, drew what waits, and the entry keeps each tap."""
    wait_js(page, "!!(window.CarteOffline && window.CarteOffline.settled)")


def tap_manche(page, winner, cards=None, typed=None):
    """On the entry: who went out, the cards of each hand tapped, totals typed."""
    page.locator(f'label[for="winner-{winner}"]').click()
    for seat, tokens in (cards or {}).items():
        page.locator(f"#hand-{seat} button.pick").click()
        for token in tokens.split():
            page.locator(f'#keypad [data-token="{token}"] button[data-step="1"]').click()
    for seat, total in (typed or {}).items():
        page.locator(f"#hand-{seat} button.pick").click()
        page.locator(f"#p{seat}-typed").fill(str(total))


def provisional(page) -> dict:
    rows = page.locator("#offline-queue .provisional-totals li")
    return {row.get_attribute("data-side"): int(row.locator(".total").inner_text().split()[0]) for row in rows.all()}


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"offline-lan-{name}.png"), full_page=True)


def test_two_manches_saved_offline_at_the_lan_address_are_recorded_once_in_order(lan_server, lan_phone):
    game_id, token = api_game(lan_server)
    # A second phone at the table, on the game page and listening all along (its network stays).
    watcher = lan_phone(game_id, token, scheme="dark")
    open_listening(watcher, f"{lan_server.url}/games/{game_id}")
    page = lan_phone(game_id, token)
    page.goto(f"{lan_server.url}/games/{game_id}/manches/new")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    ready(page)
    page.context.set_offline(True)
    loads = len(page.loads)
    # Manche 1: Ana goes out; Bob holds 8 + K = 60, Chloé 3 + JK = 53.
    tap_manche(page, 0, cards={1: "8 K", 2: "3 JK"})
    page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page.locator(".waiting-list li")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("Manche 2")
    expect(page.locator(".queued-note")).to_contain_text("Manche 1")
    assert provisional(page) == {"Ana": 0, "Chloé": 53, "Bob": 60}
    # French says « 0 pt » and « 1 pt » (one), « 60 pts » (many), as the scores do.
    expect(page.locator("#offline-queue [data-side='Ana'] .total")).to_have_text("0 pt")
    expect(page.locator("#offline-queue [data-side='Bob'] .total")).to_have_text("60 pts")
    expect(page.locator("#offline-queue .deal")).to_contain_text("Bob distribue")
    # Manche 2, from the entry the page offers: Bob goes out; Ana typed 15, Chloé A = 20.
    tap_manche(page, 1, cards={2: "A"}, typed={0: 15})
    page.get_by_role("button", name="Enregistrer la manche 2").click()
    expect(page.locator(".waiting-list li")).to_have_count(2)
    expect(page.locator("h1")).to_have_text("Manche 3")
    expect(page.locator(".waiting-list")).to_contain_text("en attente d'envoi")
    assert provisional(page) == {"Ana": 15, "Bob": 60, "Chloé": 73}
    expect(page.locator("#offline-queue .deal")).to_contain_text("Chloé distribue")
    shot(page, "two-waiting")
    assert page.loads[loads:] == []  # no page fetched, no browser error page
    assert recorded(lan_server, game_id) == []

    page.context.set_offline(False)  # the `online` event sends the queue
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=15000)
    manches = recorded(lan_server, game_id)
    assert [(m["number"], m["winner"], m["values"]) for m in manches] == [
        (1, "Ana", {"Bob": 60, "Chloé": 53}),
        (2, "Bob", {"Ana": 15, "Chloé": 20}),
    ]
    expect(page.locator("h1")).to_have_text("Manche 3")
    # The second phone heard both manches as they were replayed, back to back: totals and history.
    expect(watcher.locator("#scoreboard tr[data-side='Chloé'] td.total")).to_have_text("73", timeout=5000)
    expect(watcher.locator("#scoreboard tr[data-side='Ana'] td.total")).to_have_text("15")
    expect(watcher.locator("#scoreboard tr[data-side='Bob'] td.total")).to_have_text("60")
    expect(watcher.locator(".history-table .manche-row")).to_have_count(2)
    assert watcher.loads == [f"{lan_server.url}/games/{game_id}"]  # followed live, never reloaded
    expect(watcher.locator("#share [role=note]")).to_contain_text("HTTP simple")  # says what works where
    shot(watcher, "second-phone")
    assert all(url.startswith(lan_server.url) for url in page.loads + watcher.loads)
    assert len(recorded(lan_server, game_id)) == 2


def half_counted_entry_survives(page, server, game_id):
    """Cards tapped and a total typed: kept through a reload and a Back; cleared, undone; gone once
    the manche is stored."""
    entry_url = f"{server.url}/games/{game_id}/manches/new"
    page.goto(entry_url)
    ready(page)
    # Ana goes out; Bob: 8 + K = 60 tapped; Chloé: 12 typed.
    tap_manche(page, 0, cards={1: "8 K"}, typed={2: 12})
    page.locator("#p2-typed").blur()

    def as_left():
        expect(page.locator(".draft-note")).to_contain_text("gardée sur ce téléphone")
        expect(page.locator("#winner-0")).to_be_checked()
        expect(page.locator("#hand-1 [data-hand-total]")).to_have_text("60")
        expect(page.locator("#hand-2 [data-hand-total]")).to_have_text("12")
        expect(page.locator("#p2-typed")).to_have_value("12")
        # its button's words inside the button (« Effacer la saisie » ran 29 px past its border)
        assert page.locator(".draft-note button").evaluate("(b) => b.scrollWidth <= b.clientWidth")

    page.reload()
    ready(page)
    as_left()
    page.get_by_role("link", name="← Retour aux scores").click()
    expect(page.locator("#scoreboard")).to_be_visible()
    page.go_back()
    ready(page)
    as_left()
    shot(page, f"draft-{server.url.split('//')[1].split(':')[0]}")

    page.get_by_role("button", name="Effacer la saisie").click()
    expect(page.locator("#hand-1 [data-hand-total]")).to_have_text("0")
    expect(page.locator("#winner-0")).not_to_be_checked()
    page.get_by_role("button", name="Annuler").click()
    as_left()

    page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page).to_have_url(f"{server.url}/games/{game_id}?saved=1")
    ready(page)  # the game page ran (its address alone is known before its scripts)
    assert [(m["winner"], m["values"]) for m in recorded(server, game_id)] == [("Ana", {"Bob": 60, "Chloé": 12})]
    page.goto(entry_url)
    ready(page)
    expect(page.locator("h1")).to_have_text("Manche 2")
    expect(page.locator(".draft-note")).to_have_count(0)
    expect(page.locator("#hand-1 [data-hand-total]")).to_have_text("0")


def test_a_half_counted_entry_survives_a_reload_and_a_back_at_the_lan_address(lan_server, lan_phone):
    game_id, token = api_game(lan_server)
    page = lan_phone(game_id, token)
    half_counted_entry_survives(page, lan_server, game_id)


def test_a_half_counted_entry_survives_a_reload_and_a_back_where_a_worker_runs(live_server, worker_phones):
    game_id, token = api_game(live_server)
    phone = worker_phones(live_server, game_id, token)
    phone.controlled()
    half_counted_entry_survives(phone.page, live_server, game_id)


def test_what_is_tapped_before_the_draft_comes_back_is_not_overwritten_by_it(lan_server, lan_phone):
    """On a slow phone the draft comes back once the offline words have come: the taps made before
    that stay as tapped, and become the entry's draft. Seen in CI: a winner chosen while the words
    were on their way was unchosen by the older draft, and the save was refused."""
    game_id, token = api_game(lan_server)
    page = lan_phone(game_id, token)
    entry_url = f"{lan_server.url}/games/{game_id}/manches/new"
    page.goto(entry_url)
    ready(page)
    tap_manche(page, 1, cards={0: "3"})  # the draft: Bob went out, Ana holds a 3
    page.reload()
    ready(page)
    expect(page.locator(".draft-note")).to_contain_text("gardée sur ce téléphone")

    held = []
    page.route("**/offline/texts.json", lambda route: held.append(route))
    page.goto(entry_url)
    held_route(page, held)
    tap_manche(page, 2, cards={0: "5"})  # before the words: Chloé went out, Ana holds a 5
    held[0].continue_()
    ready(page)
    expect(page.locator(".draft-note")).to_have_count(0)
    expect(page.locator("#winner-2")).to_be_checked()
    expect(page.locator("#hand-0 [data-hand-total]")).to_have_text("5")
    page.unroute("**/offline/texts.json")
    page.reload()  # what was tapped is the draft now
    ready(page)
    expect(page.locator(".draft-note")).to_contain_text("gardée sur ce téléphone")
    expect(page.locator("#winner-2")).to_be_checked()
    expect(page.locator("#hand-0 [data-hand-total]")).to_have_text("5")


def api_manche(server, game_id, token, body):
    """A manche recorded through the JSON API, as another phone would."""
    answer = server.app.test_client().post(
        f"/api/v1/games/{game_id}/manches", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201, answer.get_json()


def api_revision(server, game_id) -> int:
    return server.app.test_client().get(f"/api/v1/games/{game_id}").get_json()["revision"]


def test_a_correction_and_the_last_deletion_offline_at_the_lan_address_are_applied_once(lan_server, lan_phone):
    game_id, token = api_game(lan_server)
    api_manche(lan_server, game_id, token, {"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Chloé": ["3C", "JK"]}})
    api_manche(lan_server, game_id, token, {"winner": "Bob", "hands": {"Ana": ["5H", "KH"], "Chloé": ["AS"]}})
    revision = api_revision(lan_server, game_id)
    # One phone, two tabs opened online: the correction of manche 1 (✎) and the game page.
    edit = lan_phone(game_id, token)
    edit.goto(f"{lan_server.url}/games/{game_id}/manches/1/edit")
    assert edit.evaluate("window.isSecureContext") is False
    ready(edit)
    game = edit.context.new_page()
    game.loads = []
    game.on("framenavigated", lambda frame: frame == game.main_frame and game.loads.append(frame.url))
    game.goto(f"{lan_server.url}/games/{game_id}")
    ready(game)
    edit.context.set_offline(True)
    loads = (len(edit.loads), len(game.loads))

    # Manche 1 corrected: Chloé's hand typed as 40 instead of 53.
    tap_manche(edit, 0, typed={2: 40})
    edit.get_by_role("button", name="Enregistrer les modifications").click()
    expect(edit.locator(".waiting-list li[data-kind=edit]")).to_contain_text("en attente d'envoi")
    # The last manche (2) deleted from the game page's history.
    game.get_by_role("button", name="Supprimer la manche 2").click()
    expect(game.locator(".waiting-list li[data-kind=delete]")).to_have_count(1)
    expect(game.locator(".waiting-list li")).to_have_count(2)  # the correction waits here too
    shot(game, "correction-deletion-waiting")
    assert (edit.loads[loads[0] :], game.loads[loads[1] :]) == ([], [])  # no page, no browser error page
    assert api_revision(lan_server, game_id) == revision

    edit.context.set_offline(False)  # both pages hear `online`: one of them sends the queue, once
    expect(game.locator("#offline-queue")).to_be_hidden(timeout=15000)
    expect(edit.locator("#offline-queue")).to_be_hidden(timeout=15000)
    manches = recorded(lan_server, game_id)
    assert [(m["number"], m["winner"], m["values"]) for m in manches] == [(1, "Ana", {"Bob": 60, "Chloé": 40})]
    assert api_revision(lan_server, game_id) == revision + 2  # one correction, one deletion
    expect(game.locator("#scoreboard tr[data-side='Chloé'] td.total")).to_have_text("40")


def test_a_deletion_the_server_could_not_take_goes_at_the_next_answered_request(lan_server, lan_phone):
    """The phone never went offline, the server could not answer for a while (503): no `online`
    event comes; the page sends what waits as soon as a request of its own is answered again (its
    event stream open again), not at the next 20-second try."""
    game_id, token = api_game(lan_server)
    api_manche(lan_server, game_id, token, {"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Chloé": ["3C", "JK"]}})
    api_manche(lan_server, game_id, token, {"winner": "Bob", "hands": {"Ana": ["5H", "KH"], "Chloé": ["AS"]}})
    page = lan_phone(game_id, token)

    def unavailable(route):
        route.fulfill(status=503, headers={"Retry-After": "1"}, body="")

    down = [f"{lan_server.url}/games/{game_id}/events**", f"{lan_server.url}/games/{game_id}/manches/2/delete"]
    for pattern in down:
        page.route(pattern, unavailable)
    page.add_init_script("document.addEventListener('htmx:sseOpen', () => { window.opened = true; })")
    page.goto(f"{lan_server.url}/games/{game_id}")
    loaded = time.monotonic()
    ready(page)
    page.get_by_role("button", name="Supprimer la manche 2").click()
    expect(page.locator(".waiting-list li[data-kind=delete]")).to_have_count(1)
    assert page.evaluate("window.opened === undefined")  # the stream has not been answered yet
    assert len(recorded(lan_server, game_id)) == 2

    for pattern in down:
        page.unroute(pattern)
    expect(page.locator(".history-table .manche-row")).to_have_count(1, timeout=15000)
    assert time.monotonic() - loaded < 19  # the stream's answer sent it, before the 20-second try
    assert [m["number"] for m in recorded(lan_server, game_id)] == [1]


def test_removing_a_waiting_manche_renumbers_the_entry_at_once(lan_server, lan_phone):
    """At the LAN address, network cut: manches 1 and 2 saved wait on the phone, the entry is for
    manche 3; each « Retirer » renumbers the entry and its button at once (2, then 1)."""
    game_id, token = api_game(lan_server)
    page = lan_phone(game_id, token)
    page.context.add_init_script(KEEPS_STREAMS)
    page.goto(f"{lan_server.url}/games/{game_id}/manches/new")
    ready(page)
    cut(page.context)
    for number, winner in ((1, 0), (2, 1)):
        tap_manche(page, winner, typed={2: 5})
        page.get_by_role("button", name=f"Enregistrer la manche {number}").click()
        expect(page.locator(".waiting-list li")).to_have_count(number)
    expect(page.locator("h1")).to_have_text("Manche 3")

    for left, number in ((1, 2), (0, 1)):
        page.locator(".waiting-list li").first.get_by_role("button", name="Retirer").click()
        expect(page.locator(".waiting-list li")).to_have_count(left)
        expect(page.locator("h1")).to_have_text(f"Manche {number}")
        expect(page.locator(".save-bar button")).to_have_text(f"Enregistrer la manche {number}")

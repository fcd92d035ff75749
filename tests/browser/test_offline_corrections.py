"""Offline corrections (issue 28) in Debian's Chromium, the service worker on and the network cut
by Playwright: a correction and the deletion of the last manche made offline are queued, marked
« en attente d'envoi » and applied once when the network is back; a correction another phone
made meanwhile shows both versions.

Classique (SPEC §2): K 10, Q 10, others face value; penalty mode: the winner adds 0, each other
player their own hand.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import api_game, opened_phones, recorded, shot, totals, wait_js


@pytest.fixture
def phones(browser):
    yield from opened_phones(browser)


# --- corrections and deletions made offline (issue 28) --------------------------------------------


def record_two(server, game_id, token):
    """Two manches recorded by another phone (the API). Classique, penalty: manche 1, Ana goes out,
    Bob 8♥ K♠ = 50 + 10 = 60, Chloé 3♣ = 3; manche 2, Bob goes out, Ana 5♥ = 5, Chloé 9♣ = 9.
    Totals: Ana 5, Bob 60, Chloé 12."""
    client, headers = server.app.test_client(), {"Authorization": f"Bearer {token}"}
    for body in ({"winner": "Ana", "hands": {"Bob": ["8H", "KS"], "Chloé": ["3C"]}},
                 {"winner": "Bob", "hands": {"Ana": ["5H"], "Chloé": ["9C"]}}):  # fmt: skip
        assert client.post(f"/api/v1/games/{game_id}/manches", json=body, headers=headers).status_code == 201


def correct_and_delete_offline(phone, game_id):
    """Offline: manche 1 corrected (Bob's hand typed 15 instead of 60), manche 2 deleted."""
    page = phone.page
    for number in (1, 2):  # the game page kept each manche's correction page
        wait_js(
            page,
            f"caches.open('carte-pages').then(c => c.match('/games/{game_id}/manches/{number}/edit')).then(Boolean)",
        )
    phone.offline()
    page.locator("a[href$='/manches/1/edit']").first.click()
    expect(page.locator("h1")).to_have_text("Modifier la manche 1")
    expect(page.locator(".offline-line")).to_be_visible()
    page.locator("#hand-1 button.pick").click()
    page.locator("#p1-typed").fill("15")
    page.get_by_role("button", name="Enregistrer les modifications").click()
    expect(page.locator(".waiting-list li[data-kind=edit]")).to_contain_text("Manche 1 corrigée")
    expect(page.locator(".waiting-list li[data-kind=edit]")).to_contain_text("en attente d'envoi")
    expect(page.locator(".queued-note")).to_contain_text("La correction de la manche 1")
    page.get_by_role("button", name="Supprimer la manche 2").click()
    expect(page.locator(".waiting-list li[data-kind=delete]")).to_contain_text("Manche 2 supprimée")
    expect(page.locator(".waiting-list li")).to_have_count(2)


@pytest.mark.on_postgresql
def test_a_correction_and_a_deletion_made_offline_are_applied_once(live_server, phones):
    """Issue 28 item 1: with the phone offline, a recorded manche is corrected from its kept page
    and the last one deleted; both wait (« en attente d'envoi ») with provisional totals, and are
    applied exactly once when the network is back — even when the first answer is lost."""
    game_id, token = api_game(live_server)
    record_two(live_server, game_id, token)
    phone = phones(live_server, game_id, token)
    phone.controlled()
    page = phone.page
    correct_and_delete_offline(phone, game_id)
    # Provisional: manche 1 alone, corrected — Ana 0, Bob 15, Chloé 3.
    assert totals(page) == {"Ana": 0, "Bob": 15, "Chloé": 3}
    expect(page.locator(".total.provisional")).to_have_count(3)
    # manche 2 was dealt by Bob (Ana dealt manche 1); with it gone, Bob deals manche 2 again
    expect(page.locator(".next-manche h2")).to_have_text("Manche 2")
    expect(page.locator(".next-manche .deal")).to_contain_text("Bob distribue, Chloé commence")
    expect(page.locator("tr.pending-delete")).to_have_count(1)
    page.get_by_role("link", name="Saisir la manche 2").click()  # the kept entry, numbered after the deletion
    expect(page.locator("h1")).to_have_text("Manche 2")
    page.go_back()
    expect(page.locator(".waiting-list li")).to_have_count(2)
    shot(page, "corrections-waiting-light")
    page.emulate_media(color_scheme="dark")
    shot(page, "corrections-waiting-dark")
    page.set_viewport_size({"width": 320, "height": 640})  # 320 px must not break: no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.set_viewport_size({"width": 360, "height": 740})
    assert len(recorded(live_server, game_id)) == 2

    cut = {"count": 0}

    def reach_then_cut(route):
        # the server makes the correction, then the network drops before the answer comes back
        if route.request.method == "POST" and cut["count"] == 0:
            route.fetch(max_redirects=0)
            cut["count"] += 1
            route.abort("internetdisconnected")
        else:
            route.continue_()

    edits = re.compile(r".*/games/[^/]+/manches/\d+$")
    page.route(edits, reach_then_cut)
    phone.online()
    for _ in range(50):
        if cut["count"]:
            break
        page.wait_for_timeout(200)
    assert cut["count"] == 1
    page.unroute(edits)
    page.reload()  # sent again, with the same keys: the correction answered as made, the deletion made once
    expect(page.locator(".history-table .manche-row")).to_have_count(1, timeout=15000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    manches = recorded(live_server, game_id)
    assert [(m["number"], m["winner"], m["values"]) for m in manches] == [(1, "Ana", {"Bob": 15, "Chloé": 3})]
    assert totals(page) == {"Ana": 0, "Bob": 15, "Chloé": 3}


def test_a_queued_correction_of_a_manche_changed_elsewhere_shows_both(live_server, phones):
    """Issue 28 item 1: a correction queued offline of a manche another phone corrected meanwhile
    shows both versions and the choice; a deletion of a manche that is no longer the last is
    refused with a clear message, nothing lost."""
    game_id, token = api_game(live_server)
    record_two(live_server, game_id, token)
    phone = phones(live_server, game_id, token)
    phone.controlled()
    page = phone.page
    correct_and_delete_offline(phone, game_id)
    # Meanwhile another phone corrects manche 1 (Bob typed 40) and records manche 3 (Chloé out,
    # Ana 7, Bob Q = 10): manche 2 is no longer the last.
    client, headers = live_server.app.test_client(), {"Authorization": f"Bearer {token}"}
    body = {"winner": "Ana", "hands": {"Chloé": ["3C"]}, "points": {"Bob": 40}}
    assert client.put(f"/api/v1/games/{game_id}/manches/1", json=body, headers=headers).status_code == 200
    body = {"winner": "Chloé", "hands": {"Ana": ["7H"], "Bob": ["QS"]}}
    assert client.post(f"/api/v1/games/{game_id}/manches", json=body, headers=headers).status_code == 201
    phone.online()
    settle = page.locator("[data-settle][data-kind=edit]")
    expect(settle).to_be_visible(timeout=15000)
    expect(settle.locator("[data-version=mine]")).to_contain_text("Bob 15")
    expect(settle.locator("[data-version=theirs]")).to_contain_text("Bob 40")
    shot(page, "corrections-settle")
    assert [m["number"] for m in recorded(live_server, game_id)] == [1, 2, 3]  # in order: the deletion waits
    settle.locator("[data-choice=mine]").click()  # keep mine: Bob 15; then the deletion goes, and is refused
    refused = page.locator("[data-settle][data-kind=delete]")
    expect(refused).to_contain_text("La manche 2 n'est plus la dernière", timeout=15000)
    expect(refused).to_contain_text("rien n'est perdu")
    expect(page.locator("[data-settle][data-kind=edit]")).to_have_count(0)
    shot(page, "corrections-refused")
    assert [m["number"] for m in recorded(live_server, game_id)] == [1, 2, 3]  # nothing lost
    refused.locator("[data-choice=drop]").click()
    expect(page.locator("#offline-queue")).to_be_hidden()
    manches = recorded(live_server, game_id)
    assert [(m["number"], m["values"]) for m in manches] == [
        (1, {"Bob": 15, "Chloé": 3}),
        (2, {"Ana": 5, "Chloé": 9}),
        (3, {"Ana": 7, "Bob": 10}),
    ]


def test_a_manche_corrected_twice_offline_is_sent_as_the_last_correction(live_server, phones):
    """The second correction of a manche made offline replaces the first one waiting (both come
    from the same kept page: sent one after the other, the second would collide with the first)."""
    game_id, token = api_game(live_server)
    record_two(live_server, game_id, token)
    phone = phones(live_server, game_id, token)
    phone.controlled()
    page = phone.page
    wait_js(page, f"caches.open('carte-pages').then(c => c.match('/games/{game_id}/manches/1/edit')).then(Boolean)")
    phone.offline()
    for typed in ("15", "25"):  # Bob's hand typed 15, then 25
        page.locator("a[href$='/manches/1/edit']").first.click()
        expect(page.locator("h1")).to_have_text("Modifier la manche 1")
        page.locator("#hand-1 button.pick").click()
        page.locator("#p1-typed").fill(typed)
        page.get_by_role("button", name="Enregistrer les modifications").click()
        expect(page.locator(".waiting-list li")).to_have_count(1)
    expect(page.locator(".waiting-list li")).to_contain_text("Bob 25")
    # Provisional: manche 1 (Ana out, Bob 25, Chloé 3) + manche 2 (Bob out, Ana 5, Chloé 9)
    assert totals(page) == {"Ana": 5, "Bob": 25, "Chloé": 12}
    phone.online()
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=15000)
    expect(page.locator("[data-settle]")).to_have_count(0)
    manches = recorded(live_server, game_id)
    assert [(m["number"], m["values"]) for m in manches] == [(1, {"Bob": 25, "Chloé": 3}), (2, {"Ana": 5, "Chloé": 9})]

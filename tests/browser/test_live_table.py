"""The live table (issue 24) with three phones in Debian's Chromium: the owner (the game page, and
a second tab with a half-filled entry), a scorekeeper who joined by the invite, a watcher on the
shared view. Each manche recorded on one phone shows on the others within a second of being
stored; the owner's half-filled entry is kept, renumbered and told; who is entering a manche
shows and clears. Every wait is for what a person would see; the delays are measured from the
moment the write is stored (the save's answer), never slept.

Classique (SPEC §2, seed 000): K 10, 8 50, 5 5, 3 3, 9 9; in penalty mode the others add their hands.
"""

from __future__ import annotations

import base64
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, open_listening
from .test_games_flow import choose_winner, tap, type_total

pytestmark = pytest.mark.on_postgresql  # PostgreSQL's NOTIFY reaches the other phones

THREE = ["Ana", "Bob", "Chloé"]
SAID_ONE = "Manche 1 enregistrée. Totaux\u00a0: Bob 0, Ana 5, Chloé 12."  # the totals said as totals
SECOND = 1000  # ms: the bound, from the write stored to every other page showing it


def total(page, side: str):
    return page.locator(f'#scoreboard tr[data-side="{side}"] .total')


def side_by_side(browser, pictures: dict, name: str) -> Path:
    """The phones' screenshots in one picture, as they lie side by side on the table."""
    page = browser.new_page(viewport={"width": 3 * 380, "height": 900})
    cells = "".join(
        f'<figure><figcaption>{label}</figcaption><img src="data:image/png;base64,'
        f'{base64.b64encode(path.read_bytes()).decode()}"></figure>'
        for label, path in pictures.items()
    )
    page.set_content(
        "<style>body{margin:0;display:flex;gap:10px;background:#888;font:16px sans-serif}"
        "figure{margin:0;width:360px}img{width:360px}figcaption{color:#fff;padding:4px}</style>" + cells
    )
    path = ARTIFACTS / f"live-table-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.close()
    return path


def screenshots(browser, scheme: str, step: str, pages: tuple) -> Path:
    """Each phone's page (``(label, page)``) photographed, then the three side by side."""
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {}
    for label, page in pages:
        path = ARTIFACTS / f"live-{scheme}-{step}-{len(shots)}.png"
        page.screenshot(path=str(path), full_page=True)
        shots[label] = path
    return side_by_side(browser, shots, f"{scheme}-{step}")


@contextmanager
def phones(browser, scheme: str):
    """Makes phones (360 × 740, touch, French, the colour scheme asked), all closed at the end."""
    contexts = []

    def phone():
        context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1, is_mobile=True,
                                      has_touch=True, locale="fr-FR", color_scheme=scheme)  # fmt: skip
        contexts.append(context)
        return context

    try:
        yield phone
    finally:
        for context in contexts:
            context.close()


def the_table(phone, base: str, game, owner_token: str, invite_token: str):
    """The owner on the game page (the phone that created it), a scorekeeper who scanned the
    invite (named Chloé by it), a watcher on the shared view: each listening to the game."""
    owner = phone()
    owner_page = owner.new_page()
    open_listening(owner_page, f"{base}/join/{game.id}/{owner_token}")
    keeper_page = phone().new_page()
    open_listening(keeper_page, f"{base}/join/{game.id}/{invite_token}?name=Chloé")
    watcher = phone().new_page()
    open_listening(watcher, f"{base}/s/{game.share_id}")
    return owner, owner_page, keeper_page, watcher


def half_filled_entry(owner, url: str):
    """A new tab of the owner's on the manche entry: Ana went out, Bob holds K 8 so far (10 + 50)."""
    entry = owner.new_page()
    entry.goto(url)
    choose_winner(entry, 0)
    tap(entry, 1, "K 8")
    expect(entry.locator("#hand-1 [data-hand-total]")).to_have_text("60")
    return entry


def record_typed(page, url: str, number: int, winner: int, typed: dict) -> None:
    """Manche ``number`` recorded on ``page``: the winner's seat, typed totals by seat."""
    page.goto(url)
    choose_winner(page, winner)
    for seat, points in typed.items():
        type_total(page, seat, points)
    page.get_by_role("button", name=f"Enregistrer la manche {number}").click()
    expect(page.locator(".notice")).to_contain_text(f"Manche {number} enregistrée")


def named_presence(keeper_page, game_url: str, others: tuple) -> None:
    """Chloé (named by her invite) opens manche 3's entry: the others read her name; she goes back
    to the game page: it clears."""
    keeper_page.goto(f"{game_url}/manches/new")
    for page in others:
        expect(page.locator("#presence")).to_have_text("Chloé saisit la manche 3…")
    keeper_page.goto(game_url)
    for page in others:
        expect(page.locator("#presence")).to_be_empty()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_three_phones_one_table(browser, live_server, scheme):
    games = live_server.app.extensions["games"]
    game, owner_token = games.create_game("classique", THREE, first_dealer=0)
    _invite, invite_token = games.create_invite(game.id)
    base = live_server.url
    with phones(browser, scheme) as phone:
        owner, owner_page, keeper_page, watcher = the_table(phone, base, game, owner_token, invite_token)

        # The owner's second tab: manche 1 half-filled (Ana went out, Bob holds K 8 so far).
        entry = half_filled_entry(owner, f"{base}/games/{game.id}/manches/new")

        # The others see that someone is entering manche 1: the owner gave no name, said by its role.
        for page in (keeper_page, watcher):
            expect(page.locator("#presence")).to_have_text("L'organisateur saisit la manche 1…")
        for page in (owner_page, entry):  # the owner's own entry, in its other tab, is not "another phone"
            expect(page.locator("#presence")).to_be_empty()
        screenshots(browser, scheme, "presence", (("propriétaire : saisie", entry), ("marqueur : partie", keeper_page),
                                                  ("spectateur : vue partagée", watcher)))  # fmt: skip

        # The scorekeeper records manche 1: Bob went out, Ana 5, Chloé 3 + 9 = 12 (typed).
        record_typed(keeper_page, f"{base}/games/{game.id}/manches/new", 1, winner=1, typed={0: "5", 2: "12"})
        stored = time.monotonic()
        assert [m.number for m in games.get(game.id).manches] == [1]

        # Within a second: the owner's game page, the watcher, and the owner's entry renumbered.
        expect(total(owner_page, "Ana")).to_have_text("5", timeout=SECOND)
        expect(total(watcher, "Chloé")).to_have_text("12", timeout=SECOND)
        expect(entry.locator("#renumbered")).to_have_text(
            "Manche 1 enregistrée par un autre téléphone\u00a0: votre saisie devient la manche 2.", timeout=SECOND
        )
        delay = time.monotonic() - stored
        assert delay < 1.0, f"{delay:.2f} s"
        expect(entry.locator("h1")).to_have_text("Manche 2")
        expect(entry.locator("#hand-1 [data-hand-total]")).to_have_text("60")  # what was typed stays
        expect(entry.locator("#winner-0")).to_be_checked()
        # Said once to screen readers, politely, on the pages that did not make the change.
        expect(owner_page.locator("#announce")).to_have_text(SAID_ONE)
        expect(owner_page.locator("#announce")).to_have_attribute("aria-live", "polite")
        # The scorekeeper (named by the invite) left their entry: only the owner's entry remains.
        for page in (keeper_page, watcher):
            expect(page.locator("#presence")).to_have_text("L'organisateur saisit la manche 2…")

        screenshots(browser, scheme, "renumbered", (("propriétaire : saisie", entry), ("propriétaire : partie", owner_page),
                                                    ("spectateur : vue partagée", watcher)))  # fmt: skip

        # The owner finishes the entry and saves it: manche 2, no conflict screen.
        tap(entry, 2, "3")
        entry.get_by_role("button", name="Enregistrer la manche 2").click()
        expect(entry.locator(".notice")).to_contain_text("Manche 2 enregistrée")
        stored = time.monotonic()
        # Manche 2: Ana went out; Bob K 8 = 60, Chloé 3 → Ana 5, Bob 60, Chloé 15
        expect(total(keeper_page, "Bob")).to_have_text("60", timeout=SECOND)
        expect(total(watcher, "Chloé")).to_have_text("15", timeout=SECOND)
        assert time.monotonic() - stored < 1.0
        for page in (keeper_page, watcher):  # the owner saved: nobody is entering any more
            expect(page.locator("#presence")).to_be_empty()
        assert [(m.number, m.winner) for m in games.get(game.id).manches] == [(1, "Bob"), (2, "Ana")]

        # A named scorekeeper entering: the others read their name; leaving the entry clears it.
        named_presence(keeper_page, f"{base}/games/{game.id}", (owner_page, watcher))


def test_an_unnamed_phone_is_said_by_its_role(browser, live_server):
    """A scorekeeper who opened the invite without a name is « Un téléphone invité » to the others,
    entering or correcting; the owner's own phone, unnamed, is « L'organisateur »."""
    games = live_server.app.extensions["games"]
    game, owner_token = games.create_game("classique", THREE, first_dealer=0)
    _invite, invite_token = games.create_invite(game.id)
    base, game_url = live_server.url, f"{live_server.url}/games/{game.id}"
    with phones(browser, "light") as phone:
        owner_page = phone().new_page()
        open_listening(owner_page, f"{base}/join/{game.id}/{owner_token}")
        keeper_page = phone().new_page()
        open_listening(keeper_page, f"{base}/join/{game.id}/{invite_token}")
        watcher = phone().new_page()
        open_listening(watcher, f"{base}/s/{game.share_id}")

        keeper_page.goto(f"{game_url}/manches/new")
        for page in (owner_page, watcher):
            expect(page.locator("#presence")).to_have_text("Un téléphone invité saisit la manche 1…")
        record_typed(keeper_page, f"{game_url}/manches/new", 1, winner=1, typed={0: "5", 2: "12"})
        for page in (owner_page, watcher):
            expect(page.locator("#presence")).to_be_empty()

        owner_page.goto(f"{game_url}/manches/1/edit")
        for page in (keeper_page, watcher):
            expect(page.locator("#presence")).to_have_text("L'organisateur corrige la manche 1…")
        keeper_page.goto(f"{game_url}/manches/1/edit")
        expect(watcher.locator("#presence")).to_contain_text("Un téléphone invité corrige la manche 1…")
        expect(watcher.locator("#presence")).to_contain_text("L'organisateur corrige la manche 1…")

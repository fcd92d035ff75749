"""A whole game in a real browser on a phone: created through the new-game form, manches entered
by tapping cards on the keypads, totals checked against values worked out by hand from SPEC §2.

classique table: 8 = 50, JK = 50, A = 20, 2 = 20, J = 20, K = 10, Q = 10, others face value
(penalty: the winner adds 0, the others add their own hand; game over at 500, lowest wins).
standard table (les-huit): 8 = 50, K/Q/J = 10, A = 1, 2 = 2, others face value (winner collects:
the winner's team scores the two opponents' hands, the partner's hand is not counted; 100 wins).
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# What a tap could ask of the server: a game's page or a manche form post. The live table's own
# requests (its stream, the entry's sign of life every 10 s) and the offline script loading its
# style and words are not taps.
TAP_REQUEST = re.compile(r"/games/[^/?]+(/manches[^?]*)?(\?|$)")


def snap(page, request, name: str, full_page: bool = True):
    """A screenshot of this page (the `shot` fixture only sees the default `page`)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=full_page)


def create_game(page, base_url: str, names: list[str], variant: str | None = None, *, js: bool = True, target=None):
    """Fill the new-game form as a person would (variant card, then names) and start the game."""
    page.goto(f"{base_url}/games/new")
    if variant:
        page.locator(".variant-picker summary").click()  # the six variants are folded under the current one
        page.locator(f'input[name="variant"][value="{variant}"]').check()
        if js:  # htmx swaps the settings for the variant chosen
            expect(page.locator('input[name="shown_variant"]')).to_have_value(variant)
        else:
            page.locator("button[data-continue]").click()
            expect(page.locator('input[name="shown_variant"]')).to_have_value(variant)
    for seat, name in enumerate(names):
        page.locator(f"#player-{seat}").fill(name)
    if target is not None:
        page.locator("#target").fill(str(target))
    page.locator("#game-settings button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    return page.url


def scoreboard(page) -> dict[str, int]:
    """The totals as the scoreboard shows them, by player or team."""
    rows = page.locator("#scoreboard tbody tr")
    expect(rows.first).to_be_visible()
    return {row.get_attribute("data-side"): int(row.locator("td.total").inner_text()) for row in rows.all()}


def ranking(page) -> list[tuple[str, str, int]]:
    """(place, side, total) in the order shown."""
    return [
        (
            row.locator("td.place").inner_text().strip(),
            row.get_attribute("data-side"),
            int(row.locator("td.total").inner_text()),
        )
        for row in page.locator("#scoreboard tbody tr").all()
    ]


def history_totals(page) -> list[int]:
    return [int(t) for t in page.locator(".history-table tfoot td").all_inner_texts()]


def choose_winner(page, seat: int | str):
    page.locator(f'label[for="winner-{seat}"]').click()


def select_hand(page, seat: int):
    """Put a player's hand on the one keypad (a tap on their name), unless it is there already."""
    if page.locator("[data-selected]").input_value() != str(seat):
        with_navigation(page, lambda: page.locator(f"#hand-{seat} button.pick").click())
    expect(page.locator("[data-selected]")).to_have_value(str(seat))


def with_navigation(page, action):
    """Do ``action``; without JavaScript it posts the form, so wait for the page it brings back."""
    if page.evaluate("document.documentElement.classList.contains('js')"):
        action()
    else:
        with page.expect_navigation():
            action()


def tap(page, seat: int, cards: str, step: int = 1):
    """Select the player, then tap a key once per card ("8 8 JK K 3"); step −1 taps the count badge."""
    select_hand(page, seat)
    for card in cards.split():
        key = page.locator(f'#keypad [data-token="{card}"] button[data-step="{step}"]')
        with_navigation(page, key.click)


def type_total(page, seat: int, total: str):
    """ "Or type the total": in the keypad of the selected player."""
    select_hand(page, seat)
    page.locator(f"#p{seat}-typed").fill(total)


def subtotal(page, seat: int):
    """The value of a player's hand so far, as their line in the list shows it."""
    return page.locator(f"#hand-{seat} [data-hand-total]")


def save_manche(page, number: int):
    page.get_by_role("button", name=f"Enregistrer la manche {number}").click()
    expect(page.locator(".notice")).to_contain_text(f"Manche {number} enregistrée")


def enter_manche(page, number: int):
    page.get_by_role("link", name=f"Saisir la manche {number}").click()
    expect(page.locator("h1")).to_have_text(f"Manche {number}")
    page.wait_for_load_state("load")


def first_manche_tapped_card_by_card(page, shot, request):
    # Manche 1, Ana goes out. Every tap is counted in the page: no request to the server.
    enter_manche(page, 1)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if TAP_REQUEST.search(r.url) else None)
    choose_winner(page, 0)
    # The keypad moves on to the next seat after the winner: Bob.
    expect(page.locator("[data-selected]")).to_have_value("1")
    expect(page.locator("[data-entry-name]")).to_have_text("Bob")
    expect(page.locator("#hand-0")).to_have_class(re.compile(r"\bis-winner\b"))
    page.locator("#hand-0 button.pick").click()  # the winner's own hand: nothing to count
    expect(page.locator("#keypad [data-winner-note]")).to_be_visible()
    expect(page.locator('#keypad [data-token="8"] button[data-step="1"]')).to_be_disabled()
    tap(page, 1, "8")
    expect(subtotal(page, 1)).to_have_text("50")
    tap(page, 1, "JK K 3")  # 8 50 + JK 50 + K 10 + 3 = 113
    expect(subtotal(page, 1)).to_have_text("113")
    tap(page, 2, "A 2 7 7 4")  # A 20 + 2 20 + 7 + 7 + 4 = 58
    expect(subtotal(page, 2)).to_have_text("58")
    tap(page, 2, "4", step=-1)  # a mistake undone: 54
    expect(subtotal(page, 2)).to_have_text("54")
    expect(page.locator('input[name="p2-n_7"]')).to_have_value("2")
    assert requests == [], f"a tap must not reach the server: {requests}"
    shot("manche-1-tapped")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    snap(page, request, "manche-1-bottom", full_page=False)  # what the thumb sees above the save bar
    save_manche(page, 1)
    assert scoreboard(page) == {"Ana": 0, "Bob": 113, "Chloé": 54}
    assert history_totals(page) == [0, 113, 54]
    shot("after-manche-1")


def edit_manche_one_from_the_history(page, shot):
    # Edit manche 1 from its row in the history (one tap): Bob had no Joker after all → 8 + K + 3 = 63.
    page.get_by_role("link", name="Modifier la manche 1").click()
    expect(page.locator("h1")).to_have_text("Modifier la manche 1")
    expect(page.locator("#winner-0")).to_be_checked()
    expect(page.locator('input[name="p1-n_JK"]')).to_have_value("1")
    expect(subtotal(page, 1)).to_have_text("113")
    expect(subtotal(page, 2)).to_have_text("54")
    tap(page, 1, "JK", step=-1)
    expect(subtotal(page, 1)).to_have_text("63")
    shot("edit-manche-1")
    page.get_by_role("button", name="Enregistrer les modifications").click()
    expect(page.locator(".notice")).to_contain_text("Manche 1 modifiée")
    assert scoreboard(page) == {"Ana": 39, "Bob": 63, "Chloé": 159}
    assert history_totals(page) == [39, 63, 159]
    row1 = page.locator(".history-table tbody tr.manche-row").first
    assert row1.locator("td").all_inner_texts()[1] == "63"


def test_classique_three_players_to_500(live_server, page, shot, request):
    game_url = create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique")
    expect(page.locator(".game-header h1")).to_have_text("Classique")
    expect(page.locator(".game-header .lead")).to_contain_text("500")
    assert scoreboard(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}
    shot("new-game")

    first_manche_tapped_card_by_card(page, shot, request)

    # Manche 2, Bob goes out: Ana J 20 + Q 10 + 9 = 39; Chloé 8 + 8 + 5 = 105.
    enter_manche(page, 2)
    choose_winner(page, 1)
    tap(page, 0, "J Q 9")
    tap(page, 2, "8 8 5")
    expect(subtotal(page, 0)).to_have_text("39")
    expect(subtotal(page, 2)).to_have_text("105")
    save_manche(page, 2)
    assert scoreboard(page) == {"Ana": 39, "Bob": 113, "Chloé": 159}
    assert [side for _, side, _ in ranking(page)] == ["Ana", "Bob", "Chloé"]

    edit_manche_one_from_the_history(page, shot)

    # Manche 3, Ana goes out: Bob 8 8 8 8 JK JK = 300 (→ 363); Chloé counts herself: 40 (→ 199).
    enter_manche(page, 3)
    choose_winner(page, 0)
    tap(page, 1, "8 8 8 8 JK JK")
    expect(subtotal(page, 1)).to_have_text("300")
    type_total(page, 2, "40")
    save_manche(page, 3)
    assert scoreboard(page) == {"Ana": 39, "Bob": 363, "Chloé": 199}
    expect(page.locator('#scoreboard tr[data-side="Bob"] .to-go')).to_have_text("encore 137 avant 500")

    # Manche 4, Chloé goes out: Ana K = 10 (→ 49); Bob 8 8 JK A A = 50 + 50 + 50 + 20 + 20 = 190 (→ 553 ≥ 500).
    enter_manche(page, 4)
    choose_winner(page, 2)
    tap(page, 0, "K")
    tap(page, 1, "8 8 JK A A")
    expect(subtotal(page, 1)).to_have_text("190")
    save_manche(page, 4)

    # Game over: lowest total wins.
    expect(page.locator("#final-title")).to_have_text("Partie terminée")
    expect(page.locator("#scoreboard-title")).to_have_text("Classement final")
    assert ranking(page) == [("1", "Ana", 49), ("2", "Chloé", 199), ("3", "Bob", 553)]
    expect(page.locator('#scoreboard tr[data-side="Ana"] .badge')).to_have_text("a gagné")
    expect(page.get_by_role("link", name=re.compile("Saisir la manche"))).to_have_count(0)
    replay = page.get_by_role("button", name="Rejouer")
    expect(replay).to_be_visible()
    shot("finished")

    # No fifth manche on a finished game, even by its URL.
    page.goto(f"{game_url}/manches/new")
    expect(page.locator("body")).to_contain_text("terminée")
    page.goto(game_url)

    # Replay: a new game, same players, totals back to 0.
    page.get_by_role("button", name="Rejouer").click()
    expect(page).not_to_have_url(game_url)
    expect(page.locator("#next-title")).to_have_text("Manche 1")
    assert scoreboard(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}


def test_les_huit_partners_winner_collects(live_server, page, shot):
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé", "Dan"], "les-huit")
    expect(page.locator(".game-header h1")).to_have_text("Les huit")
    assert scoreboard(page) == {"Ana & Chloé": 0, "Bob & Dan": 0}

    # Manche 1, Ana goes out: Ana & Chloé score Bob 8 + K + 3 = 63 and Dan A 1 + 2 + 10 = 13 → 76;
    # Chloé (Ana's partner) is not counted, even with cards entered.
    enter_manche(page, 1)
    choose_winner(page, 0)
    expect(page.locator("#hand-2 [data-partner-note]")).to_be_visible()
    expect(page.locator("#hand-1 [data-partner-note]")).to_be_hidden()
    expect(page.locator("#hand-0 .side")).to_have_text("Ana & Chloé")
    expect(page.locator("[data-entry-name]")).to_have_text("Bob")  # after Ana, her partner Chloé is skipped
    tap(page, 1, "8 K 3")
    tap(page, 3, "A 2 10")
    tap(page, 2, "Q Q")
    expect(subtotal(page, 1)).to_have_text("63")
    expect(subtotal(page, 3)).to_have_text("13")
    shot("manche-1")
    save_manche(page, 1)
    assert scoreboard(page) == {"Ana & Chloé": 76, "Bob & Dan": 0}

    # Manche 2, blocked: Ana 3 + Chloé 4 = 7 against Bob 10 + Dan K 10 = 20 → Ana & Chloé score 20 − 7 = 13.
    enter_manche(page, 2)
    choose_winner(page, "blocked")
    tap(page, 0, "3")
    tap(page, 1, "10")
    tap(page, 2, "4")
    tap(page, 3, "K")
    save_manche(page, 2)
    assert scoreboard(page) == {"Ana & Chloé": 89, "Bob & Dan": 0}

    # Manche 3, Dan goes out: Bob & Dan score Ana J 10 + 9 = 19 and Chloé 8 + 5 = 55 → 74; Bob left empty.
    enter_manche(page, 3)
    choose_winner(page, 3)
    expect(page.locator("#hand-1 [data-partner-note]")).to_be_visible()
    tap(page, 0, "J 9")
    tap(page, 2, "8 5")
    save_manche(page, 3)
    assert scoreboard(page) == {"Ana & Chloé": 89, "Bob & Dan": 74}

    # Manche 4, Chloé goes out: Bob 8 + 8 = 100, Dan 7 → 89 + 107 = 196 ≥ 100, highest wins.
    enter_manche(page, 4)
    choose_winner(page, 2)
    tap(page, 1, "8 8")
    tap(page, 3, "7")
    save_manche(page, 4)
    expect(page.locator("#final-title")).to_be_visible()
    assert ranking(page) == [("1", "Ana & Chloé", 196), ("2", "Bob & Dan", 74)]
    expect(page.locator('#scoreboard tr[data-side="Ana & Chloé"] .badge')).to_have_text("ont gagné")
    assert history_totals(page) == [196, 74]
    shot("finished")


def test_manche_form_without_javascript(live_server, browser, browser_context_args, request):
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    try:
        create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], js=False)
        assert scoreboard(page) == {"Ana": 0, "Bob": 0, "Chloé": 0}
        page.get_by_role("link", name="Saisir la manche 1").click()
        choose_winner(page, 1)
        # Each key, badge or name posts the form back; the server counts and keeps everything entered,
        # and the page comes back on the keypad with the player's name on top (#keypad).
        tap(page, 0, "8 8 Q")
        expect(subtotal(page, 0)).to_have_text("110")  # 8 50 + 8 50 + Q 10
        assert page.url.endswith("#keypad")
        expect(page.locator("#keypad .entry-head")).to_be_in_viewport()
        tap(page, 0, "Q", step=-1)
        expect(subtotal(page, 0)).to_have_text("100")
        tap(page, 2, "JK 6")
        expect(subtotal(page, 2)).to_have_text("56")  # JK 50 + 6
        expect(page.locator("[data-entry-name]")).to_have_text("Chloé")
        expect(page.locator("#winner-1")).to_be_checked()
        expect(page.locator('input[name="p0-n_8"]')).to_have_value("2")
        snap(page, request, "tapped")
        page.get_by_role("button", name="Enregistrer la manche 1").click()
        expect(page.locator(".notice")).to_contain_text("Manche 1 enregistrée")
        assert scoreboard(page) == {"Ana": 100, "Bob": 0, "Chloé": 56}
        assert history_totals(page) == [100, 0, 56]
        snap(page, request, "saved")
    finally:
        context.close()


def test_french_plural_sentences(live_server, page):
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "classique")
    expect(page.locator(".next-manche .deal strong")).to_contain_text("7", timeout=1000)
    enter_manche(page, 1)
    choose_winner(page, 0)
    type_total(page, 1, "500")
    type_total(page, 2, "5")
    save_manche(page, 1)
    expect(page.locator(".final .winners")).to_contain_text("Ana", timeout=1000)

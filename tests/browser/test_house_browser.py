"""House rules in a real browser (issue 8): build them in the editor from "Classique", start a
game with them, play two manches by tapping, check the totals against values worked out by hand.

The house table: the classique one (JK 50, A 20, 2 20, J 20, Q 10, others face value) except
8 = 25 and K = 3. Penalty mode: the winner adds 0, every other player their own hand.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_games_flow import choose_winner, enter_manche, save_manche, scoreboard, subtotal, tap


def test_build_house_rules_then_play_two_manches(live_server, page, shot):
    page.goto(f"{live_server.url}/variants/new?base=classique")
    page.locator("#house-name").fill("Chez Mamie")
    page.locator("details.house-part:has(#pt-8) > summary").click()  # folded: as in the base, until changed
    page.locator("#pt-8").fill("25")
    page.locator("#pt-K").fill("3")
    page.locator("details.house-more > summary").click()  # the cards that play as in the base
    page.locator("#effect-8").select_option("none")
    page.locator("#effect-5").select_option("wild")
    page.locator("#sample").fill("8H KD 5C")
    page.locator('button[name="action"][value="preview"]').click()
    expect(page.locator("#preview-total")).to_have_text("33")  # 8 25 + K 3 + 5
    page.locator("#pt-K").fill("4")  # app.js follows the points as they are typed
    expect(page.locator("#preview-total")).to_have_text("34")
    page.locator("#pt-K").fill("3")
    shot("editor")
    page.locator('.form-actions button[value="save"]').click()
    expect(page).to_have_url(re.compile(r"/variants/h[0-9a-f]{16}$"))
    expect(page.locator("h1")).to_contain_text("Chez Mamie")
    expect(page.locator("img.qr")).to_be_visible()
    shot("shared-page")

    page.locator("a.button.primary").click()  # use these rules
    expect(page.locator('input[name="shown_variant"]')).to_have_value(re.compile(r"^h[0-9a-f]{16}$"))
    for seat, name in enumerate(["Ana", "Bob", "Chloé"]):
        page.locator(f"#player-{seat}").fill(name)
    page.locator("#game-settings button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    expect(page.locator(".game-header h1")).to_have_text("Chez Mamie")

    # Manche 1, Ana goes out: Bob 8 25 + K 3 + 3 = 31; Chloé JK 50 + 5 = 55.
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8 K 3")
    expect(subtotal(page, 1)).to_have_text("31")
    tap(page, 2, "JK 5")
    expect(subtotal(page, 2)).to_have_text("55")
    save_manche(page, 1)
    assert scoreboard(page) == {"Ana": 0, "Bob": 31, "Chloé": 55}

    # Manche 2, Bob goes out: Ana 8 + 8 = 50; Chloé K 3 + Q 10 = 13.
    enter_manche(page, 2)
    choose_winner(page, 1)
    tap(page, 0, "8 8")
    tap(page, 2, "K Q")
    expect(subtotal(page, 0)).to_have_text("50")
    expect(subtotal(page, 2)).to_have_text("13")
    save_manche(page, 2)
    assert scoreboard(page) == {"Ana": 50, "Bob": 31, "Chloé": 68}
    shot("after-two-manches")

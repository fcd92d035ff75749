"""The Calculette in a real browser: taps counted locally, the value card by card."""

from playwright.sync_api import expect


def test_tap_cards_and_read_the_value(live_server, page, shot):
    page.goto(f"{live_server.url}/calculette?variant=classique")
    page.wait_for_load_state("networkidle")
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    keypad = page.locator("[data-keypad]")
    # classique: 8 = 50, JK = 50, K = 10, 10 = 10 → 8 + 8 + JK + K + 10 = 50 + 50 + 50 + 10 + 10 = 170
    keypad.locator('[data-token="8"] button[data-step="1"]').click()
    keypad.locator('[data-token="8"] button[data-step="1"]').click()
    keypad.locator('[data-token="JK"] button[data-step="1"]').click()
    keypad.locator('[data-token="K"] button[data-step="1"]').click()
    keypad.locator('[data-token="10"] button[data-step="1"]').click()
    expect(page.locator("[data-subtotal]")).to_have_text("170")
    expect(page.locator("[data-total]")).to_have_text("170")
    assert requests == [], "a tap must not send a request"
    keypad.locator('[data-token="K"] button[data-step="-1"]').click()
    expect(page.locator("[data-total]")).to_have_text("160")
    shot("tapped")
    page.get_by_role("button", name="Compter").click()
    expect(page.locator("[data-total]")).to_have_text("160")


def test_without_javascript_the_form_still_counts(live_server, browser, shot):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/calculette?variant=54-cartes")
    # 54-cartes: 2♠ = 25, a 2♥ = 15 → each tap posts the form back
    page.locator('[data-token="2S"] button[data-step="1"]').click()
    page.locator('[data-token="2H"] button[data-step="1"]').click()
    page.locator("#cards").fill("JK")
    page.get_by_role("button", name="Compter").click()
    # 25 + 15 + JK 50 = 90
    assert page.locator("[data-total]").inner_text() == "90"
    shot("nojs", page)
    context.close()

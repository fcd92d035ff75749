"""The dispute checker "Litige ?" in a real browser: one tap from the game, settle a dispute,
read the verdict; then the same without JavaScript (a plain form post)."""

from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS


def snap(page, request, name: str) -> None:
    """A full-page screenshot of a page of our own context (the ``shot`` fixture takes ``page``'s)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=True)


def new_game(live_server, variant="huit-americain"):
    game, _token = live_server.app.extensions["games"].create_game(variant, ["Ana", "Bob", "Chloé"])
    return game


def pick(page, side, rank, suit=None):
    """Tap a rank, then a suit, on one of the checker's card keypads (the labels are the buttons)."""
    page.locator(f'label[for="{side}-rank-{rank}"]').click()
    if suit:
        page.locator(f'label[for="{side}-suit-{suit}"]').click()


def test_settle_a_dispute_from_the_game(live_server, page, shot):
    game = new_game(live_server)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live_server.url}/games/{game.id}")
    page.locator(f'a[href="/games/{game.id}/referee"]').click()  # one tap from the game
    expect(page).to_have_url(f"{live_server.url}/games/{game.id}/referee")
    page.wait_for_load_state("networkidle")
    verdict = page.locator("#verdict")

    # Huit américain: an Ace is pending; Bob wants to play an 8 (8s may not follow an unpaid Ace).
    pick(page, "top", "A", "S")
    expect(page.locator("[data-named-suit]")).to_be_hidden()  # an Ace names no suit
    page.locator('label[for="pending"]').click()
    pick(page, "card", "8", "H")
    page.locator(".referee-form button[type=submit]").click()
    expect(verdict).to_have_attribute("data-legal", "false")
    expect(verdict.locator(".answer")).to_be_visible()
    assert "8" in verdict.locator(".reason").inner_text()
    assert verdict.locator(".effects li").count() >= 1  # what happens: draw 2 per Ace and lose the turn
    shot("illegal")

    # An Ace answers the chain.
    requests = []
    page.on("request", lambda r: requests.append(r))
    pick(page, "card", "A", "H")
    page.locator(".referee-form button[type=submit]").click()
    expect(verdict).to_have_attribute("data-legal", "true")
    assert any(r.headers.get("hx-request") for r in requests), "htmx swaps the verdict in place"
    expect(page).to_have_url(f"{live_server.url}/games/{game.id}/referee")
    shot("legal")

    # A Joker on the pile: the named suit appears, the Joker has no suit buttons.
    page.locator('label[for="pending"]').click()
    pick(page, "top", "JK")
    expect(page.locator("[data-named-suit]")).to_be_visible()
    expect(page.locator('[data-picker="top"] [data-suits]')).to_be_hidden()
    page.locator('label[for="active-C"]').click()
    pick(page, "card", "5", "C")
    page.locator(".referee-form button[type=submit]").click()
    expect(verdict).to_have_attribute("data-legal", "true")
    assert problems == [], problems  # no script error, no blocked inline style or script (CSP)


def test_the_checker_works_without_javascript_on_a_small_phone(live_server, browser, request):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/referee?variant=classique")
    pick(page, "top", "3", "H")
    pick(page, "card", "8", "C")
    page.locator(".referee-form button[type=submit]").click()
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-legal") == "true"
    assert page.url.endswith("/referee#verdict")
    # every tap target of the keypads is at least 44 px
    for label in page.locator(".card-picker label").all()[:6]:
        box = label.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    # no horizontal overflow at 360 px
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    snap(page, request, "nojs-360")
    context.close()


def test_rule_pages_and_comparison_at_360_px(live_server, browser, request):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/huit-americain")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    snap(page, request, "rules")
    page.goto(f"{live_server.url}/rules/compare/all")  # all the variants at once: the wide table
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    scroller = page.locator(".compare-scroll")
    first = page.locator("tbody th.topic").first
    left = first.bounding_box()["x"]
    scroller.evaluate("el => el.scrollLeft = 600")
    assert abs(first.bounding_box()["x"] - left) < 1, "the first column stays in place"
    snap(page, request, "compare")
    page.goto(f"{live_server.url}/rules")
    page.locator("#rule-q").press_sequentially("que fait le 7", delay=20)
    expect(page.locator("#rule-hits mark").first).to_be_visible()
    expect(page.locator('#rule-hits a[href="/rules/huit-americain#cartes-speciales-7"]')).to_be_visible()
    snap(page, request, "search")
    context.close()


def test_les_huit_asks_for_the_card_under_the_8_and_a_pending_skip_says_no(live_server, page, shot):
    """Issue 16. les-huit (004: the 8 « est considéré semblable à la carte qu'il vient recouvrir »):
    the card under it is asked only once an 8 is on top; a King goes on an 8 that covered a King."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/referee?variant=les-huit")
    covered = page.locator("[data-covered]")
    expect(covered).to_be_hidden()
    pick(page, "top", "K", "S")
    expect(covered).to_be_hidden()
    pick(page, "top", "8", "S")
    expect(covered).to_be_visible()
    page.locator('label[for="active-H"]').click()
    pick(page, "card", "K", "D")
    page.locator(".referee-form button[type=submit]").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-depends-on", "covered")
    page.locator('label[for="covered-rank-K"]').click()
    page.locator(".referee-form button[type=submit]").click()
    expect(verdict).to_have_attribute("data-legal", "true")
    expect(verdict).not_to_have_attribute("data-depends-on", "covered")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot("covered")
    # classique, a pending Jack (000 « Le Valet fait sauter le tour du joueur suivant »): not "Yes"
    page.goto(f"{live_server.url}/referee?variant=classique")
    pick(page, "top", "J", "H")
    page.locator('label[for="pending"]').click()
    pick(page, "card", "J", "S")
    page.locator(".referee-form button[type=submit]").click()
    expect(page.locator("#verdict")).to_have_attribute("data-turn-lost", "true")
    expect(page.locator("#verdict .answer")).not_to_have_text("Oui")
    shot("pending-skip")


def test_a_wrong_card_says_its_cost_and_an_answer_sends_the_draw_on(live_server, phone, request):
    """Issue 26 at the table, 360×740 and 320×640, light and dark: deux-jeux charges two cards for a
    wrong card (001 « qui enfreint une règle pioche également deux cartes supplémentaires »); with
    stacking, a Joker on a 2 already sent on (4 pending) sends 8 on (000 « renvoyer la pioche au
    suivant »); a Joker on top asks for its suit before anything else (issue 30 item 9)."""
    for width, height, scheme in ((360, 740, "light"), (320, 640, "dark")):
        page = phone(width, height, scheme=scheme)
        page.goto(f"{live_server.url}/referee?variant=deux-jeux")
        pick(page, "top", "9", "C")
        pick(page, "card", "3", "D")
        page.locator(".referee-form button[type=submit]").click()
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-legal", "false")
        expect(verdict.locator(".cost")).to_have_text(
            "Pénalité\u00a0: le joueur pioche 2 cartes de plus. Une carte déjà posée revient dans la main."
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        snap(page, request, f"cost-{width}-{scheme}")
        verdict.screenshot(path=str(ARTIFACTS / f"{request.node.name}-cost-verdict-{width}-{scheme}.png"))

        page.goto(f"{live_server.url}/referee?variant=classique")
        page.locator('label[for="opt-stacking"]').click()
        pick(page, "top", "2", "H")
        expect(page.locator("[data-pending-draw]")).to_be_hidden()  # asked only while a draw is pending
        page.locator('label[for="pending"]').click()
        page.locator("#pending_draw").fill("4")
        pick(page, "card", "JK")
        page.locator(".referee-form button[type=submit]").click()
        expect(verdict).to_have_attribute("data-legal", "true")
        expect(verdict.locator(".effects")).to_contain_text(
            "Le Joker renvoie la pioche au suivant : elle compte maintenant 8 cartes."
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        snap(page, request, f"sent-on-{width}-{scheme}")
        verdict.screenshot(path=str(ARTIFACTS / f"{request.node.name}-sent-on-verdict-{width}-{scheme}.png"))

        page.goto(f"{live_server.url}/referee?variant=classique")
        pick(page, "top", "JK")
        page.locator(".referee-form button[type=submit]").click()
        expect(verdict.locator(".error")).to_have_text("Choisissez la couleur annoncée après le Joker.")
        expect(page.locator("[data-named-suit]")).to_be_visible()
        expect(page.locator('label[for="active-none"]')).to_be_hidden()  # "None" is no answer after a Joker
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-joker-suit-{width}-{scheme}.png"))

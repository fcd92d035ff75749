"""A game walked with the keyboard alone, in French and in English, as a blind player at the table
would (issue 58, point 3): the new-game form, two manches counted on the keypad, an undo, another
phone's manche heard live, the rule search, « Litige ? ». After each step the test says where the
focus is — never the page's <body> — and what each live region said: each thing once, in words.

The first phone is driven by Tab, Shift+Tab, the arrows, Enter, Space and typing only; the second
phone (another context with the same rights) saves its manche as anyone would. Every wait is for
an event the page shows (the focus moving, a region's words): nothing sleeps.

Classique (SPEC §2): penalty points, the others add their hands; 8 = 50, 3 = 3, lowest total wins.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

# Each live region's words as they change (one entry per change: a region changed twice in one
# task is said once), kept in the page as `window.said`: [[region id, its words], ...].
HEARS = """
window.said = [];
const words = (node) => node.textContent.replace(/[ \\t\\n\\r]+/g, ' ').trim();
const live = '[aria-live], [role=status], [role=alert]';
document.addEventListener('DOMContentLoaded', () => {
  const before = new Map([...document.querySelectorAll(live)].map((region) => [region, words(region)]));
  new MutationObserver((records) => {
    const regions = new Set();
    for (const record of records) {
      const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      const region = node && node.closest(live);
      if (region && !region.closest('[hidden]')) regions.add(region);
    }
    for (const region of regions) {
      const now = words(region);
      if (now && now !== before.get(region)) window.said.push([region.id, now]);
      before.set(region, now);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
});
"""

# Where the focus is: null when it fell to <body>.
FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  return { tag: e.tagName, id: e.id, href: e.getAttribute('href'), classes: e.className,
           token: e.closest('[data-token]') ? e.closest('[data-token]').dataset.token : null,
           words: e.textContent.replace(/[ \\t\\n\\r]+/g, ' ').trim() };
}"""

WORDS = {
    "fr": {
        "locale": "fr-FR",
        "enter": "Saisir la manche {n}",
        "saved": "Manche {n} enregistrée.",
        "undone": "Annulé\u00a0: la manche {n} est retirée.",
        "live": "Manche {n} enregistrée. Totaux\u00a0: {totals}.",
        "hand": "Main en cours de saisie\u00a0: {name} {value}\u00a0{unit}",
        "singular": (0, 1),  # « 0 pt », « 1 pt », « 2 pts »
        "found": "{n} règles trouvées",
        "undo": "Annuler",
        "save": "Enregistrer la manche {n}",
    },
    "en": {
        "locale": "en-US",
        "enter": "Enter round {n}",
        "saved": "Round {n} recorded.",
        "undone": "Undone: round {n} is removed.",
        "live": "Round {n} recorded. Totals: {totals}.",
        "hand": "Hand being entered: {name} {value}\u00a0{unit}",
        "singular": (1,),
        "found": "{n} rules found",
        "undo": "Undo",
        "save": "Save round {n}",
    },
}


def hand_said(w: dict, name: str, value: int) -> str:
    """The keypad's heading for ``name``'s hand worth ``value``, its unit as the language says it."""
    return w["hand"].format(name=name, value=value, unit="pt" if value in w["singular"] else "pts")


def focus(page) -> dict:
    where = page.evaluate(FOCUS)
    assert where is not None, "the focus fell to <body>"
    return where


def tab_to(page, selector: str, back: bool = False, most: int = 90) -> dict:
    """Tab (or Shift+Tab) until the focus is on ``selector``; it never falls to <body> on the way."""
    trail = []
    for _ in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        trail.append(page.evaluate(FOCUS))
        assert trail[-1] is not None, f"the focus fell to <body> after {trail}"
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return trail[-1]
    raise AssertionError(f"{selector} not reached with the keyboard")


def said(page, region: str) -> list[str]:
    return [words for where, words in page.evaluate("window.said") if where == region]


def hears(page, region: str, words: str) -> None:
    """Wait until ``region`` has said ``words``; it said them once."""
    try:
        page.wait_for_function(
            "([r, w]) => window.said.some(([id, s]) => id === r && s === w)", arg=[region, words], timeout=5000
        )
    except Exception:
        raise AssertionError(f"{region} did not say {words!r}: {page.evaluate('window.said')}") from None
    assert said(page, region).count(words) == 1, said(page, region)


def wait_focus(page, selector: str) -> dict:
    page.wait_for_function("s => document.activeElement && document.activeElement.matches(s)", arg=selector)
    return focus(page)


def phone_context(browser, browser_context_args, lang: str, **more):
    return browser.new_context(**{**browser_context_args, "locale": WORDS[lang]["locale"], **more})


def arrow_to(page, token: str) -> None:
    """On the keypad, the arrows to the key of ``token`` (the keys are one Tab stop)."""
    page.keyboard.press("Home")
    seen = []
    for _ in range(30):
        seen.append(focus(page)["token"])
        if seen[-1] == token:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no key {token}: {seen}")


def create_by_keyboard(page, base: str, names: list[str]) -> str:
    page.goto(f"{base}/games/new")
    # the first stop in the form is the variant's summary, never its hidden submit button
    first = tab_to(page, "form.new-game *")
    assert first["tag"] == "SUMMARY", first
    for seat, name in enumerate(names):
        tab_to(page, f"#player-{seat}")
        page.keyboard.type(name)
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the form's implicit submission
    expect(page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    return page.url


def count_manche_one(page, w: dict) -> None:
    """Ana goes out; Bob holds an 8 (50), Chloé a 3 (3): counted on the keypad."""
    tab_to(page, "#winner-0")
    page.keyboard.press("Space")
    # the keypad moved on to Bob's hand, and says so
    hears(page, "entry-title", hand_said(w, "Bob", 0))
    key = tab_to(page, "#keypad button")
    assert key["token"] is not None  # the keypad's one stop
    arrow_to(page, "8")
    page.keyboard.press("Enter")
    hears(page, "entry-title", hand_said(w, "Bob", 50))
    assert focus(page)["token"] == "8"
    tab_to(page, "#hand-2 button.pick", back=True)
    page.keyboard.press("Enter")
    hears(page, "entry-title", hand_said(w, "Chloé", 0))
    tab_to(page, "#keypad button")
    assert focus(page)["token"] == "8"  # the stop stays on the key last used
    arrow_to(page, "3")
    page.keyboard.press("Enter")
    hears(page, "entry-title", hand_said(w, "Chloé", 3))


def count_manche_two(page, w: dict) -> None:
    """Bob goes out; Chloé's hand typed as 7, Ana's as 12."""
    tab_to(page, "#winner-0")  # the group's one stop: the arrows choose in it
    page.keyboard.press("ArrowDown")
    assert focus(page)["id"] == "winner-1"
    hears(page, "entry-title", hand_said(w, "Chloé", 0))
    tab_to(page, "#p2-typed")
    page.keyboard.type("7")
    tab_to(page, "#hand-0 button.pick", back=True)
    page.keyboard.press("Enter")
    hears(page, "entry-title", hand_said(w, "Ana", 0))
    tab_to(page, "#p0-typed")
    page.keyboard.type("12")


def save_by_keyboard(page, w: dict, number: int) -> None:
    tab_to(page, ".save-bar button")
    assert focus(page)["words"] == w["save"].format(n=number)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # the page that comes back puts the focus on its notice: said once, where the next Tab starts
    where = wait_focus(page, ".notice")
    assert where["words"].startswith(w["saved"].format(n=number)), where


def second_phone_saves(page, w: dict) -> None:
    """Another phone records manche 2: Chloé goes out, Ana typed 5, Bob typed 4."""
    page.locator("label[for=winner-2]").click()
    page.locator("#hand-0 button.pick").click()
    page.locator("#p0-typed").fill("5")
    page.locator("#hand-1 button.pick").click()
    page.locator("#p1-typed").fill("4")
    page.locator(".save-bar button").click()
    expect(page.locator(".notice")).to_contain_text(w["saved"].format(n=2))


def search_the_rules(page, w: dict) -> None:
    """The rules of this game: the search says how many rules it found, not the rules."""
    tab_to(page, "a[href$='/rules']", back=True)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    tab_to(page, "#rule-q")
    page.keyboard.type("joker")
    page.wait_for_function("() => document.querySelectorAll('#rule-hits .hits li').length > 0")
    found = page.locator("#rule-hits .hits li").count()
    hears(page, "rule-count", w["found"].format(n=found))
    assert said(page, "rule-count") == [w["found"].format(n=found)]
    assert page.locator("#rule-hits[aria-live], #rule-hits [aria-live]").count() == 0
    assert focus(page)["id"] == "rule-q"


def check_a_dispute(page) -> None:
    """« Litige ? »: two cards picked with the keyboard, checked; the answer takes the focus, in view."""
    page.go_back()
    tab_to(page, "a[href*='/referee']")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    for group in ("top_rank", "top_suit", "card_rank", "card_suit"):
        tab_to(page, f"input[name={group}]")
        page.keyboard.press("Space")
    tab_to(page, ".referee-form .save-bar button")
    page.keyboard.press("Enter")
    wait_focus(page, "#verdict[data-legal]")
    box = page.locator("#verdict").bounding_box()
    assert 0 <= box["y"] < page.viewport_size["height"], box


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_game_walked_with_the_keyboard_alone(live_server, browser, browser_context_args, lang):
    w = WORDS[lang]
    first = phone_context(browser, browser_context_args, lang)
    first.add_init_script(HEARS)
    first.add_init_script("document.addEventListener('htmx:sseOpen', () => { window.listening = true; })")
    page = first.new_page()
    game_url = create_by_keyboard(page, live_server.url, ["Ana", "Bob", "Chloé"])

    # Manche 1, counted on the keypad
    tab_to(page, "a[href$='/manches/new']")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    count_manche_one(page, w)
    save_by_keyboard(page, w, 1)

    # Manche 2, totals typed
    tab_to(page, "a[href$='/manches/new']")
    assert focus(page)["words"] == w["enter"].format(n=2)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    count_manche_two(page, w)
    save_by_keyboard(page, w, 2)
    page.wait_for_function("() => window.listening === true")

    # Undo: the button goes with the swap, the focus moves to the notice that replaced it
    where = tab_to(page, "[data-undo]")
    assert where["words"] == w["undo"]
    page.keyboard.press("Enter")
    where = wait_focus(page, ".notice")
    assert where["words"] == w["undone"].format(n=2)
    expect(page.locator("#scoreboard tr[data-side=Bob] .total")).to_have_text("50")

    # Another phone records manche 2 while this one reads the next round's link: the focus stays
    # on it (it now says round 3), and the change is said once, its totals said as totals.
    where = tab_to(page, "a[href$='/manches/new']")
    assert where["words"] == w["enter"].format(n=2)
    second = phone_context(browser, browser_context_args, lang, storage_state=first.storage_state())
    other = second.new_page()
    other.goto(game_url + "/manches/new")
    second_phone_saves(other, w)
    # Chloé 3 + 0, Ana 0 + 5, Bob 50 + 4: the lowest total first
    hears(page, "announce", w["live"].format(n=2, totals="Chloé 3, Ana 5, Bob 54"))
    expect(page.locator("#live-top a[href$='/manches/new']")).to_have_text(w["enter"].format(n=3))
    where = wait_focus(page, "#live-top a[href$='/manches/new']")
    assert where["words"] == w["enter"].format(n=3)
    # this phone's own save and undo were said by its notices only, never echoed by the stream
    assert said(page, "announce") == [w["live"].format(n=2, totals="Chloé 3, Ana 5, Bob 54")]
    second.close()

    search_the_rules(page, w)
    check_a_dispute(page)
    first.close()

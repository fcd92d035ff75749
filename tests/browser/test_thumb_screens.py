"""The screens people touch most (issue 30), at 360×740 and 320×640, light and dark: the keypad's
"one less" control, the entry's names and keys on one screen, the notice that goes away, our own
error page. Looked at: the screenshots each test leaves under test-artifacts/.

classique table (source 000, SPEC §2): 8 = 50, JK = 50, A = 20, 2 = 20, J = 20, K = 10, Q = 10,
others face value; penalty mode: the winner adds 0, the others their own hand."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .test_games_flow import (
    choose_winner,
    create_game,
    enter_manche,
    save_manche,
    scoreboard,
    select_hand,
    snap,
    subtotal,
    tap,
)

SIZES = [(360, 740), (320, 640)]
SCHEMES = ["light", "dark"]
# eight players, the longest names a family writes (16 characters)
LONG = [
    "Marie-Antoinette",
    "Jean-Christophe",
    "Anne-Charlotte L",
    "Bob",
    "Éloïse-Margaux D",
    "Fred",
    "Gaëlle-Victoire",
    "Maximilien-Alexa",
]

BOXES = """sel => Array.from(document.querySelectorAll(sel)).filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right, width: r.width, height: r.height,
          text: e.textContent.trim()};
})"""


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate(BOXES, selector)


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_one_less_is_its_own_target_outside_the_keys(phone, live_server, request, width, height, scheme, js):
    """Item 1: the "−" that takes a card away is a button of its own, at least 44 px each way,
    outside every key, labelled with the card; a tap anywhere on a key (its top-right corner too,
    where the count shows) adds. Bob's hand: 8 8 K = 50 + 50 + 10 = 110; one 8 taken away: 60."""
    page = phone(width, height, js=js, scheme=scheme)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé", "Dan"], "classique", js=js)
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8 8 K")
    expect(subtotal(page, 1)).to_have_text("110")
    minus = boxes(page, "#keypad .count")
    keys = boxes(page, "#keypad .add")
    assert [m["text"][:3] for m in minus] == ["−\u202f8", "−\u202fR"]  # then the words for screen readers
    for box in minus:
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert not any(overlap(box, key) for key in keys), box
        assert box["top"] >= max(key["bottom"] for key in keys), "the − row comes after every key"
    expect(page.get_by_role("button", name="8 : une carte de moins")).to_be_visible()
    expect(page.locator("#keypad .less-label")).to_have_text("En retirer une\u00a0:")
    expect(page.locator('#keypad [data-token="8"] [data-count]')).to_have_text("2")
    snap(page, request, "two-eights")

    key = page.locator('#keypad [data-token="8"] button[data-step="1"]')
    box = key.bounding_box()
    corner = {"x": box["width"] - 6, "y": 6}  # where the old badge sat: now part of the key
    if js:
        key.click(position=corner)
    else:
        with page.expect_navigation():
            key.click(position=corner)
    expect(page.locator('#keypad [data-token="8"] [data-count]')).to_have_text("3")
    expect(subtotal(page, 1)).to_have_text("160")

    one_less = page.get_by_role("button", name="8 : une carte de moins")
    for expected in ("110", "60"):
        if js:
            one_less.click()
        else:
            with page.expect_navigation():
                one_less.click()
        expect(subtotal(page, 1)).to_have_text(expected)
    expect(page.locator('#keypad [data-token="8"] [data-count]')).to_have_text("1")
    snap(page, request, "one-eight")


def all_in_view(page, selector: str, height: int) -> list[dict]:
    """The boxes of `selector` not wholly on the first screen."""
    return [b for b in boxes(page, selector) if b["top"] < 0 or b["bottom"] > height]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_the_names_and_the_keys_on_one_screen(phone, live_server, request, width, height, scheme, js):
    """Item 2: eight players with 16-character names; the entry opens with every name (compact:
    a long one ends in "…", whole on the keypad's header), every "went out" and every key on the
    first screen, with no sideways scroll."""
    page = phone(width, height, js=js, scheme=scheme)
    create_game(page, live_server.url, LONG, "huit-americain", js=js)
    enter_manche(page, 1)
    assert page.evaluate("scrollY") == 0
    for selector in (".entry-hands .pick", ".entry-hands .out", "#keypad .add", "#keypad .entry-head"):
        assert not all_in_view(page, selector, height), (
            selector,
            page.evaluate(
                "Array.from(document.querySelectorAll('body > *, main > *, .entry-live > *')).map(e => [e.tagName, e.className, e.id, e.getBoundingClientRect().height, e.textContent.slice(0, 60)])"
            ),
        )
    assert len(boxes(page, "#keypad .add")) == 14  # A to 10, V D R, Joker
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for box in boxes(page, ".entry-hands .pick, .entry-hands .out"):
        assert box["width"] >= 44 and 44 <= box["height"] < 60, box
    snap(page, request, "opened", full_page=False)
    select_hand(page, 7)
    expect(page.locator("[data-entry-name]")).to_have_text("Maximilien-Alexa")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_the_save_bar_never_covers_a_key_when_editing(phone, live_server, request, width, height, scheme):
    """Item 2, the edit screen: scrolled anywhere, the save button is never over a key (it comes
    after the keypad and the last-card choice, in the page's flow)."""
    page = phone(width, height, scheme=scheme)
    game_url = create_game(page, live_server.url, LONG, "huit-americain")
    game_id = game_url.rsplit("/", 1)[1]
    typed = {name: 10 + seat for seat, name in enumerate(LONG) if seat}
    live_server.app.extensions["games"].record_manche(game_id, MancheEntry(LONG[0], {}, typed=typed))
    page.goto(f"{game_url}/manches/1/edit")
    select_hand(page, 3)
    page.locator("#p3-typed").fill("")
    tap(page, 3, "8 K")
    top = page.evaluate("document.documentElement.scrollHeight") - height
    for y in range(0, top + 80, 80):
        page.evaluate("y => scrollTo(0, y)", y)
        bar = page.locator(".save-bar button").bounding_box()
        for key in page.locator("#keypad .add, #keypad .count:visible").all():
            box = key.bounding_box()
            assert not (box["y"] < bar["y"] + bar["height"] and bar["y"] < box["y"] + box["height"]), (y, box, bar)
    snap(page, request, "edit")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_saved_notice_goes_away(phone, live_server, request, scheme):
    """Item 10: « Manche 1 enregistrée · Annuler » hides by itself after 8 s: the page's clock is
    Playwright's, which lets those 8 s pass at once (not slept, not waited out)."""
    page = phone(320, 640, scheme=scheme)
    page.clock.install()
    create_game(page, live_server.url, ["Ana", "Bob"], "classique")
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8")
    save_manche(page, 1)
    notice = page.locator(".notice")
    expect(notice).to_be_visible()
    snap(page, request, "shown", full_page=False)
    page.clock.run_for(8_500)
    expect(notice).to_be_hidden()
    snap(page, request, "gone", full_page=False)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_a_server_error_is_our_own_page(phone, live_server, request, monkeypatch, width, height, scheme):
    """Item 10: an unexpected error shows the app's page in French, never "Internal Server Error"."""

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    live_server.app.config["PROPAGATE_EXCEPTIONS"] = False
    monkeypatch.setattr(live_server.app.extensions["games"], "get", broken)
    page = phone(width, height, scheme=scheme)
    answer = page.goto(f"{live_server.url}/games/abc")
    assert answer.status == 500
    expect(page.locator("h1")).to_have_text("Oups (500)")
    expect(page.locator(".error-page")).to_contain_text("Une erreur s'est produite de notre côté")
    expect(page.get_by_role("link", name="Retour à l'accueil")).to_be_visible()
    assert "Internal Server Error" not in page.content()
    snap(page, request, "error")


def finished_game(page, live_server, names: list[str], manches: int = 6) -> str:
    """A huit-americain game to 100 played through on the services: the winner of each manche goes out
    in turn, every other hand worth 3 points, then the last player takes 100 (and the game ends)."""
    game_url = create_game(page, live_server.url, names, "huit-americain", target=100)
    game_id = game_url.rsplit("/", 1)[1]
    games = live_server.app.extensions["games"]
    for number in range(manches - 1):
        winner = names[number % len(names)]
        games.record_manche(game_id, MancheEntry(winner, {}, typed={n: 3 for n in names if n != winner}))
    games.record_manche(game_id, MancheEntry(names[0], {}, typed={n: 100 if n == names[-1] else 3 for n in names[1:]}))
    page.goto(game_url)
    return game_url


def cue_and_fixed_names(page, scroller: str, names: str) -> None:
    """Scrolled to its end, the box keeps its first column in place; a box wider than the screen
    shows its cue (the shade on the side with more to see)."""
    box = page.locator(scroller).first
    wide = box.evaluate("e => e.scrollWidth > e.clientWidth")
    if wide:
        assert "radial-gradient" in box.evaluate("e => getComputedStyle(e).backgroundImage")
    left = box.bounding_box()["x"]
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    for name in page.locator(names).all():
        assert abs(name.bounding_box()["x"] - left) <= 2, "the first column stays in sight"
    box.evaluate("e => { e.scrollLeft = 0; }")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_the_end_table_and_the_history_keep_the_names_in_sight(phone, live_server, request, width, height, scheme):
    """Items 4 and 5: eight players with 16-character names. The end's table has a row per player
    (every name on screen, first column fixed); the history fits 360 px with its names on top, which
    stay in sight while the rounds scroll inside their box; no page scrolls sideways."""
    page = phone(width, height, scheme=scheme)
    finished_game(page, live_server, LONG)
    expect(page.locator("#final-title")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    final = page.locator("[data-final-table]")
    expect(final.locator("tbody th")).to_contain_text(LONG)  # a label told apart on screen, the whole name read out
    scroller = page.locator(".final .table-scroll").bounding_box()
    for name in final.locator("tbody th").all():
        box = name.bounding_box()
        assert box["x"] >= scroller["x"] and box["x"] + box["width"] <= scroller["x"] + scroller["width"] + 1, box
    assert final.bounding_box()["width"] <= scroller["width"] + 1, "the numbers beside the names, no scrolling"
    cue_and_fixed_names(page, ".final .table-scroll", ".final tbody th")
    final.scroll_into_view_if_needed()
    snap(page, request, "final", full_page=False)

    history = page.locator(".history-scroll")
    table = page.locator(".history-table").bounding_box()
    if width >= 360:  # eight players fit the width: nothing to scroll sideways
        assert table["width"] <= history.bounding_box()["width"] + 1, table
    cue_and_fixed_names(page, ".history-scroll", ".history-table .manche-row th")
    row = page.locator(".history-table .manche-row").nth(1).bounding_box()
    assert row["height"] <= 60, row
    history.scroll_into_view_if_needed()
    history.evaluate("e => { e.scrollTop = e.scrollHeight; }")  # the last rounds: the names still on top
    inside = history.bounding_box()
    for name in page.locator(".history-table thead th.num").all():
        box = name.bounding_box()
        assert inside["y"] - 1 <= box["y"] <= inside["y"] + 2, (box, inside)
    snap(page, request, "history", full_page=False)
    request.node.user_properties.append(("manche row", row["height"]))
    print(f"\n{request.node.name}: manche row {row['height']:.0f} px, history {table['width']:.0f} px wide")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_refused_last_card_says_how_to_record_what_was_played(phone, live_server, request, width, height, scheme, js):
    """Item 6. huit-americain (source 003: « On ne peut terminer le coup avec un 8 ou un Joker »):
    Ana out on an 8 is refused; the answer says, in words, the ways to record what the table
    played, each a tap away. Here she went out later on a 7: that card picked, the manche is
    recorded — Bob 8 K = 32 + 10 = 42, Chloé 5."""
    page = phone(width, height, js=js, scheme=scheme)
    create_game(page, live_server.url, ["Ana", "Bob", "Chloé"], "huit-americain", js=js)
    enter_manche(page, 1)
    choose_winner(page, 0)
    tap(page, 1, "8 K")
    tap(page, 2, "5")
    page.locator('label[for="last-8"]').click()
    page.get_by_role("button", name="Enregistrer la manche 1").click()
    ways = page.locator("#ways-last-card")
    expect(ways).to_be_visible()
    expect(ways).to_contain_text("Pour enregistrer ce qui s'est vraiment joué")
    expect(ways).to_contain_text("Ana est sorti plus tard sur une autre carte")
    expect(ways).to_contain_text("Quelqu'un d'autre est sorti")
    expect(ways).to_contain_text("tapez leur total")
    expect(ways.get_by_role("link", name="les joueurs")).to_have_attribute("href", "#who")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    ways.scroll_into_view_if_needed()
    snap(page, request, "refused", full_page=False)
    ways.locator('label[for="last-none"]').click()  # « Non précisée », from the words themselves
    expect(page.locator("#last-none")).to_be_checked()
    page.locator('label[for="last-7"]').click()  # what the table played: she went out later on a 7
    save_manche(page, 1)
    assert scoreboard(page) == {"Ana": 0, "Bob": 42, "Chloé": 5}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_two_variants_side_by_side_on_a_phone(phone, live_server, request, width, height, scheme, js):
    """Item 7: two variants chosen, two columns that fit the screen, each topic across above its
    two cells; no word broken in the middle (« Distribution »), no sideways scroll."""
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/rules/compare")
    page.locator("#compare-b").select_option("les-huit")
    if not js:
        page.get_by_role("button", name="Comparer").click()
    expect(page).to_have_url(re.compile(r"/rules/compare/classique/les-huit$"))  # a path: kept offline as it is
    expect(page.locator("table.compare thead th")).to_have_text(["Classique", "Les huit"])
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    table = page.locator("table.compare").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= width
    broken = page.evaluate(BROKEN_WORDS, "table.compare th, table.compare td")
    assert not broken, broken
    expect(page.locator("table.compare .topic-row th").first).to_have_text("Cartes")
    snap(page, request, "pair")
    page.get_by_role("link", name="Toutes les variantes d'un coup (un tableau large)").click()
    expect(page.locator("table.compare thead th")).to_have_count(7)  # the topic, then the six variants
    assert not page.evaluate(BROKEN_WORDS, "table.compare th, table.compare td")


# A word written over two lines: its letters on more than one line (after a hyphen is a fair break).
BROKEN_WORDS = """selector => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      let start = 0;
      for (const word of node.textContent.split(/[\\s\\-\\u2011\\u00a0\\u202f/]/)) {
        const tops = new Set();
        for (let i = 0; i < word.length; i++) {
          const range = document.createRange();
          range.setStart(node, start + i);
          range.setEnd(node, start + i + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width) tops.add(Math.round(rect.top));
        }
        if (tops.size > 1) broken.push(word);
        start += word.length + 1;
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_the_house_rule_editor_shows_what_differs_in_words(phone, live_server, request, width, height, scheme):
    """Item 8: from « Classique », the editor opens with only the name and what differs (nothing
    yet), each folded part saying it plays as the base; a card kept as the base says what the base
    does with it; an error in words, no field code; the sample hand in French card letters (R for
    Roi, D for Dame), typed back the same way. Classique (000): 8 = 50, K = 10, Q = 10, 5 = 5."""
    page = phone(width, height, scheme=scheme)
    page.goto(f"{live_server.url}/variants/new?base=classique")
    tall = page.evaluate("document.documentElement.scrollHeight")
    assert tall < 2400, tall  # it was 4,800 px with everything open
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(page.locator("details.house-part[open]")).to_have_count(0)
    expect(page.locator("details.house-part > summary").first).to_contain_text("comme dans «\u00a0Classique\u00a0»")
    expect(page.locator("#sample")).to_have_value("8♥ JK 2♠ R♦ 5♣ A♥")  # KD: the King of diamonds, R♦
    snap(page, request, "opened", full_page=False)
    page.locator("details.house-more > summary").click()
    expect(page.locator("#effect-8")).to_be_visible()
    assert page.evaluate(
        "[document.documentElement.scrollWidth <= document.documentElement.clientWidth, innerHeight]"
    ) == [
        True,
        height,
    ], "a menu wider than the screen (the page zoomed out)"
    eight = page.locator(".house-card:has(#effect-8)")
    expect(eight.locator(".base-says")).to_contain_text("Dans «\u00a0Classique\u00a0»\u00a0:")
    menu = page.locator("#effect-8")
    assert menu.bounding_box()["width"] >= 240 and menu.evaluate("e => e.scrollWidth <= e.clientWidth")
    page.locator("#effect-8").select_option("none")
    page.locator("#sample").fill("8♥ R♠ D♦ 5♣")
    page.locator('button[name="action"][value="preview"]').click()
    expect(page.locator("#preview-total")).to_have_text("75")  # 50 + 10 + 10 + 5
    expect(page.locator(".house-card-list").first.locator("#effect-8")).to_be_visible()  # it differs now: shown
    page.locator("#house-name").fill("")
    page.locator('.form-actions button[value="save"]').click()
    error = page.locator("#house-error")
    expect(error).to_be_visible()
    assert "(name)" not in error.inner_text() and "(" not in error.inner_text()
    snap(page, request, "error", full_page=False)

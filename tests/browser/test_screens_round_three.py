"""Round three of the screens at 360×740 and 320×640, light and dark: eight players whose names
share their start (three Jeans, two Maries) told apart on every list of names, and their history
and end table with three-digit numbers inside the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .conftest import ARTIFACTS

JEANS = [
    "Jean-Baptiste",
    "Jean-Pierre",
    "Jean-Paul",
    "Marie-Éléonore",
    "Marie-Antoinette",
    "Bob",
    "Maximilien-Alexandre",
    "Chloé",
]
SIZES = [(360, 740), (320, 640)]
SCHEMES = ["light", "dark"]

# What a person sees of each element: its text without the words kept for screen readers, and
# whether that text is cut (wider or taller than its box).
SEEN = """(elements) => elements.map((element) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let node; (node = walker.nextNode()); ) {
    const parent = node.parentElement;
    if (!parent.closest(".sr") && parent.checkVisibility()) text += node.textContent;
  }
  const cut = element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
  return [text.trim(), cut];
})"""


def seen(page, selector: str) -> list[str]:
    """The labels ``selector`` shows, each whole (not cut by its box)."""
    labels = page.locator(selector).evaluate_all(SEEN)
    assert labels, selector
    assert [text for text, cut in labels if cut] == [], f"{selector}: cut"
    return [text for text, _cut in labels]


def picture(page, request, name: str, part: str | None = None):
    """The whole page under test-artifacts/, and ``part`` of it alone, at full size."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=True)
    if part:
        page.locator(part).screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}-part.png"))


def eight_jeans(live_server, *, finished: bool):
    """A game of eight whose names share their start, with manches of 100 points and more (the
    game over when ``finished``), and the address that opens it as its owner."""
    games = live_server.app.extensions["games"]
    game, token = games.create_game("huit-americain", JEANS, first_dealer=0)
    for number in range(5 if finished else 2):
        winner = JEANS[number]
        games.record_manche(
            game.id,
            MancheEntry(winner, {}, typed={name: 100 + 3 * seat for seat, name in enumerate(JEANS) if name != winner}),
        )
    return game, f"{live_server.url}/join/{game.id}/{token}"


def no_sideways_scroll(page) -> None:
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_the_jeans_are_told_apart_on_every_list_of_names(phone, live_server, request, width, height, scheme):
    """On the entry's name buttons, the history's heads and the end table each name reads whole or
    as a label no other name shares ("Jean-B.", "Jean-Pi.", "Jean-Pa."), never cut by its box."""
    game, join = eight_jeans(live_server, finished=False)
    page = phone(width, height, scheme=scheme)
    page.goto(join)
    page.goto(f"{live_server.url}/games/{game.id}/manches/new")
    picture(page, request, "entry", ".entry-players")
    buttons = seen(page, "[data-hand] .who")
    assert len(set(buttons)) == 8, buttons
    page.locator("#hand-1 .pick").click()
    expect(page.locator("[data-entry-name]")).to_have_text("Jean-Pierre")  # the keypad says the whole name
    no_sideways_scroll(page)

    page.goto(f"{live_server.url}/games/{game.id}")
    picture(page, request, "history", "#history")
    heads = seen(page, ".history-table thead .name")[1:]
    assert len(set(heads)) == 8, heads

    finished, join = eight_jeans(live_server, finished=True)
    page.goto(join)
    picture(page, request, "end", ".final")
    rows = seen(page, ".final-table tbody th")
    assert len(set(rows)) == 8, rows


def big_hands(live_server, manches: int):
    """The eight Jeans after ``manches`` manches of 120 to 162 points a hand (the n-th player goes out
    in the n-th), and the address that opens the game as its owner (Chloé over 500 — the game over
    — in the fourth)."""
    games = live_server.app.extensions["games"]
    game, token = games.create_game("huit-americain", JEANS, first_dealer=0)
    for number in range(manches):
        winner = JEANS[number]
        typed = {name: 120 + 6 * seat for seat, name in enumerate(JEANS) if name != winner}
        games.record_manche(game.id, MancheEntry(winner, {}, typed=typed))
    return game, f"{live_server.url}/join/{game.id}/{token}"


def fits(page, box: str, cells: str) -> None:
    """The box holds its table without scrolling sideways, and no cell of ``cells`` is cut."""
    width, client = page.locator(box).evaluate("(box) => [box.scrollWidth, box.clientWidth]")
    assert width <= client, f"{box} scrolls sideways: {width} > {client}"
    cut = page.locator(cells).evaluate_all(
        "(cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent.trim())"
    )
    assert cut == []
    no_sideways_scroll(page)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_eight_players_and_three_digits_fit_the_history(phone, live_server, request, width, height, scheme):
    """Hands of 120 to 162 points: every column of the history and its totals in sight, with no
    sideways scroll inside or outside its box."""
    page = phone(width, height, scheme=scheme)
    game, join = big_hands(live_server, 2)
    page.goto(join)
    picture(page, request, "history", "#history")
    fits(page, ".history-scroll", ".history-table td.num")
    assert page.locator(".history-table tfoot td").all_inner_texts() == [
        "120",
        "126",
        "264",
        "276",
        "288",
        "300",
        "312",
        "324",
    ]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_eight_players_and_three_digits_fit_the_end_table(phone, live_server, request, width, height, scheme):
    """The game over after four manches of 120 to 162 points: every figure of the end table, the
    averages (« Moy. ») included, whole and in sight."""
    page = phone(width, height, scheme=scheme)
    _game, join = big_hands(live_server, 4)
    page.goto(join)
    expect(page.locator("[data-final-table]")).to_be_visible()
    picture(page, request, "end", ".final")
    fits(page, ".final .table-scroll", ".final-table td")
    assert page.locator('[data-side="Chloé"] [data-stat="average"]').inner_text() == "162,0"  # 4 × 162 in 4 manches

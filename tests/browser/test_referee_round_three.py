"""« Litige ? » at 360×740 and 320×640, light and dark, with and without JavaScript: les-huit's 8
decided by the card it covers, the picker's words fitting the variant's deck, legends inside their
panels, and the Ace chain of huit-américain saying in which suit play goes on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .test_referee_screen import pick

SIZES = [(360, 740), (320, 640)]
SCHEMES = ["light", "dark"]

# Each legend of the form inside its panel: below the panel's top border, not drawn across it (a
# legend of two lines on the border has the line running between them).
LEGENDS_ACROSS = """() => [...document.querySelectorAll(".referee-form fieldset > legend")]
  .filter((legend) => legend.checkVisibility())
  .filter((legend) => {
    const box = legend.parentElement.getBoundingClientRect();
    const border = parseFloat(getComputedStyle(legend.parentElement).borderTopWidth);
    return legend.getBoundingClientRect().top < box.top + border - 0.5;
  })
  .map((legend) => legend.textContent.trim())"""


def picture(page, request, name: str, part: str | None = None):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=True)
    if part:
        page.locator(part).screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}-part.png"))


def submit(page):
    page.locator(".referee-form button[type=submit]").click()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_les_huit_the_covered_card_decides_without_a_suit_named(phone, live_server, request, width, height, scheme, js):
    """Les-huit: an 8 of clubs covers a 5; a 5 of spades is played. Source 004: the 8 is « semblable à
    la carte qu'il vient recouvrir », so it counts as a 5 and a 5 goes on it whatever suit was
    named — the checker decides without asking for one. Its deck has no Jokers: the suit's title
    names the 8 alone."""
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/referee?variant=les-huit")
    pick(page, "top", "8", "C")
    pick(page, "card", "5", "S")
    if not js:  # the card under the 8 is asked once the 8 is posted
        submit(page)
    title = page.locator("[data-named-suit] legend")
    expect(title).to_have_text("Couleur annoncée (après 8)")
    page.locator('label[for="covered-rank-5"]').click()
    submit(page)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-legal", "true")
    expect(verdict.locator(".reason")).to_contain_text("5 de pique a le rang de la carte sous le 8 de trèfle (5)")
    expect(verdict).to_contain_text("qui joue du pique ou pose un 5")  # play goes on from the 5 of spades
    assert page.evaluate(LEGENDS_ACROSS) == []
    picture(page, request, "verdict", "#verdict")
    picture(page, request, "form", ".referee-form")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_two_line_legends_stay_inside_their_panels(phone, live_server, request, width, height, scheme):
    """Every legend of « Litige ? » (« Carte du dessus de la défausse » takes two lines at 320 px)
    sits inside its panel, under the border instead of across it."""
    page = phone(width, height, scheme=scheme)
    page.goto(f"{live_server.url}/referee?variant=les-huit")
    pick(page, "top", "8", "C")
    expect(page.locator("[data-covered]")).to_be_visible()
    picture(page, request, "legends", ".referee-form")
    assert page.evaluate(LEGENDS_ACROSS) == []


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_an_ace_answered_by_an_ace_says_which_suit_play_goes_on_in(
    phone, live_server, request, width, height, scheme, js
):
    """Huit-américain, an Ace of clubs not paid yet, an Ace of diamonds laid on it. Source 003: « Le
    jeu repart avec la couleur de l'As posé en dernier »: the verdict says play goes on in
    diamonds, besides the draw now counting 4 (« deux cartes par As posé »)."""
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/referee?variant=huit-americain")
    pick(page, "top", "A", "C")
    page.locator('label[for="pending"]').click()
    pick(page, "card", "A", "D")
    submit(page)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-legal", "true")
    expect(verdict).to_contain_text("elle compte maintenant 4 cartes")
    expect(verdict).to_contain_text(
        "Puis le jeu reprend dans la couleur de l'As de carreau, la dernière carte de la chaîne\u00a0: carreau."
    )
    picture(page, request, "verdict", "#verdict")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_the_rule_search_puts_the_finishing_rule_first(phone, live_server, request, width, height, scheme, js):
    """On huit-américain's rules, « joker dernière carte » asks on which card one may go out: the
    section titled « Sur quelle carte finir ? » (its heading answers « carte » and, through « dernière
    carte », « finir »; its text the Joker) comes first, before the Joker's own paragraph."""
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/rules/search?variant=huit-americain")
    page.locator("#rule-q").fill("joker dernière carte")
    page.locator(".rule-search button[type=submit]").click()
    titles = page.locator("#rule-hits .hit-title")
    expect(titles.first).to_have_text("Sur quelle carte finir ?")
    picture(page, request, "hits", "#rule-hits")

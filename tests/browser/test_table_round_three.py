"""The table at 360×740 and 320×640, light and dark: a player who left is told nothing more about
the target nor listed at the table on the home page, a full table offers no seat, and a phone that
opened the scorekeeper invite hears what it may now do."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .conftest import ARTIFACTS

SIZES = [(360, 740), (320, 640)]
SCHEMES = ["light", "dark"]


def picture(page, request, name: str, part: str | None = None):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=True)
    if part:
        page.locator(part).first.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}-part.png"))


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_a_player_who_left_is_not_told_how_far_the_target_is(phone, live_server, request, width, height, scheme):
    """Chloé scored 229 in the first manche and left: no « encore 271 avant 500 » under her name
    (she plays no more), and the home page's « Reprendre » lists only Ana and Bob at the table."""
    games = live_server.app.extensions["games"]
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {}, typed={"Bob": 12, "Chloé": 229}))
    games.leave_player(games.get(game.id), "Chloé")
    page = phone(width, height, scheme=scheme)
    page.goto(f"{live_server.url}/join/{game.id}/{token}")
    chloe = page.locator('#scoreboard tr[data-side="Chloé"]')
    expect(chloe).to_contain_text("a quitté la table")
    expect(chloe.locator(".to-go")).to_have_count(0)
    expect(page.locator('#scoreboard tr[data-side="Bob"] .to-go')).to_have_text("encore 488 avant 500")
    picture(page, request, "scores", "#scoreboard")

    page.goto(f"{live_server.url}/")
    card = page.locator(".resume-link")
    expect(card).to_contain_text("Ana, Bob ·")
    expect(card).not_to_contain_text("Chloé")
    picture(page, request, "home", ".resume")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_a_full_table_offers_no_seat(phone, live_server, request, width, height, scheme, js):
    """Classique is played by 2 to 5: with five at the table « Un joueur arrive ou s'en va » says the
    table is full instead of asking for a newcomer's name, and still lets one leave; once one has
    left, the newcomer's form is back."""
    games = live_server.app.extensions["games"]
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé", "Dan", "Éloïse"], first_dealer=0)
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/join/{game.id}/{token}")
    page.locator("#players summary").click()
    panel = page.locator("#players")
    expect(panel.locator("[data-table-full]")).to_have_text(
        "La table est complète\u00a0: cette variante se joue à 5 joueurs au plus. Pour qu'un joueur arrive, un autre doit d'abord partir."
    )
    expect(panel.locator("#newcomer")).to_have_count(0)
    expect(panel.locator("#leaver")).to_be_visible()
    picture(page, request, "full", "#players")

    panel.locator("#leaver").select_option(label="Dan")
    panel.locator(".leave-form button").click()
    page.locator("[data-confirm-leave]").click()
    # the leave's own answer (its notice): the live table may have swapped the scores and the
    # players' panel (kept open) before it came, and it swaps the whole game again, panel closed
    expect(page.locator(".notice")).to_contain_text("Dan a quitté la table")
    expect(page.locator('#scoreboard tr[data-side="Dan"]')).to_contain_text("a quitté la table")
    # the players' panel drawn again (with JavaScript it is swapped after the scores): only then is
    # whether it is open worth asking
    expect(page.locator("[data-table-full]")).to_have_count(0)
    expect(page.locator("#players form.leave-form")).to_have_count(1)
    if page.locator("#players").get_attribute("open") is None:  # an open panel's attribute is ""
        page.locator("#players summary").click()
    expect(page.locator("#newcomer")).to_be_visible()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["360", "320"])
def test_a_phone_that_opened_the_invite_is_told_it_may_record(phone, live_server, request, width, height, scheme, js):
    """Chloé scans the scorekeeper invite: the game page tells her phone it may now record the
    manches, and offers the entry; opened again later, the page says nothing more."""
    games = live_server.app.extensions["games"]
    game, _token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    _invite, invite_token = games.create_invite(game.id)
    page = phone(width, height, js=js, scheme=scheme)
    page.goto(f"{live_server.url}/join/{game.id}/{invite_token}?name=Chloé")
    expect(page.locator(".notice")).to_contain_text(
        "Ce téléphone peut désormais saisir les manches de cette partie, comme celui qui l'a créée."
    )
    expect(page.get_by_role("link", name="Saisir la manche 1")).to_be_visible()
    picture(page, request, "keeper", ".notice")
    page.goto(f"{live_server.url}/games/{game.id}")
    expect(page.locator(".notice")).to_have_count(0)

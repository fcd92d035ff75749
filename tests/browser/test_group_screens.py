"""A group's screens in Chromium at 360 px (light and dark) and 320 px: two spellings merged (shown
before it is done, then undone), « Continuer ensemble » from a finished game, and a phone removed
from the group told so on the game page it has open (on both databases). Screenshots under
test-artifacts/. The group's QR code on every member phone is its watch link's, decoded by zbarimg
as shown; a watcher's page shows the same and never a join link.

Classique in penalty mode, the figures of ``tests/e2e/test_group_merges.py``'s ``two_games``:
game 1, Ana, Bob, Chloé — Bob 30 and Chloé 12, then Ana 5 and Chloé 20: Ana wins; game 2, Bob
written "Robert" — Ana 8 and Chloé 9, then Ana 4 and Chloé 2: Robert wins.
"""

from __future__ import annotations

import re
import shutil
from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import open_listening
from .test_groups_browser import no_sideways_scroll, path_of, record
from .test_share_browser import qr_text

AXE = Axe()
SIZES = [(360, 780, "light"), (360, 780, "dark"), (320, 640, "light")]


def looks_right(page, shot, name: str, panel: str | None = None) -> None:
    """No sideways scroll, no accessibility fault, and a screenshot to look at (the whole page, and
    the ``panel`` this step is about on its own)."""
    no_sideways_scroll(page)
    found = AXE.run(page)
    assert found.violations_count == 0, found.generate_report()
    path = shot(name, page)
    if panel:
        page.locator(panel).screenshot(path=str(path).replace(".png", "-panel.png"))


def make_group(page, base: str, name: str = "Dimanche") -> str:
    page.goto(base + "/")
    page.fill("#group-name", name)
    page.get_by_role("button", name="Créer la tablée").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    return page.url


def new_game(page, base: str, players, group_id: str | None = None, rounds: str = "2") -> str:
    """A classique game of ``rounds`` manches made by ``page``'s phone (in ``group_id``): its id."""
    form = [("variant", "classique"), ("shown_variant", "classique"), ("end", "rounds"), ("rounds", rounds),
            ("first_dealer", "0"), *[("players", name) for name in players], *([("group", group_id)] if group_id else [])]  # fmt: skip
    response = page.context.request.post(
        f"{base}/games",
        data=urlencode(form),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        max_redirects=0,
    )
    assert response.status == 303, response.text()
    return response.headers["location"].rsplit("/", 1)[1]


def join(page, base: str, owner, group_url: str, name: str) -> None:
    owner.goto(group_url)
    owner.get_by_role("button", name="Créer un lien d'invitation").click()
    link = path_of(owner.locator("[data-join-link]").inner_text())
    page.goto(base + link)
    page.fill("#join-phone", name)
    page.get_by_role("button", name="Rejoindre la tablée").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Dimanche")


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_two_spellings_merged_then_undone(live_server, phone, shot, width, height, scheme):
    base = live_server.url
    ana = phone(width, height, scheme=scheme)
    group_url = make_group(ana, base)
    group_id = group_url.rsplit("/", 1)[1]
    first = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_id)
    record(ana, base, first, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})
    record(ana, base, first, {"winner": "1", "p0-typed": "5", "p2-typed": "20"})
    second = new_game(ana, base, ("Ana", "Robert", "Chloé"), group_id)
    record(ana, base, second, {"winner": "1", "p0-typed": "8", "p2-typed": "9"})
    record(ana, base, second, {"winner": "1", "p0-typed": "4", "p2-typed": "2"})

    ana.goto(group_url)
    standings = ana.locator("[data-standings] tbody tr")
    expect(standings).to_have_count(4)  # Robert, Ana, Bob, Chloé: two people for now
    ana.get_by_label("Garder", exact=True).select_option("Bob")
    ana.get_by_label("Compter comme la même personne").select_option("Robert")
    ana.get_by_role("button", name="Voir la fusion").click()

    # Shown before it is done: which games each spelling played, with the names they bear.
    expect(ana.locator("[data-merge-summary]")).to_contain_text("Robert")
    expect(ana.locator("[data-merge-summary]")).to_contain_text("Bob")
    expect(ana.locator('[data-merge-games="1"] a')).to_have_attribute("href", f"/games/{first}")
    expect(ana.locator('[data-merge-games="2"] a')).to_have_attribute("href", f"/games/{second}")
    looks_right(ana, shot, f"preview-{width}-{scheme}")

    ana.get_by_role("button", name="Les fusionner").click()
    expect(ana.locator("[data-merge]")).to_contain_text("Robert")
    expect(standings).to_have_count(3)
    # One person, under the latest spelling: 2 played, 1 won (game 2).
    robert = ana.locator('[data-standings] tr[data-person="Robert"]')
    expect(robert.locator("[data-won]")).to_have_text("1")
    expect(robert.locator("[data-played]")).to_have_text("2")
    looks_right(ana, shot, f"merged-{width}-{scheme}", "#merges")

    ana.locator("[data-merges] button").click()
    expect(ana.locator("[data-merges]")).to_have_count(0)
    expect(standings).to_have_count(4)
    looks_right(ana, shot, f"undone-{width}-{scheme}", "#standings")


@pytest.mark.slow
def test_continue_together_from_a_finished_game(live_server, phone, shot):
    base = live_server.url
    ana, bob, dan = phone(360, 780), phone(360, 780, scheme="dark"), phone(320, 640)
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), rounds="1")
    record(ana, base, game_id, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})  # over: Ana wins

    ana.goto(f"{base}/games/{game_id}")
    ana.get_by_role("link", name="Continuer ensemble").click()  # htmx swaps the choices in place
    expect(ana.locator("#together-name")).to_have_value("Ana, Bob, Chloé")
    expect(ana).to_have_url(f"{base}/games/{game_id}")
    looks_right(ana, shot, "owner-choices-360-light", "[data-together-choices]")
    ana.get_by_role("button", name="Créer la tablée avec cette partie").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Ana, Bob, Chloé")
    expect(ana.locator("[data-group-games]")).to_contain_text("Ana, Bob, Chloé")
    group_url = ana.url
    group_id = group_url.rsplit("/", 1)[1]

    for member, name, scheme, width in ((bob, "Bob", "dark", 360), (dan, "Dan", "light", 320)):
        ana.goto(group_url)
        ana.get_by_role("button", name="Créer un lien d'invitation").click()
        member.goto(base + path_of(ana.locator("[data-join-link]").inner_text()))
        member.fill("#join-phone", name)
        member.get_by_role("button", name="Rejoindre la tablée").click()
        member.goto(f"{base}/games/{game_id}")
        member.get_by_role("link", name="Continuer ensemble").click()
        # A member of the game's group is offered the group: a new game in it.
        expect(member.locator("[data-together-choices]")).to_contain_text("Ana, Bob, Chloé")
        looks_right(member, shot, f"member-choices-{width}-{scheme}", "[data-together-choices]")
        member.locator("[data-together-choices] [data-new-group-game]").click()
        expect(member.locator("#game-group")).to_have_value(group_id)
        no_sideways_scroll(member)


@pytest.mark.on_postgresql
def test_a_removed_phone_reads_why_its_game_page_went_quiet(live_server, phone, shot):
    base = live_server.url
    groups = live_server.app.extensions["groups"]
    ana, bob = phone(360, 780), phone(360, 780, scheme="dark")
    group_url = make_group(ana, base)
    group_id = group_url.rsplit("/", 1)[1]
    join(bob, base, ana, group_url, "Bob")
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_id)

    open_listening(bob, f"{base}/games/{game_id}")
    expect(bob.locator(f'a[href="/games/{game_id}/manches/new"]').first).to_be_visible()  # Bob may record
    member = next(m for m in groups.members(group_id) if m.name == "Bob")
    groups.remove(group_id, member.id, by=next(m.id for m in groups.members(group_id) if m.owner))
    expect(bob.locator("#rights-lost")).to_have_text(
        "Ce téléphone a été retiré de la tablée\u00a0: il n'en fait plus partie et ne peut plus enregistrer de manches ici."
    )
    bob.locator("#rights-lost").screenshot(path=str(shot("removed-dark", bob)).replace(".png", "-panel.png"))


@pytest.mark.parametrize(("width", "height"), [(360, 780), (320, 640)])
def test_the_owner_tells_phones_apart_renames_one_and_a_removed_one_cannot_come_back(
    live_server, phone, shot, width, height
):
    """The owner makes one link for two phones; each phone must give a name to join (the field
    starts empty and is required); the owner's list shows each name with its join date and last
    visit, the link's uses; the owner renames Chloé's phone, then removes it: its phone opens the
    same link again and is told why it cannot join."""
    base = live_server.url
    ana, bob, chloe = phone(width, height), phone(width, height), phone(width, height)
    group_url = make_group(ana, base)
    ana.get_by_label("Un nombre de téléphones\u00a0:").check()
    ana.fill("#invite-count", "2")
    ana.get_by_role("button", name="Créer un lien d'invitation").click()
    link = base + path_of(ana.locator("[data-join-link]").inner_text())
    for member, name in ((bob, "Bob"), (chloe, "Chloé")):
        member.goto(link)
        field = member.locator("#join-phone")
        expect(field).to_have_value("")
        member.get_by_role("button", name="Rejoindre la tablée").click()  # no name: the browser asks for one
        assert field.evaluate("(input) => input.validity.valueMissing")
        field.fill(name)
        member.get_by_role("button", name="Rejoindre la tablée").click()
        expect(member.get_by_role("heading", level=1)).to_have_text("Dimanche")
    ana.goto(group_url)
    members = ana.locator("[data-members]")
    expect(members.locator("strong")).to_have_text([re.compile(".+"), "Bob", "Chloé"])  # the owner's phone first
    expect(members.locator("[data-joined]")).to_have_count(3)
    expect(members.locator("li", has_text="Bob").locator("[data-seen]")).to_contain_text("dernière visite")
    expect(ana.locator("[data-uses]")).to_have_text("2 téléphones l'ont utilisée")
    looks_right(ana, shot, f"phones-{width}", "#members")
    chloes = members.locator("li", has_text="Chloé")
    chloes.locator("summary").click()
    chloes.get_by_label("Nouveau nom de ce téléphone").fill("Tablette de Chloé")
    looks_right(ana, shot, f"rename-{width}", "#members")
    chloes.get_by_role("button", name="Enregistrer ce nom").click()
    expect(members.locator("strong")).to_have_text([re.compile(".+"), "Bob", "Tablette de Chloé"])
    ana.get_by_role("button", name="Retirer Tablette de Chloé de la tablée").click()
    expect(ana.locator("[data-closed]")).to_be_visible()
    looks_right(ana, shot, f"link-closed-{width}", "#invites")
    chloe.goto(link)
    expect(chloe.locator("main")).to_contain_text("Un téléphone qui a rejoint la tablée par ce lien en a été retiré")
    looks_right(chloe, shot, f"refused-{width}")


@pytest.mark.skipif(not (shutil.which("zbarimg") and shutil.which("rsvg-convert")), reason="zbar-tools needed")
def test_every_member_phone_shows_the_watch_qr_and_a_watcher_never_a_join_link(live_server, phone, tmp_path, shot):
    base = live_server.url
    ana, bob, watcher = phone(360, 780), phone(360, 780, scheme="dark"), phone(320, 640)
    group_url = make_group(ana, base)
    join(bob, base, ana, group_url, "Bob")
    watch_url = None
    for name, member in (("owner", ana), ("member", bob)):
        member.goto(group_url)
        shown = member.locator("[data-watch-link]").inner_text()
        assert qr_text(member, 'img[data-qr="group-watch"]', tmp_path / f"{name}.png") == shown
        assert watch_url in (None, shown)
        watch_url = shown
        looks_right(member, shot, f"qr-{name}", "#invites")
    watcher.goto(base + path_of(watch_url))
    expect(watcher.get_by_role("heading", level=1)).to_have_text("Dimanche")
    assert qr_text(watcher, 'img[data-qr="group-watch"]', tmp_path / "watcher.png") == watch_url
    assert "/join/" not in watcher.content() and watcher.locator("[data-join-link], form").count() == 0
    looks_right(watcher, shot, "qr-watcher-320")


def test_a_group_downloaded_on_one_phone_is_imported_on_another(live_server, phone, shot, tmp_path):
    base = live_server.url
    ana, dan = phone(360, 780, scheme="dark"), phone(320, 640)
    group_url = make_group(ana, base)
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_url.rsplit("/", 1)[1], rounds="1")
    record(ana, base, game_id, {"winner": "0", "p1-typed": "30", "p2-typed": "12"})  # Ana wins
    ana.goto(group_url)
    looks_right(ana, shot, "archive-360-dark", "#archive")
    with ana.expect_download() as download:
        ana.get_by_role("link", name="Télécharger la tablée (.json)").click()
    archive = tmp_path / "tablee.json"
    download.value.save_as(archive)

    broken = tmp_path / "abimee.json"
    broken.write_text('{"format": "carte-group/1", "group": {"name": "Dimanche"}, "games": 3}', encoding="utf-8")
    dan.goto(base + "/")
    dan.get_by_role("link", name="Importer une tablée depuis son fichier").click()
    dan.get_by_label("Fichier de tablée").set_input_files(broken)
    dan.get_by_role("button", name="Importer").click()
    expect(dan.get_by_role("alert")).to_have_text("Le fichier est abîmé\u00a0: les parties ne sont pas une liste.")
    looks_right(dan, shot, "refused-320")
    dan.get_by_label("Fichier de tablée").set_input_files(archive)
    dan.get_by_role("button", name="Importer").click()
    expect(dan.get_by_role("heading", level=1)).to_have_text("Dimanche")
    ana_row = dan.locator('[data-standings] tr[data-person="Ana"]')
    expect(ana_row.locator("[data-won]")).to_have_text("1")
    assert dan.url != group_url
    looks_right(dan, shot, "imported-320")

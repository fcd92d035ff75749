"""A phone removed from its group, in Chromium at 360 px (light and dark) and 320 px: Bob's phone
joined through a link for one phone and keeps the group's pages open — a game of the group, a club
night, the group itself — when the owner removes it.

What holds: every open page of the phone — game, night, group — says so within 2 s, and what
it can no longer do is gone (the game's entry and share panel, the night's next turn); « Saisir
la manche 1 » then answers why it is refused (removed from the group, not « only the phone that
created this game »); the link it joined through, opened again, says why it no longer opens; the
owner's list names the phone removed, with its date; a group game's page and ``export.json`` are
closed (404) to the removed phone and to one that holds nothing but its id. Screenshots under
test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import open_listening
from .test_group_screens import looks_right, make_group, new_game
from .test_groups_browser import no_sideways_scroll, path_of

SIZES = [(360, 780, "light"), (360, 780, "dark"), (320, 640, "light")]
TWO_SIZES = [(360, 780, "light"), (320, 640, "dark")]
TOLD = 2_000  # ms: a removed phone's open page says so within 2 s of the removal
REMOVED = "Ce téléphone a été retiré de la tablée"


def group_with_bob(base: str, ana, bob) -> tuple[str, str]:
    """Ana's group « Dimanche », joined by Bob's phone through a link for one phone (the form's
    default), named « Bob »: the group's address and the link's."""
    group_url = make_group(ana, base)
    ana.get_by_role("button", name="Créer un lien d'invitation").click()
    link = base + path_of(ana.locator("[data-join-link]").inner_text())
    bob.goto(link)
    bob.fill("#join-phone", "Bob")
    bob.get_by_role("button", name="Rejoindre la tablée").click()
    expect(bob.get_by_role("heading", level=1)).to_have_text("Dimanche")
    return group_url, link


def remove_bob(ana, group_url: str) -> None:
    """The owner's phone removes Bob's, as its owner does: « Retirer » on the group's list."""
    ana.goto(group_url)
    ana.get_by_role("button", name="Retirer Bob de la tablée").click()
    expect(ana.locator("[data-members]")).not_to_contain_text("Bob")


@pytest.mark.parametrize(("width", "height", "scheme"), SIZES)
def test_a_removed_phone_s_game_page_says_so_and_its_entry_and_link_say_why(
    live_server, phone, shot, width, height, scheme
):
    base = live_server.url
    ana, bob = phone(360, 780), phone(width, height, scheme=scheme)
    group_url, link = group_with_bob(base, ana, bob)
    # The link was for one phone: a second phone opening it is told so and does not join.
    eve = phone(width, height, scheme=scheme)
    eve.goto(link)
    expect(eve.locator("main")).to_contain_text("Ce lien ne valait que pour un téléphone, qui l'a déjà utilisé")
    expect(eve.get_by_role("button", name="Rejoindre la tablée")).to_have_count(0)
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_url.rsplit("/", 1)[1])
    open_listening(bob, f"{base}/games/{game_id}")
    enter = bob.locator(f'a[href="/games/{game_id}/manches/new"]').first
    expect(enter).to_be_visible()  # a member may record

    remove_bob(ana, group_url)
    expect(bob.locator("#rights-lost")).to_contain_text(REMOVED, timeout=TOLD)
    no_sideways_scroll(bob)
    shot(f"game-{width}-{scheme}", bob)

    # Its next write is refused for the right reason, in the page's language.
    bob.goto(f"{base}/games/{game_id}/manches/new")
    main = bob.locator("main")
    expect(main).to_contain_text(REMOVED)
    expect(main).not_to_contain_text("Seul le téléphone qui a créé cette partie")
    looks_right(bob, shot, f"entry-refused-{width}-{scheme}")

    # The link it joined through, opened again: a clear refusal, no way back in.
    bob.goto(link)
    expect(bob.locator("main")).to_contain_text("Un téléphone qui a rejoint la tablée par ce lien en a été retiré")
    expect(bob.get_by_role("button", name="Rejoindre la tablée")).to_have_count(0)
    looks_right(bob, shot, f"link-refused-{width}-{scheme}")
    assert bob.goto(group_url).status == 404


@pytest.mark.parametrize(("width", "height", "scheme"), TWO_SIZES)
def test_every_open_page_of_a_removed_phone_says_so_within_two_seconds(live_server, phone, shot, width, height, scheme):
    base, app = live_server.url, live_server.app
    ana, bob = phone(360, 780), phone(width, height, scheme=scheme)
    group_url, _link = group_with_bob(base, ana, bob)
    group_id = group_url.rsplit("/", 1)[1]
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_id)
    night_id, _ = app.extensions["nights"].start(group_id, "Mardi soir", "classique", None, 1, [["Ana", "Bob"]], "k")
    game, night, group = bob, bob.context.new_page(), bob.context.new_page()
    open_listening(game, f"{base}/games/{game_id}")
    open_listening(night, f"{base}/nights/{night_id}")
    group.goto(group_url)

    remove_bob(ana, group_url)
    for name, page in (("game", game), ("night", night), ("group", group)):
        expect(page.locator("main")).to_contain_text(REMOVED, timeout=TOLD)
        no_sideways_scroll(page)
        shot(f"{name}-{width}-{scheme}", page)
    # What it can no longer do is gone: record a manche, share the game, start a turn.
    expect(game.locator(f'a[href="/games/{game_id}/manches/new"]')).to_have_count(0)
    expect(game.locator("#share")).to_be_hidden()
    expect(night.locator("[data-start-round]")).to_have_count(0)


@pytest.mark.parametrize(("width", "height", "scheme"), TWO_SIZES)
def test_the_owner_s_list_names_the_phone_removed(live_server, phone, shot, width, height, scheme):
    base = live_server.url
    ana, bob = phone(width, height, scheme=scheme), phone(360, 780)
    group_url, _link = group_with_bob(base, ana, bob)
    ana.goto(group_url)
    ana.get_by_role("button", name="Retirer Bob de la tablée").click()
    expect(ana.locator("[data-closed]")).to_be_visible()
    looks_right(ana, shot, f"owner-{width}-{scheme}", "#members")
    said = ana.locator("#members li, #invites li").filter(has_text=re.compile(r"\bBob\b"))
    expect(said.filter(has_text=re.compile("retiré", re.IGNORECASE))).to_have_count(1)


@pytest.mark.parametrize(("width", "height", "scheme"), TWO_SIZES)
def test_a_group_game_opens_to_its_members_and_not_by_its_id_alone(live_server, phone, width, height, scheme):
    base = live_server.url
    ana, bob, eve = phone(360, 780), phone(width, height, scheme=scheme), phone(width, height, scheme=scheme)
    group_url, _link = group_with_bob(base, ana, bob)
    game_id = new_game(ana, base, ("Ana", "Bob", "Chloé"), group_url.rsplit("/", 1)[1])
    for path in (f"/games/{game_id}", f"/games/{game_id}/export.json"):
        assert bob.context.request.get(base + path).status == 200  # a member reads it

    remove_bob(ana, group_url)
    for who, page in (("was removed", bob), ("never joined", eve)):
        for path in (f"/games/{game_id}", f"/games/{game_id}/export.json"):
            status = page.context.request.get(base + path).status
            assert status == 404, f"{path} answers {status} to a phone that {who}"

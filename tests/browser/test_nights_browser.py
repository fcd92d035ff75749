"""A club night on four phones: the organiser at 360 px (light) makes a group, three phones join
(360 px dark, 360 px light, 320 px); the organiser starts a night of two tables (three players
and two), seating edited by hand; each table's manche is recorded on its own phone;
the night's page on the 320 px phone and on the dark one shows the totals and the ranking live,
without a reload (without JavaScript, by the watch link: as they stand when loaded); the organiser
picks « les plus forts ensemble » and starts turn 2 in one tap, which the other night pages hear.

Classique in penalty mode, one manche a game: the player who goes out scores 0, the others the
total typed for their hand; the lowest total wins the table. The night ranks wins first, then
fewest points; equal on both is « ex æquo ».
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import open_listening
from tests.browser.test_groups_browser import no_sideways_scroll, path_of

AXE = Axe()
LIVE = 15_000  # ms: a change reaches a night page at once; a turn started elsewhere at its next look (≤ 5 s)


def record(page, base: str, game_id: str, app, hands: dict, winner: str) -> None:
    """Record a manche from ``page``'s phone: ``winner`` goes out, ``hands`` the others' totals typed."""
    players = app.extensions["games"].get(game_id).players
    page.goto(f"{base}/games/{game_id}/manches/new")
    form = {
        "number": page.locator("input[name=number]").first.input_value(),
        "nonce": page.locator("input[name=nonce]").first.input_value(),
        "winner": str(players.index(winner)),
        **{f"p{players.index(name)}-typed": str(total) for name, total in hands.items()},
    }
    response = page.context.request.post(f"{base}/games/{game_id}/manches", form=form, max_redirects=0)
    assert response.status == 303, response.text()


def no_violations(page) -> None:
    found = AXE.run(page)
    assert found.violations_count == 0, found.generate_report()


def make_group_of_four(base, ana, others) -> str:
    ana.goto(base + "/")
    ana.fill("#group-name", "Mardi")
    ana.get_by_role("button", name="Créer la tablée").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Mardi")
    group_url = ana.url
    ana.get_by_label("Autant qu'il en faut, jusqu'à ce que vous le révoquiez").check()  # a link for the whole table
    ana.get_by_role("button", name="Créer un lien d'invitation").click()
    link = path_of(ana.locator("[data-join-link]").inner_text())
    for member, name in others:
        member.goto(base + link)
        member.fill("#join-phone", name)
        member.get_by_role("button", name="Rejoindre la tablée").click()
        expect(member.get_by_role("heading", level=1)).to_have_text("Mardi")
    return group_url


def start_night(ana, group_url, shot) -> None:
    """Five players, two tables; Ana, Bob, Chloé moved to table 1, Dan and Eve to table 2."""
    ana.goto(group_url)
    ana.locator("[data-club-nights]").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Soirées de club")
    no_violations(ana)
    ana.fill("#night-name", "Mardi soir")
    ana.check("#night-end-rounds")
    ana.fill("#night-rounds", "1")
    for index, name in enumerate(("Ana", "Bob", "Chloé", "Dan", "Eve")):
        ana.fill(f"#new-player-{index}", name)
    ana.fill("#night-tables", "2")
    ana.get_by_role("button", name="Proposer les places").click()
    expect(ana.locator("[data-seating] fieldset[data-table]")).to_have_count(2)
    for name, table in (("Ana", "1"), ("Bob", "1"), ("Chloé", "1"), ("Dan", "2"), ("Eve", "2")):
        ana.select_option(f'select[data-seat="{name}"]', table)
    no_sideways_scroll(ana)
    shot("seating-turn-1", ana)
    no_violations(ana)
    ana.get_by_role("button", name="Lancer les 2 tables").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Mardi soir")


def ranking_rows(page) -> list[str]:
    rows = page.locator("[data-night-ranking] tbody tr")
    return [" ".join(text.split()) for text in rows.all_inner_texts()]


def read_only_without_javascript(phone, base, app, group_url, night_url, expected) -> None:
    """The group's watch link, on a phone without JavaScript: the night's totals and ranking as
    they stand when the page loads, and nothing to start a turn with."""
    watch_id = app.extensions["groups"].group(group_url.rsplit("/", 1)[1]).watch_id
    plain = phone(360, 780, js=False)
    plain.goto(f"{base}/w/{watch_id}")
    plain.locator("[data-club-nights]").click()
    plain.get_by_role("link", name=re.compile("Mardi soir")).click()
    assert plain.url.endswith("/nights/" + night_url.rsplit("/", 1)[1])
    expect(plain.locator('[data-table="1"] [data-side="Bob"] [data-total]')).to_have_text("12")
    assert ranking_rows(plain) == expected
    expect(plain.locator("[data-start-round]")).to_have_count(0)
    expect(plain.locator('[data-table="1"] h3 a')).to_have_count(0)  # no link into a game's page


def turn_two_waits(page) -> None:
    """The next turn is not offered while a table of this one plays: said in words, no button."""
    expect(page.locator("[data-turn-waits]")).to_be_visible()
    expect(page.locator("[data-start-round]")).to_be_hidden()


@pytest.mark.slow
@pytest.mark.on_postgresql
def test_a_club_night_of_two_tables_live_on_four_phones(live_server, phone, shot):
    base, app = live_server.url, live_server.app
    ana, bob = phone(360, 780), phone(360, 780, scheme="dark")
    chloe, dan = phone(360, 780), phone(320, 640)
    group_url = make_group_of_four(base, ana, ((bob, "Bob"), (chloe, "Chloé"), (dan, "Dan")))
    start_night(ana, group_url, shot)
    night_url = ana.url
    tables = {n: ana.locator(f'[data-table="{n}"] h3 a').get_attribute("href").rsplit("/", 1)[1] for n in (1, 2)}
    expect(ana.locator('[data-table="1"] tbody tr')).to_have_count(3)
    expect(ana.locator('[data-table="2"] tbody tr')).to_have_count(2)

    # The night's page open on the 320 px phone and the dark one, listening.
    for watcher in (dan, bob):
        open_listening(watcher, night_url)
        expect(watcher.locator("[data-turn]")).to_have_text("Tour 1")

    # Table 1 on Bob's phone: Ana goes out, Bob keeps 12, Chloé 30. Table 2 on Chloé's: Dan goes
    # out, Eve keeps 20. Ana and Dan win their tables with 0 points: « ex æquo » first; then Bob
    # (12), Eve (20), Chloé (30).
    turn_two_waits(ana)  # turn 1 not begun
    record(bob, base, tables[1], app, {"Bob": 12, "Chloé": 30}, "Ana")
    # table 1 over, table 2 still playing: the live part came again, turn 2 still waits
    expect(ana.locator('[data-table="1"] [data-side="Chloé"] [data-total]')).to_have_text("30", timeout=LIVE)
    turn_two_waits(ana)
    open_listening(bob, night_url)
    record(chloe, base, tables[2], app, {"Eve": 20}, "Dan")
    # turn 1 over: the organiser's page offers turn 2 by itself (the stream said `tables`)
    expect(ana.locator("[data-start-round]")).to_be_visible(timeout=LIVE)
    expected = ["1 ex æquo Ana 1 0", "1 ex æquo Dan 1 0", "3 Bob 0 12", "4 Eve 0 20", "5 Chloé 0 30"]
    for watcher in (dan, bob):  # no reload: the stream said `tables`, the live part came again
        expect(watcher.locator('[data-table="1"] [data-side="Chloé"] [data-total]')).to_have_text("30", timeout=LIVE)
        expect(watcher.locator('[data-table="2"] [data-side="Eve"] [data-total]')).to_have_text("20", timeout=LIVE)
        expect(watcher.locator("[data-night-ranking] tbody tr").first).to_contain_text("Ana", timeout=LIVE)
        assert ranking_rows(watcher) == expected
        no_sideways_scroll(watcher)
    shot("night-live-320", dan)
    shot("night-live-360-dark", bob)
    read_only_without_javascript(phone, base, app, group_url, night_url, expected)

    # The organiser asks for the strongest together: Ana, Dan, Bob at table 1; Eve, Chloé at 2.
    ana.reload()
    ana.check("#method-together")
    ana.get_by_role("button", name="Proposer", exact=True).click()
    table_one = ana.locator('[data-seating] fieldset[data-table="1"] select[data-seat]')
    expect(table_one).to_have_count(3)
    assert [s.get_attribute("data-seat") for s in table_one.all()] == ["Ana", "Dan", "Bob"]
    no_sideways_scroll(ana)
    shot("night-organiser-360", ana)
    no_violations(ana)
    ana.get_by_role("button", name="Lancer le tour 2").click()
    expect(ana.locator("[data-turn]")).to_have_text("Tour 2")
    expect(ana.locator('[data-table="1"] tbody')).to_contain_text("Dan")

    # The other night pages hear the new turn by themselves.
    for watcher in (dan, bob):
        expect(watcher.locator('[data-table="1"] [data-side="Dan"]')).to_have_count(1, timeout=LIVE)
        expect(watcher.locator("[data-turn]")).to_have_text("Tour 2")
        expect(watcher.locator("#next-turn-title")).to_have_text("Tour 3\u00a0: les places", timeout=LIVE)
    no_sideways_scroll(dan)
    shot("night-turn-2-320", dan)


def seats(page) -> list[list[str]]:
    """The next turn's seating as proposed on ``page``: each table's players, in order."""
    tables = page.locator("#next-seating fieldset[data-table]")
    return [[s.get_attribute("data-seat") for s in t.locator("select[data-seat]").all()] for t in tables.all()]


@pytest.mark.slow
def test_the_next_turn_follows_the_ranking_until_the_organiser_moves_someone(live_server, phone, shot):
    """Ana's phone keeps the night's page open with « les plus forts ensemble » chosen; Bob's phone
    records the tables. Five players, 3 and 2 a table, nobody has played: all tied on 0 wins and 0
    points, in the order of their names, so together: Ana, Bob, Chloé | Dan, Eve."""
    base, app = live_server.url, live_server.app
    ana, bob = phone(360, 780), phone(360, 780)
    group_url = make_group_of_four(base, ana, ((bob, "Bob"),))
    nights = app.extensions["nights"]
    seating = [["Ana", "Bob", "Chloé"], ["Dan", "Eve"]]
    night_id, _ = nights.start(group_url.rsplit("/", 1)[1], "Jeudi soir", "classique", None, 1, seating, "k")
    tables = {t.table: t.game_id for t in nights.state(night_id).current}
    open_listening(ana, f"{base}/nights/{night_id}")
    ana.check("#method-together")
    ana.get_by_role("button", name="Proposer", exact=True).click()
    ana.wait_for_function("() => window.listening === true")
    assert seats(ana) == [["Ana", "Bob", "Chloé"], ["Dan", "Eve"]]

    # Table 2 finishes: Eve goes out, Dan keeps 20. Eve first (1 win); Ana, Bob, Chloé tied on
    # 0 wins 0 points; Dan last (20). Together: Eve, Ana, Bob | Chloé, Dan — without a reload.
    record(bob, base, tables[2], app, {"Dan": 20}, "Eve")
    first = ana.locator('#next-seating fieldset[data-table="1"] select[data-seat]').first
    expect(first).to_have_attribute("data-seat", "Eve", timeout=LIVE)
    assert seats(ana) == [["Eve", "Ana", "Bob"], ["Chloé", "Dan"]]
    assert ana.locator("#method-together").is_checked()
    expect(ana.locator("[data-ranking-moved]")).to_be_hidden()

    # Ana moves Dan to table 1; then table 1 finishes: Ana goes out, Bob keeps 12, Chloé 30. Ana
    # and Eve tied first (1 win, 0 points), Bob 12, Dan 20, Chloé 30: the ranking moves, the
    # seating as Ana left it stays, and a line says the ranking changed.
    ana.select_option('#next-seating select[data-seat="Dan"]', "1")
    record(bob, base, tables[1], app, {"Bob": 12, "Chloé": 30}, "Ana")
    expected = ["1 ex æquo Ana 1 0", "1 ex æquo Eve 1 0", "3 Bob 0 12", "4 Dan 0 20", "5 Chloé 0 30"]
    expect(ana.locator("[data-night-ranking] tbody tr").nth(1)).to_contain_text("Eve", timeout=LIVE)
    assert ranking_rows(ana) == expected
    expect(ana.locator("[data-ranking-moved]")).to_be_visible(timeout=LIVE)
    assert seats(ana) == [["Eve", "Ana", "Bob"], ["Chloé", "Dan"]]
    expect(ana.locator('#next-seating select[data-seat="Dan"]')).to_have_value("1")
    no_sideways_scroll(ana)
    shot("night-ranking-moved-360", ana)
    no_violations(ana)

    # Proposed again, from the new ranking: Ana, Eve, Bob | Dan, Chloé.
    ana.get_by_role("link", name="Proposer à nouveau").click()
    expect(first).to_have_attribute("data-seat", "Ana", timeout=LIVE)
    assert seats(ana) == [["Ana", "Eve", "Bob"], ["Dan", "Chloé"]]
    expect(ana.locator('#next-seating select[data-seat="Dan"]')).to_have_value("2")
    expect(ana.locator("[data-ranking-moved]")).to_be_hidden()

"""Sharing in a real browser: the QR codes as shown decode (zbarimg) to the links shown, the
shared view follows a game recorded elsewhere by its event stream, an invite scanned on a second phone
gives it the right to record, the score sheet prints on one page. See ../shared/TESTING.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from models.services.games import MancheEntry

from .conftest import open_listening

pytestmark = pytest.mark.skipif(
    not (shutil.which("zbarimg") and shutil.which("rsvg-convert")), reason="zbar-tools and librsvg2-bin needed"
)

LAN = "192.168.1.20"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def decode(png) -> str:
    result = subprocess.run(["zbarimg", "--nodbus", "-q", "--raw", str(png)], capture_output=True, check=True)
    return result.stdout.decode().strip()


def qr_text(page, selector: str, path) -> str:
    """The text of a QR code as the page shows it: an element screenshot, decoded."""
    image = page.locator(selector)
    expect(image).to_be_visible()
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0; }", arg=selector
    )
    image.screenshot(path=str(path))
    return decode(path)


def new_game_in_browser(page, url: str, players=("Ana", "Bob", "Chloé")) -> str:
    """Create a classique game through the form (this browser becomes the owner); its id."""
    page.goto(f"{url}/games/new?variant=classique")
    for index, name in enumerate(players):
        page.locator(f"#player-{index}").fill(name)
    page.locator("button.primary.big[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


def test_the_share_qr_on_the_game_page_decodes_to_the_link_shown(live_server, page, tmp_path, shot):
    live_server.app.config["LAN_ADDRESSES"] = [LAN]
    game_id = new_game_in_browser(page, live_server.url)
    game = live_server.app.extensions["games"].get(game_id)
    expected = f"http://{LAN}:{live_server.server_port}/s/{game.share_id}"
    expect(page.locator(".share-url")).to_have_text(expected)
    box = page.locator('img[data-qr="share"]').bounding_box()
    assert box["width"] >= 240 and box["height"] >= 240  # scannable across a table
    assert qr_text(page, 'img[data-qr="share"]', tmp_path / "share.png") == expected
    shot("owner")


def test_the_api_share_qr_url_decodes_to_the_share_url(live_server, page, tmp_path):
    live_server.app.config["LAN_ADDRESSES"] = [LAN]
    game, _ = live_server.app.extensions["games"].create_game("classique", ["Ana", "Bob"])
    api = page.request.get(f"{live_server.url}/api/v1/games/{game.id}").json()
    assert api["share_url"] == f"http://{LAN}:{live_server.server_port}/s/{game.share_id}"
    assert api["share_qr_url"] == api["share_url"] + "/qr.svg"
    svg = page.request.get(live_server.url + urlsplit(api["share_qr_url"]).path)
    assert svg.ok and svg.headers["content-type"].startswith("image/svg+xml")
    (tmp_path / "qr.svg").write_bytes(svg.body())
    subprocess.run(
        ["rsvg-convert", "-w", "400", "-b", "white", str(tmp_path / "qr.svg"), "-o", str(tmp_path / "qr.png")],
        check=True,
    )
    assert decode(tmp_path / "qr.png") == api["share_url"]


@pytest.mark.on_postgresql
def test_an_invite_scanned_on_a_second_phone_lets_it_record_until_revoked(live_server, page, browser, tmp_path, shot):
    live_server.app.config["LAN_ADDRESSES"] = [LAN]
    game_id = new_game_in_browser(page, live_server.url)
    page.locator("#invites button[type=submit]").click()  # htmx puts the new invite in the panel

    invite_link = page.locator(".invite-url")
    expect(invite_link).to_be_visible()
    shown = invite_link.inner_text()
    assert re.fullmatch(rf"http://{re.escape(LAN)}:{live_server.server_port}/join/{game_id}/[A-Za-z0-9_-]+", shown)
    assert qr_text(page, 'img[data-qr="invite"]', tmp_path / "invite.png") == shown
    shot("invite")

    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    scorekeeper = phone.new_page()
    scorekeeper.goto(live_server.url + urlsplit(shown).path)  # what scanning the code opens
    assert scorekeeper.url == f"{live_server.url}/games/{game_id}?keeper=1"  # told it may now record
    enter = scorekeeper.locator(f'a[href="/games/{game_id}/manches/new"]')
    expect(enter).to_be_visible()

    page.goto(f"{live_server.url}/games/{game_id}")  # back to the game (a reload would post again)
    page.locator("#invites button.danger").click()  # "Revoke"
    expect(page.locator(".invite-list")).to_contain_text("révoquée" if "révoqu" in page.content() else "revoked")
    scorekeeper.reload()
    expect(enter).to_have_count(0)
    assert scorekeeper.goto(f"{live_server.url}/games/{game_id}/manches/new").status == 403
    phone.close()


@pytest.mark.on_postgresql
def test_the_shared_view_follows_the_game_by_its_stream_and_stops_at_the_end(live_server, page, shot):
    """Issue 24: no poll. The shared view holds its game's event stream; a manche recorded elsewhere
    is fetched once (its live part), and at the end the stream closes and nothing more is asked."""
    games = live_server.app.extensions["games"]
    game, _ = games.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=2, first_dealer=0)
    fetched, streams = [], []
    page.on("response", lambda r: fetched.append(r.status) if r.url.endswith("/live") else None)
    page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    page.add_init_script("document.addEventListener('htmx:sseClose', e => { window.sseClosed = e.detail.type; })")
    open_listening(page, f"{live_server.url}/s/{game.share_id}")
    bob = page.locator('#scoreboard tr[data-side="Bob"] .total')
    expect(bob).to_have_text("0")

    # Recorded elsewhere (another phone): Bob K♥ 8♠ = 60, Chloé 3♣ = 3.
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["KH", "8S"], "Chloé": ["3C"]}))
    expect(bob).to_have_text("60", timeout=5_000)
    expect(page.locator('#scoreboard tr[data-side="Chloé"] .total')).to_have_text("3")
    expect(page.locator(".history-table .manche-row")).to_have_count(1)
    expect(page.locator("#announce")).to_have_text("Manche 1 enregistrée. Totaux\u00a0: Ana 0, Chloé 3, Bob 60.")
    assert fetched == [200] and len(streams) == 1  # one fetch of the part, one stream
    shot("following")

    games.record_manche(game.id, MancheEntry("Bob", {"Ana": ["JK"], "Chloé": ["2C"]}))  # Ana 50, Chloé 20
    expect(page.locator(".final")).to_be_visible(timeout=5_000)
    expect(page.locator("#live-top")).not_to_have_attribute("hx-trigger", re.compile("sse"))
    expect(page.locator("#announce")).to_contain_text("Partie terminée")
    page.wait_for_function("() => window.sseClosed === 'message'")  # closed by its "end": never reopened
    assert len(streams) == 1 and fetched == [200, 200]
    shot("finished")


def test_the_score_sheet_prints_on_one_page(live_server, page, shot):
    games = live_server.app.extensions["games"]
    game, _ = games.create_game("classique", ["Ana", "Bob", "Chloé", "Dan"], rounds=12, first_dealer=0)
    for number in range(12):
        winner = ["Ana", "Bob", "Chloé", "Dan"][number % 4]
        others = [p for p in ["Ana", "Bob", "Chloé", "Dan"] if p != winner]
        games.record_manche(game.id, MancheEntry(winner, {}, typed={p: 5 + number for p in others}))
    page.goto(f"{live_server.url}/games/{game.id}")
    page.emulate_media(media="print")
    for hidden in (".top", "#share", ".chart", ".final form"):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.locator(".history-table")).to_be_visible()
    expect(page.locator("#scoreboard")).to_be_visible()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    shot("print")


@pytest.mark.slow
def test_pages_at_360_px_light_and_dark(live_server, browser):
    """Screenshots to look at (test-artifacts/), and no accessibility violation found by axe."""
    from axe_playwright_python.sync_playwright import Axe

    live_server.app.config["LAN_ADDRESSES"] = []  # the warning shows
    games = live_server.app.extensions["games"]
    done, _ = games.create_game("classique", ["Ana", "Bob"], rounds=2, first_dealer=0)
    games.record_manche(done.id, MancheEntry("Bob", {"Ana": ["8S", "KH", "3C"]}))
    games.record_manche(done.id, MancheEntry("Ana", {"Bob": ["JK"]}))
    axe = Axe()
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR", color_scheme=scheme)
        page = context.new_page()
        game_id = new_game_in_browser(page, live_server.url)
        page.locator("#invites button[type=submit]").click()
        expect(page.locator('img[data-qr="invite"]')).to_be_visible()
        game = games.get(game_id)
        urls = {
            "game": f"/games/{game_id}",
            "shared": f"/s/{game.share_id}",
            "list": "/games",
            "player": "/players/Ana",
            "import": "/games/import",
        }
        for name, path in urls.items():
            if name != "game":
                page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(ARTIFACTS / f"share-360-{name}-{scheme}.png"), full_page=True)
            results = axe.run(page)
            assert results.violations_count == 0, (name, scheme, results.generate_report())
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, (name, scheme)
        page.locator("#file").set_input_files(
            files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"not json"}]
        )
        page.locator("button.primary.big[type=submit]").click()
        expect(page.locator("#file-error")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / f"share-360-import-error-{scheme}.png"), full_page=True)
        context.close()

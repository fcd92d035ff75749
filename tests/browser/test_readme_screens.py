"""The pictures of the README and the guides (``docs/img/*.png``), made here on a 360 × 800 phone
so that they never show a screen the app no longer draws.

Each picture carries, in a PNG text chunk, a digest of what the screen held when it was taken: each
drawn element's tag, classes, style, own text and field values, its SVG shapes, and the bytes of
the page's style sheets. A run builds the screen again and compares: the same digest, the test
passes and leaves the file alone; another (a word, a class, a rule changed), it writes the new
picture with its digest and fails, so that the picture is looked at and committed. The digest, not
the pixels, is compared: fonts and Chromium's anti-aliasing differ from one machine to the next
(a fresh clone in CI draws the same screen a pixel off), what the screen holds does not. Nothing
of one run goes into it: ids, tokens and nonces live in attributes and hidden fields, which are
left out, or in the addresses shown (the server's port, a share link), said as "URL"; the text of a
<time> and the year are left out too.

Classique (SPEC §2, tables.toml): K 10, 8 50, 7 7, 5 5, 3 3; in penalty mode the one who went out
scores 0 and each other player their own hand; the fewest points wins.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from models.core.scoring import MancheEntry

from .conftest import ARTIFACTS, open_listening
from .test_games_flow import tap
from .test_many_hands import joined

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
KEY = b"carte-screen"
FOUR = ["Ana", "Bob", "Chloé", "Dan"]

HELD = r"""() => {
    const lines = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    const own = el.tagName === "TIME" ? "" : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(" ");
    const classes = [...el.classList].filter((name) => !name.startsWith("htmx-")).join(" ");
    const line = [el.tagName, classes, el.getAttribute("style") || "", own.trim()];
    if ("value" in el && el.type !== "hidden") line.push(el.value, String(el.checked));
    if (el instanceof SVGElement) for (const name of ["d", "points", "x", "y", "width", "height"]) line.push(el.getAttribute(name) || "");
    lines.push(line.join("|").replace(/https?:\/\/\S+/g, "URL").replace(/\b(19|20)\d\d\b/g, "YEAR"));
  }
  return lines.join("\n");
}"""


def png_text(png: bytes) -> dict[bytes, bytes]:
    """The tEXt chunks of a PNG (keyword → text)."""
    found, at = {}, 8
    while at < len(png):
        (length,), kind = struct.unpack(">I", png[at : at + 4]), png[at + 4 : at + 8]
        if kind == b"tEXt":
            keyword, _, text = png[at + 8 : at + 8 + length].partition(b"\0")
            found[keyword] = text
        at += 12 + length
    return found


def with_text(png: bytes, keyword: bytes, text: bytes) -> bytes:
    """The PNG with a tEXt chunk after its header (IHDR, always first: 8 + 25 bytes in)."""
    data = keyword + b"\0" + text
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    return png[:33] + chunk + png[33:]


def style_sheets(page) -> str:
    """The page's style sheets, each by its path and the digest of the bytes the server sends
    (their source, not Chromium's serialisation of their rules, which may change with its version)."""
    urls = page.evaluate("[...document.styleSheets].map((sheet) => sheet.href).filter(Boolean)")
    return "\n".join(f"{urlsplit(url).path} {hashlib.sha256(page.request.get(url).body()).hexdigest()}" for url in urls)


def settled(page) -> tuple[str, bytes]:
    """What the screen holds and its picture, taken between two reads that agree: a part htmx
    swaps in meanwhile (a live event) is waited for, never slept on."""
    held = page.evaluate(HELD)
    for _ in range(50):
        png = page.screenshot(animations="disabled", caret="hide")
        before, held = held, page.evaluate(HELD)
        if before == held:
            return style_sheets(page) + "\n" + held, png
    raise AssertionError("the screen never held still")


def pictured(page, name: str) -> None:
    """The screen's picture is ``docs/img/<name>.png`` as committed, or it is drawn again and the
    test fails (the module's docstring says why)."""
    held, png = settled(page)
    digest = hashlib.sha256(held.encode()).hexdigest().encode()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"readme-{name}.txt").write_text(held)  # what the digest was made of, to compare
    path = IMAGES / f"{name}.png"
    if path.exists() and png_text(path.read_bytes()).get(KEY) == digest:
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    path.write_bytes(with_text(png, KEY, digest))
    raise AssertionError(f"{path} no longer showed this screen: drawn again, look at it and commit it")


@contextmanager
def phones(browser):
    """Makes phones of 360 × 800 CSS pixels (drawn at twice that), touch, French, light."""
    contexts = []

    def phone():
        context = browser.new_context(viewport={"width": 360, "height": 800}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, locale="fr-FR", color_scheme="light")  # fmt: skip
        contexts.append(context)
        return context.new_page()

    try:
        yield phone
    finally:
        for context in contexts:
            context.close()


def test_the_entry_with_many_hands(browser, live_server):
    """Chloé's phone counts her hand (8 + 3 so far: 53); Bob counted his on his phone (K + 7 = 17),
    Dan is counting his (5 so far); Ana went out."""
    games = live_server.app.extensions["games"]
    game, owner = games.create_game("classique", FOUR, first_dealer=0)
    _invite, invite = games.create_invite(game.id)
    api, auth = live_server.app.test_client(), {"Authorization": f"Bearer {owner}"}
    entry = f"/api/v1/games/{game.id}/entry"
    with phones(browser) as phone:
        page = phone()
        page.goto(f"{live_server.url}/join/{game.id}/{invite}?name=Chloé")
        joined(page, f"{live_server.url}/games/{game.id}/manches/new", "Chloé")
        api.put(f"{entry}/winner", json={"number": 1, "winner": "Ana"}, headers=auth)
        api.put(f"{entry}/hands/1", json={"number": 1, "cards": ["K", "7"], "done": True}, headers=auth)
        api.put(f"{entry}/hands/3", json={"number": 1, "cards": ["5"], "done": False}, headers=auth)
        tap(page, 2, "8 3")
        status = page.locator("#hands-status")
        expect(status).to_contain_text("Bob\u00a0: 17 pts ✓")
        expect(status).to_contain_text("Dan compte…")
        expect(page.locator("#hand-2 [data-hand-total]")).to_have_text("53")
        page.locator("#who").evaluate("(el) => el.scrollIntoView({block: 'start'})")
        pictured(page, "many-hands")


def test_the_live_game_page(browser, live_server):
    """The owner's game page after three manches, told that Chloé's phone enters the fourth."""
    games = live_server.app.extensions["games"]
    game, owner = games.create_game("classique", FOUR, first_dealer=0)
    _invite, invite = games.create_invite(game.id)
    for winner, typed in (("Ana", {"Bob": 12, "Chloé": 30, "Dan": 7}), ("Chloé", {"Ana": 55, "Bob": 4, "Dan": 20}),
                          ("Dan", {"Ana": 10, "Bob": 61, "Chloé": 3})):  # fmt: skip
        games.record_manche(game.id, MancheEntry(winner=winner, hands={}, typed=typed))
    base = live_server.url
    with phones(browser) as phone:
        page = phone()
        page.goto(f"{base}/join/{game.id}/{owner}")
        open_listening(page, f"{base}/games/{game.id}")
        keeper = phone()
        keeper.goto(f"{base}/join/{game.id}/{invite}?name=Chloé")
        keeper.goto(f"{base}/games/{game.id}/manches/new")
        expect(page.locator("#presence")).to_have_text("Chloé saisit la manche 4…")
        pictured(page, "live-game")


# Six evenings of the same four, two manches each: who went out, and the others' hands typed.
EVENINGS = (
    (("Ana", {"Bob": 12, "Chloé": 30, "Dan": 7}), ("Dan", {"Ana": 5, "Bob": 20, "Chloé": 9})),
    (("Bob", {"Ana": 40, "Chloé": 3, "Dan": 18}), ("Chloé", {"Ana": 11, "Bob": 25, "Dan": 6})),
    (("Chloé", {"Ana": 8, "Bob": 14, "Dan": 22}), ("Chloé", {"Ana": 17, "Bob": 9, "Dan": 31})),
    (("Dan", {"Ana": 50, "Bob": 4, "Chloé": 13}), ("Ana", {"Bob": 16, "Chloé": 21, "Dan": 10})),
    (("Ana", {"Bob": 7, "Chloé": 19, "Dan": 28}), ("Bob", {"Ana": 6, "Chloé": 35, "Dan": 12})),
    (("Chloé", {"Ana": 24, "Bob": 10, "Dan": 3}), ("Dan", {"Ana": 15, "Bob": 30, "Chloé": 2})),
)


def thursdays(live_server) -> str:
    """The group « Les jeudis » and its six games, played one a month from January of this year
    (the season's chart is the same whatever the day the test runs: the app's clock is set to the
    year's last evening): made through the services,
    then exported and imported again with those dates, as the group's archive allows."""
    games, groups = live_server.app.extensions["games"], live_server.app.extensions["groups"]
    group_id, token = groups.create("Les jeudis", "Ana")
    for evening in EVENINGS:
        game, _token = games.create_game("classique", FOUR, rounds=2, group=group_id)
        for winner, typed in evening:
            games.record_manche(game.id, MancheEntry(winner=winner, hands={}, typed=typed))
    api = live_server.app.test_client()
    archive = api.get(f"/api/v1/groups/{group_id}/export", headers={"Authorization": f"Bearer {token}"}).get_json()
    year = datetime.now(UTC).year
    for month, game in enumerate(archive["games"], start=1):
        game["game"]["created_at"] = f"{year}-{month:02}-05T12:00:00+00:00"  # the 5th in any time zone
    made = api.post("/api/v1/groups/import", json=archive, headers={"Idempotency-Key": "les-jeudis"})
    assert made.status_code == 201, made.get_json()
    # The season's chart draws no month to come: the app's clock at the year's end draws all six.
    live_server.app.extensions["clock"] = lambda: datetime(year, 12, 31, 20, tzinfo=UTC)
    return made.get_json()["group"]


def test_a_group_s_standings(browser, live_server):
    """A member's phone on the group's page, at its standings."""
    group_id = thursdays(live_server)
    groups = live_server.app.extensions["groups"]
    invite = groups.create_invite(group_id, by=next(m.id for m in groups.members(group_id) if m.owner))
    with phones(browser) as phone:
        page = phone()
        page.goto(f"{live_server.url}/groups/{group_id}/join/{invite}")
        page.fill("#join-phone", "Bob")
        page.get_by_role("button", name="Rejoindre la tablée").click()
        expect(page.locator("[data-standings] tbody tr")).to_have_count(4)
        # every column of « Manches de chacun » in its box, at 360 px and at 320 px
        for width in (320, 360):
            page.set_viewport_size({"width": width, "height": 800})
            overflow = page.locator("[data-rounds]").evaluate("(t) => t.scrollWidth - t.parentElement.clientWidth")
            assert overflow <= 0, f"the rounds table is {overflow} px too wide at {width} px"
        page.locator("#standings").evaluate("(el) => el.scrollIntoView({block: 'start'})")
        pictured(page, "standings")

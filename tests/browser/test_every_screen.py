"""Every page and part, in French and in English, at 320 px in light and dark, drawn with 0, 1 and 2
of each counted thing (games, manches, players, nights, members): no text wider than its box, no
« 1 … s » plural (« 1 parties », "1 games"), no placeholder left unfilled (``{name}``, ``%(``), no
range with equal ends (« 2–2 »); every error page names the way back to where the person was.

The states are seeded once through the app's own forms and services, then looked at by one browser
context per language, each page loaded once and checked in light then in dark (the scheme switched
in place): first with no cookie (nothing of this phone's: the home page, the lists, a join link,
the errors a stranger meets), then with the seeding phone's cookies (the owner of every game and
group). The parts htmx swaps in are fetched as htmx fetches them and drawn at the end of a game page.
About 80 s for some 210 pages and parts on a busy two-core machine."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest

from models.core.scoring import MancheEntry

from .conftest import ARTIFACTS

# The checks, run in the page: each returns its offenders as [what, where] so that a failure names
# them. ``allowed`` are the words that end in s in the singular (« 1 pas », « 1 fois »).
OFFENDERS = r"""(allowed) => {
  const found = [];
  const where = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "");
  const hidden = (e) => e.closest(".sr, .visually-hidden, [hidden], template, noscript, script, style");
  // text wider than its box (a box that scrolls on purpose, and text only for screen readers, aside)
  for (const e of document.body.querySelectorAll("*")) {
    if (hidden(e) || !e.getClientRects().length) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || ["INPUT", "SELECT", "TEXTAREA", "svg", "text"].includes(e.tagName)) continue;
    const style = getComputedStyle(e);
    if (["auto", "scroll"].includes(style.overflowX)) continue;
    if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
      found.push(["wider than its box (" + e.scrollWidth + " > " + e.clientWidth + ")", where(e), e.textContent.trim().slice(0, 80)]);
  }
  // the words: text nodes and the names given to assistive technology
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode()); ) {
    const parent = n.parentElement;
    if (parent && !parent.closest("script, style")) texts.push([n.textContent, parent]);
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
    for (const name of ["aria-label", "title", "placeholder", "alt"])
      if (e.hasAttribute(name)) texts.push([e.getAttribute(name), e]);
  texts.push([document.title, document.head]);
  const plural = /(?<![\d.,\u00a0\u202f])1[\s\u00a0\u202f\u2060]+([A-Za-zÀ-ÿ]+s)\b/g;
  const placeholder = /\{[A-Za-z_]+\}|%\(|%[sd]\b/;
  const range = /(?<![\d.,])(\d+)[\s\u00a0\u202f\u2060]*[–—][\s\u00a0\u202f\u2060]*(\d+)(?![\d.,])/g;
  for (const [text, e] of texts) {
    for (const m of text.matchAll(plural))
      if (!allowed.includes(m[1].toLowerCase())) found.push(["« 1 … s » plural", where(e), text.trim().slice(0, 80)]);
    if (placeholder.test(text)) found.push(["placeholder left unfilled", where(e), text.trim().slice(0, 80)]);
    for (const m of text.matchAll(range))
      if (m[1] === m[2]) found.push(["range with equal ends", where(e), text.trim().slice(0, 80)]);
  }
  return found;
}"""
SINGULAR_IN_S = ["pas", "fois", "plus", "dos", "as", "bis", "temps", "is", "was", "has", "this", "its", "us"]
LANGUAGES = {"fr": "fr-FR", "en": "en-GB"}


def post(request, url: str, fields) -> str:
    """A form posted from the seeding phone: where it leads (its 303's address)."""
    response = request.post(
        url, data=urlencode(fields), headers={"Content-Type": "application/x-www-form-urlencoded"}, max_redirects=0
    )
    assert response.status in (201, 303), f"{url}: {response.status} {response.text()[:300]}"
    return response.headers.get("location", "")


def new_game(request, base: str, players, *, rounds: int | None = None, group: str | None = None) -> str:
    form = [("variant", "classique"), ("shown_variant", "classique"), ("first_dealer", "0"),
            *((("end", "rounds"), ("rounds", str(rounds))) if rounds else (("end", "target"),)),
            *[("players", name) for name in players], *([("group", group)] if group else [])]  # fmt: skip
    return post(request, f"{base}/games", form).rsplit("/", 1)[1]


def seed(app, context, base: str) -> dict:
    """Games of 0, 1 and 2 manches (and one finished), players in 1, 2 and more games, groups of 0, 1
    and 2 games, of 1, 2 and 3 members and of 0, 1 and 2 nights (being played, ended): what the
    addresses to look at need."""
    games, groups, nights = app.extensions["games"], app.extensions["groups"], app.extensions["nights"]
    request = context.request
    g0 = new_game(request, base, ["Ana", "Bob"], rounds=1)
    g1 = new_game(request, base, ["Ana", "Chloé"], rounds=2)
    games.record_manche(g1, MancheEntry("Ana", {}, typed={"Chloé": 1}))
    g2 = new_game(request, base, ["Dan", "Eve"])
    games.record_manche(g2, MancheEntry("Dan", {}, typed={"Eve": 2}))
    games.record_manche(g2, MancheEntry("Eve", {}, typed={"Dan": 1}))

    def group(name: str, members: int) -> tuple[str, str]:
        group_id = post(request, f"{base}/groups", {"name": name, "phone": "Ana"}).rsplit("/", 1)[1]
        owner = groups.members(group_id)[0].id
        for number in range(1, members):
            token = groups.create_invite(group_id, by=owner)
            groups.join(group_id, token, f"Téléphone {number}", phone=f"phone:{name}{number}", secret=b"s")
        return group_id, groups.group(group_id).watch_id

    empty, empty_watch = group("Zéro", 1)
    one, one_watch = group("Une", 2)
    won = new_game(request, base, ["Ana", "Bob"], rounds=1, group=one)
    games.record_manche(won, MancheEntry("Ana", {}, typed={"Bob": 1}))
    night_one, _ = nights.start(one, "Un soir", "classique", None, 1, [["Ana", "Bob"]], "one")
    (table,) = nights.state(night_one).current
    games.record_manche(table.game_id, MancheEntry("Bob", {}, typed={"Ana": 1}))
    nights.end(night_one)
    two, two_watch = group("Deux", 3)
    for winner, loser in (("Ana", "Bob"), ("Robert", "Ana")):  # Bob written "Robert" once: two to merge
        game = new_game(request, base, [winner, loser], rounds=1, group=two)
        games.record_manche(game, MancheEntry(winner, {}, typed={loser: 2}))
    played, _ = nights.start(two, "Deux tables", "classique", None, 2, [["Ana", "Bob"], ["Chloé", "Dan"]], "two")
    first, second = nights.state(played).current
    games.record_manche(first.game_id, MancheEntry("Ana", {}, typed={"Bob": 1}))
    games.record_manche(second.game_id, MancheEntry("Dan", {}, typed={"Chloé": 2}))
    ended, _ = nights.start(two, "Fini", "classique", None, 1, [["Ana", "Bob"]], "ended")
    nights.end(ended)
    join_link = f"/groups/{two}/join/{groups.create_invite(two, by=groups.members(two)[0].id)}"
    share = {game: games.get(game).share_id for game in (g0, g1, g2, won)}
    page = context.new_page()
    page.goto(f"{base}/variants/new?base=classique")
    page.fill("#house-name", "Chez Ana")
    with page.expect_navigation():
        page.locator('.form-actions button[value="save"]').click()
    house = page.url.removeprefix(base + "/")
    page.close()
    return {
        "games": (g0, g1, g2), "won": won, "share": share, "groups": (empty, one, two), "nights": (night_one, played, ended),
        "watch": (empty_watch, one_watch, two_watch), "join": join_link, "house": house,
        "variants": list(app.extensions["catalog"].variants),
    }  # fmt: skip


def stranger_pages(s: dict) -> list[tuple[str, str | None]]:
    """What a phone with nothing of its own opens: (address, the way back its error page names)."""
    g0, g1, g2 = s["games"]
    return [
        ("/", None),
        ("/games", None),
        ("/games/new", None),
        ("/calculette", None),
        ("/rules", None),
        *((f"/rules/{variant}", None) for variant in s["variants"]),
        ("/games/new?variant=les-huit", None),
        ("/calculette?variant=les-huit", None),
        ("/rules/compare", None),
        ("/rules/compare/all", None),
        ("/rules/search?q=que+fait+le+8", None),
        ("/referee", None),
        ("/groups/import", None),
        ("/games/import", None),
        ("/offline", None),
        (s["join"], None),
        *((f"/s/{s['share'][g]}", None) for g in (g0, g1, g2, s["won"])),
        *((f"/w/{w}", None) for w in s["watch"]),
        *((f"/w/{s['watch'][2]}/nights/{n}", None) for n in s["nights"][1:]),
        (f"/w/{s['watch'][2]}/nights", None),
        (f"/w/{s['watch'][0]}/nights", None),
        # errors: not found, and an invite that is not this game's (403, back to the game)
        ("/games/no-such-game", "/"),
        (f"/groups/{s['groups'][1]}", "/"),
        (f"/join/{g1}/not-a-token", f"/games/{g1}"),
    ]


def member_pages(s: dict) -> list[tuple[str, str | None]]:
    """What the owner of every game and group opens."""
    g0, g1, g2 = s["games"]
    empty, one, two = s["groups"]
    night_one, played, ended = s["nights"]
    return [
        ("/", None),
        ("/games", None),
        ("/games?player=Ana", None),
        ("/players/Ana", None),
        ("/players/Chloé", None),
        ("/players/Dan", None),
        ("/players/Robert", None),
        *((f"/games/{g}", None) for g in (g0, g1, g2, s["won"])),
        *((f"/games/{g}?share=1", None) for g in (g0, g1, g2)),
        *((f"/games/{g}/manches/new", None) for g in (g0, g1)),
        # the notices after a write: saved, edited, deleted, undone
        *((f"/games/{g2}?{kind}", None) for kind in ("saved=1", "edited=2", "deleted=3", "undone=3", "undone=2")),
        (f"/games/{g1}/manches/1/edit", None),
        (f"/games/{g2}/manches/2/edit", None),
        (f"/games/{g1}/referee", None),
        (f"/games/{g1}/rules", None),
        (f"/games/{g2}/together", None),
        (f"/{s['house']}", None),
        (f"/{s['house']}/edit", None),
        ("/variants/new?base=classique", None),
        *((f"/groups/{g}", None) for g in (empty, one, two)),
        *((f"/groups/{g}/nights", None) for g in (empty, one, two)),
        (f"/groups/{two}/nights/new?players=Ana&players=Bob&players=Chloé&tables=1", None),
        (f"/groups/{two}/merge?a=Bob&b=Robert", None),
        # forms refused (422), their page naming the way back to the group
        *(
            (f"/groups/{two}/nights/new?{present}", f"/groups/{two}")
            for present in ("tables=1", "players=Ana&tables=1", "players=Ana&players=Bob&tables=2")
        ),
        (f"/groups/{two}/merge?a=Ana&b=Bob", f"/groups/{two}"),
        *((f"/nights/{n}", None) for n in (night_one, played, ended)),
        *((f"/nights/{n}/sheet", None) for n in (night_one, played)),
        # errors: a round that does not exist (404), back to its game
        (f"/games/{g1}/manches/9/edit", f"/games/{g1}"),
        ("/nights/no-such-night", "/"),
    ]


def parts(s: dict) -> list[str]:
    """The parts htmx swaps in (each drawn alone, with 0, 1 and 2 manches, nights being played and ended)."""
    g0, g1, g2 = s["games"]
    night_one, played, _ended = s["nights"]
    watch = s["watch"][2]
    return [
        *(f"/games/{g}/{part}" for g in (g0, g1, g2, s["won"]) for part in ("live", "players", "invites")),
        *(f"/s/{s['share'][g]}/live" for g in (g0, g2, s["won"])),
        *(f"/{where}/rounds" for where in (f"games/{g1}", f"games/{g2}", f"s/{s['share'][g2]}")),  # (none: no page)
        *(f"/nights/{n}/live" for n in (night_one, played)),
        f"/w/{watch}/nights/{played}/live",
    ]


def posted_errors(s: dict) -> list[tuple[str, dict, str]]:
    """Forms refused (409, 422) and the way back each error page must name."""
    g1 = s["games"][1]
    return [
        (
            f"/games/{g1}/manches",
            {"number": "1", "nonce": "seen-twice", "winner": "0", "p1-typed": "5"},
            f"/games/{g1}",
        ),
        (f"/games/{g1}/manches/1/delete", {}, f"/games/{g1}"),
    ]


SUBMIT = """([url, fields]) => {
  const form = document.createElement("form");
  form.method = "post";
  form.action = url;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden"; input.name = name; input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}"""


INJECT = """async (url) => {
  const answer = await fetch(url, {headers: {"HX-Request": "true"}});
  let box = document.getElementById("part-under-test");
  if (!box) {
    box = document.createElement("div");
    box.id = "part-under-test";
    document.querySelector("main").append(box);
  }
  box.innerHTML = await answer.text();
  return answer.status;
}"""
SCHEMES = ("light", "dark")


class Looker:
    """One phone (a browser context) in one language: each page loaded once, then checked in light
    and in dark (the colour scheme switched in place: the page is not drawn again by the server)."""

    def __init__(self, page, base: str, language: str, shots: dict):
        self.page, self.base, self.language, self.shots = page, base, language, shots
        self.offenders: dict[str, list] = {}
        self.seen = 0

    def open(self, path: str, back: str | None = None) -> None:
        response = self.page.goto(self.base + path)
        self.check(path, response.status, back)

    def post(self, path: str, fields: dict, back: str) -> None:
        """``fields`` posted as a form of the page open, as a person's browser sends it."""
        with self.page.expect_navigation() as answer:
            self.page.evaluate(SUBMIT, [path, fields])
        self.check(f"POST {path}", answer.value.status, back)

    def part(self, path: str) -> None:
        """The part htmx fetches at ``path``, drawn at the end of the page open, as htmx would."""
        self.check(f"part {path}", self.page.evaluate(INJECT, path), None)

    def check(self, path: str, status: int, back: str | None) -> None:
        self.seen += 1
        for scheme in SCHEMES:
            self.page.emulate_media(color_scheme=scheme)
            found = [tuple(o) for o in self.page.evaluate(OFFENDERS, SINGULAR_IN_S)]
            if scheme == SCHEMES[0]:
                found += self.way_back(status, back)
            if found:
                self.offenders[f"{self.language} {scheme} {path}"] = found
            if path in self.shots:
                name = f"every-screen-{self.language}-{scheme}-{self.shots[path]}.png"
                self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    def way_back(self, status: int, back: str | None) -> list:
        if status < 400 and not back:
            return [] if status == 200 else [(f"answered {status}", "", "")]
        if status < 400:
            return [(f"an error expected, {status} answered", "", "")]
        links = self.page.eval_on_selector_all("main a[href]", "links => links.map(a => a.getAttribute('href'))")
        return [] if back in links else [(f"error {status} without the way back to {back}", "", ", ".join(links))]


def test_the_checks_name_what_they_find(page):
    """Each check catches its kind of fault, and passes what is right (« 1 fois », « 11 parties »)."""
    page.set_content(
        '<main style="width:320px"><p>1 parties, 1 games, 11 parties, 1 fois, 1 partie</p><p>{name} vs %(count)s</p>'
        '<p>2–2 joueurs, 2–4 joueurs, 12–2</p><p style="width:40px;white-space:nowrap;overflow:hidden">Maximilien</p>'
        '<p style="width:40px;white-space:nowrap;overflow-x:auto">Maximilien</p><p class="sr" style="width:1px;'
        'overflow:hidden;white-space:nowrap">Only for screen readers</p></main>'
    )
    found = page.evaluate(OFFENDERS, SINGULAR_IN_S)
    assert sorted(kind.split(" (")[0] for kind, _, _ in found) == [
        "placeholder left unfilled", "range with equal ends", "wider than its box", "« 1 … s » plural",
        "« 1 … s » plural",
    ], found  # fmt: skip


@pytest.mark.slow
def test_every_screen_at_320_px(live_server, browser):
    base, app = live_server.url, live_server.app
    started = time.monotonic()
    seeder = browser.new_context()
    states = seed(app, seeder, base)
    cookies = seeder.cookies()
    seeder.close()
    report, seen = {}, 0
    g0, g1, g2 = states["games"]
    shots = {f"/games/{g1}": "game-1-manche", f"/games/{g2}": "game-2-manches", f"/games/{g0}/manches/new": "entry",
             f"/groups/{states['groups'][2]}": "group-2", f"/nights/{states['nights'][1]}": "night-played",
             f"/nights/{states['nights'][0]}": "night-ended", "/players/Ana": "player", "/games": "history",
             f"/games/{states['won']}": "game-finished",
             f"/games/{g1}/manches/9/edit": "404"}  # fmt: skip
    ARTIFACTS.mkdir(exist_ok=True)
    for language, locale in LANGUAGES.items():
        context = browser.new_context(
            viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True, locale=locale,
            device_scale_factor=1, service_workers="block",
        )  # fmt: skip
        looker = Looker(context.new_page(), base, language, shots)
        for path, back in stranger_pages(states):
            looker.open(path, back)
        context.add_cookies(cookies)
        for path, back in member_pages(states):
            looker.open(path, back)
        looker.page.goto(f"{base}/games/{g1}")
        for path in parts(states):
            looker.part(path)
        for path, fields, back in posted_errors(states):
            looker.page.goto(f"{base}/games/{g1}")
            looker.post(path, fields, back)
        context.close()
        report.update(looker.offenders)
        seen += looker.seen
    print(f"every screen: {seen} pages and parts, each in light and dark, in {time.monotonic() - started:.1f} s")
    assert seen > 100
    assert not report, "\n".join(f"{where}:\n  " + "\n  ".join(map(str, found)) for where, found in report.items())

"""Every word a page says goes through the translation catalogue or comes from the data (issue 25,
"language at the edge"): pages are rendered in a pseudo-locale in which every translated string
comes back marked ⟦…⟧; what is left outside the marks, once the game's own data (names, numbers,
cards) and the variant files' texts in that language are set aside, is a string written in a
template or in the code without ``_()`` — the test names it. The same for every referee verdict
of every variant, through the JSON API.
"""

from __future__ import annotations

import html
import re
import tomllib
from html.parser import HTMLParser
from itertools import combinations
from pathlib import Path

import pytest
from babel import Locale
from flask_babel import Domain

from models.core.rules import glossary
from models.core.text import gloss_first
from models.services.games import MancheEntry
from views import texts

VARIANTS = Path(__file__).resolve().parents[2] / "models" / "core" / "variants"
OPEN, CLOSE = "\u27e6", "\u27e7"
# What is not a sentence: the name of the app, formats and technical words said the same in both
# languages, card faces and suits.
# The language switch names each language in that language.
NOT_WORDS = {"Carte", "JSON", "CSV", "QR", "PNG", "SVG", "API", "UTC", "English", "Français"}
CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\bJK\b")  # the card notation (SPEC §1), never translated


class Pseudo:
    """Translations that mark everything they translate."""

    def __init__(self, real):
        self.real = real

    def ugettext(self, text):
        return OPEN + self.real.ugettext(text) + CLOSE

    def ungettext(self, singular, plural, n):
        return OPEN + self.real.ungettext(singular, plural, n) + CLOSE

    def upgettext(self, context, text):
        return OPEN + self.real.upgettext(context, text) + CLOSE

    def unpgettext(self, context, singular, plural, n):
        return OPEN + self.real.unpgettext(context, singular, plural, n) + CLOSE

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


def forget_worded_cards():
    """Card names and faces are worded once per language and kept (views/texts.py): forgotten, so
    that they are worded again through the pseudo-locale, and again after it."""
    texts._card_name.cache_clear()
    texts._card_face.cache_clear()


@pytest.fixture
def pseudo(monkeypatch):
    real = Domain.get_translations
    monkeypatch.setattr(Domain, "get_translations", lambda self: Pseudo(real(self)))
    forget_worded_cards()
    yield
    forget_worded_cards()


def data_texts(language: str) -> set[str]:
    """Every text of the variant and rule files in ``language`` (data, not the catalogue's)."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                if key == language and isinstance(inner, str):
                    found.add(inner)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for path in VARIANTS.rglob("*.toml"):
        walk(tomllib.loads(path.read_text(encoding="utf-8")))
    found |= glossed(found, glossary(language))
    # a text is shown a paragraph or a list item at a time
    lines = {re.sub(r"^[-*] ", "", line.strip()) for text in found for line in text.splitlines()}
    months = Locale.parse(language).months["format"]["abbreviated"].values()  # dates, as Babel writes them
    return {normal(text) for text in found | lines | set(months) if text.strip()}


def glossed(found: set[str], names: dict[str, str]) -> set[str]:
    """Each text as an English page may show it: a French name glossed where the page first uses
    it, and any of a text's names may be the page's first (glossary.toml, data too)."""
    out = set()
    for text in found:
        used = [name for name in names if name in text]
        for size in range(1, len(used) + 1):
            out |= {gloss_first(text, {n: names[n] for n in chosen}, set()) for chosen in combinations(used, size)}
    return out


def normal(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


class Visible(HTMLParser):
    """The text a person reads or hears: text nodes and the labels of controls and images."""

    SKIP = {"script", "style", "title"}

    def __init__(self):
        super().__init__()
        self.parts, self.skipping = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            if name in ("aria-label", "alt", "title", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def unmarked(text: str, known: set[str]) -> list[str]:
    """The words said outside the marks and outside the known data."""
    while True:  # the innermost marks first: a translated sentence holds translated words
        stripped = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
        if stripped == text:
            break
        text = stripped
    text = CARD_CODE.sub(" ", normal(text))
    for item in sorted(known, key=len, reverse=True):
        text = text.replace(item, " ")
    words = re.findall(r"[^\W\d_]{2,}", text)
    return [w for w in words if w not in NOT_WORDS]


def leftovers(page: str, known: set[str]) -> list[str]:
    # A rule search's hits quote the rule texts as the search index holds them (built once, in each
    # language, from the same catalogue and files): quotes, not strings of their own.
    page = re.sub(r'<ol class="hits">.*?</ol>', "", page, flags=re.S)
    page = re.sub(r"https?://[^\s<\"']+", " ", page)  # addresses (the share link, shown as text)
    parser = Visible()
    parser.feed(page)
    return unmarked(html.unescape(" ".join(parser.parts)), known)


PLAYERS = ["Ana", "Bob", "Chloé"]


@pytest.fixture
def game(games):
    created, token = games.create_game("classique", PLAYERS, first_dealer=0)
    games.record_manche(created.id, MancheEntry("Ana", {"Bob": ["3C", "KD"], "Chloé": ["8H"]}))
    games.record_manche(created.id, MancheEntry("Bob", {"Ana": ["5S"]}, typed={"Chloé": 12}))
    return created, token


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_says_only_what_the_catalogue_or_the_data_says(app, game, pseudo, language):
    created, token = game
    client = app.test_client()
    client.set_cookie("lang", language)
    with client.session_transaction() as session:
        session["tokens"] = [[created.id, token]]
    base = f"/games/{created.id}"
    urls = ["/", "/games", "/games/new", "/games/import", "/calculette", "/rules", "/rules/classique",
            "/rules/les-huit", "/rules/compare", "/rules/search?q=huit", "/referee", "/variants/new?base=classique",
            base, f"{base}/rounds", f"{base}/rules", f"{base}/referee", f"{base}/manches/new",
            f"{base}/manches/1/edit", f"/s/{created.share_id}", "/players/Ana", "/offline", "/nowhere"]  # fmt: skip
    known = data_texts(language) | set(PLAYERS) | {created.share_id, created.id}
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        words = leftovers(response.get_data(as_text=True), known)
        if words:
            found[url] = sorted(set(words))
    assert not found, f"said without the catalogue: {found}"


VERDICTS = [("8H", "3C"), ("2S", "2H"), ("JK", "5D"), ("AS", "AH"), ("7C", "7D"), ("QS", "KS"), ("10D", "JD")]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_verdict_says_only_what_the_catalogue_or_the_data_says(app, client, pseudo, language):
    known = data_texts(language)
    found = {}
    for variant in [v.id for v in app.extensions["registry"].all()]:
        for top, card in VERDICTS:
            for pending in (False, True):
                body = {"variant": variant, "top": top, "card": card, "pending": pending}
                answer = client.post("/api/v1/referee/check", json=body, headers={"Accept-Language": language})
                assert answer.status_code in (200, 422), (body, answer.get_json())
                data = answer.get_json()
                texts = [data.get("reason", ""), data.get("rule", ""), data.get("effect", "")]
                texts += [data.get("error", {}).get("message", "")]
                words = unmarked(" ".join(texts), known)
                if words:
                    found[(variant, top, card, pending)] = sorted(set(words))
    assert not found, f"said without the catalogue: {found}"

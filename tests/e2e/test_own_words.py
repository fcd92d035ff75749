"""Our own words (issues 16 and 26): no sentence of the rule sources on any page, in any answer
or any message, in French or in English.

The rule sources in ``../shared/seeds/`` are sources of facts; every sentence the app shows is
written anew. This test reads the sources and fails on any run of RUN or more words that a text
of the app shares with them: every page a person can open (rules, comparison, search, the
dispute checker and its verdicts, the calculator, a game and its entry, the house-rules editor,
the lists, the offline and error pages), every answer of the dispute checker, every message of
the catalogue (each error among them) and every rule data file. A page is read as a person reads
it: a heading runs on into its paragraph (« La donne » + « Le donneur distribue … »). A few set
phrases that any French text would use are set aside.

The sources live outside the repository: ``$CARTE_SEEDS``, else ``../shared/seeds`` next to the
repository. Without them (a clone on its own) these tests are skipped, saying why; CI has them.
A ``CARTE_SEEDS`` that names a place without sources is a mistake: the tests fail.
"""

from __future__ import annotations

import html
import itertools
import os
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
RUN = 8
SET_PHRASES = (
    "dans le sens des aiguilles d'une montre",
    "dans le sens inverse des aiguilles d'une montre",
)
WORD = re.compile(r"[^\W_]+")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{[^}]*\}")


def seeds_dir() -> Path:
    configured = os.environ.get("CARTE_SEEDS")
    return Path(configured) if configured else (ROOT / ".." / "shared" / "seeds").resolve()


def words(text: str) -> list[str]:
    """Lower-case words, accents kept, apostrophes and punctuation as separators."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").lower()
    return WORD.findall(text)


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    """Every run of ``n`` consecutive words of ``text``, read on across lines (a heading and the
    paragraph under it are read together), the set phrases left out; a blank line ends a run."""
    folded = unicodedata.normalize("NFKC", text).replace("’", "'").lower()
    for phrase in SET_PHRASES:
        folded = folded.replace(phrase, "\n\n")
    out = set()
    for block in re.split(r"\n\s*\n", folded):
        ws = WORD.findall(block)
        out.update(tuple(ws[i : i + n]) for i in range(len(ws) - n + 1))
    return out


@pytest.fixture(scope="module")
def seed_runs() -> dict[tuple[str, ...], str]:
    directory = seeds_dir()
    files = sorted(directory.glob("*.txt")) if directory.is_dir() else []
    if not files:
        if os.environ.get("CARTE_SEEDS"):
            pytest.fail(f"CARTE_SEEDS names {directory}, which holds no rule source (*.txt)")
        pytest.skip(f"the rule sources are not here (no *.txt in {directory}): set CARTE_SEEDS to check our own words")
    out = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        ws = words(text)
        for i in range(len(ws) - RUN + 1):
            out.setdefault(tuple(ws[i : i + RUN]), path.name)
    return out


def shared(texts: dict[str, str], seed_runs) -> list[str]:
    """Each (where, copied words, source) found in ``texts`` ({where: text})."""
    found = []
    for where, text in texts.items():
        for run in sorted(runs(text)):
            if run in seed_runs:
                found.append(f"{where}: « {' '.join(run)} » ({seed_runs[run]})")
    return found


def page_text(body: str) -> str:
    """The visible text of an HTML page, one line per block element."""
    body = re.sub(r"(?s)<(script|style|head)\b.*?</\1>", " ", body)
    body = re.sub(r"(?i)<(p|li|h[1-6]|tr|td|th|dt|dd|div|section|aside|br|option|label|legend)\b", "\n<", body)
    body = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return "\n".join(" ".join(line.split()) for line in body.splitlines() if line.strip())


def test_words_and_runs_ignore_case_accents_kept_and_punctuation():
    assert words("L’As de Cœur, puis le 8 !") == ["l", "as", "de", "cœur", "puis", "le", "8"]
    text = "un deux trois quatre cinq six sept huit neuf"
    assert len(runs(text)) == 2
    assert runs("x " + SET_PHRASES[0] + " y") == set()


def test_the_detector_finds_a_copied_sentence(seed_runs):
    """A sentence of source 001, copied, is caught (so the test below can fail)."""
    copied = "Le joueur suivant pioche 2 cartes et passe son tour."  # source 001, the 2
    assert shared({"probe": copied}, seed_runs)
    assert not shared({"probe": "Le suivant tire 2 cartes et ne joue pas."}, seed_runs)


VERDICT_FORMS = [  # a few « Litige ? » forms: a legal card, an illegal one with its cost, a chain sent on
    {"variant": "classique", "top_rank": "3", "top_suit": "H", "card_rank": "8", "card_suit": "C"},
    {"variant": "deux-jeux", "top_rank": "9", "top_suit": "C", "card_rank": "3", "card_suit": "D"},
    {"variant": "huit-elabore", "top_rank": "9", "top_suit": "H", "card_rank": "2", "card_suit": "H"},
    {"variant": "huit-americain", "top_rank": "A", "top_suit": "S", "card_rank": "A", "card_suit": "H", "pending": "1"},
    {"variant": "classique", "top_rank": "JK", "card_rank": "5", "card_suit": "S"},  # the suit named is asked first
]


def every_page(client, games) -> dict[str, str]:
    """Every page a person can open, in French and in English, as its visible text."""
    from models.core.rules import catalog

    variants = list(catalog().variants)
    house = client.post(
        "/api/v1/variants", json={"base": "classique", "name": "Chez nous", "deck": {"decks": 2, "jokers_per_deck": 2}}
    )
    assert house.status_code == 201, house.get_json()
    house_id = house.get_json()["id"]
    game, token = games.create_game("huit-americain", ["Ana", "Bob", "Chloé"])
    with client.session_transaction() as session:  # this phone created the game and the house rules
        session["tokens"] = {game.id: token}
        session["house_tokens"] = {house_id: house.get_json()["edit_token"]}
    urls = ["/", "/rules", "/rules/compare", f"/rules/compare?with={house_id}", "/rules/search?q=joker"]
    urls += [f"/rules/{v}" for v in [*variants, house_id]] + [f"/referee?variant={v}" for v in [*variants, house_id]]
    urls += ["/calculette", "/games/new", "/games", "/players/Ana", "/games/import", "/offline", "/no-such-page"]
    urls += [f"/variants/new?base={v}" for v in variants] + [f"/variants/{house_id}", f"/variants/{house_id}/edit"]
    urls += [
        f"/games/{game.id}",
        f"/games/{game.id}/manches/new",
        f"/games/{game.id}/rules",
        f"/games/{game.id}/referee",
    ]
    texts = {}
    for url, language in itertools.product(urls, ("fr", "en")):
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code in (200, 404), (url, response.status_code)
        texts[f"{url} ({language})"] = page_text(response.get_data(as_text=True))
    for i, (form, language) in enumerate(itertools.product(VERDICT_FORMS, ("fr", "en"))):
        response = client.post("/referee", data={"checked": "1", **form}, headers={"Accept-Language": language})
        assert response.status_code == 200, form
        texts[f"/referee verdict #{i} ({language})"] = page_text(response.get_data(as_text=True))
    return texts


def test_every_page_is_in_our_own_words(client, games, seed_runs):
    texts = every_page(client, games)
    assert len(texts) > 80  # the pages were really read
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)


def test_a_heading_runs_on_into_its_paragraph(seed_runs):
    """Source 004 « La donne / Le donneur distribue les cartes une à une », copied across a heading
    and its paragraph, is caught (the rule page of huit-americain once did this)."""
    page = page_text("<h2>La donne</h2><p>Le donneur distribue les cartes une par une : 8 au minimum.</p>")
    assert shared({"probe": page}, seed_runs)


def referee_answers(app) -> dict[str, str]:
    """Every distinct answer of the dispute checker (``every_verdict``), in both languages."""
    from tests.e2e.every_verdict import every_verdict
    from views.texts import error_message, verdict_json

    verdicts, errors = every_verdict()
    texts = {}
    for language in ("fr", "en"):
        with app.test_request_context(headers={"Accept-Language": language}):
            seen = {error_message(e) for e in errors}
            for _question, verdict in verdicts:
                seen.update(v for v in verdict_json(verdict).values() if isinstance(v, str))
        texts.update({f"referee answer ({language}) #{i}": t for i, t in enumerate(sorted(seen))})
    return texts


def test_referee_answers_are_in_our_own_words(app, seed_runs):
    texts = referee_answers(app)
    assert len(texts) > 100  # the loop above really produced the answers
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)


def test_messages_catalogue_is_in_our_own_words(seed_runs):
    with open(ROOT / "translations/fr/LC_MESSAGES/messages.po", "rb") as f:
        catalogue = read_po(f, locale="fr")
    texts = {}
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for i, text in enumerate((*ids, *strings)):
            texts[f"messages.po {ids[0][:40]!r} #{i}"] = PLACEHOLDER.sub("\n\n", text)
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)


def data_texts(value, where: str):
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from data_texts(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from data_texts(item, f"{where}[{index}]")


def test_rule_data_files_are_in_our_own_words(seed_runs):
    texts = {}
    paths = sorted((ROOT / "models" / "core" / "variants").rglob("*.toml"))
    assert len(paths) >= 13, paths  # the six variant files, the tables and the six rule files
    for path in paths:
        with path.open("rb") as f:
            texts.update(data_texts(tomllib.load(f), path.relative_to(ROOT).as_posix()))
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)

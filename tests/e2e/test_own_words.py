"""Our own words (issue 16): no sentence of the rule sources on any page or in any answer.

The rule sources in ``../shared/seeds/`` are sources of facts; every sentence the app shows is
written anew. This test reads the sources and fails on any run of RUN or more words that a text
of the app shares with them: every rule page (French and English), the index, the comparison,
the dispute checker's answers, the messages catalogue and the rule data files. A few set
phrases that any French text would use are set aside.

The sources live outside the repository: ``$CARTE_SEEDS``, else ``../shared/seeds`` next to the
repository. In CI (``CI=true``) a missing directory fails the test; elsewhere it is skipped.
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
    return Path(configured) if configured else ROOT / ".." / "shared" / "seeds"


def words(text: str) -> list[str]:
    """Lower-case words, accents kept, apostrophes and punctuation as separators."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").lower()
    return WORD.findall(text)


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    """Every run of ``n`` consecutive words of ``text``, the set phrases left out."""
    folded = unicodedata.normalize("NFKC", text).replace("’", "'").lower()
    for phrase in SET_PHRASES:
        folded = folded.replace(phrase, "\n")
    out = set()
    for line in folded.split("\n"):
        ws = WORD.findall(line)
        out.update(tuple(ws[i : i + n]) for i in range(len(ws) - n + 1))
    return out


@pytest.fixture(scope="module")
def seed_runs() -> dict[tuple[str, ...], str]:
    directory = seeds_dir()
    files = sorted(directory.glob("*.txt")) if directory.is_dir() else []
    if not files:
        reason = f"the rule sources are missing: no *.txt in {directory} (set CARTE_SEEDS)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
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


def test_rule_pages_and_comparison_are_in_our_own_words(client, seed_runs):
    from models.core.rules import catalog

    urls = ["/rules", "/rules/compare"] + [f"/rules/{v}" for v in catalog().variants]
    texts = {}
    for url, language in itertools.product(urls, ("fr", "en")):
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code == 200, url
        texts[f"{url} ({language})"] = page_text(response.get_data(as_text=True))
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)


def referee_answers(app) -> dict[str, str]:
    """Every distinct answer of the dispute checker over the variants' cards, in both languages."""

    from models.core import referee
    from models.core.cards import RANKS
    from models.core.errors import DomainError
    from models.core.rules import catalog
    from views.texts import error_message, verdict_json

    cat = catalog()
    verdicts, errors = {}, {}
    for variant in cat.variants.values():
        bools = [o.id for o in variant.options if o.kind == "bool"]
        rulesets = [cat.resolve(variant.id)] + (
            [cat.resolve(variant.id, options=dict.fromkeys(bools, True))] if bools else []
        )
        ranks = list(RANKS) + (["JK"] if variant.jokers_per_deck else [])
        tops = [r if r == "JK" else r + "H" for r in ranks]
        cards = tops + [r + "S" for r in RANKS]
        counts = sorted({variant.min_players, min(4, variant.max_players)})
        for ruleset, top, card, players, pending, last in itertools.product(
            rulesets, tops, cards, counts, (False, True), (False, True)
        ):
            rule = variant.card_rule(referee.parse_card(top))
            for covered in (None, "KH", "3C") if rule and rule.takes_rank else (None,):
                try:
                    verdict = referee.check(
                        ruleset,
                        top,
                        card,
                        players=players,
                        active_suit="S",
                        pending=pending,
                        last_card=last,
                        covered=covered,
                    )
                except DomainError as error:
                    errors.setdefault(repr((error.template, error.params)), error)
                    continue
                verdicts.setdefault(repr(verdict), verdict)
    texts = {}
    for language in ("fr", "en"):
        with app.test_request_context(headers={"Accept-Language": language}):
            seen = {error_message(e) for e in errors.values()}
            for verdict in verdicts.values():
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
            texts[f"messages.po {ids[0][:40]!r} #{i}"] = PLACEHOLDER.sub("\n", text)
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
    for path in sorted((ROOT / "models" / "variants").rglob("*.toml")):
        with path.open("rb") as f:
            texts.update(data_texts(tomllib.load(f), path.relative_to(ROOT).as_posix()))
    found = shared(texts, seed_runs)
    assert not found, "copied from the sources:\n" + "\n".join(found)

"""English that teaches: the English pages call the game Crazy Eights, and each French name they
keep (a variant's, the first card's, the call a player makes) is explained once, where the page
first uses it in a sentence. The French pages explain nothing: their readers know the words."""

from __future__ import annotations

import re

import pytest

from models.core.rules import catalog
from models.core.text import gloss_first
from tests.e2e.test_own_words import page_text

# Each French name, and words of its English gloss written by hand (a fragment, not the data).
GLOSSED = {
    "Huit américain": '"American eight"',
    "Huit élaboré": '"elaborate eight"',
    "Les huit": '"the eights"',
    "Passe-couillon": "an old French game",
    "bergère": '"shepherdess"',
    '"Carte': '(French for "card',
}

PAGES = ["/", "/rules", "/games/new"] + [f"/rules/{v}" for v in catalog().variants]


def english(client, url: str) -> str:
    response = client.get(url, headers={"Accept-Language": "en"})
    assert response.status_code == 200, url
    return page_text(response.get_data(as_text=True))


def in_a_sentence(line: str, name: str) -> bool:
    """A line that uses the name in a sentence: not the name alone (a heading, a choice), nor the
    link to its rules."""
    return name in line and line.strip("<> ") not in (name, f"The rules of {name}")


def test_the_english_home_page_and_the_rules_call_the_game_crazy_eights(client):
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.search(r'<meta name="description" content="[^"]*Crazy Eights', home)
    assert "Crazy Eights (8 américain in French)" in page_text(home)
    assert "every variant of Crazy Eights" in english(client, "/rules")
    # the sources name the game in English: « un guide du 8 américain » is "a French guide to Crazy Eights"
    assert "Source: a French guide to Crazy Eights" in english(client, "/rules/classique")


@pytest.mark.parametrize("url", PAGES)
def test_each_french_name_is_glossed_once_where_it_first_appears(client, url):
    lines = english(client, url).splitlines()
    text = "\n".join(lines)
    for name, gloss in GLOSSED.items():
        used = [line for line in lines if in_a_sentence(line, name)]
        if not used:
            continue
        first = used[0]
        assert f"{name}" in first and gloss in first.split(name, 1)[1][: len(gloss) + 60], (url, name, first)
        assert text.count(gloss) == 1, (url, name)


def test_the_glosses_name_the_game_once_on_the_home_page_where_its_cards_first_say_it(client):
    """« Huit américain » appears in three of the home page's cards (its own, Huit élaboré's, the
    link to its rules): only its own card's summary, the first sentence to use it, explains it."""
    text = english(client, "/")
    card = text[text.index("Huit américain") :]
    assert card.split("\n")[1].startswith('<>Huit américain ("American eight"')
    assert "is the quick form of Huit américain, without Jokers" in text


@pytest.mark.parametrize("url", ["/", "/rules", "/rules/huit-americain", "/rules/les-huit"])
def test_the_french_pages_gloss_nothing(client, url):
    text = page_text(client.get(url, headers={"Accept-Language": "fr"}).get_data(as_text=True))
    for gloss in GLOSSED.values():
        assert gloss not in text, (url, gloss)


def test_a_gloss_follows_the_first_sentence_only_and_never_a_bare_name():
    glossary = {"Les huit": "the eights"}
    seen: set[str] = set()
    assert gloss_first("Les huit", glossary, seen) == "Les huit"  # a heading stays bare
    assert gloss_first("A cousin of Les huit.", glossary, seen) == "A cousin of Les huit (the eights)."
    assert gloss_first("Les huit again.", glossary, seen) == "Les huit again."

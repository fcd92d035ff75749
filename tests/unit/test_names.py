"""Hardening (issue 12): one rule for names (players, teams, house rules), team names that collide
refused, house scoring tables bounded like the editor's (MAX_CARD_POINTS)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlmodel import Session

from models.core.names import InvalidName, clean_name, tell_apart
from models.core.problems import VariantFileError
from models.core.rules import validate_table
from models.core.variant import MAX_CARD_POINTS

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def count(app, model) -> int:
    with Session(app.extensions["database"].reader) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()


# --- house rules: their name and their table ----------------------------------------------------


# --- the one rule for names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "given_name, kept",
    [
        ("  Ana   Maria ", "Ana Maria"),
        ("Ana\tMaria\n", "Ana Maria"),
        ("Ana\u00a0Maria", "Ana Maria"),  # a no-break space is a space
        ("E\u0301lodie", "\u00c9lodie"),  # E + combining acute: NFC makes it one É
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),  # 👨‍👩‍👧
        ("\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f3f3\ufe0f\u200d\U0001f308"),  # 🏳️‍🌈 (VS16 before the joiner)
        ("\U0001f9d1\U0001f3fd\u200d\U0001f4bb", "\U0001f9d1\U0001f3fd\u200d\U0001f4bb"),  # 🧑🏽‍💻 (skin tone)
        ("Mamie \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
         "Mamie \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"),  # Scotland's flag
        ("مريم", "مريم"),  # right-to-left text needs no override
        ("O'Brien-Duval", "O'Brien-Duval"),
        ("x" * 40, "x" * 40),
    ],
)  # fmt: skip
def test_a_name_is_kept_normalised(given_name, kept):
    assert clean_name(given_name, 40) == kept


@pytest.mark.parametrize(
    "given_name, reason",
    [
        ("Ana\u200d", "invisible"),  # a joiner that joins nothing
        ("A\u200dna", "invisible"),  # between letters
        ("\u200d\U0001f468", "invisible"),
        ("An\u200ba", "invisible"),  # zero-width space
        ("An\u200ca", "invisible"),  # zero-width non-joiner
        ("\ufeffAna", "invisible"),  # byte order mark
        ("Ana\u2060", "invisible"),  # word joiner
        ("\u200b", "invisible"),
        ("\u202eanA", "invisible"),  # right-to-left override
        ("\u202aAna\u202c", "invisible"),
        ("\u2066Ana\u2069", "invisible"),  # isolates
        ("A\x00na", "invisible"),
        ("A\x1bna", "invisible"),
        ("A\x7fna", "invisible"),
        ("\ud800", "invisible"),  # a lone surrogate
        ("\ue000", "invisible"),  # private use
        ("\U000e0067", "invisible"),  # a tag outside a flag
        ("", "empty"),
        (" \t\n\u3000", "empty"),
        ("x" * 41, "too_long"),
        (5, "not_text"),
        (None, "not_text"),
    ],
)
def test_a_name_is_refused_with_a_reason_and_the_field(given_name, reason):
    with pytest.raises(InvalidName) as refused:
        clean_name(given_name, 40, field="players.0")
    assert refused.value.reason == reason and refused.value.field == "players.0" and refused.value.status == 422


@settings(max_examples=300)
@given(st.text(st.one_of(st.characters(), st.sampled_from("\u200d\u200b\u202e\u2066\ufeff \t\U0001f468"))))
def test_a_name_is_refused_or_kept_normalised_for_good(text):
    """Whatever is typed: refused, or kept in a form that the rule keeps as it is (the same name
    on the next request), with no invisible character save an emoji's joiner."""
    try:
        name = clean_name(text, 40)
    except InvalidName:
        return
    assert name == " ".join(unicodedata.normalize("NFC", text).split())
    assert clean_name(name, 40) == name and 0 < len(name) <= 40
    assert not re.search("[\x00-\x1f\x7f\u200b\u200c\u2060\ufeff\u202a-\u202e\u2066-\u2069]", name)


def test_a_table_file_is_bounded_by_the_same_limit():
    name = {"fr": "x", "en": "x"}
    ranks = {**{rank: 1 for rank in RANKS}, "K": MAX_CARD_POINTS + 1}
    with pytest.raises(VariantFileError) as refused:
        validate_table("big", {"source": "x", "name": name, "ranks": ranks}, "tables.toml")
    assert refused.value.field == "big.ranks.K"
    ranks["K"] = MAX_CARD_POINTS
    assert validate_table("big", {"source": "x", "name": name, "ranks": ranks}, "tables.toml").ranks["K"] == 1000


JEANS = [
    "Jean-Baptiste",
    "Jean-Pierre",
    "Jean-Paul",
    "Marie-Éléonore",
    "Marie-Antoinette",
    "Bob",
    "Maximilien-Alexandre",
]


def test_names_that_fit_stay_whole_and_the_others_are_cut_where_they_differ():
    # Eight characters: the first word, then as many letters as tell the name from the others.
    assert tell_apart(JEANS, 8) == {
        "Jean-Baptiste": "Jean-B.",
        "Jean-Pierre": "Jean-Pi.",
        "Jean-Paul": "Jean-Pa.",
        "Marie-Éléonore": "Marie-É.",
        "Marie-Antoinette": "Marie-A.",
        "Bob": "Bob",
        "Maximilien-Alexandre": "MA",  # "Maximilien-A." does not fit: its initials
    }


def test_where_the_cut_does_not_fit_initials_lengthened_until_they_differ():
    labels = tell_apart(JEANS, 6)
    assert labels["Jean-Baptiste"] == "JB"
    assert (labels["Jean-Pierre"], labels["Jean-Paul"]) == ("JPi", "JPa")
    assert (labels["Marie-Antoinette"], labels["Maximilien-Alexandre"]) == ("MAn", "MAl")
    assert labels["Bob"] == "Bob"


@given(
    st.lists(
        st.text(alphabet="AaBb- ", min_size=1, max_size=14).map(str.strip).filter(bool),
        unique_by=str.casefold,
        max_size=8,
    )
)
def test_no_two_labels_are_the_same(names):
    for room in (4, 6, 8, 12):
        labels = tell_apart(names, room)
        assert len({label.casefold() for label in labels.values()}) == len(names)

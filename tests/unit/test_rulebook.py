"""Rule pages, search, comparison and the dispute checker screen (issue 4).

The rule texts live in models/core/variants/rules/*.toml; the special cards, points, finishing,
end of game and house options are generated from the variant data. Expected values below come
from SPEC §2–§3 (tables, special cards) and the seeds.
"""

from __future__ import annotations

import shutil

import pytest

from models.core import rulebook
from models.core.comparison import comparison
from models.core.problems import VariantFileError
from models.core.rules import catalog
from models.core.rulesearch import search
from models.core.text import plain


def scope(variant_ids=None) -> list:
    """The variants a search looks through (all the built-in ones by default)."""
    return [catalog().variant(v) for v in variant_ids] if variant_ids else list(catalog().variants.values())


def copy_rules(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(rulebook.RULES_DIR, folder)
    return folder


# --- search ---------------------------------------------------------------------------------------


# --- the dispute checker screen ---------------------------------------------------------------------


# --- the rule files -------------------------------------------------------------------------------


def test_every_variant_has_its_rules_with_both_languages():
    book = rulebook.rulebook()
    assert list(book.variants) == list(catalog().variants)
    for variant_id, rules in book.variants.items():
        assert rules.seed.startswith(catalog().variant(variant_id).source + "_")
        kinds = {s.generated for s in rules.sections if s.generated}
        assert {"cards", "scoring", "finish", "end"} <= kinds
        for section in rules.sections:
            assert section.title["fr"] and section.title["en"]
            assert bool(section.blocks["fr"]) == bool(section.blocks["en"])


def test_a_missing_english_text_stops_loading_naming_file_and_field(tmp_path):
    folder = copy_rules(tmp_path)
    path = folder / "les-huit.toml"
    text = path.read_text()
    start = text.index('en = """', text.index('id = "donne"'))
    end = text.index('"""', start + 8) + 3
    path.write_text(text[:start] + text[end:])
    with pytest.raises(VariantFileError) as error:
        rulebook.load_rulebook(catalog(), folder)
    assert error.value.path.endswith("les-huit.toml")
    assert error.value.field == "sections[1].en"


def test_a_missing_title_or_file_or_placed_interpretation_is_refused(tmp_path):
    folder = copy_rules(tmp_path)
    path = folder / "classique.toml"
    path.write_text(
        path.read_text().replace('title = { fr = "La donne", en = "Dealing" }', 'title = { fr = "La donne" }')
    )
    with pytest.raises(VariantFileError) as error:
        rulebook.load_rulebook(catalog(), folder)
    assert error.value.field == "sections[1].title.en"

    folder = copy_rules(tmp_path / "b")
    path = folder / "classique.toml"
    path.write_text(path.read_text().replace('interpretations = ["deck"]', ""))
    with pytest.raises(VariantFileError) as error:
        rulebook.load_rulebook(catalog(), folder)
    assert error.value.code == "interpretation_placement" and error.value.params == {"about": "deck"}

    folder = copy_rules(tmp_path / "c")
    (folder / "54-cartes.toml").unlink()
    with pytest.raises(VariantFileError, match="54-cartes.toml"):
        rulebook.load_rulebook(catalog(), folder)


def test_paragraphs_and_lists_are_parsed():
    blocks = rulebook.parse_blocks("Une phrase\nsur deux lignes.\n\nVous pouvez :\n- un cœur ;\n- un 8.\n\nFin.")
    assert blocks == (
        ("p", "Une phrase sur deux lignes."),
        ("p", "Vous pouvez :"),
        ("ul", ("un cœur ;", "un 8.")),
        ("p", "Fin."),
    )


def test_comparison_rows_cover_deck_deal_table_target_and_finishing():
    rows = comparison(list(catalog().variants.values()), catalog().tables)
    labels = [r.label.template for r in rows if r.label]
    assert labels == [
        "Cards",
        "Players",
        "Deal",
        "Scoring table",
        "Points",
        "End of the game",
        "Going out",
        "Wrong card",
        "House options",
    ]
    finishing = next(r for r in rows if r.label and r.label.template == "Going out")
    rendered = [" ".join(plain(m) for m in cell) for cell in finishing.cells]
    assert rendered[0] == "Any card may be the last one."
    assert "a 10" in rendered[1] and "an 8 / a JK" in rendered[3] and "an 8 / a 9" in rendered[4]


def test_search_marks_the_matched_words_in_the_snippet():
    hit = search("pioche vide", "fr", scope(["classique"]), catalog().tables, rulebook.rulebook(), say=plain)[0]
    marked = [text for text, mark in hit.parts() if mark]
    assert "pioche" in marked and "épuisée" in marked
    assert "".join(text for text, _ in hit.parts()) == hit.snippet
    book = rulebook.rulebook()
    assert search("", "fr", scope(), catalog().tables, book, say=plain) == []
    assert search("le la de", "fr", scope(), catalog().tables, book, say=plain) == []


def test_a_search_ranks_the_section_whose_heading_answers_first():
    # « joker dernière carte » on huit-américain: « dernière carte » is the card one goes out on;
    # « Sur quelle carte finir ? » answers « carte » and « finir » in its heading and the Joker in its
    # text, so it comes before the Joker's paragraph and the end of the manche.
    from models.core.rulesearch import query_concepts

    assert any("finir" in concept for concept in query_concepts("joker dernière carte", "fr"))

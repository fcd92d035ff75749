"""Variants as data: the catalog, resolve() and malformed files (SPEC §2)."""

import shutil

import pytest

from models.core import rules
from models.core.errors import UnknownVariant, ValidationError
from models.core.problems import VariantFileError

CAT = rules.load_catalog()

# SPEC §2 table: id -> (decks, jokers in the whole deck, min, max, mode, table, target, finish_forbidden)
SPEC_VARIANTS = {
    "classique": (1, 2, 2, 5, "penalty", "classique", 500, set()),
    "deux-jeux": (2, 0, 2, 10, "penalty", "standard", 500, {"10"}),
    "54-cartes": (1, 2, 2, 6, "penalty", "54-cartes", 500, set()),
    "huit-americain": (2, 2, 2, 8, "penalty", "huit-americain", 500, {"8", "JK"}),
    "huit-elabore": (1, 0, 2, 8, "penalty", "huit-elabore", 500, {"8", "9"}),
    "les-huit": (1, 0, 2, 4, "winner", "standard", 100, set()),
}


def test_the_six_variants_and_five_tables():
    assert set(CAT.variants) == set(SPEC_VARIANTS)
    assert set(CAT.tables) == {"classique", "54-cartes", "huit-americain", "huit-elabore", "standard"}


def test_builtin_catalog_is_the_same():
    assert set(rules.catalog().variants) == set(SPEC_VARIANTS)


@pytest.mark.parametrize("variant_id", list(SPEC_VARIANTS))
def test_variant_defaults_match_the_spec(variant_id):
    decks, jokers, low, high, mode, table, target, forbidden = SPEC_VARIANTS[variant_id]
    variant = CAT.variant(variant_id)
    assert variant.id == variant_id
    assert variant.decks == decks
    assert variant.decks * variant.jokers_per_deck == jokers
    assert (variant.min_players, variant.max_players) == (low, high)
    assert variant.mode == mode
    assert variant.table.id == table
    assert variant.target == target
    assert set(variant.finish_forbidden) == forbidden

    ruleset = CAT.resolve(variant_id)
    assert ruleset.decks == decks
    assert ruleset.jokers == jokers
    assert ruleset.deck.size == 52 * decks + jokers
    assert ruleset.mode == mode
    assert ruleset.table.id == table
    assert ruleset.target == target
    assert ruleset.rounds is None
    assert set(ruleset.finish_forbidden) == forbidden


@pytest.mark.parametrize(
    ("variant_id", "size"),
    [
        ("classique", 54),  # 52 + 2 jokers
        ("deux-jeux", 104),  # 2×52
        ("54-cartes", 54),  # 52 + 2
        ("huit-americain", 106),  # 2×52 + 2
        ("huit-elabore", 52),
        ("les-huit", 52),
    ],
)
def test_deck_sizes(variant_id, size):
    assert CAT.resolve(variant_id).deck.size == size


@pytest.mark.parametrize(
    ("variant_id", "players", "cards"),
    [
        ("classique", 2, 7),
        ("classique", 5, 7),
        ("deux-jeux", 10, 7),
        ("54-cartes", 6, 8),
        ("huit-americain", 8, 8),
        ("huit-elabore", 3, 8),
        ("les-huit", 2, 7),
        ("les-huit", 3, 5),
        ("les-huit", 4, 5),
    ],
)
def test_deal(variant_id, players, cards):
    assert CAT.variant(variant_id).deal.cards_for(players) == cards


def test_dealer_may_deal_more_only_in_huit_americain_and_huit_elabore():
    more = {v.id for v in CAT.variants.values() if v.deal.more_allowed}
    assert more == {"huit-americain", "huit-elabore"}


def test_partners_only_in_les_huit_at_four():
    assert CAT.variant("les-huit").partners_players == 4
    for variant_id in SPEC_VARIANTS.keys() - {"les-huit"}:
        assert CAT.variant(variant_id).partners_players is None
    ruleset = CAT.resolve("les-huit")
    assert ruleset.partners
    assert ruleset.teams_apply(4)
    assert not ruleset.teams_apply(3)
    assert not CAT.resolve("les-huit", options={"partners": False}).teams_apply(4)


def test_blocked_manche_only_in_les_huit():
    assert {v.id for v in CAT.variants.values() if v.blocked} == {"les-huit"}


def test_deux_jeux_lets_the_group_choose_the_table():
    assert CAT.variant("deux-jeux").table_choice


@pytest.mark.parametrize("variant_id", list(SPEC_VARIANTS))
def test_texts_in_french_and_english(variant_id):
    variant = CAT.variant(variant_id)
    for text in (variant.name, variant.summary):
        assert text["fr"].strip() and text["en"].strip()
    if variant.finish_forbidden:
        assert variant.finish_rule["fr"].strip() and variant.finish_rule["en"].strip()


# --- resolve() ----------------------------------------------------------------------------------


def test_classique_two_decks():
    ruleset = CAT.resolve("classique", options={"decks": 2})
    assert ruleset.decks == 2
    assert ruleset.jokers == 4  # 2 per deck
    assert ruleset.deck.size == 108  # 2×52 + 4


def test_decks_option_accepts_form_text():
    assert CAT.resolve("classique", options={"decks": "2"}).decks == 2


def test_huit_elabore_two_decks():
    ruleset = CAT.resolve("huit-elabore", options={"decks": 2})
    assert ruleset.decks == 2
    assert ruleset.deck.size == 104


def test_classique_special_finish_forbidden():
    assert CAT.resolve("classique").finish_forbidden == ()
    ruleset = CAT.resolve("classique", options={"special_finish_forbidden": True})
    assert set(ruleset.finish_forbidden) == {"8", "JK"}
    assert ruleset.options["special_finish_forbidden"] is True


def test_default_options_are_kept():
    ruleset = CAT.resolve("classique", options={"stacking": True})
    assert ruleset.options["stacking"] is True
    assert ruleset.options["counter_joker"] is False
    assert ruleset.options["ace_two_players"] == "reverse"
    assert ruleset.options["decks"] == 1


def test_loser_deals_option():
    assert not CAT.resolve("classique").loser_deals
    assert CAT.resolve("classique", options={"loser_deals": True}).loser_deals


def test_table_override():
    ruleset = CAT.resolve("deux-jeux", table="huit-elabore")
    assert ruleset.table.id == "huit-elabore"
    assert CAT.resolve("deux-jeux", table="").table.id == "standard"


def test_mode_override():
    assert CAT.resolve("classique", mode="winner").mode == "winner"
    assert CAT.resolve("les-huit", mode="penalty").mode == "penalty"
    assert CAT.resolve("huit-americain", mode="wins").mode == "wins"


def test_target_override():
    ruleset = CAT.resolve("classique", target=300)
    assert ruleset.target == 300
    assert ruleset.rounds is None


@pytest.mark.parametrize("field", ["target", "rounds"])
@pytest.mark.parametrize("bad", ["250", "²", "١٢", True, 2.5])
def test_target_and_rounds_are_ints_never_text(field, bad):
    """The pure core takes real ints: text (even of digits) is converted by the web form, and the
    API's contract says JSON numbers."""
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", **{field: bad})
    assert info.value.field == field


def test_rounds_replace_the_target():
    ruleset = CAT.resolve("huit-americain", rounds=5)
    assert ruleset.rounds == 5
    assert ruleset.target is None
    ruleset = CAT.resolve("huit-americain", target=300, rounds=3)
    assert (ruleset.target, ruleset.rounds) == (None, 3)


def test_unknown_variant():
    with pytest.raises(UnknownVariant) as info:
        CAT.variant("poker")
    assert info.value.code == "unknown_variant"
    assert info.value.field == "variant"
    assert "poker" in str(info.value)
    with pytest.raises(UnknownVariant):
        CAT.resolve("huit")


def test_unknown_option():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", options={"turbo": True})
    assert info.value.code == "validation_error"
    assert info.value.field == "options.turbo"


def test_option_of_another_variant_is_unknown():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("deux-jeux", options={"decks": 2})
    assert info.value.field == "options.decks"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"decks": 3}, "options.decks"),
        ({"special_finish_forbidden": "maybe"}, "options.special_finish_forbidden"),
        ({"ace_two_players": "jump"}, "options.ace_two_players"),
    ],
)
def test_bad_option_value(options, field):
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", options=options)
    assert info.value.code == "validation_error"
    assert info.value.field == field


def test_options_must_be_an_object():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", options=["decks"])
    assert info.value.field == "options"


def test_unknown_table():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", table="belote")
    assert info.value.code == "validation_error"
    assert info.value.field == "table"


def test_table_without_joker_value_for_a_deck_with_jokers():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", table="huit-elabore")
    assert info.value.field == "table"


def test_unknown_mode():
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", mode="poker")
    assert info.value.code == "validation_error"
    assert info.value.field == "mode"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"target": "abc"}, "target"),
        ({"target": True}, "target"),
        ({"rounds": 0}, "rounds"),
    ],
)
def test_bad_target_or_rounds(kwargs, field):
    with pytest.raises(ValidationError) as info:
        CAT.resolve("classique", **kwargs)
    assert info.value.field == field


# --- malformed variant files ------------------------------------------------------------------------

BASE = """\
id = "maison"
source = "000"
name = { fr = "Maison", en = "House" }
summary = { fr = "Nos règles.", en = "Our rules." }

[deck]
decks = 1
jokers_per_deck = 0

[players]
min = 2
max = 4

[deal]
cards = 7

[scoring]
mode = "penalty"
table = "standard"
target = 500

[finish]
forbidden = []
"""


def write_catalog(tmp_path, text, name="maison.toml"):
    shutil.copy(rules.VARIANTS_DIR / "tables.toml", tmp_path / "tables.toml")
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def load_error(tmp_path, text, name="maison.toml") -> VariantFileError:
    write_catalog(tmp_path, text, name)
    with pytest.raises(VariantFileError) as info:
        rules.load_catalog(tmp_path)
    error = info.value
    assert name in str(error)
    assert name in error.path
    return error


def test_base_file_loads(tmp_path):
    cat = rules.load_catalog(write_catalog(tmp_path, BASE))
    assert list(cat.variants) == ["maison"]
    variant = cat.variant("maison")
    assert (variant.decks, variant.min_players, variant.max_players, variant.target) == (1, 2, 4, 500)
    assert cat.resolve("maison").table.id == "standard"


def test_builtin_files_all_load_from_a_copy(tmp_path):
    for path in rules.VARIANTS_DIR.glob("*.toml"):
        shutil.copy(path, tmp_path / path.name)
    assert set(rules.load_catalog(tmp_path).variants) == set(SPEC_VARIANTS)


def test_missing_field(tmp_path):
    error = load_error(tmp_path, BASE.replace("target = 500\n", ""))
    assert error.field == "scoring.target"
    assert "scoring.target" in str(error)


def test_missing_top_level_field(tmp_path):
    error = load_error(tmp_path, BASE.replace('source = "000"\n', ""))
    assert error.field == "source"


def test_wrong_type(tmp_path):
    error = load_error(tmp_path, BASE.replace("min = 2", 'min = "two"'))
    assert error.field == "players.min"
    assert "players.min" in str(error)


def test_boolean_is_not_a_number(tmp_path):
    error = load_error(tmp_path, BASE.replace("decks = 1", "decks = true"))
    assert error.field == "deck.decks"


def test_unknown_table_in_file(tmp_path):
    error = load_error(tmp_path, BASE.replace('table = "standard"', 'table = "belote"'))
    assert error.field == "scoring.table"
    assert "scoring.table" in str(error)


def test_unknown_mode_in_file(tmp_path):
    error = load_error(tmp_path, BASE.replace('mode = "penalty"', 'mode = "poker"'))
    assert error.field == "scoring.mode"


def test_unknown_rank_in_finish_forbidden(tmp_path):
    text = BASE.replace("forbidden = []", 'forbidden = ["8", "11"]\nrule = { fr = "Non.", en = "No." }')
    error = load_error(tmp_path, text)
    assert error.field == "finish.forbidden"
    assert "finish.forbidden" in str(error)
    assert "11" in str(error)


def test_missing_english_text(tmp_path):
    error = load_error(tmp_path, BASE.replace('name = { fr = "Maison", en = "House" }', 'name = { fr = "Maison" }'))
    assert error.field == "name.en"
    assert "name.en" in str(error)


def test_forbidden_finish_needs_a_rule_text(tmp_path):
    error = load_error(tmp_path, BASE.replace("forbidden = []", 'forbidden = ["8"]'))
    assert error.field.startswith("finish.rule")


def test_jokers_with_a_table_that_does_not_value_them(tmp_path):
    text = BASE.replace("jokers_per_deck = 0", "jokers_per_deck = 2").replace('"standard"', '"huit-elabore"')
    error = load_error(tmp_path, text)
    assert error.field == "scoring.table"


def test_unknown_field(tmp_path):
    error = load_error(tmp_path, BASE + "\n[extra]\nfoo = 1\n")
    assert error.field == "extra"


def test_id_must_match_the_file_name(tmp_path):
    error = load_error(tmp_path, BASE, name="autre.toml")
    assert error.field == "id"


def test_syntax_error(tmp_path):
    load_error(tmp_path, BASE.replace("[deck]", "[deck"))


def test_malformed_table_file(tmp_path):
    (tmp_path / "tables.toml").write_text(
        '[maigre]\nsource = "000"\nname = { fr = "M", en = "M" }\nranks = { A = 1 }\n'
    )
    with pytest.raises(VariantFileError) as info:
        rules.load_catalog(tmp_path)
    assert "tables.toml" in str(info.value)
    assert info.value.field == "maigre.ranks.2"  # every rank needs a value; 2 is the first missing

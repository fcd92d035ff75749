"""What can be wrong with a rules document, said once: a problem code and its words.

The one validator of rules documents (``rules.FieldReader``: the variant files, the tables, the
rule-page files and the house rules people write) raises ``VariantFileError(path, field, code,
**params)``. Each code's English msgid lives here and nowhere else: a developer reads it at
start-up (a faulty file stops the app, naming the file and the field); a person writing house
rules reads it translated (``house_rules.invalid``, worded by the web layer).
"""

from __future__ import annotations

from .text import N_, Message

PROBLEMS = {
    "missing": N_("this is missing"),
    "missing_text": N_("a text is missing"),
    "unknown_field": N_("this field is not known"),
    "unknown_language": N_("this is not a language of the app (fr, en)"),
    "wrong_type": N_("this value has the wrong type"),
    "invalid_value": N_("this value is not allowed"),
    "unknown_rank": N_("this is not a rank"),
    "not_a_card": N_("this is not a card"),
    "expected_table": N_("a group of settings is expected here"),
    "expected_card": N_("a card is expected here"),
    "expected_cards": N_("a list of cards is expected here"),
    "expected_ranks": N_("a list of ranks is expected here"),
    "expected_texts": N_("a text in French and in English is expected here"),
    "expected_names": N_("a list of names is expected here"),
    "expected_players": N_("a number of players from 1 to 12 is expected here"),
    "expected_option": N_("the name of a house option is expected here"),
    "expected_choices": N_("words or numbers are expected here"),
    "expected_two_players": N_("no effect, or a house option that makes the card skip, is expected here"),
    "points_range": N_("points are a whole number from 0 to %(max)s"),
    "needs_full_card": N_("give a full card, such as 2S"),
    "duplicate_card_rule": N_("two rules for the same card"),
    "duplicate_option": N_("two options have the same name"),
    "duplicate_section": N_("two sections have the same name"),
    "jokers_without_value": N_("the deck has jokers but the table gives them no value"),
    "deal_gap": N_("some player counts have no deal"),
    "deal_too_large": N_("too many cards dealt for this deck"),
    "decks_range": N_("from 1 to 4 packs"),
    "decks_default": N_("the packs option starts from the deck's packs (%(decks)s)"),
    "jokers_not_a_rank": N_("jokers are counted per pack, not taken out as a rank"),
    "no_rank_left": N_("a deck keeps at least one rank"),
    "not_a_choice": N_("this is not one of the choices"),
    "not_a_yes_no_option": N_("this is not a yes/no option of these rules"),
    "too_large": N_("the document is too large"),
    "expected_name": N_("a name is expected here"),
    # Only the rule-page files (ours) can have these: said to developers at start-up.
    "anchor": N_("a lower-case anchor such as fin-de-manche is expected here"),
    "generated_kind": N_("one of the generated parts is expected here"),
    "unknown_interpretation": N_("the variant has no such interpretation"),
    "generated_twice": N_("a generated part appears twice"),
    "generated_missing": N_("a generated part is missing"),
    "options_without_option": N_("an options part, but the variant has no house option"),
    "interpretation_placement": N_("each interpretation is shown in exactly one section"),
    "wrong_variant": N_("this file is not for this variant"),
    "seed_name": N_("the source file's name is expected here"),
    "file_name": N_("the id must match the file name"),
    "rules_file_missing": N_("every variant needs its rules file"),
    "syntax": N_("the file cannot be read"),
}


def problem_text(code: str, params: dict | None = None) -> Message:
    """The problem as a message (its English msgid and parameters)."""
    return Message(PROBLEMS[code], dict(params or {}))


def english(code: str, params: dict | None = None) -> str:
    """The problem in plain English, for a developer reading a start-up error."""
    plain = {k: v for k, v in (params or {}).items() if isinstance(v, (str, int))}
    text = PROBLEMS[code]
    try:
        text = text % plain if plain else text
    except (KeyError, TypeError, ValueError):
        pass
    details = ", ".join(f"{k}={v!r}" for k, v in (params or {}).items() if f"%({k})" not in PROBLEMS[code])
    return f"{text} ({details})" if details else text


class VariantFileError(Exception):
    """A rules document is malformed: ``path`` and ``field`` say where, ``code`` (one of
    ``models/core/problems.py``) and ``params`` what. A built-in file raises it at start-up (the app
    stops, naming the file and the field); house rules turn it into a validation_error."""

    def __init__(self, path: str, field: str, code: str, **params):
        super().__init__(f"{path}: field '{field}': {english(code, params)}")
        self.path = path
        self.field = field
        self.code = code
        self.params = params

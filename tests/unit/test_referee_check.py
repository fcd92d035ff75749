"""The referee's `check` on every case worked out by hand in test_referee.py (the sentence each rests on is
there), its refusals of malformed questions, and the rule it names for a forbidden finish.
"""

from __future__ import annotations

import pytest

from models.core.errors import DomainError
from models.core.referee import check
from models.core.text import plain
from tests.unit.test_referee import ALL_CASES, UNSET, answer_cards, draws, has_effect, params, ruleset, run, templates

# --- the API -------------------------------------------------------------------------------------

API_CASES = [c for c in ALL_CASES if c["api"] and not c["xfail"]]


LES_HUIT_8 = dict(top="8S", active_suit="H")  # an 8 of spades that named hearts


def test_every_variant_has_ten_cases():
    per_variant = {}
    for c in ALL_CASES:
        per_variant[c["variant"]] = per_variant.get(c["variant"], 0) + 1
    assert set(per_variant) == {"classique", "deux-jeux", "54-cartes", "huit-americain", "huit-elabore", "les-huit"}
    assert min(per_variant.values()) >= 10, per_variant


@pytest.mark.parametrize("c", params(ALL_CASES))
def test_check(c):
    verdict = run(c)
    assert verdict.legal is c["legal"], (verdict.reason, verdict.effects)
    assert verdict.reason.template and verdict.rule.template
    assert verdict.effects, "a verdict always says what happens next"
    if c["draw"] is not UNSET:
        assert draws(verdict) == c["draw"], templates(verdict)
    for name in c["has"]:
        assert has_effect(verdict, name), (name, templates(verdict))
    for name in c["lacks"]:
        assert not has_effect(verdict, name), (name, templates(verdict))
    if c["next_suit"] is not UNSET:
        assert verdict.next_suit == c["next_suit"]
    if c["answers"] is not None:
        assert answer_cards(verdict) == c["answers"]
    counts = [m.params["count"] for m in verdict.effects if "count" in m.params]
    assert counts == ([] if c["sent_on"] is None else [c["sent_on"]]), templates(verdict)
    text = {
        "legal": verdict.legal,
        "reason": plain(verdict.reason),
        "rule": plain(verdict.rule),
        "effect": " ".join(plain(m) for m in verdict.effects),
    }
    assert text["legal"] is c["legal"]
    for key in ("reason", "rule", "effect"):
        assert isinstance(text[key], str) and text[key].strip()


def test_forbidden_finish_says_the_rule():
    """A forbidden last card names the finishing rule and the card, and the player keeps it."""
    verdict = check(ruleset("huit-americain"), "5S", "JK", last_card=True)
    assert not verdict.legal
    assert verdict.reason.params["card"].is_joker
    assert "keeps" in templates(verdict)


@pytest.mark.parametrize(
    "variant, top, card, suit, field",
    [
        # §3: an 8 names a suit → the suit to follow must be given.
        ("classique", "8H", "4S", None, "active_suit"),
        ("les-huit", "8H", "4S", None, "active_suit"),
        ("huit-elabore", "8C", "2C", None, "active_suit"),
        # classique JK names a suit (interpretation).
        ("classique", "JK", "4S", None, "active_suit"),
        ("huit-americain", "JK", "4S", None, "active_suit"),
        # Not a suit.
        ("classique", "8H", "4S", "X", "active_suit"),
        # §2: deux-jeux, huit-elabore and les-huit have no jokers.
        ("deux-jeux", "5H", "JK", None, "card"),
        ("huit-elabore", "5H", "JK", None, "card"),
        ("les-huit", "JK", "5H", "H", "top"),
        # A rank alone: the suit matters for the referee.
        ("classique", "5H", "8", None, "card"),
    ],
)
def test_check_refuses(variant, top, card, suit, field):
    with pytest.raises(DomainError) as info:
        check(ruleset(variant), top, card, active_suit=suit)
    assert info.value.status == 422
    assert info.value.field == field


@pytest.mark.parametrize("suit", ["S", "s", "♠"])
def test_active_suit_spellings(suit):
    assert check(ruleset("classique"), "8H", "4S", active_suit=suit).legal


def test_api_has_a_case_per_variant():
    assert len({c["variant"] for c in API_CASES}) == 6

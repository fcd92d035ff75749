"""The house-rules editor's side of a document (pure): the effects it offers for a card, how a
document shows in its rows and points, what a group's edits make of a document, and what it
changes from its base.

The web form is read into ``Edits`` (plain values: numbers already read as numbers) by the web
layer; ``apply_edits`` makes the house document from them, which ``house_rules`` then checks like
any other. Pure: no Flask, no ORM, no language (labels are English msgids).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .cards import JOKER, RANKS
from .house_rules import base_document, normalize
from .text import N_
from .variant import Catalog

RULE_CARDS = (*RANKS, JOKER)
KEEP = "keep"  # a rule of the base that is more than one of these effects: kept as it is
DRAW_RANGE = (1, 20)

# The effects the editor offers: each one a card rule (SPEC §3) the referee knows.
EFFECTS = {
    "none": (N_("No effect"), None),
    "wild": (N_("Wild: play on anything, name a suit"), {"play": "any", "names_suit": True}),
    "wild_draw": (
        N_("Wild, name a suit, next player draws N and skips"),
        {"play": "any", "names_suit": True, "draw": 4, "skip": True},
    ),
    "draw": (N_("Next player draws N and skips"), {"draw": 2, "skip": True}),
    "chain": (N_("Attack: answer with the same rank or draw N per card"), {"chain": True}),
    "skip": (N_("Next player skips a turn"), {"skip": True}),
    "reverse": (N_("Reverse the direction"), {"reverse": True}),
    "play_again": (N_("Play again"), {"play_again": True}),
    "steal": (N_("Take a card from the next player"), {"steal": True}),
    "swap_hands": (N_("Swap hands with a player"), {"swap_hands": True}),
    "out_of_turn": (N_("May be played out of turn"), {"out_of_turn": True}),
    "takes_rank": (N_("Counts as the rank it covers"), {"takes_rank": True}),
}

# The finishing rule of house rules whose forbidden cards were changed (the cards themselves are
# named by the page and the checker, with their articles).
HOUSE_FINISH_RULE = {
    "fr": "Le joueur qui n'aurait plus que cette carte la garde, et joue autre chose ou pioche.",
    "en": "A player left with only such a card keeps it, and plays something else or draws.",
}

# What a document may change from its base: document keys (in this order) and scoring keys.
CHANGES = ("deck", "players", "deal", "finish", "cards", "options", "play", "penalty")
SCORING_CHANGES = ("mode", "target", "rounds")


def needs_draw(effect: str) -> bool:
    """The effect asks how many cards are drawn."""
    preset = EFFECTS.get(effect, (None, None))[1]
    return bool(preset) and ("draw" in preset or effect == "chain")


def rule_effect(rule: dict | None) -> str:
    """The editor's effect for a card rule, or KEEP when the rule is more than a preset."""
    if not rule:
        return "none"
    core = {k: v for k, v in rule.items() if k != "card"}
    for effect, (_, preset) in EFFECTS.items():
        if preset is None:
            continue
        if effect == "chain":
            if set(core) == {"chain"}:
                return "chain"
            continue
        shape = {k: v for k, v in core.items() if k != "draw"}
        expected = {k: v for k, v in preset.items() if k != "draw"}
        if shape == expected and ("draw" in core) == ("draw" in preset):
            return effect
    return KEEP


def rule_draw(rule: dict | None) -> int:
    if not rule:
        return 2
    if isinstance(rule.get("chain"), dict):
        return rule["chain"].get("draw", 2)
    return rule.get("draw", 2)


def card_rows(document: dict) -> list[dict]:
    """One row per rank (and JK), then one per suit-specific rule of the document."""
    rules = {r.get("card"): r for r in document.get("cards", []) if isinstance(r, dict)}
    keys = list(RULE_CARDS) + [k for k in rules if k not in RULE_CARDS]
    return [
        {"card": key, "effect": rule_effect(rules.get(key)), "draw": rule_draw(rules.get(key)), "rule": rules.get(key)}
        for key in keys
    ]


def document_for_base(base_id: str, builtins: Catalog) -> dict:
    """A new document for the editor: the base variant's, with no name yet."""
    document = normalize({"base": base_id, "name": base_document(base_id)["name"]}, builtins)
    document["name"] = {"fr": "", "en": ""}
    return document


def table_values(document: dict, tables) -> tuple[dict, dict]:
    """The points of the document's table (inline, or a built-in one of ``tables``): (ranks, cards)."""
    table = document.get("scoring", {}).get("table")
    if isinstance(table, str):
        found = tables.get(table)
        return (dict(found.ranks), dict(found.cards)) if found else ({}, {})
    if isinstance(table, dict):
        return dict(table.get("ranks", {})), dict(table.get("cards", {}))
    return {}, {}


def differences(document: dict, tables) -> list[str]:
    """What a house document changes from its base: keys of ``CHANGES``, ``SCORING_CHANGES`` and
    "points" (the table's values)."""
    base = base_document(document["base"])
    out = [key for key in CHANGES if document.get(key) != base.get(key) and (document.get(key) or base.get(key))]
    base_scoring, scoring = base.get("scoring", {}), document.get("scoring", {})
    out += [key for key in SCORING_CHANGES if scoring.get(key) != base_scoring.get(key)]
    base_table = tables[base_scoring.get("table")]
    if table_values(document, tables) != (dict(base_table.ranks), dict(base_table.cards)):
        out.append("points")
    return out


@dataclass
class Edits:
    """What the editor's form says, read as plain values (numbers as numbers, cards as text)."""

    name: str
    decks: int
    jokers_per_deck: int
    players_min: int
    players_max: int
    deal_cards: int | None  # None: the base's deal by player count is kept
    ranks: dict  # rank -> points
    cards: dict  # full card ("2S") -> points
    mode: str
    target: int
    rounds: int | None  # played over a number of manches rather than to the target
    forbidden: list  # ranks nobody may go out on
    effects: dict = field(default_factory=dict)  # card -> (effect, draw or None)


def apply_edits(document: dict, edits: Edits) -> dict:
    """The house document ``edits`` make of ``document`` (the saved one, or the base's): what the
    form does not show is kept; a card rule left as it was keeps its details (answers, two players)."""
    doc = copy.deepcopy(document)
    doc["name"] = edits.name
    doc["deck"] = {**doc.get("deck", {}), "decks": edits.decks, "jokers_per_deck": edits.jokers_per_deck}
    doc["players"] = {"min": edits.players_min, "max": edits.players_max}
    if edits.deal_cards is not None:
        doc["deal"] = {"cards": edits.deal_cards}
    doc["scoring"] = _edited_scoring(doc.get("scoring", {}), edits)
    doc["finish"] = _edited_finish(doc.get("finish", {}), edits)
    old = {r.get("card"): r for r in doc.get("cards", []) if isinstance(r, dict)}
    rules = []
    for key in list(RULE_CARDS) + [k for k in old if k not in RULE_CARDS]:
        effect, draw = edits.effects.get(key, ("none", None))
        rule = _edited_card_rule(key, old.get(key), effect, draw)
        if rule is not None:
            rules.append(rule)
    doc["cards"] = rules
    return doc


def _edited_scoring(scoring: dict, edits: Edits) -> dict:
    """The scoring section: the form's mode, target, table and number of manches over the saved one."""
    scoring = dict(scoring)
    scoring.update(mode=edits.mode, target=edits.target, table={"ranks": edits.ranks, "cards": edits.cards})
    scoring.pop("rounds", None)
    scoring.pop("table_choice", None)
    if edits.rounds is not None:
        scoring["rounds"] = edits.rounds
    return scoring


def _edited_finish(finish: dict, edits: Edits) -> dict:
    """The finish section: the ranks nobody may go out on, with the house rule that says what to do
    when the form changed them."""
    finish = dict(finish)
    if edits.forbidden != list(finish.get("forbidden", [])):  # the cards are named by the page: say what to do
        finish["rule"] = dict(HOUSE_FINISH_RULE)
    finish["forbidden"] = list(edits.forbidden)
    if not edits.forbidden and not finish.get("rule"):
        finish.pop("rule", None)
    return finish


def _edited_card_rule(key: str, old: dict | None, effect: str, draw) -> dict | None:
    """The rule of card ``key`` after the form chose ``effect`` (and ``draw``) for it, ``old`` being
    its saved rule: None when the card does nothing; an unchanged rule keeps its details."""
    if effect == KEEP and old is not None:
        return old
    preset = EFFECTS[effect][1]
    if preset is None:
        return None
    same_effect = bool(old) and rule_effect(old) == effect
    if same_effect and not needs_draw(effect):
        return old  # unchanged: keep its details (answers, two players)
    rule = {"card": key, **preset}
    if "draw" in preset:
        rule["draw"] = draw
    if effect == "chain":
        kept = (old or {}).get("chain")  # an unchanged chain keeps its answers and what cancels it
        rule["chain"] = {**kept, "draw": draw} if isinstance(kept, dict) else {"answers": [key], "draw": draw}
    if same_effect:
        rule = {**old, **{k: v for k, v in rule.items() if k in ("draw", "chain")}}
    return rule

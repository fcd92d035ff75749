"""The dispute checker, issue 26: what a wrong card costs in every variant, chains answered and
sent on with their new count, and the deck a game uses (packs, jokers, ranks taken out).

Every case is worked out by hand from the rule texts (shared/seeds/: 000 classique, 001 deux-jeux,
002 54-cartes, 003 huit-americain and, « autre variante », huit-elabore, 004 les-huit); the
sentence it rests on is quoted above it. Costs and counts are checked as data (the messages'
templates and numbers), the words in French and English in tests/e2e/test_referee_api.py.
"""

from __future__ import annotations

import pytest

from models.core import house_rules, scoring
from models.core.cards import RANKS, check_deck, parse_cards
from models.core.errors import DomainError, InvalidCard, TooManyCopies
from models.core.referee import check
from models.core.rules import catalog
from models.core.text import plain
from models.core.variant import resolve

NO_PENALTY = "The rules set no penalty: a card already laid simply goes back to the hand."


def ruleset(variant, **options):
    return catalog().resolve(variant, options=options)


def cost(verdict) -> list[str]:
    return [plain(m) for m in verdict.cost]


def counts(verdict) -> list[int]:
    """The count of each draw sent on to the next player."""
    return [m.params["count"] for m in verdict.effects if "count" in m.params]


# --- what a wrong card costs, variant by variant -------------------------------------------------------


@pytest.mark.parametrize(
    "variant, top, card, opts, players, pending, last, suit, wanted",
    [
        # 000 names one penalty only, for the forgotten « carte » (« le joueur fautif pioche 2 cartes de
        # pénalité »): a card that fits nothing costs nothing but going back to the hand.
        ("classique", "9H", "5C", {}, 4, False, False, None, [NO_PENALTY]),
        # 000, option « Finir par une carte spéciale : certaines tables interdisent de finir sur un Joker ou
        # un 8 »: refused as a last card, and still no penalty is stated.
        ("classique", "KH", "8C", {"special_finish_forbidden": True}, 4, False, True, None, [NO_PENALTY]),
        # 001 « tout joueur qui joue lorsque ce n'est pas son tour ou qui enfreint une règle pioche également
        # deux cartes supplémentaires »: a 3 of diamonds on a 9 of clubs breaks the rule of matching.
        (
            "deux-jeux",
            "9C",
            "3D",
            {},
            4,
            False,
            False,
            None,
            ["Penalty: the player draws 2 more cards.", "A card already laid goes back to the hand."],
        ),
        # 001 « 7 Le joueur passe son tour », and the same sentence: « qui joue lorsque ce n'est pas son
        # tour … pioche également deux cartes ».
        (
            "deux-jeux",
            "7H",
            "7S",
            {},
            4,
            True,
            False,
            None,
            ["Penalty: the player draws 2 more cards.", "A card already laid goes back to the hand."],
        ),
        # 001 « Le joueur suivant doit poser un As ou un 8, sous peine de piocher 2 cartes »: a 5 is no answer;
        # laid anyway, it breaks a rule: two more cards besides the two of the chain.
        (
            "deux-jeux",
            "AH",
            "5H",
            {},
            4,
            True,
            False,
            None,
            ["Penalty: the player draws 2 more cards.", "A card already laid goes back to the hand."],
        ),
        # 002 names no penalty at all: « Lorsqu'un joueur ne peut pas jouer de carte, il doit prendre une
        # carte sur le talon » is what a player does instead.
        ("54-cartes", "9H", "5C", {}, 4, False, False, None, [NO_PENALTY]),
        # 003, first rule: its one penalty is for « Carte » forgotten; « On ne peut terminer le coup avec
        # un 8 ou un Joker » costs nothing more than keeping the card.
        ("huit-americain", "QS", "5H", {}, 4, False, False, None, [NO_PENALTY]),
        ("huit-americain", "5S", "JK", {}, 4, False, True, None, [NO_PENALTY]),
        # 003, autre variante: « toute carte inadéquate à la série doit être reprise », « le joueur fautif est
        # aussitôt pénalisé par la pioche d'une carte au talon »; « Pas de 2 sur un 9 ».
        (
            "huit-elabore",
            "9H",
            "2H",
            {},
            4,
            False,
            False,
            None,
            ["Penalty: the player draws 1 more card.", "A card already laid goes back to the hand."],
        ),
        (
            "huit-elabore",
            "KC",
            "4H",
            {},
            4,
            False,
            False,
            None,
            ["Penalty: the player draws 1 more card.", "A card already laid goes back to the hand."],
        ),
        # 004 names no penalty: « Lorsqu'un joueur détient une carte qu'il peut jouer, il doit la jouer ».
        ("les-huit", "KD", "3C", {}, 3, False, False, None, [NO_PENALTY]),
    ],
)
def test_a_wrong_card_says_what_it_costs(variant, top, card, opts, players, pending, last, suit, wanted):
    verdict = check(ruleset(variant, **opts), top, card, players=players, pending=pending, last_card=last)
    assert verdict.legal is False
    assert cost(verdict) == wanted


def test_every_variant_states_its_penalty_or_that_it_has_none():
    stated = {
        v.id: (v.penalty.draw, v.penalty.take_back, v.penalty.turn_lost, v.penalty.applies_to)
        for v in catalog().variants.values()
    }
    # 001: two more cards for any rule broken; 003 bis: a card unfit for the pile is taken back and costs
    # one card; the others: none stated.
    assert stated == {
        "classique": (0, True, False, "unfit_card"),
        "deux-jeux": (2, True, False, "any_rule"),
        "54-cartes": (0, True, False, "unfit_card"),
        "huit-americain": (0, True, False, "unfit_card"),
        "huit-elabore": (1, True, False, "unfit_card"),
        "les-huit": (0, True, False, "unfit_card"),
    }


AGAIN = "No penalty: laid as the last card, it stays, and the same player plays again or draws; the round goes on."
ONE_CARD = ["Penalty: the player draws 1 more card.", "A card already laid goes back to the hand."]


@pytest.mark.parametrize(
    "variant, top, card, players, pending, last, wanted",
    [
        # 001 « 10 Le joueur qui joue cette carte rejoue. S'il ne peut pas, il est contraint de piocher, même
        # s'il n'a plus de carte en main »: laid last, the 10 breaks no rule; the round goes on.
        ("deux-jeux", "3H", "10H", 4, False, True, [AGAIN]),
        # 003, autre variante, « On ne peut finir sur un 9 (puisqu'il contraint de rejouer) »: the same.
        ("huit-elabore", "9H", "9C", 4, False, True, [AGAIN]),
        # 003 « On ne peut terminer le coup avec un 8 » (kept by the autre variante): the 8 fits the pile, and
        # the penalty of the autre variante is for « toute carte inadéquate à la série » only.
        ("huit-elabore", "5C", "8H", 4, False, True, [NO_PENALTY]),
        # « 7 : Passera son tour »: the skipped player who lays a card anyway breaks no rule of the pile.
        ("huit-elabore", "7S", "7H", 4, True, False, [NO_PENALTY]),
        # « As : Jouera un as ou prendra deux cartes »: a 5 does not fit a pending Ace, « inadéquate ».
        ("huit-elabore", "AH", "5H", 4, True, False, ONE_CARD),
    ],
)
def test_a_penalty_covers_only_the_cases_its_source_names(variant, top, card, players, pending, last, wanted):
    verdict = check(ruleset(variant), top, card, players=players, pending=pending, last_card=last)
    assert verdict.legal is False
    assert cost(verdict) == wanted


def test_a_legal_card_costs_nothing():
    # 000 « même couleur que la carte au sommet de la défausse »
    assert check(ruleset("classique"), "9H", "5H").cost == ()


def test_house_rules_may_cost_the_turn():
    document = house_rules.normalize({"base": "classique", "name": "Sévère", "penalty": {"draw": 0, "turn_lost": True}})
    variant = house_rules.compile_document(document, "h0000000000000001")
    verdict = check(resolve(catalog().tables, variant), "9H", "5C")
    assert cost(verdict) == ["Penalty: the player loses the turn.", "A card already laid goes back to the hand."]


def test_a_house_penalty_is_checked_like_a_file():
    document = house_rules.normalize({"base": "classique", "name": "X", "penalty": {"draw": -1}})
    with pytest.raises(DomainError) as info:
        house_rules.compile_document(document, "h0000000000000002")
    assert info.value.field == "penalty.draw"


# --- chains answered and sent on ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, top, card, opts, due, suit, sent_on",
    [
        # 000 « Empilement des +2 et +4 : autoriser qu'un joueur réponde par un 2 ou un Joker pour « renvoyer »
        # la pioche au suivant »; the 2 of hearts had itself answered a 2 (4 pending): 4 + 2 = 6
        # (interpretation of classique, on its page: the draws add up).
        ("classique", "2H", "2S", {"stacking": True}, 4, None, 6),
        # the same with a Joker (« Le Joker : +4 cartes ») on that pending 4: 4 + 4 = 8.
        ("classique", "2H", "JK", {"stacking": True}, 4, None, 8),
        # 003 « Si on peut poser un second As, c'est le troisième joueur qui … devra piocher deux cartes par As
        # posé »: two Aces already (4 pending), a third one: 6.
        ("huit-americain", "AH", "AC", {}, 4, None, 6),
        # 001 « S'il pose un As, le joueur suivant doit piocher 4 cartes… et ainsi de suite »: 4, then 6.
        ("deux-jeux", "AH", "AS", {}, None, None, 4),
        ("deux-jeux", "AH", "AS", {}, 4, None, 6),
        # 003, autre variante, « 6 : Jouera un 6 ou prendra une carte »: one card, however many 6s.
        ("huit-elabore", "6H", "6S", {}, None, None, 1),
    ],
)
def test_an_answer_sends_the_draw_on_with_its_new_count(variant, top, card, opts, due, suit, sent_on):
    verdict = check(ruleset(variant, **opts), top, card, pending=True, pending_draw=due, active_suit=suit)
    assert verdict.legal is True
    assert counts(verdict) == [sent_on]
    assert any(
        plain(m).endswith(f"sends the draw on to the next player: it now counts {sent_on} cards.")
        or (sent_on == 1 and plain(m).endswith("it now counts 1 card."))
        for m in verdict.effects
    ), verdict.effects


def test_who_cannot_answer_pays_the_whole_draw():
    # 003 « devra piocher deux cartes par As posé »: three Aces on the pile, 6 cards, and the turn.
    verdict = check(ruleset("huit-americain"), "AH", "5H", pending=True, pending_draw=6)
    assert verdict.legal is False and verdict.turn_lost is True
    assert [plain(m) for m in verdict.effects] == ["The player draws 6 cards and loses the turn."]
    # 001 « Le 8 annule le cumul des As »: however long the chain, the 8 ends it.
    assert check(ruleset("deux-jeux"), "AH", "8D", pending=True, pending_draw=8).legal is True


def test_the_next_player_may_send_it_on_again_or_pays():
    # 000 stacking: after a 2 answered by a 2, the next player may answer with a 2 or a Joker in turn;
    # « il pioche et perd son tour » otherwise.
    verdict = check(ruleset("classique", stacking=True), "2H", "2S", pending=True)
    said = [plain(m) for m in verdict.effects]
    assert said[1] == (
        "The next player may send it on in turn with a 2 / a JK; otherwise they draw it all and lose the turn."
    )
    # 001 says nothing of the turn for the As chain: the next player only draws; « Le 8 annule le cumul
    # des As »: the next player may also end it with an 8.
    verdict = check(ruleset("deux-jeux"), "AH", "AS", pending=True)
    assert [plain(m) for m in verdict.effects][1] == (
        "The next player may send it on in turn with an A or cancel it with an 8; otherwise they draw it all."
    )


@pytest.mark.parametrize("due", [2, 0, "6", True, 101])
def test_a_pending_draw_below_the_top_card_or_not_a_number_is_refused(due):
    # the Joker of classique alone makes 4 (« Le Joker : +4 cartes »): a pending draw of 2 cannot be.
    with pytest.raises(DomainError) as info:
        check(ruleset("classique", stacking=True), "JK", "2S", pending=True, pending_draw=due, active_suit="H")
    assert info.value.field == "pending_draw" and info.value.status == 422


# --- the deck a game uses ---------------------------------------------------------------------------------


def house(deck, **more):
    document = house_rules.normalize({"base": "classique", "name": "Deck", "deck": deck, **more})
    return resolve(catalog().tables, house_rules.compile_document(document, "h00000000000000aa"))


def test_house_rules_of_two_packs_on_classique_score_and_check_two_packs():
    # 000 « Optionnel : un deuxième jeu de 52 cartes »: a house deck of two packs holds every card twice
    # and 4 Jokers (« 52 cartes + 2 Jokers par jeu », the interpretation of classique).
    rules = house({"decks": 2, "jokers_per_deck": 2})
    assert rules.decks == 2 and rules.deck.size == 108 and rules.options["decks"] == 2
    check_deck([parse_cards("8H JK JK"), parse_cards("8H JK JK")], rules.deck)
    with pytest.raises(TooManyCopies):
        check_deck([parse_cards("8H 8H 8H")], rules.deck)
    # the second 8 of hearts counts (« 8 et Joker : 50 points »): 50 + 50.
    assert scoring.hand_value(parse_cards("8H 8H"), rules.table) == 100
    assert {k.token: k.limit for k in scoring.keypad(rules)}["8"] == 8
    # a game that chooses one pack still may
    one = resolve(catalog().tables, rules.variant, options={"decks": 1})
    with pytest.raises(TooManyCopies):
        check_deck([parse_cards("8H 8H")], one.deck)


def test_ranks_taken_out_of_the_deck_are_refused_everywhere():
    rules = house(
        {"decks": 1, "jokers_per_deck": 0, "without": ["2", "3", "4", "5", "6"]}, players={"min": 2, "max": 4}
    )
    assert rules.deck.size == 32 and rules.deck.ranks == ("A", "7", "8", "9", "10", "J", "Q", "K")
    with pytest.raises(InvalidCard):
        check_deck([parse_cards("2H")], rules.deck)
    with pytest.raises(InvalidCard) as info:
        check(rules, "9H", "2H")
    assert info.value.field == "card"
    assert "2" not in {k.rank for k in scoring.keypad(rules)}
    # the most a hand is worth counts only the cards of the deck: 4 × (20 + 7 + 50 + 9 + 10 + 20 + 10 + 10)
    assert scoring.max_hand_value(rules) == 4 * (20 + 7 + 50 + 9 + 10 + 20 + 10 + 10)


def test_a_deck_cannot_lose_every_rank_nor_its_jokers_as_a_rank():
    for without in (["JK"], list(RANKS)):
        document = house_rules.normalize(
            {"base": "classique", "name": "X", "deck": {"decks": 1, "jokers_per_deck": 2, "without": without}}
        )
        with pytest.raises(DomainError) as info:
            house_rules.compile_document(document, "h00000000000000ab")
        assert info.value.field == "deck.without"


def test_a_house_chain_on_the_7_is_sent_on_like_the_aces():
    # House rules (the editor's « Attack: answer with the same rank or draw N per card ») built on the
    # Aces of 003 (« deux cartes par As posé »): a 7 that makes the next player draw 1 per 7 of the chain.
    document = house_rules.normalize(
        {
            "base": "huit-americain",
            "name": "Sept",
            "cards": [{"card": "7", "chain": {"answers": ["7"], "draw": 1, "skip": True}}],
        }
    )
    rules = resolve(catalog().tables, house_rules.compile_document(document, "h00000000000000ac"))
    verdict = check(rules, "7H", "7S", pending=True)
    assert verdict.legal is True and counts(verdict) == [2]
    assert plain(verdict.effects[1]).endswith("otherwise they draw it all and lose the turn.")
    unanswered = check(rules, "7H", "5H", pending=True, pending_draw=3)
    assert [plain(m) for m in unanswered.effects] == ["The player draws 3 cards and loses the turn."]

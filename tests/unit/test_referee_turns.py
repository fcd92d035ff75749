"""The dispute checker, issue 16: a pending skip makes the player asking lose the turn, the 8 of
les-huit counts as the card it covers, the rule page and the checker agree on the lost turn. Each
case worked out by hand from the rule texts, the sentence it rests on quoted above it."""

from __future__ import annotations

import pytest

from models.core.cards import format_card
from models.core.errors import DomainError
from models.core.referee import check
from models.core.text import plain
from tests.unit.test_referee import draws, has_effect, ruleset, templates
from tests.unit.test_referee_check import LES_HUIT_8

# --- issue 16: a pending skip, the 8 that counts as the card it covers, the lost turn -------------


@pytest.mark.parametrize(
    "variant, top, card, players, opts",
    [
        # 000 « Le Valet fait sauter le tour du joueur suivant »: the player asking is the one skipped;
        # even a Jack (same rank) or an 8 (any time) is no play for them.
        ("classique", "JH", "JS", 4, {}),
        ("classique", "JH", "8C", 4, {}),
        ("classique", "JH", "5H", 3, {}),
        # 002 « les valets font sauter le tour du joueur situé après ».
        ("54-cartes", "JC", "4C", 4, {}),
        # 001 « 7 Le joueur passe son tour. » (with more than two players).
        ("deux-jeux", "7H", "7S", 4, {}),
        # 003, autre variante: « 7 : Passera son tour. »
        ("huit-elabore", "7S", "7H", 4, {}),
        # 000 « à 2 joueurs, l'As agit comme un Valet (il fait sauter) » (option ace_two_players = skip).
        ("classique", "AH", "AS", 2, {"ace_two_players": "skip"}),
    ],
)
def test_a_pending_skip_makes_the_player_asking_lose_the_turn(variant, top, card, players, opts):
    verdict = check(ruleset(variant, **opts), top, card, players=players, pending=True)
    assert verdict.legal is False and verdict.turn_lost is True
    assert "lose" in templates(verdict) or "lost" in templates(verdict)
    assert draws(verdict) == []  # a skip costs no card


@pytest.mark.parametrize(
    "variant, top, card, players, opts",
    [
        # 001 « À 2 joueurs, toutefois, le 7 et le Valet perdent leur effet »: nothing is pending.
        ("deux-jeux", "7H", "7S", 2, {}),
        # 000: the Ace reverses; at three players it skips nobody, so "pending" changes nothing.
        ("classique", "AH", "AS", 3, {"ace_two_players": "skip"}),
        # les-huit: no card skips (004 names no power but the 8's).
        ("les-huit", "JH", "JS", 3, {}),
    ],
)
def test_pending_changes_nothing_when_the_top_card_skips_nobody(variant, top, card, players, opts):
    verdict = check(ruleset(variant, **opts), top, card, players=players, pending=True)
    assert verdict.legal is True and verdict.turn_lost is False


def test_a_paid_jack_is_an_ordinary_card():
    # 000 « même valeur (même rang) »: once the skip is done, a Jack goes on a Jack.
    assert check(ruleset("classique"), "JH", "JS", pending=False).legal


@pytest.mark.parametrize(
    "covered, card, legal, depends_on",
    [
        # 004 « Le huit, par ailleurs, est considéré semblable à la carte qu'il vient recouvrir : ainsi,
        # dans l'exemple que nous venons de donner, il deviendrait l'équivalent d'un roi »: on an 8 that
        # covered a King, a King goes whatever suit was named.
        ("KC", "KD", True, None),
        ("K", "KD", True, None),  # a rank alone is enough
        # the 8 covered a 3: a King follows neither hearts nor the 3.
        ("3C", "KD", False, None),
        # nothing said about the card under the 8: the King's fate depends on it.
        (None, "KD", False, "covered"),
        # a heart follows the suit named whatever the 8 covers.
        (None, "5H", True, None),
        ("3C", "5H", True, None),
        # 004 « Les huit étant libres, on peut toujours les jouer ».
        (None, "8D", True, None),
    ],
)
def test_the_les_huit_8_counts_as_the_card_it_covers(covered, card, legal, depends_on):
    verdict = check(ruleset("les-huit"), LES_HUIT_8["top"], card, active_suit="H", covered=covered, players=3)
    assert verdict.legal is legal, verdict.reason
    assert verdict.depends_on == depends_on


def test_only_a_card_that_takes_the_rank_asks_for_the_covered_card():
    # 000: after an 8 « Le joueur suivant devra jouer un cœur (ou un autre 8 …) »: no rank is taken.
    verdict = check(ruleset("classique"), "8S", "KD", active_suit="H", covered="KC")
    assert verdict.legal is False and verdict.depends_on is None


def test_a_bad_covered_card_is_refused():
    with pytest.raises(DomainError) as info:
        check(ruleset("les-huit"), "8S", "KD", active_suit="H", covered="ZZ", players=3)
    assert info.value.field == "covered" and info.value.status == 422


@pytest.mark.parametrize("variant", ["huit-americain", "huit-elabore", "deux-jeux", "classique", "54-cartes"])
def test_the_rule_page_and_the_checker_agree_on_the_lost_turn(variant):
    """Issue 16: what the rule page says of an attack (the player who pays loses the turn, or not)
    is what the checker says to the player who pays it. huit-elabore's Ace: 003 « As : Jouera un as ou
    prendra deux cartes », the turn lost as in Huit américain (« on pioche deux cartes et on passe son
    tour »), an interpretation shown on the page."""
    from models.core.rulepage import card_entries

    rs = ruleset(variant)
    for entry in card_entries(rs):
        if not entry.rule.attacks:
            continue
        page_says = "loses the turn" in " ".join(plain(m) for m in entry.effects)
        top = format_card(entry.card) if entry.card.suit or entry.card.is_joker else entry.card.rank + "H"
        suit = "H" if entry.rule.names_suit or entry.card.is_joker else None
        verdict = check(rs, top, "5C" if top != "5C" else "6C", pending=True, active_suit=suit)
        assert verdict.legal is False
        assert verdict.turn_lost is page_says, (variant, top)
        assert ("loses the turn" in templates(verdict)) is page_says, (variant, top)


def test_huit_elabore_ace_not_answered_costs_two_per_ace_and_the_turn():
    # 003 « As : Jouera un as ou prendra deux cartes » (interpretation: as in Huit américain, two per
    # Ace of the chain, and the turn is lost).
    verdict = check(ruleset("huit-elabore"), "AD", "5D", pending=True)
    assert verdict.legal is False and verdict.turn_lost is True and draws(verdict) == [2]
    assert has_effect(verdict, "per_card") and "loses the turn" in templates(verdict)


def test_deux_jeux_ace_not_answered_says_nothing_of_the_turn():
    # 001 « doit piocher un As ou un 8, sous peine de piocher 2 cartes »: the source says nothing of
    # the turn; neither the page nor the checker adds a lost turn.
    verdict = check(ruleset("deux-jeux"), "AH", "5H", pending=True)
    assert verdict.legal is False and verdict.turn_lost is False and draws(verdict) == [2]
    assert "loses the turn" not in templates(verdict)


def test_les_huit_the_covered_card_decides_without_a_suit_named():
    # 004: the 8 is « semblable à la carte qu'il vient recouvrir »: an 8 of clubs on a 5 counts as a
    # 5, and a 5 of spades goes on it whatever suit was named, so none needs to be given.
    verdict = check(ruleset("les-huit"), "8C", "5S", covered="5")
    assert verdict.legal
    assert verdict.next_suit == "S"
    with pytest.raises(DomainError):  # another rank: the suit named decides, and is asked for
        check(ruleset("les-huit"), "8C", "6S", covered="5")


def test_an_ace_answering_an_ace_says_play_goes_on_in_its_suit():
    # 003 « Le jeu repart avec la couleur de l'As posé en dernier »: an Ace of diamonds on an Ace of
    # clubs still to be paid; the draw now counts 2 + 2 = 4 (« deux cartes par As posé »), and once
    # it is paid play goes on in diamonds.
    verdict = check(ruleset("huit-americain"), "AC", "AD", pending=True)
    assert verdict.legal and verdict.next_suit == "D"
    assert "Then play goes on in the suit of the AD, the last card of the chain: D." in templates(verdict)

"""The dispute checker (SPEC §3): may this card be played here, and what happens next.

Every case below was worked out by hand from SPEC §3 (the referee table), §2 (finishing
restrictions, house options) and the five rule texts in shared/seeds/ (000 classique, 001
deux-jeux, 002 54-cartes, 003 huit-americain and its "autre variante" huit-elabore, 004
les-huit); the comment above each case names the rule that decides it. Effects are checked as
facts (draw counts in the Message params, a few keywords of the templates), never as whole
sentences. A representative subset also goes through POST /api/v1/referee/check in French and
English.
"""

from __future__ import annotations

import pytest

from models.core.cards import format_card
from models.core.referee import Verdict, check
from models.core.rules import catalog
from models.core.text import plain

# Keywords of the effect templates (English msgids) that stand for one effect each.
EFFECT_WORDS = {
    "skip": ("loses the turn", "lose the turn", "is skipped"),
    "reverse": ("reverses",),
    "again": ("plays again",),
    "names": ("names the suit",),
    "steal": ("at random",),
    "swap": ("swap hands",),
    "noeffect": ("no effect",),
    "rank": ("counts as the card it covers",),
    "jump": ("is skipped",),
    "chain": ("must answer",),
    "per_card": ("for each card",),
    "cancel": ("nobody draws",),
    "sent": ("sends the draw on",),
}

UNSET = object()


def case(
    id,
    variant,
    top,
    card,
    legal,
    *,
    opts=None,
    players=4,
    suit=None,
    pending=False,
    last=False,
    draw=UNSET,
    has=(),
    lacks=(),
    next_suit=UNSET,
    answers=None,
    sent_on=None,
    api=False,
    xfail=None,
):
    return dict(
        id=id,
        variant=variant,
        top=top,
        card=card,
        legal=legal,
        opts=opts or {},
        players=players,
        suit=suit,
        pending=pending,
        last=last,
        draw=draw,
        has=has,
        lacks=lacks,
        next_suit=next_suit,
        answers=answers,
        sent_on=sent_on,
        api=api,
        xfail=xfail,
    )


def ruleset(variant, **options):
    return catalog().resolve(variant, options=options)


def run(c) -> Verdict:
    return check(
        ruleset(c["variant"], **c["opts"]),
        c["top"],
        c["card"],
        players=c["players"],
        active_suit=c["suit"],
        pending=c["pending"],
        last_card=c["last"],
    )


def templates(verdict: Verdict) -> str:
    """The effects in plain English (the singular or plural of each template, as counted)."""
    return " | ".join(plain(m) for m in verdict.effects)


def draws(verdict: Verdict) -> list:
    return [m.params["draw"] for m in verdict.effects if "draw" in m.params]


def answer_cards(verdict: Verdict) -> set:
    out = set()
    for m in verdict.effects + (verdict.rule,):
        for key in ("answers", "cancels"):  # cards that answer a pending attack, or cancel it
            for a in m.params.get(key, ()):
                out.add(format_card(a))
    return out


def has_effect(verdict: Verdict, name: str) -> bool:
    text = templates(verdict)
    return any(word in text for word in EFFECT_WORDS[name])


# --- classique (source 000) ----------------------------------------------------------------------

CLASSIQUE = [
    # 000 "même couleur que la carte au sommet": a heart on a heart.
    case("cl-suit", "classique", "9H", "5H", True, next_suit="H", api=True),
    # 000 "même valeur (même rang)": a 9 on a 9.
    case("cl-rank", "classique", "9H", "9C", True),
    # 000 neither suit nor rank, and 5 is no special card → illegal.
    case("cl-nomatch", "classique", "9H", "5C", False, api=True),
    # §3 classique 8: any time, names a suit (000 "à n'importe quel moment").
    case("cl-8-any", "classique", "KH", "8C", True, has=("names",), next_suit=None, api=True),
    # §3 classique JK: any time; next draws 4 and loses the turn; names a suit (interpretation).
    case("cl-jk-any", "classique", "3D", "JK", True, draw=[4], has=("names", "skip"), next_suit=None, api=True),
    # §3 classique 2: matching; next draws 2, loses the turn.
    case("cl-2-suit", "classique", "7H", "2H", True, draw=[2], has=("skip",), api=True),
    # §3 classique 2 is played matching only: a 2 of spades on a 7 of hearts does not match.
    case("cl-2-nomatch", "classique", "7H", "2S", False),
    # §3 classique J: matching; next skips (000 "Le Valet fait sauter le tour").
    case("cl-j-skip", "classique", "4H", "JH", True, has=("skip",), lacks=("reverse",)),
    # §3 classique A: matching; reverses (000 "L'As inverse le sens de jeu").
    case("cl-a-reverse", "classique", "4H", "AH", True, has=("reverse",), lacks=("skip",)),
    # 000 / §2 option ace_two_players defaults to reverse: at 2 players the A still reverses.
    case("cl-a-2p-default", "classique", "4H", "AH", True, players=2, has=("reverse",), lacks=("skip",)),
    # §2 ace_two_players=skip: at 2 players the A makes the next player lose the turn instead.
    case(
        "cl-a-2p-skip",
        "classique",
        "4H",
        "AH",
        True,
        opts={"ace_two_players": "skip"},
        players=2,
        has=("skip",),
        lacks=("reverse",),
        api=True,
    ),
    # ace_two_players only concerns two players: at 3 players the A reverses.
    case(
        "cl-a-3p-skip-option",
        "classique",
        "4H",
        "AH",
        True,
        opts={"ace_two_players": "skip"},
        players=3,
        has=("reverse",),
        lacks=("skip",),
    ),
    # §3 "Matching" = the suit named after an 8: hearts named on 8S → 4H follows.
    case("cl-after-8-named", "classique", "8S", "4H", True, suit="H", api=True),
    # The named suit replaces the 8's own suit: 4S does not follow hearts.
    case("cl-after-8-own-suit", "classique", "8S", "4S", False, suit="H"),
    # After a Joker naming clubs (interpretation: JK names a suit), a club follows.
    case("cl-after-jk-named", "classique", "JK", "QC", True, suit="C"),
    # 000 "pas d'empilement": a pending 2 cannot be answered by a 2 without stacking; penalty 2.
    case("cl-pending-2-nostack", "classique", "2H", "2S", False, pending=True, draw=[2], api=True),
    # 000 « Empilement des +2 et +4 : autoriser qu'un joueur réponde par un 2 ou un Joker pour « renvoyer »
    # la pioche au suivant »: the 2 sends the draw on; (interpretation) the draws add up, 2 + 2 = 4.
    case(
        "cl-pending-2-stack-2",
        "classique",
        "2H",
        "2S",
        True,
        opts={"stacking": True},
        pending=True,
        draw=[],
        sent_on=4,
        has=("sent",),
        answers={"2", "JK"},
    ),
    # Same sentence: a Joker answers the pending 2 and sends on 2 + 4 = 6 (« Le Joker : +4 cartes »);
    # it still names a suit (interpretation of classique: « Le Joker permet aussi d'annoncer une couleur »).
    case(
        "cl-pending-2-stack-jk",
        "classique",
        "2H",
        "JK",
        True,
        opts={"stacking": True},
        pending=True,
        draw=[],
        sent_on=6,
        has=("sent", "names"),
        api=True,
    ),
    # §3: while a penalty is pending only the allowed answers; even the 8 is illegal.
    case("cl-pending-2-eight", "classique", "2H", "8C", False, pending=True),
    # §3: a paid 2 is an ordinary heart: 5H follows.
    case("cl-paid-2", "classique", "2H", "5H", True, pending=False),
    # 000 counter_joker is optional: by default a Joker cannot counter a pending Joker; penalty 4.
    case("cl-pending-jk-default", "classique", "JK", "JK", False, suit="H", pending=True, draw=[4], api=True),
    # §2 counter_joker: a Joker on a pending Joker.
    case(
        "cl-pending-jk-counter",
        "classique",
        "JK",
        "JK",
        True,
        opts={"counter_joker": True},
        suit="H",
        pending=True,
        sent_on=8,  # « Contre Joker » sends the +4 on; (interpretation) the draws add up: 4 + 4
        has=("sent", "names"),
        api=True,
    ),
    # counter_joker allows only a Joker: a 2 on a pending Joker stays illegal.
    case(
        "cl-pending-jk-counter-2",
        "classique",
        "JK",
        "2H",
        False,
        opts={"counter_joker": True},
        suit="H",
        pending=True,
        draw=[4],
    ),
    # §2 stacking: a 2 answers a pending Joker (+4).
    # 000 « répondre par un 2 ou un Joker pour « renvoyer » la pioche »: 4 + 2 = 6 (interpretation: they add up).
    case(
        "cl-pending-jk-stack-2",
        "classique",
        "JK",
        "2S",
        True,
        opts={"stacking": True},
        suit="H",
        pending=True,
        sent_on=6,
    ),
    # Pending Joker: following the named suit is no answer → illegal.
    case("cl-pending-jk-suit", "classique", "JK", "7H", False, suit="H", pending=True),
    # §2 classique: no finishing restriction by default → going out on an 8 is legal.
    case("cl-last-8-default", "classique", "KH", "8C", True, last=True),
    # §2 option special_finish_forbidden: no going out on an 8.
    case(
        "cl-last-8-forbidden",
        "classique",
        "KH",
        "8C",
        False,
        opts={"special_finish_forbidden": True},
        last=True,
        api=True,
    ),
    # §2 option special_finish_forbidden: no going out on a Joker.
    case("cl-last-jk-forbidden", "classique", "KH", "JK", False, opts={"special_finish_forbidden": True}, last=True),
    # special_finish_forbidden concerns only 8 and JK: a matching K may end the manche.
    case("cl-last-k-option", "classique", "KH", "QH", True, opts={"special_finish_forbidden": True}, last=True),
    # No option: finishing on a Joker is fine.
    case("cl-last-jk-default", "classique", "KH", "JK", True, last=True),
    # §3 "Matching" = same suit as the top card; active_suit only matters after an 8/Joker.
    case(
        "cl-active-suit-ignored-on-plain-top",
        "classique",
        "5H",
        "7S",
        False,
        suit="S",
    ),
]

# --- deux-jeux (source 001) ----------------------------------------------------------------------

DEUX_JEUX = [
    # 001 "même couleur": a club on a club.
    case("dj-suit", "deux-jeux", "9C", "3C", True, api=True),
    # 001 "même valeur": a 9 on a 9.
    case("dj-rank", "deux-jeux", "9C", "9D", True),
    # 001 neither suit nor rank → illegal.
    case("dj-nomatch", "deux-jeux", "9C", "3D", False),
    # §3 deux-jeux 8: any time, names a suit (001 "sur n'importe quelle autre carte").
    case("dj-8-any", "deux-jeux", "5S", "8H", True, has=("names",), next_suit=None),
    # §3 deux-jeux: the 8 is not played on a pending 2 (it pays 2).
    case("dj-8-pending-2", "deux-jeux", "2S", "8H", False, pending=True, draw=[2], api=True),
    # §3 deux-jeux: the 8 is not played on a pending ♠4 (it pays 4).
    case("dj-8-pending-4s", "deux-jeux", "4S", "8H", False, pending=True, draw=[4]),
    # Once the ♠4 is paid, the 8 goes on it as on anything.
    case("dj-8-paid-4s", "deux-jeux", "4S", "8H", True),
    # §3 deux-jeux ♠4: next draws 4, skips (matching: on a spade).
    case("dj-4s", "deux-jeux", "9S", "4S", True, draw=[4], has=("skip",), api=True),
    # Only the ♠4 is special: 4H is a plain card, no draw.
    case("dj-4h-plain", "deux-jeux", "9H", "4H", True, draw=[], lacks=("skip",)),
    # §3 deux-jeux A chain: answered by an A (any suit), 2 per A, answers A or 8.
    case(
        "dj-a-on-pending-a",
        "deux-jeux",
        "AH",
        "AS",
        True,
        pending=True,
        draw=[],
        sent_on=4,  # 001 « S'il pose un As, le joueur suivant doit piocher 4 cartes »
        has=("sent",),
        lacks=("skip",),  # 001 says nothing of the turn for the As chain
        answers={"A", "8"},
        api=True,
    ),
    # §3 deux-jeux: the 8 cancels a pending As chain (001 "Le 8 annule le cumul des As").
    # Issue 16: the effect says so: nobody draws (no draw at all among the effects).
    case("dj-8-on-pending-a", "deux-jeux", "AH", "8D", True, pending=True, draw=[], has=("names", "cancel"), api=True),
    # 001 "doit poser un As ou un 8, sous peine de piocher 2": a heart is no answer.
    case("dj-pending-a-suit", "deux-jeux", "AH", "5H", False, pending=True, draw=[2], has=("per_card",)),
    # §3 deux-jeux A is matching when nothing is pending.
    case("dj-a-matching", "deux-jeux", "5H", "AH", True, draw=[2], has=("chain",), answers={"A", "8"}),
    # An A that matches nothing is illegal.
    case("dj-a-nomatch", "deux-jeux", "5C", "AH", False),
    # §3 deux-jeux 2: matching; next draws 2, skips.
    case("dj-2", "deux-jeux", "KC", "2C", True, draw=[2], has=("skip",)),
    # No stacking in deux-jeux: a 2 on a pending 2 is illegal.
    case("dj-pending-2-2", "deux-jeux", "2H", "2C", False, pending=True, draw=[2]),
    # §3 deux-jeux 7: next skips.
    case("dj-7-4p", "deux-jeux", "3H", "7H", True, has=("skip",)),
    # §3 / 001 "À 2 joueurs, le 7 et le Valet perdent leur effet".
    case("dj-7-2p", "deux-jeux", "3H", "7H", True, players=2, has=("noeffect",), lacks=("skip",), api=True),
    # §3 deux-jeux J: reverses.
    case("dj-j-4p", "deux-jeux", "3H", "JH", True, has=("reverse",)),
    # 001 at 2 players the Valet loses its effect.
    case("dj-j-2p", "deux-jeux", "3H", "JH", True, players=2, has=("noeffect",), lacks=("reverse",)),
    # §3 deux-jeux 10: play again.
    case("dj-10", "deux-jeux", "3H", "10H", True, has=("again",)),
    # §2 deux-jeux may not finish on a 10.
    case("dj-last-10", "deux-jeux", "3H", "10H", False, last=True, api=True),
    # §3 deux-jeux K: may swap hands.
    case("dj-k", "deux-jeux", "3D", "KD", True, has=("swap",)),
    # Only the 10 is forbidden as last card: a K may end the manche.
    case("dj-last-k", "deux-jeux", "3D", "KD", True, last=True),
    # Only the 10 is forbidden: an 8 may end the manche.
    case("dj-last-8", "deux-jeux", "3D", "8S", True, last=True),
]

# --- 54-cartes (source 002) ----------------------------------------------------------------------

CINQUANTE_QUATRE = [
    # 002 "même couleur".
    case("54-suit", "54-cartes", "9H", "5H", True),
    # 002 "de couleur différente mais de même rang".
    case("54-rank", "54-cartes", "9H", "9C", True),
    # 002 neither → illegal.
    case("54-nomatch", "54-cartes", "9H", "5C", False, api=True),
    # §3 54-cartes JK: any time; next draws 5, skips (002 "5 pour un joker").
    case("54-jk", "54-cartes", "5H", "JK", True, draw=[5], has=("skip",), api=True),
    # §3 54-cartes 2♠: next draws 4 (002 "4 pour le 2 de pique").
    case("54-2s", "54-cartes", "7S", "2S", True, draw=[4], has=("skip",), api=True),
    # §3 54-cartes other 2s: 2 (rank match on the 2♠).
    case("54-2h", "54-cartes", "2S", "2H", True, draw=[2], has=("skip",)),
    # §3 the 2 is matching: 2D on 7S is illegal.
    case("54-2-nomatch", "54-cartes", "7S", "2D", False),
    # §3 / 002 "l'as de pique fait changer le sens du jeu".
    case("54-as", "54-cartes", "4S", "AS", True, has=("reverse",)),
    # Only the A♠ reverses: A♥ is a plain card.
    case("54-ah", "54-cartes", "4H", "AH", True, draw=[], lacks=("reverse", "skip"), api=True),
    # §3 / 002 "les valets font sauter le tour".
    case("54-j", "54-cartes", "4C", "JC", True, has=("skip",)),
    # §3 54-cartes 8: any time, names a suit.
    case("54-8", "54-cartes", "KS", "8D", True, has=("names",), next_suit=None),
    # §3 pending: no answer allowed in 54-cartes → a JK on a pending 2♠ is illegal, pays 4.
    case("54-pending-2s-jk", "54-cartes", "2S", "JK", False, pending=True, draw=[4]),
    # No stacking: a 2 on a pending 2 is illegal.
    case("54-pending-2-2", "54-cartes", "2C", "2H", False, pending=True, draw=[2]),
    # §2 54-cartes: no finishing restriction → JK may be the last card.
    case("54-last-jk", "54-cartes", "5H", "JK", True, last=True, api=True),
    # §2 54-cartes: no finishing restriction → 8 may be the last card.
    case("54-last-8", "54-cartes", "5H", "8C", True, last=True),
    # After a Joker with clubs to follow, a club follows.
    case("54-after-jk", "54-cartes", "JK", "4C", True, suit="C"),
    # After a Joker with clubs to follow, a heart does not.
    case("54-after-jk-no", "54-cartes", "JK", "4H", False, suit="C"),
]

# --- huit-americain (source 003, first rule) -----------------------------------------------------

HUIT_AMERICAIN = [
    # 003 "si on pose une Dame de cœur sur une Dame de pique": same rank.
    case("ha-rank", "huit-americain", "QS", "QH", True, next_suit="H"),
    # 003 "Jouer la couleur demandée".
    case("ha-suit", "huit-americain", "QS", "5S", True),
    # Neither → illegal.
    case("ha-nomatch", "huit-americain", "QS", "5H", False, api=True),
    # §3 huit-americain 8: any time (except on a pending A); names a suit.
    case("ha-8-any", "huit-americain", "5S", "8D", True, has=("names",), next_suit=None),
    # §3 huit-americain JK: same as 8; next draws 5, skips; names a suit.
    case("ha-jk", "huit-americain", "5S", "JK", True, draw=[5], has=("names", "skip"), next_suit=None, api=True),
    # §3 / 003 "sauf derrière un As": no 8 on a pending A; pays 2 per A.
    case("ha-8-pending-a", "huit-americain", "AH", "8D", False, pending=True, draw=[2], api=True),
    # §3 / 003 "sauf derrière un As": no Joker on a pending A.
    case("ha-jk-pending-a", "huit-americain", "AH", "JK", False, pending=True, draw=[2]),
    # Once the A chain is paid, the 8 goes on the A.
    case("ha-8-paid-a", "huit-americain", "AH", "8D", True),
    # §3 A chain answered only by an A; play resumes in the last A's suit; 2 per A; skips.
    case(
        "ha-a-on-pending-a",
        "huit-americain",
        "AH",
        "AC",
        True,
        pending=True,
        draw=[],
        sent_on=4,  # 003 « devra piocher deux cartes par As posé, c'est-à-dire quatre cartes »
        next_suit="C",
        has=("sent", "skip"),
        answers={"A"},
        api=True,
    ),
    # §3 "answered only by an A": a 2 of the same suit is no answer.
    case("ha-2-pending-a", "huit-americain", "AH", "2H", False, pending=True, draw=[2], has=("per_card",)),
    # §3 huit-americain A is matching otherwise.
    case("ha-a-matching", "huit-americain", "5S", "AS", True),
    # §3 huit-americain 2: on its suit; next draws 2, skips.
    case("ha-2-suit", "huit-americain", "9S", "2S", True, draw=[2], has=("skip",)),
    # §3 huit-americain 2: on a 2.
    case("ha-2-on-2", "huit-americain", "2H", "2S", True),
    # §3 huit-americain 2: "only on its suit or a 2" → not on 9H.
    case("ha-2-nomatch", "huit-americain", "9H", "2S", False),
    # §3 pending 2: no stacking in 003 ("pioche deux cartes et passe son tour").
    case("ha-pending-2-2", "huit-americain", "2H", "2S", False, pending=True, draw=[2]),
    # §3 huit-americain 7: on a 7; next takes a card at random from the player's hand, skips.
    case("ha-7-steal", "huit-americain", "7C", "7H", True, has=("steal",), draw=[], api=True),
    # §3 huit-americain 7: "only on its suit or a 7".
    case("ha-7-nomatch", "huit-americain", "9C", "7H", False),
    # A pending 7 cannot be answered: the next player has a card taken.
    case("ha-pending-7", "huit-americain", "7H", "7S", False, pending=True, has=("steal",)),
    # §3 huit-americain 10: on a 10; reverses.
    case("ha-10-rank", "huit-americain", "10S", "10D", True, has=("reverse",)),
    # §3 huit-americain 10: on its suit.
    case("ha-10-suit", "huit-americain", "4D", "10D", True, has=("reverse",)),
    # §2 / 003 "On ne peut terminer le coup avec un 8".
    case("ha-last-8", "huit-americain", "5S", "8D", False, last=True, api=True),
    # §2 / 003 "… ou un Joker".
    case("ha-last-jk", "huit-americain", "5S", "JK", False, last=True),
    # A plain card may end the manche.
    case("ha-last-k", "huit-americain", "5H", "KH", True, last=True),
    # After an 8 naming diamonds, a 2 of diamonds is on its suit.
    case("ha-2-after-8", "huit-americain", "8S", "2D", True, suit="D"),
]

# --- huit-elabore (source 003, "autre variante") -------------------------------------------------

HUIT_ELABORE = [
    # 003 base rule: the suit.
    case("he-suit", "huit-elabore", "KC", "4C", True),
    # 003 base rule: the rank.
    case("he-rank", "huit-elabore", "KC", "KH", True),
    # Neither → illegal.
    case("he-nomatch", "huit-elabore", "KC", "4H", False, api=True),
    # §3 huit-elabore 8 "as huit-americain": any time, names a suit.
    case("he-8-any", "huit-elabore", "5C", "8H", True, has=("names",), next_suit=None),
    # §3 8 as huit-americain: not on a pending A.
    case("he-8-pending-a", "huit-elabore", "AC", "8H", False, pending=True, draw=[2]),
    # §3 / 003 "As : Jouera un as ou prendra deux cartes".
    # (interpretation of the variant, shown on its page: two cards per Ace of the chain) 2 + 2 = 4.
    case("he-a-on-pending-a", "huit-elabore", "AC", "AD", True, pending=True, answers={"A"}, sent_on=4, api=True),
    # §3 / 003 "6 : Jouera un 6 ou prendra une carte": 6 answers a 6; takes 1, not per card.
    case(
        "he-6-on-pending-6",
        "huit-elabore",
        "6H",
        "6S",
        True,
        pending=True,
        draw=[],
        sent_on=1,  # « Jouera un 6 ou prendra une carte »: one card, however many 6s
        lacks=("per_card",),
        answers={"6"},
        api=True,
    ),
    # A pending 6 not answered by a 6: takes 1.
    case("he-pending-6-suit", "huit-elabore", "6H", "5H", False, pending=True, draw=[1]),
    # 003 "Si un 2 est joué sur un As … il n'a plus à le faire": a matching 2 jumps in on a pending A.
    case("he-2-pending-a", "huit-elabore", "AH", "2H", True, pending=True, has=("jump",), api=True),
    # 003 "… sur un As ou un 6": a matching 2 jumps in on a pending 6.
    case("he-2-pending-6", "huit-elabore", "6H", "2H", True, pending=True, has=("jump",)),
    # 003 "à condition de s'accorder avec la série": 2C does not match AH → illegal.
    case("he-2-pending-a-nomatch", "huit-elabore", "AH", "2C", False, pending=True, draw=[2]),
    # 003 "Pas de 2 sur un 9": even a 2 of the same suit.
    case("he-2-on-9", "huit-elabore", "9H", "2H", False, api=True),
    # 003 "Pas de 2 sur un 9": pending has no bearing (a 9 is no attack).
    case("he-2-on-9-pending", "huit-elabore", "9H", "2H", False, pending=True),
    # 003 after a 9 "poser un autre 9": a 9 on a 9; play again.
    case("he-9", "huit-elabore", "9H", "9C", True, has=("again",)),
    # §3 huit-elabore 2 (matching) skips the player to play.
    case("he-2", "huit-elabore", "5D", "2D", True, has=("jump",)),
    # 003 "7 : Passera son tour".
    case("he-7", "huit-elabore", "3S", "7S", True, has=("skip",)),
    # §3 huit-elabore 10 as huit-americain: reverses.
    case("he-10", "huit-elabore", "3S", "10S", True, has=("reverse",)),
    # 003 "on ne peut pas poser un 2 de cœur sur du trèfle": after an 8 naming spades, 2S fits.
    case("he-2-after-8", "huit-elabore", "8H", "2S", True, suit="S"),
    # … but not 2H (the named suit, not the 8's own suit, is followed).
    case("he-2-after-8-no", "huit-elabore", "8H", "2H", False, suit="S"),
    # §2 / 003 "On ne peut finir sur un 9".
    case("he-last-9", "huit-elabore", "9H", "9C", False, last=True, api=True),
    # §2 huit-elabore keeps huit-americain's rule: no finishing on an 8.
    case("he-last-8", "huit-elabore", "5C", "8H", False, last=True),
    # A 2 may be the last card.
    case("he-last-2", "huit-elabore", "5D", "2D", True, last=True),
    # §3 huit-elabore A: next plays an A or takes 2.
    case("he-a", "huit-elabore", "5D", "AD", True, draw=[2], has=("chain",), answers={"A"}),
]

# --- les-huit (source 004) -----------------------------------------------------------------------

LES_HUIT = [
    # 004 "même valeur": a K on a K.
    case("lh-rank", "les-huit", "KS", "KD", True),
    # 004 "n'importe quelle carte de carreau".
    case("lh-suit", "les-huit", "KD", "3D", True, api=True),
    # Neither → illegal.
    case("lh-nomatch", "les-huit", "KD", "3C", False, api=True),
    # §3 les-huit 8: any time; names a suit; counts as the rank it covers.
    case("lh-8", "les-huit", "KD", "8S", True, has=("names", "rank"), next_suit=None, api=True),
    # 004 "annonce un changement à la couleur de son choix": hearts named → 5H.
    case("lh-after-8", "les-huit", "8S", "5H", True, suit="H"),
    # The named suit (hearts), not the 8's spades, must be followed.
    case("lh-after-8-own-suit", "les-huit", "8S", "5S", False, suit="H"),
    # §3 les-huit 2: matching, no effect (no draw).
    case("lh-2", "les-huit", "9H", "2H", True, draw=[], lacks=("skip",)),
    # No card attacks in les-huit: "pending" changes nothing.
    case("lh-2-pending", "les-huit", "9H", "2H", True, pending=True),
    # §3 les-huit 7: matching, no skip.
    case("lh-7", "les-huit", "7C", "7H", True, lacks=("skip", "steal")),
    # §3 les-huit J: matching, no skip/reverse.
    case("lh-j", "les-huit", "4H", "JH", True, lacks=("skip", "reverse")),
    # §3 les-huit A: matching, no reverse, no chain.
    case("lh-a", "les-huit", "4H", "AH", True, draw=[], lacks=("reverse", "chain")),
    # §3 les-huit 10: matching, no play again.
    case("lh-10", "les-huit", "4H", "10H", True, lacks=("again", "reverse")),
    # §2 les-huit: no finishing restriction → an 8 may end the manche.
    case("lh-last-8", "les-huit", "KD", "8S", True, last=True, api=True),
    # §2 les-huit: no finishing restriction → a 10.
    case("lh-last-10", "les-huit", "4H", "10H", True, last=True),
    # Being the last card never makes a non-matching card playable.
    case("lh-last-nomatch", "les-huit", "KD", "3C", False, last=True),
]

ALL_CASES = CLASSIQUE + DEUX_JEUX + CINQUANTE_QUATRE + HUIT_AMERICAIN + HUIT_ELABORE + LES_HUIT


def params(cases):
    out = []
    for c in cases:
        marks = [pytest.mark.xfail(strict=True, reason=c["xfail"])] if c["xfail"] else []
        out.append(pytest.param(c, id=c["id"], marks=marks))
    return out

"""The referee and the rule pages in our own words (issue 16): French with its articles, English
that says "round", readings marked as interpretations, nothing said twice, sources named in words.

Each expectation is written by hand; the seed sentence a rule rests on is quoted in a comment.
"""

from __future__ import annotations

import html
import re

import pytest

from models.core.cards import Card, parse_card
from models.core.rules import catalog
from tests.e2e.test_own_words import page_text

URL = "/api/v1/referee/check"


def text_of(client, url, language):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return page_text(response.get_data(as_text=True)).replace("\u00a0", " ")


def answer(client, language, **body):
    headers = {"Accept-Language": language}
    response = client.post(URL, json=body, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    return {k: v.replace("\u00a0", " ") if isinstance(v, str) else v for k, v in response.get_json().items()}


# --- French with its articles ----------------------------------------------------------------------


def test_rule_pages_name_the_cards_with_their_articles(client):
    deux_jeux = text_of(client, "/rules/deux-jeux", "fr")
    assert "Le 8 se pose sur n'importe quelle carte." in deux_jeux
    assert "Le joueur suivant doit répondre par un As, ou piocher 2 cartes pour chaque carte de la chaîne." in deux_jeux
    # 001 « Le 8 annule le cumul des As »
    assert "Un 8 annule plutôt la chaîne : personne ne pioche." in deux_jeux
    # 001 « 10 Le joueur qui joue cette carte rejoue »: no going out on it (SPEC §2)
    assert "On ne peut pas finir sur un 10." in deux_jeux
    huit = text_of(client, "/rules/huit-americain", "fr")
    assert (
        "On ne peut pas finir sur un 8 ou un Joker." in huit
    )  # 003 « On ne peut terminer le coup avec un 8 ou un Joker »
    assert "et le suivant doit jouer du trèfle" in huit
    elabore = text_of(client, "/rules/huit-elabore", "fr")
    assert "Jamais sur un 9." in elabore  # 003 « Pas de 2 sur un 9 »


@pytest.mark.parametrize(
    "body, wanted",
    [
        # 003 « Si un joueur pose un As, on est obligé de poser un As derrière lui »
        (
            {"variant": "huit-americain", "top": "AH", "card": "5H", "pending": True},
            (
                "L'As de cœur n'a pas encore été payé : le 5 de cœur ne peut pas y répondre.",
                "ne se contre qu'avec un As",
            ),
        ),
        (
            {"variant": "huit-americain", "top": "AH", "card": "AS", "pending": True},
            ("L'As de pique répond à l'As de cœur, qui n'avait pas encore été payé.",),
        ),
        # 001 « doit piocher un As ou un 8 … Le 8 annule le cumul des As »
        (
            {"variant": "deux-jeux", "top": "AH", "card": "5H", "pending": True},
            ("ne se contre qu'avec un As, ou s'annule avec un 8.",),
        ),
        (
            {"variant": "deux-jeux", "top": "AH", "card": "8D", "pending": True},
            ("Le 8 de carreau annule la chaîne ouverte par l'As de cœur : personne ne pioche.",),
        ),
        # 000: after an 8 the named suit is followed; the 8's own rank is no match for a 5
        (
            {"variant": "classique", "top": "8S", "active_suit": "H", "card": "5C"},
            ("Le 5 de trèfle ne suit ni la couleur demandée (cœur) ni le rang du 8 de pique.",),
        ),
        # 001 « 10 Le joueur qui joue cette carte rejoue »: not the last card
        (
            {"variant": "deux-jeux", "top": "3H", "card": "10H", "last_card": True},
            (
                "Le 10 de cœur serait la dernière carte de ce joueur, et ici personne ne sort sur un 10.",
                "En fin de manche, le 10 oblige",
            ),
        ),
        # 000 « Le Valet fait sauter le tour du joueur suivant »
        (
            {"variant": "classique", "top": "JH", "card": "JS", "pending": True},
            ("Le Valet de cœur fait sauter le tour de ce joueur : il ne pose rien, pas même le Valet de pique.",),
        ),
        # a plain card: the next player follows the suit or the rank
        (
            {"variant": "classique", "top": "9H", "card": "5H"},
            ("Le tour passe au joueur suivant, qui joue du cœur ou pose un 5.",),
        ),
    ],
)
def test_referee_answers_in_french_have_their_articles(client, body, wanted):
    data = answer(client, "fr", **body)
    said = " ".join(data[k] for k in ("reason", "rule", "effect"))
    for phrase in wanted:
        assert phrase in said, said


def test_the_finishing_rule_inside_a_sentence_starts_with_a_small_letter(client):
    data = answer(client, "fr", variant="huit-elabore", top="9H", card="9C", last_card=True)
    assert re.match(r"En fin de manche, [a-zé]", data["rule"]), data["rule"]


def test_french_contractions_of_card_names():
    from views.texts import contract

    assert contract("répond à le 8 de pique") == "répond au 8 de pique"
    assert contract("le rang de le Roi") == "le rang du Roi"
    assert contract("le rang de l'As") == "le rang de l'As"
    assert contract("avant de le jouer") == "avant de le jouer"  # a pronoun, not a card
    assert contract("le rang de un 9") == "le rang d'un 9"


# --- English that is English -----------------------------------------------------------------------


def test_english_names_cards_with_a_or_an(app):
    from views.texts import word as describe

    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert describe([Card("A"), Card("8")], "a") == "an Ace or an 8"
        assert describe(Card("JK"), "a") == "a Joker"
        assert describe(parse_card("QH"), "the") == "the Queen of hearts"
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert describe([Card("A"), Card("8")], "a") == "un As ou un 8"
        assert describe(parse_card("QH"), "the") == "la Dame de cœur"
        assert describe(parse_card("AS"), "the") == "l'As de pique"


def test_english_pages_say_round_and_a_joker(client, games):
    game, token = games.create_game("huit-americain", ["Ana", "Bob", "Chloé"])
    with client.session_transaction() as session:
        session["tokens"] = {game.id: token}  # this phone created the game: it may enter a round
    deux = text_of(client, "/rules/deux-jeux", "en")
    assert "Nobody may go out on a 10." in deux
    assert "End of a round" in deux
    huit = text_of(client, "/rules/huit-americain", "en")
    assert "Nobody may go out on an 8 or a Joker." in huit
    for url in ["/rules/compare", f"/games/{game.id}", f"/games/{game.id}/manches/new"] + [
        f"/rules/{v}" for v in catalog().variants
    ]:
        text = text_of(client, url, "en")
        lines = [line for line in text.splitlines() if not line.startswith("http")]
        assert not [line for line in lines if re.search(r"\bmanches?\b", line, re.I)], url
        # "JK" is a card face only, never a word in a sentence: a key's face, then what it says
        # aloud ("JK Joker", "− JK One Joker less")
        assert not [line for line in lines if re.search(r"\bJK\b(?! (One )?Joker)", line) and len(line.split()) > 3], (
            url
        )


def test_english_referee_answers_say_a_joker_never_jk(client):
    for body in (
        {"variant": "huit-americain", "top": "5S", "card": "JK", "last_card": True},
        {"variant": "classique", "top": "2H", "card": "5H", "pending": True, "options": {"stacking": True}},
    ):
        data = answer(client, "en", **body)
        said = " ".join(data[k] for k in ("reason", "rule", "effect"))
        assert "JK" not in said and "Joker" in said, said


# --- readings marked as interpretations ------------------------------------------------------------------


def interpretations(client, variant, language):
    page = client.get(f"/rules/{variant}", headers={"Accept-Language": language}).get_data(as_text=True)
    return [
        html.unescape(re.sub(r"<[^>]+>", "", p))
        for p in re.findall(r'(?s)<aside class="interpretation">(.*?)</aside>', page)
    ]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_readings_are_marked_as_interpretations(client, language):
    words = {
        "fr": {
            "dealer": "la donne vers la gauche",
            "loser": "main la plus chère",
            "unpaid-ace": "sur un As encore à payer",
            "ace": "qui les prend perd son tour",
            "blocked-penalty": "la plus petite main gagne la manche bloquée",
        },
        "en": {
            "dealer": "the deal to the left",
            "loser": "most expensive hand",
            "unpaid-ace": "on an Ace not yet answered or drawn for",
            "ace": "whoever takes them loses the turn",
            "blocked-penalty": "the lowest hand wins the blocked round",
        },
    }[language]
    for variant in catalog().variants:  # the deal passes to the left: on every page
        assert any(words["dealer"] in note for note in interpretations(client, variant, language)), variant
    assert any(words["loser"] in n for n in interpretations(client, "classique", language))
    assert any(words["unpaid-ace"] in n for n in interpretations(client, "huit-americain", language))
    assert any(words["ace"] in n for n in interpretations(client, "huit-elabore", language))
    assert any(words["blocked-penalty"] in n for n in interpretations(client, "les-huit", language))


def test_54_cartes_does_not_say_every_card_without_a_power_is_worth_5(client):
    # 002 « 15 points pour les autres 2 et les as », « 5 points par autre carte »: the Aces without a
    # power (all but the A♠, « l'as de pique fait changer le sens du jeu ») score 15, not 5.
    fr = text_of(client, "/rules/54-cartes", "fr")
    en = text_of(client, "/rules/54-cartes", "en")
    assert "sans pouvoir 5" not in fr and "no power only 5" not in en
    assert "Tous les As comptent 15" in fr and "Every Ace counts 15" in en


# --- nothing said twice, sources in words -----------------------------------------------------------------


def test_nothing_is_said_twice(client, games):
    assert "À deux joueurs : À deux joueurs" not in text_of(client, "/rules/deux-jeux", "fr")
    assert "With two players: With two players" not in text_of(client, "/rules/deux-jeux", "en")
    assert "À deux joueurs : aucun effet, le jeu continue simplement." in text_of(client, "/rules/deux-jeux", "fr")
    game, _ = games.create_game("huit-americain", ["Ana", "Bob"])
    page = client.get(f"/games/{game.id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    note = page_text(re.search(r'(?s)<div class="restriction">.*?</div>', page).group(0))
    assert note.count("8") == 1 and "Ici, on ne finit pas sur un 8 ou un Joker." in note


def test_les_huit_says_manche_bloquee(client):
    fr = text_of(client, "/rules/les-huit", "fr")
    assert "Manche bloquée" in fr and "Partie bloquée" not in fr


def test_house_rules_with_a_new_forbidden_card_say_it_once(client):
    """The house editor used to write « Interdit de finir sur : 8. » after « … finir sur 8. »."""
    from models.core.house_editor import HOUSE_FINISH_RULE

    assert "8" not in HOUSE_FINISH_RULE["fr"] and "8" not in HOUSE_FINISH_RULE["en"]
    document = {"base": "les-huit", "name": "Chez nous", "finish": {"forbidden": ["8"], "rule": HOUSE_FINISH_RULE}}
    created = client.post("/api/v1/variants", json=document)
    assert created.status_code == 201, created.get_json()
    variant_id = created.get_json()["id"]
    page = client.get(f"/rules/{variant_id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    section = page_text(re.search(r'(?s)<section id="finir".*?</section>', page).group(0))
    assert section.count("finir sur un 8") == 1 and "Interdit de finir sur :" not in page


@pytest.mark.parametrize("language", ["fr", "en"])
def test_sources_are_named_in_words(client, language):
    for url in ["/rules"] + [f"/rules/{v}" for v in catalog().variants]:
        text = text_of(client, url, language)
        assert ".txt" not in text and not re.search(r"\b00\d_[0-9a-f]{16}\b", text), url
    assert ("un guide du 8 américain" if language == "fr" else "a French guide to Crazy Eights") in text_of(
        client, "/rules/classique", language
    )


# --- the checker screen -----------------------------------------------------------------------------------


def verdict_html(client, data, language="en"):
    response = client.post("/referee", data={"checked": "1", **data}, headers={"Accept-Language": language})
    return re.search(r'(?s)<section id="verdict".*?</section>', response.get_data(as_text=True)).group(0)


def test_the_screen_says_a_pending_skip_loses_the_turn(client):
    # 000 « Le Valet fait sauter le tour du joueur suivant »: before issue 16 the screen said "Yes".
    data = {"variant": "classique", "players": "4", "top_rank": "J", "top_suit": "H", "pending": "1"}
    data |= {"card_rank": "J", "card_suit": "S"}
    verdict = verdict_html(client, data)
    assert 'data-legal="false"' in verdict and 'data-turn-lost="true"' in verdict
    assert '<p class="answer">No</p>' in verdict and "This player loses the turn." in verdict
    fr = verdict_html(client, data, "fr")
    assert '<p class="answer">Non</p>' in fr and "Ce joueur perd son tour." in fr


def test_the_screen_asks_for_the_covered_card_only_when_it_matters(client):
    page = client.get("/referee?variant=classique").get_data(as_text=True)
    assert "data-covered" not in page  # no card of classique counts as the card it covers
    page = client.get("/referee?variant=les-huit").get_data(as_text=True)
    assert re.search(r"<fieldset[^>]*data-covered hidden", page)  # asked once an 8 is on top
    data = {"variant": "les-huit", "players": "3", "top_rank": "8", "top_suit": "S", "active_suit": "H"}
    data |= {"card_rank": "K", "card_suit": "D"}
    response = client.post("/referee", data={"checked": "1", **data}, headers={"Accept-Language": "en"})
    page = response.get_data(as_text=True)
    assert re.search(r"<fieldset[^>]*data-covered>", page)  # shown: the top card is an 8
    verdict = re.search(r'(?s)<section id="verdict".*?</section>', page).group(0)
    assert 'data-depends-on="covered"' in verdict and '<p class="answer">It depends</p>' in verdict
    # 004 « il deviendrait l'équivalent d'un roi »: the 8 covered a King → the King of diamonds goes
    verdict = verdict_html(client, {**data, "covered_rank": "K"})
    assert 'data-legal="true"' in verdict and "data-depends-on" not in verdict
    verdict = verdict_html(client, {**data, "covered_rank": "3"})
    assert 'data-legal="false"' in verdict and "data-depends-on" not in verdict


# --- issue 26: a reason never says its rule again -----------------------------------------------------

SUIT_OF = re.compile(r" (?:de|of) (?:pique|cœur|carreau|trèfle|spades|hearts|diamonds|clubs)\b")


def without_cards(text: str) -> str:
    """A sentence with each card named by its rank only (« le 8 de trèfle » → « le 8 »), in small
    letters, without punctuation: what is left when only the card named differs."""
    text = SUIT_OF.sub("", text.replace("\u00a0", " ")).lower()
    return " ".join(re.findall(r"[^\W_]+", text))


def test_the_reason_test_catches_the_rule_with_only_the_card_named():
    # issue 26, as it was: the reason was the rule with the card played named
    assert without_cards("Le 8 de trèfle se pose sur n'importe quelle carte.") == without_cards(
        "Le 8 se pose sur n'importe quelle carte."
    )
    assert without_cards("The Joker may be played on any card.") == without_cards(
        "The Joker may be played on any card."
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_reason_never_says_its_rule_again(app, language):
    """Every variant × every rank on top × every card played (and the pending states, the last
    card, the card covered, a draw sent on): the reason explains the case, never the rule again."""
    from tests.e2e.every_verdict import every_verdict
    from views.texts import say

    verdicts, _errors = every_verdict()
    assert len(verdicts) > 1000  # the loop really asked
    faults = []
    with app.test_request_context(headers={"Accept-Language": language}):
        for question, verdict in verdicts:
            reason, rule = say(verdict.reason), say(verdict.rule)
            if reason == rule or without_cards(reason) == without_cards(rule):
                faults.append(f"{question}: {reason} | {rule}")
    assert not faults, "\n".join(faults[:20])


# --- issue 26: articles before card names, by a rule; plurals by ngettext; no card codes --------------

FRENCH_FAULTS = re.compile(
    "|".join(
        (
            r"\b(?:par|sur|avec|pour|contre) (?:As|Rois?|Dames?|Valets?|Jokers?)\b",  # « par As »: no article
            r"\b(?:par|sur|avec|contre) (?:[2-9]|10)\b(?! ?(?:cartes?|points?|pts|joueurs?|manches?|jeux|fois|à|%))",
            r"\bun Dame\b|\bune (?:As|Roi|Valet|Joker|[0-9]+)\b|\ble (?:As|Dame)\b|\bla (?:As|Roi|Valet|Joker|[0-9]+)\b",
            r"\b[dD]e le [A-Z0-9]|\b[àÀ] les? [A-Z0-9]|\b[dD]e les [A-Z0-9]|\b[dD]e une? [A-Z0-9]|\b[qQ]ue (?:un|une|il|elle)\b",
            r"\b1 (?:cartes|fois|exemplaires|Jokers|jeux)\b",
        )
    )
)
ENGLISH_FAULTS = re.compile(
    r"\ba (?:8|Ace)\b|\ban (?:King|Queen|Jack|Joker|[2-79]|10)\b|\b1 (?:cards|times|copies|Jokers|packs)\b"
)
CARD_CODE = re.compile(r"\b(?:JK|(?:[2-9]|10|[AJQK])[SHDC])\b")


def article_faults(text: str, language: str) -> list[str]:
    pattern = FRENCH_FAULTS if language == "fr" else ENGLISH_FAULTS
    return [m.group(0) for m in pattern.finditer(text.replace("\u00a0", " "))]


def test_the_article_test_catches_what_issue_26_found():
    assert article_faults("deux cartes par As de la chaîne", "fr") == ["par As"]
    assert article_faults("Le gagnant marque : 50 par 8, 10 par figure", "fr") == ["par 8"]
    assert article_faults("Il répond par un As ou un 8, avec 8 cartes", "fr") == []
    assert article_faults("the deck holds it only 1 times", "en") == ["1 times"]
    assert article_faults("answer with a 8 or an Ace", "en") == ["a 8"]
    assert CARD_CODE.findall("Indiquez la couleur annoncée après JK.") == ["JK"]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_card_names_take_their_article_on_every_page_and_in_every_answer(client, games, app, language):
    """Every page, every answer of the dispute checker and the deck errors: each card named with
    the article its place asks for (« un As », « un 8 », « une Dame », « le Valet de pique »), a
    count with the right plural (ngettext), and the checker never names a card by its code."""
    from tests.e2e.every_verdict import every_verdict
    from tests.e2e.test_own_words import every_page
    from views.texts import error_message, verdict_json

    texts = {k: v for k, v in every_page(client, games).items() if k.endswith(f"({language})")}
    verdicts, errors = every_verdict()
    with app.test_request_context(headers={"Accept-Language": language}):
        answers = {error_message(e) for e in errors}
        for _question, verdict in verdicts:
            answers.update(v for v in verdict_json(verdict).values() if isinstance(v, str))
    headers = {"Accept-Language": language}
    for cards, variant in ((["8H", "8H"], "classique"), (["JK", "JK", "JK"], "classique"), (["2"] * 9, "les-huit")):
        body = client.post("/api/v1/score", json={"variant": variant, "cards": cards}, headers=headers).get_json()
        answers.add(body["error"]["message"])
    faults = [f"{where}: {fault}" for where, text in texts.items() for fault in article_faults(text, language)]
    faults += [f"answer: {fault} in {text}" for text in answers for fault in article_faults(text, language)]
    faults += [f"code: {text}" for text in answers if CARD_CODE.search(text)]
    assert len(answers) > 100
    assert not faults, "\n".join(sorted(set(faults))[:30])


# --- issue 30 item 9: the suit named after a Joker is asked for first, the card named in words ---------


@pytest.mark.parametrize(
    "language, wanted",
    [("fr", "Choisissez la couleur annoncée après le Joker."), ("en", "Pick the suit named after the Joker.")],
)
def test_the_screen_asks_for_the_suit_named_after_a_joker_before_the_verdict(client, language, wanted):
    # before: « Indiquez la couleur annoncée après JK. », and only once both cards were picked
    data = {"variant": "classique", "players": "4", "top_rank": "JK"}
    for more in ({}, {"card_rank": "5", "card_suit": "S"}):  # asked as soon as the Joker is on top
        verdict = verdict_html(client, {**data, **more}, language)
        assert wanted in html.unescape(verdict) and "data-legal" not in verdict
    verdict = verdict_html(client, {**data, "active_suit": "S", "card_rank": "5", "card_suit": "S"}, language)
    assert 'data-legal="true"' in verdict

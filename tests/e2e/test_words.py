"""Words as a reader reads them, in French and English: a range of counts whose ends are one
number is that number."""

from __future__ import annotations

import html
import re

import pytest


def card_of(page: str, name: str) -> str:
    """The text of the variant card titled ``name`` on a page."""
    for card in re.findall(r'<li class="variant-card.*?</li>', page, re.S):
        if name in card:
            return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", card)).split())
    raise AssertionError(f"no card for {name}")


@pytest.mark.parametrize(
    ("lang", "name", "dealt"),
    [
        # les-huit.toml deals 7 cards to 2 players and 5 to 3 or 4.
        ("fr", "Les huit", "7 à 2 joueurs, 5 à 3–4 joueurs"),
        ("en", "Les huit", "7 at 2 players, 5 at 3–4 players"),
    ],
)
def test_a_range_of_players_with_equal_ends_is_one_number(client, lang, name, dealt):
    client.set_cookie("lang", lang)
    card = card_of(client.get("/games/new").get_data(as_text=True), name)
    assert dealt in card and "2–2" not in card


def test_an_invite_link_is_shown_as_people_read_it(app, games):
    """The link under the invite's QR code names the phone as typed; its address stays encoded."""
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    client = app.test_client()
    with client.session_transaction() as session:
        session["tokens"] = [[game.id, token]]
    invited = client.post(f"/games/{game.id}/invites", data={"name": "Chloé"})
    assert invited.status_code == 201
    link = re.search(r'<a class="invite-url" href="([^"]+)">([^<]+)</a>', invited.get_data(as_text=True))
    assert "name=Chlo%C3%A9" in link.group(1)
    assert html.unescape(link.group(2)).endswith("name=Chloé")

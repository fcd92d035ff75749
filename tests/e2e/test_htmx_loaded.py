"""A page that carries htmx attributes loads htmx (issue 25: the game page and the invite page did
not, and their htmx forms silently fell back to full pages); a page that listens to its game's
event stream loads the SSE extension too. Every page a phone can open, as the owner and as a
reader, and the pages a plain form post answers with."""

from __future__ import annotations

import re

import pytest

from models.services.games import MancheEntry

HX = re.compile(r"\shx-[a-z-]+=")


def pages(game, owner: bool) -> list[str]:
    base = f"/games/{game.id}"
    urls = ["/", "/games", "/games/new", "/games/import", "/calculette", "/rules", "/rules/classique",
            "/rules/compare", "/rules/search?q=huit", "/referee", "/variants/new?base=classique", base,
            f"{base}/rounds", f"{base}/rules", f"{base}/referee", f"/s/{game.share_id}",
            f"/s/{game.share_id}/rounds", "/players/Ana", "/offline"]  # fmt: skip
    if owner:
        urls += [f"{base}/manches/new", f"{base}/manches/1/edit"]
    return urls


def check(url: str, response) -> None:
    if not response.mimetype == "text/html":
        return
    html = response.get_data(as_text=True)
    if HX.search(html):
        assert "/static/js/htmx.min.js" in html, f"{url} uses hx-* without loading htmx"
    if "sse-connect" in html:
        assert "/static/js/htmx-ext-sse.min.js" in html, f"{url} listens to a stream without the SSE extension"


@pytest.mark.parametrize("owner", [True, False], ids=["owner", "reader"])
def test_every_page_with_htmx_attributes_loads_htmx(app, games, owner):
    game, token = games.create_game("classique", ["Ana", "Bob", "Chloé"], first_dealer=0)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]}))
    client = app.test_client()
    if owner:
        with client.session_transaction() as session:
            session["tokens"] = [[game.id, token]]
    client.get(f"/s/{game.share_id}")
    for url in pages(game, owner):
        response = client.get(url)
        assert response.status_code == 200, url
        check(url, response)
    if owner:  # the page a plain post of "Invite a scorekeeper" answers with
        invited = client.post(f"/games/{game.id}/invites", data={})
        assert invited.status_code == 201
        check("invite page", invited)

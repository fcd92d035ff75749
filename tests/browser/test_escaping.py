"""Hostile text renders as text: names, team names, imported files, search queries (issue 6).
A game is made with names that would run script if they reached the page unescaped; no page
may open a dialog, and the names must be shown literally."""

from __future__ import annotations

from urllib.parse import quote

HOSTILE = ["<img src=x onerror=alert(1)>", '"><script>alert(2)</script>', "Zoé'\"><svg onload=alert(3)>"]


def test_no_page_runs_a_hostile_name(live_server, page, shot):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    client = live_server.app.test_client()
    created = client.post("/api/v1/games", json={"variant": "classique", "players": HOSTILE, "first_dealer": 0})
    assert created.status_code == 201
    game = created.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    manche = {"winner": HOSTILE[0], "hands": {HOSTILE[1]: ["8H", "KS"], HOSTILE[2]: ["3C"]}}
    assert client.post(f"/api/v1/games/{game['id']}/manches", json=manche, headers=auth).status_code == 201
    # the same names again through an imported file (with teams in a les-huit game)
    document = client.get(f"/api/v1/games/{game['id']}/export").get_json()
    imported = client.post("/api/v1/games/import", json=document).get_json()
    teams = client.post(
        "/api/v1/games",
        json={"variant": "les-huit", "players": [*HOSTILE, "Dan"],
              "teams": {"<b onmouseover=alert(4)>": [HOSTILE[0], HOSTILE[2]], "<i>Bleus</i>": [HOSTILE[1], "Dan"]}},
    ).get_json()  # fmt: skip
    share_id = game["share_url"].rsplit("/", 1)[-1]
    pages = [
        f"/games/{game['id']}",
        f"/games/{imported['id']}",
        f"/games/{teams['id']}",
        f"/s/{share_id}",
        "/games",
        f"/games?player={quote(HOSTILE[0])}",
        f"/players/{quote(HOSTILE[1], safe='')}",
        f"/rules/search?q={quote(HOSTILE[0])}",
        f"/rules/classique?game={game['id']}",
        f"/calculette?variant=classique&cards={quote(HOSTILE[2])}",
        "/games/new",
    ]
    for path in pages:
        response = page.goto(live_server.url + path)
        assert response.status < 500, path
        page.wait_for_load_state("networkidle")
        # The CSP would block inline script anyway: check that the names did not become elements.
        injected = page.locator('img[src="x"], svg[onload], b[onmouseover], script:not([src])')
        assert injected.count() == 0, f"markup from a name reached the page on {path}"
    shot("last")
    page.goto(live_server.url + f"/games/{game['id']}")
    assert page.get_by_text(HOSTILE[0], exact=False).first.is_visible()  # shown as text, literally
    assert dialogs == [], f"a hostile name ran as script: {dialogs}"

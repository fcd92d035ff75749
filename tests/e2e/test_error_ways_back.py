"""An error page names the way back to where the person was: the game whose round was not found or
whose deletion was not ticked; none when the game itself is what was not found."""

from __future__ import annotations

from .test_share import own, started_game, text


def test_a_round_not_found_leads_back_to_its_game(client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    missing = client.get(f"/games/{game.id}/manches/9/edit", headers={"Accept-Language": "en"})
    assert missing.status_code == 404
    assert f'href="/games/{game.id}">Back to the game</a>' in text(missing)
    gone = client.get("/games/no-such-game/manches/1/edit", headers={"Accept-Language": "fr"})
    assert gone.status_code == 404 and "Retour à la partie" not in text(gone) and "Retour à l'accueil" in text(gone)


def test_a_deletion_not_ticked_leads_back_to_its_game(client, games):
    game, token = started_game(games)
    own(client, game.id, token)
    refused = client.post(f"/games/{game.id}/manches/1/delete", data={}, headers={"Accept-Language": "fr"})
    assert refused.status_code == 422
    assert f'href="/games/{game.id}">Retour à la partie</a>' in text(refused)
    assert games.get(game.id).manches  # nothing deleted

"""An unexpected error (issue 30, item 10): the app's own page in the reader's language, never
werkzeug's bare "Internal Server Error"; JSON under /api/; never kept by a cache."""

from __future__ import annotations

import pytest

from app import create_app


@pytest.fixture
def broken_app(app_config, monkeypatch):
    application = create_app({**app_config, "PROPAGATE_EXCEPTIONS": False})

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(application.extensions["games"], "get", broken)
    yield application
    application.extensions["feed"].close()
    application.extensions["database"].dispose()


@pytest.mark.parametrize(
    ("language", "words", "absent"),
    [
        ("fr-FR,fr;q=0.9", ["Oups (500)", "produite de notre côté", "Retour à l"], "went wrong"),
        ("en-GB,en;q=0.9", ["Oops (500)", "Something went wrong on our side", "Back to the home page"], "erreur"),
    ],
    ids=["fr", "en"],
)
def test_a_server_error_is_our_page_in_the_readers_language(broken_app, language, words, absent):
    answer = broken_app.test_client().get("/games/abc", headers={"Accept-Language": language})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 500
    assert answer.mimetype == "text/html"
    assert "Internal Server Error" not in page and absent not in page
    for word in words:
        assert word in page, word
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_server_error_under_the_api_is_json_in_the_readers_language(broken_app):
    # a game that exists (an unknown id is a 404 before the game is read): its reading breaks
    game, _token = broken_app.extensions["games"].create_game("classique", ["Ana", "Bob"], first_dealer=0)
    answer = broken_app.test_client().get(f"/api/v1/games/{game.id}", headers={"Accept-Language": "fr"})
    assert answer.status_code == 500 and answer.is_json
    error = answer.get_json()["error"]
    assert error["code"] == "internal_error"
    assert error["message"].startswith("Une erreur s'est produite de notre côté")


def test_a_page_that_cannot_be_drawn_still_answers_in_words(broken_app, monkeypatch):
    """If even the error page fails (what it needs is what broke), the words come as plain text."""
    import views.errors as errors

    def no_template(*_args, **_kwargs):
        raise RuntimeError("the templates are gone")

    monkeypatch.setattr(errors, "render_template", no_template)
    answer = broken_app.test_client().get("/games/abc", headers={"Accept-Language": "fr"})
    assert answer.status_code == 500 and answer.mimetype == "text/plain"
    assert answer.get_data(as_text=True).startswith("Une erreur s'est produite de notre côté")

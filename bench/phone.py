"""How a phone asks, for every benchmark: the headers its browser sends, the session cookie of the
phone that created a game, and the administrator's token the served apps are given."""

from __future__ import annotations

from bench.serve import SECRET_KEY

PHONE = {"Accept-Encoding": "br", "Accept-Language": "fr-FR,fr;q=0.9"}
ADMIN = "bench-admin-token"


def owner_cookie(url: str, game_id: str, token: str) -> str:
    """The cookie of the phone that created the game: its edit token in its signed session."""
    from app import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False})
    value = app.session_interface.get_signing_serializer(app).dumps({"tokens": [[game_id, token]]})
    app.extensions["database"].dispose()
    return f"session={value}"

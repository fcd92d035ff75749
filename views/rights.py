"""Who may write to a game: the holder of its edit token.

The API sends it as ``Authorization: Bearer <token>``. A browser that created a game keeps the
token in its signed session cookie, so the web forms of that browser can write; any other
browser sees the game read-only.
"""

from __future__ import annotations

from flask import current_app, request, session

MAX_REMEMBERED = 40


def games():
    return current_app.extensions["games"]


def remember_token(key: str, token: str, bucket: str = "tokens") -> None:
    """Keep an edit token in this browser's session (the most recent ones only). ``bucket``
    tells games ("tokens") from house variants ("house_tokens")."""
    tokens = dict(session.get(bucket, {}))
    tokens.pop(key, None)
    tokens[key] = token
    while len(tokens) > MAX_REMEMBERED:
        tokens.pop(next(iter(tokens)))
    session[bucket] = tokens
    session.permanent = True


def session_token(key: str, bucket: str = "tokens") -> str | None:
    return session.get(bucket, {}).get(key)


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def require_api_rights(game_id: str) -> None:
    """401 without a bearer token, 403 with a wrong one (SPEC §4)."""
    games().check_token(game_id, bearer_token())


def require_web_rights(game_id: str) -> None:
    """A web write needs the token this browser was given when it created the game."""
    games().check_token(game_id, session_token(game_id))


def can_edit(game_id: str) -> bool:
    return games().has_token(game_id, session_token(game_id))

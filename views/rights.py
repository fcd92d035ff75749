"""Who may write to a game: the holder of its edit token; and which games a browser knows.

The API sends the token as ``Authorization: Bearer <token>``. A browser that created a game keeps
the token in its signed session cookie, so the web forms of that browser can write; any other
browser sees the game read-only.

The same session remembers the games this browser opened (the game page or the shared view), so
that its list of games, its player pages and its name suggestions cover its own games only
(issue 12). The cookie has to stay under the ~4 KB browsers keep: with every list full — 20 game
tokens, 10 house-rules tokens, 50 opened games and the CSRF token — it is about 3.1 KB
(tests/test_privacy.py measures it).
"""

from __future__ import annotations

from flask import current_app, request, session

MAX_REMEMBERED = {"tokens": 20, "house_tokens": 10}  # edit or invite tokens, the most recent ones
MAX_OPENED = 50  # ids of games opened without rights, the most recently opened


def games():
    return current_app.extensions["games"]


def stored_tokens(bucket: str = "tokens") -> dict:
    """The bucket's tokens by key, oldest first. They are kept as [key, token] pairs: a JSON
    object in the cookie comes back with its keys sorted, which would lose the order."""
    stored = session.get(bucket) or []
    pairs = stored.items() if isinstance(stored, dict) else stored  # a dict: a cookie of an earlier version
    return {pair[0]: pair[1] for pair in pairs if len(pair) == 2 and all(isinstance(p, str) for p in pair)}


def remember_token(key: str, token: str, bucket: str = "tokens") -> None:
    """Keep an edit token in this browser's session (the most recent ones only). ``bucket``
    tells games ("tokens") from house variants ("house_tokens"). A game whose token is let go
    stays among the games opened."""
    tokens = stored_tokens(bucket)
    tokens.pop(key, None)
    tokens[key] = token
    dropped = []
    while len(tokens) > MAX_REMEMBERED[bucket]:
        oldest = next(iter(tokens))
        tokens.pop(oldest)
        dropped.append(oldest)
    session[bucket] = [[k, v] for k, v in tokens.items()]
    session.permanent = True
    opened = session.get("opened", [])
    if bucket == "tokens" and (dropped or key in opened):
        session["opened"] = ([i for i in opened if i != key and i not in dropped] + dropped)[-MAX_OPENED:]


def session_token(key: str, bucket: str = "tokens") -> str | None:
    return stored_tokens(bucket).get(key)


def remember_opened(game_id: str) -> None:
    """Note that this browser opened a game (the most recent MAX_OPENED). The session changes only
    when the list does: opening the same game again sets no cookie."""
    if game_id in stored_tokens():
        return  # known by its token already
    opened = list(session.get("opened", []))
    if opened[-1:] == [game_id]:
        return
    if game_id in opened:
        opened.remove(game_id)
    opened.append(game_id)
    session["opened"] = opened[-MAX_OPENED:]
    session.permanent = True


def known_games() -> tuple[str, ...]:
    """The ids of the games this browser holds rights to or opened."""
    ids = list(stored_tokens()) + list(session.get("opened", []))
    return tuple(dict.fromkeys(i for i in ids if isinstance(i, str)))


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

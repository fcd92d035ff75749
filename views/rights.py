"""May this request write? Resolved once per request, with a decorator on the write views; and
which games a browser knows.

A request's token is the API's ``Authorization: Bearer <token>``, or, for the web pages, the
token this browser keeps in its signed session cookie for that game (it created the game, or
scanned an invite) or those house rules. What the token allows is ``models/services/access.py``'s answer
(owner, scorekeeper or nothing), asked once per request and kept for it (``g``). The write views
carry ``@writes_game`` (a scorekeeper may), ``@owns_game`` (invites: the owner only) or
``@owns_house``, as flaskr's views carry ``login_required``.

The same session remembers the games this browser opened (the game page or the shared view), so
that its list of games, its player pages and its name suggestions cover its own games only. The
cookie has to stay under the ~4 KB browsers keep: with every list full — 20 game tokens, 10
house-rules tokens, 50 opened games — it is about 3 KB (tests/e2e/test_privacy.py measures it).
"""

from __future__ import annotations

import hmac
import secrets
from functools import wraps

from flask import current_app, g, request, session

from models.core.errors import N_, Forbidden, NotFound, Unauthorized
from models.services.access import Level

from .kit import access, is_api

# edit or invite tokens, house rules' and groups' member tokens: the most recent ones
MAX_REMEMBERED = {"tokens": 20, "house_tokens": 10, "group_tokens": 10}
MAX_OPENED = 50  # ids of games opened without rights, the most recently opened
MAX_SEED = 64  # the longest form nonce a phone's id is derived from


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
    phone_id()  # a phone that may write has its id from now on: its own entry is never "another phone"


def phone_id(seed: str | None = None) -> str:
    """This phone's own random id, kept in its session cookie: who is entering a manche (the live
    table's presence). Made with the first rights it gets, else by its first stream or entry. A
    phone with none yet that sends ``seed`` (a form's nonce) is given one derived from it with
    the app's secret: the requests of one double tap, sent before either's cookie came back, are
    then one phone."""
    if not isinstance(session.get("phone"), str):
        if isinstance(seed, str) and 0 < len(seed) <= MAX_SEED:
            digest = hmac.new(current_app.secret_key.encode(), b"carte-phone\0" + seed.encode(), "sha256")
            session["phone"] = digest.hexdigest()[:16]
        else:
            session["phone"] = secrets.token_hex(8)
        session.permanent = True
    return session["phone"]


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


def member_tokens() -> tuple[str, ...]:
    """The group member tokens this request shows: the API's bearer token (a member's token is
    its own bearer token), or the ones this browser keeps (``group_tokens``)."""
    if is_api():
        token = bearer_token()
        return (token,) if token else ()
    return tuple(stored_tokens("group_tokens").values())


def request_token(key: str, bucket: str = "tokens") -> str | None:
    """The token this request writes with: the API's bearer token, or this browser's own."""
    return bearer_token() if is_api() else session_token(key, bucket)


def _level(kind: str, key: str, must_exist: bool = False) -> Level:
    """What this request's token allows on a game or house rules, asked once per request. Without
    a token it allows nothing, and nothing is asked (unless ``must_exist``: an unknown game is a
    404 before it is a 401)."""
    levels = g.setdefault("access_levels", {})
    if (kind, key) not in levels:
        token = request_token(key, "tokens" if kind == "game" else "house_tokens")
        members = member_tokens() if kind == "game" else ()
        if token is None and not members and not must_exist:
            return Level.NONE
        if kind == "game":
            levels[(kind, key)], levels[("closed", key)] = access().sight(key, token, members)
        else:
            levels[(kind, key)] = access().house(key, token)
    return levels[(kind, key)]


NO_GAME = N_("No game with this id.")


def readable(game_id: str) -> Level:
    """What this request may do on a game it reads by id, after checking it may read it: any game
    outside a group (its id is its address); a group's game only with its own rights (its edit
    token, a live invite) or the member token of a phone of its group — to anyone else it is not
    found, as if there were none (the id alone must not tell that it exists). Its share link
    (``/s/<share_id>``) is read without this. One statement, kept for the request."""
    level = _level("game", game_id, must_exist=True)
    if g.access_levels.get(("closed", game_id), False):
        raise NotFound(NO_GAME, field="id")
    return level


def reads_game(view):
    """The guard of a view that reads a game by its id (``readable``)."""

    @wraps(view)
    def guarded(**kwargs):
        readable(kwargs["game_id"])
        return view(**kwargs)

    return guarded


def game_page_state(game_id: str) -> tuple[int, int, Level] | None:
    """For a game's pages: its revision, its last manche's number and this browser's rights on it,
    in one statement (the rights kept for the request, as ``game_level`` keeps them); None when
    there is no such game, not found when it is closed to this browser (``readable``)."""
    state = access().page(game_id, session_token(game_id), member_tokens())
    if state is None:
        return None
    revision, last, level, closed = state
    g.setdefault("access_levels", {}).update({("game", game_id): level, ("closed", game_id): closed})
    if closed:
        raise NotFound(NO_GAME, field="id")  # a group's game, to a phone that holds none of its rights
    return revision, last, level


def game_level(game_id: str) -> Level:
    return _level("game", game_id)


def can_edit(game_id: str) -> bool:
    """This request may record, edit and delete manches of the game."""
    return game_level(game_id) >= Level.SCOREKEEPER


def is_owner(game_id: str) -> bool:
    """This request holds the game's own edit token (it may invite scorekeepers)."""
    return game_level(game_id) == Level.OWNER


def can_edit_house(variant_id: str) -> bool:
    return _level("house", variant_id) == Level.OWNER


def is_admin() -> bool:
    """Whether the request carries the administrator's token (compared in constant time); a
    bearer token that is not it is refused rather than ignored."""
    given = bearer_token()
    if given is None:
        return False
    expected = current_app.config.get("ADMIN_TOKEN") or ""
    if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
        raise Forbidden(N_("This is not the administrator’s token."))
    return True


# What a refusal says: (no token, a token that does not open it), to a program or to a person.
REFUSALS = {
    ("game", True): (N_("This needs the game's edit token."), N_("This edit token does not open this game.")),
    ("game", False): (
        N_("Only the phone that created this game can change it; here it is read-only."),
        N_("The rights this phone holds do not open this game."),
    ),
    ("owner", True): (N_("This needs the game's edit token."), N_("This edit token does not open this game.")),
    ("owner", False): (
        N_("Only the phone that created this game can invite scorekeepers."),
        N_("Only the phone that created this game can invite scorekeepers."),
    ),
    ("house", True): (
        N_("This needs the edit token of these house rules."),
        N_("This edit token does not open these house rules."),
    ),
    ("house", False): (
        N_("This needs the edit token of these house rules."),
        N_("This edit token does not open these house rules."),
    ),
}


REMOVED_FROM_GROUP = N_(
    "This phone was removed from the group: it no longer belongs to it and can no longer record rounds here."
)


def removed_from_group(game_id: str) -> bool:
    """Whether this request shows the member token of a phone removed from the game's group."""
    members = member_tokens()
    return bool(members) and access().removed(game_id, members)


def require(kind: str, key: str) -> None:
    """401 without a token, 403 with one that does not allow it — or with the member token of a
    phone removed from the game's group, which is told so (404 for an unknown game or house rules,
    before anything else, and for a group's game to a request that shows nothing but its id)."""
    level = _level("house" if kind == "house" else "game", key, must_exist=True)
    needed = Level.SCOREKEEPER if kind == "game" else Level.OWNER
    if level >= needed:
        if level == Level.SCOREKEEPER and request_token(key):
            access().note_use(key, request_token(key))  # "last used" in the owner's list of invites
        return
    if kind != "house" and removed_from_group(key):
        raise Forbidden(REMOVED_FROM_GROUP)
    if kind != "house" and g.access_levels.get(("closed", key)) and (is_api() or request_token(key) is None):
        raise NotFound(NO_GAME, field="id")  # a group's game: the id alone does not tell it exists
    missing, refused = REFUSALS[(kind, is_api())]
    bucket = "house_tokens" if kind == "house" else "tokens"
    if request_token(key, bucket) is None:
        raise Unauthorized(missing)
    raise Forbidden(refused)


def _guard(kind: str, argument: str):
    def decorator(view):
        @wraps(view)
        def guarded(**kwargs):
            require(kind, kwargs[argument])
            return view(**kwargs)

        return guarded

    return decorator


writes_game = _guard("game", "game_id")  # record, edit, delete manches: the owner or a scorekeeper
owns_game = _guard("owner", "game_id")  # invite or revoke scorekeepers: the owner only
owns_house = _guard("house", "variant_id")  # change or delete house rules: their owner

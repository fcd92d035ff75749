"""The live table: one Server-Sent Events stream per open page of a game, the parts of
the pages that a change swaps, and the phones entering a manche.

- ``/games/<id>/events`` (the game page, the rounds page and the manche entry, for the owner, a
  scorekeeper or a reader) and ``/s/<share id>/events`` (the shared view) are event streams. A
  change sends one event per part of the page that shows something new (``scores``,
  ``players``, ``invites``: the page fetches that part with a conditional GET), each with
  ``id:`` the game's revision, then ``said``: the change in one sentence for a polite live region.
  ``presence`` says who is entering a manche; ``renumber`` tells a manche entry that another
  phone recorded the manche it was entering; ``rights`` that this phone lost its rights (its
  invite was revoked, or it was removed from the game's group); ``end`` that the stream is over (the game ended, the rights went, the
  server stops). A reconnecting phone sends the revision it last saw (``Last-Event-ID``, or
  ``since`` for a new connection): it is sent what it missed, each change once.
- A stream holds no worker (gunicorn's gevent worker, ``gunicorn.conf.py``); it says nothing
  more than its page: the shared view's stream never carries a token or a right, and the rights
  are checked when a stream opens and again when a change touches them.
- ``/games/<id>/live``, ``/games/<id>/players``, ``/games/<id>/invites`` are the parts a change
  swaps on the game page (kept like the page, 304 when the phone holds them already).
- ``POST /games/<id>/presence`` (the entry page's sign of life, every ``HEARTBEAT_SECONDS``) and
  ``POST /games/<id>/presence/leave``; ``POST /phone/name``: the name this phone gives itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from models.core.errors import N_, NotFound, ValidationError
from models.core.names import InvalidName, clean_name
from models.services import history
from models.services.access import Level
from models.services.feed import INVITES, PLAYERS, SCORES, Change, End, EntryChange, PresenceChange
from models.services.game_input import MAX_NAME
from models.services.ids import checked_id

from . import links, sse
from .entry_events import entry_messages, hands_counted
from .kit import access, database, games, is_htmx, lang
from .numbers import whole_number
from .openstreams import OpenStreams
from .pagecache import cached_page
from .present import game_context, share_panel
from .rights import game_level, game_page_state, member_tokens, owns_game, phone_id, session_token, writes_game
from .sse import message
from .texts import change_said, entering_said, renumbered_said, rights_lost_said

bp = Blueprint("live", __name__)

HEARTBEAT_SECONDS = 14  # a comment at least this often: proxies and phones keep the stream open
DEFAULT_STREAMS_PER_CLIENT = 24  # a family behind one address: 8 phones, a page and an entry each, and more


def init_app(app) -> None:
    """The streams open in this process, counted per address (``sse.event_stream`` takes a place)."""
    app.extensions["open_streams"] = OpenStreams()


def feed():
    return current_app.extensions["feed"]


def phone_name() -> str | None:
    name = session.get("phone_name")
    return name if isinstance(name, str) and name else None


# --- the streams ---------------------------------------------------------------------------------


@dataclass
class Viewer:
    """Who a stream is for, settled when it opens."""

    game_id: str
    shared: bool  # the shared view: no rights, nothing of them
    level: Level
    token: str | None  # the invite or edit token the rights rest on (checked again on a change of invites)
    phone: str | None
    entering: int | None  # the manche entry's number (a new manche), to renumber
    parts: frozenset  # the parts its page shows
    members: tuple = ()  # the group member tokens the rights may rest on instead (checked again likewise)


def since_revision() -> int | None:
    """The revision the phone last saw: ``Last-Event-ID`` (the browser's reconnection), else
    ``since`` (a new connection: the page's own revision)."""
    for raw in (request.headers.get("Last-Event-ID"), request.args.get("since")):
        number = whole_number(raw or "")
        if number is not None:
            return number
    return None


@bp.get("/games/<game_id>/events")
def game_events(game_id):
    state = game_page_state(game_id)  # one statement: the game is there, and this phone's rights
    if state is None:
        raise NotFound(N_("No game with this id."), field="id")
    level = state[2]
    entering = whole_number(request.args.get("entering", ""), 1, 10_000)
    parts = frozenset((SCORES, PLAYERS, INVITES) if level == Level.OWNER else (SCORES, PLAYERS))
    # A phone that may write has its id (made with its rights; a cookie from before phones had ids
    # gets it here, once); one that may not enters no manche, and its stream writes nothing to the
    # session: that answer's cookie, arriving after the next page's, would undo what that page kept.
    phone = phone_id() if level >= Level.SCOREKEEPER else session.get("phone")
    viewer = Viewer(game_id, False, level, session_token(game_id), phone, entering, parts, member_tokens())
    return game_stream(viewer)


@bp.get("/s/<share_id>/events")
def shared_events(share_id):
    state = history.shared_state(database(), checked_id(share_id))
    if state is None:
        raise NotFound(N_("No game with this id."), field="id")
    viewer = Viewer(state.game_id, True, Level.NONE, None, session.get("phone"), None, frozenset((SCORES, PLAYERS)))
    return game_stream(viewer)


def game_stream(viewer: Viewer):
    """The stream of a game's page: its listener of the feed, from the revision the phone saw."""
    heartbeat = sse.heartbeat()
    return sse.event_stream(
        lambda: feed().listen(viewer.game_id, since_revision()),
        lambda listener: told_events(viewer, listener, heartbeat),
    )


def told_events(viewer: Viewer, listener, heartbeat: float):
    """What the stream says, event by event, until the game or the phone's rights end it."""
    presence = PresenceLine(viewer.phone)
    while True:
        event = listener.get(heartbeat)
        if event is None:
            yield sse.STILL_HERE
            continue
        if isinstance(event, End):
            yield sse.goodbye(event)
            return
        if isinstance(event, PresenceChange):
            yield from presence.told(entering=event.entering)
            continue
        if isinstance(event, EntryChange):
            on_entry = viewer.entering is not None and viewer.level >= Level.SCOREKEEPER
            yield "".join(message(name, data) for name, data in entry_messages(event, on_entry))
            yield from presence.told(counting=hands_counted(event))
            continue
        if rights_lost(viewer, event):
            yield message("rights", rights_lost_page(viewer)) + sse.END
            return
        yield change_message(viewer, event)
        if event.finished:
            yield sse.END
            return


class PresenceLine:
    """Who is entering a manche, as one stream says it: the phones entering (the presence) and the
    hands each counts in the open entry (its changes), said again only when the line changes; a
    stream's own phone is not said to it."""

    def __init__(self, phone: str | None):
        self.phone = phone
        self.entering: tuple = ()
        self.counting: dict = {}
        self.said: str | None = None

    def told(self, entering=None, counting=None) -> list[str]:
        """The ``presence`` event to send now, if the line changed."""
        self.entering = self.entering if entering is None else entering
        self.counting = self.counting if counting is None else counting
        said = entering_said((e for e in self.entering if e.phone != self.phone), self.counting)
        if said == self.said:
            return []
        self.said = said
        return [message("presence", said)]


def rights_lost(viewer: Viewer, change: Change) -> bool:
    """A scorekeeper's stream, when the game's invites changed: does its invite still open it?"""
    if viewer.shared or viewer.level != Level.SCOREKEEPER or INVITES not in change.parts:
        return False
    if access().game(viewer.game_id, viewer.token, viewer.members) >= Level.SCOREKEEPER:
        return False
    viewer.level = Level.NONE
    return True


def rights_lost_page(viewer: Viewer) -> str:
    """What a page hears as this phone's rights end: why (rights that rested on no token of the
    game's rested on the phone's group), and the game drawn again as its reader sees it."""
    said = rights_lost_said(viewer.token is None)
    context = game_context(games().get(viewer.game_id), editable=False, read_only=True)
    return render_template("parts/rights_lost.html", said=said, **context)


def change_message(viewer: Viewer, change: Change) -> str:
    out = [message(part, str(change.revision), change.revision) for part in sorted(change.parts & viewer.parts)]
    said = change_said(change)
    if said:
        out.append(message("said", said))
    recorded = [fact[1] for fact in change.facts if fact[0] == "recorded"]
    if viewer.entering is not None and recorded and recorded[-1] >= viewer.entering:
        becomes = change.next_number
        line = renumbered_said(recorded[-1], becomes)
        out.append(message("renumber", json.dumps({"to": becomes, "said": line}, ensure_ascii=False)))
        viewer.entering = becomes
    return "".join(out)


# --- the parts a change swaps ------------------------------------------------------------------


@bp.get("/games/<game_id>/live")
def live_part(game_id):
    """The game page's part that changes with every manche (next dealer or the end, scoreboard,
    chart, last manches), kept per revision like the page."""
    state = game_page_state(game_id)  # one statement: the revision and the rights
    if state is None:
        raise NotFound(N_("No game with this id."), field="id")
    editable, owner = state[2] >= Level.SCOREKEEPER, state[2] == Level.OWNER

    def render():
        live_url = url_for("live.live_part", game_id=game_id)
        context = game_context(games().get(game_id), read_only=not editable, live_url=live_url)
        return render_template("parts/live.html", **context)

    key = ("game-live", game_id, state[0], editable, owner, lang(), links.public_base())
    return conditional(cached_page(key, render), f"live-{state[0]}-{int(editable)}{int(owner)}-{lang()}")


@bp.get("/games/<game_id>/players")
@writes_game
def players_part(game_id):
    """The "add a player / leave the table" panel (its totals to start from move with the scores)."""
    game = games().get(game_id)
    return render_template("games/_players.html", **game_context(game))


@bp.get("/games/<game_id>/invites")
@owns_game
def invites_part(game_id):
    """The owner's "Share" panel, its invites as they stand."""
    game = games().get(game_id)
    response = current_app.make_response(render_template("games/_share_panel.html", game=game, share=share_panel(game)))
    response.headers["Cache-Control"] = "no-store"
    return response


def conditional(response, etag: str):
    """A part the phone may already hold: its entity tag (the revision, the rights, the language),
    304 when it matches."""
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Cookie")
    return response.make_conditional(request)


# --- who is entering a manche -------------------------------------------------------------------


@bp.post("/games/<game_id>/presence")
@writes_game
def enter(game_id):
    """The manche entry's sign of life: ``number`` (and ``editing=1`` when correcting it)."""
    number = whole_number(request.form.get("number", ""), 1, 100_000)
    if number is None:
        raise ValidationError(N_("Which round is being entered?"), field="number")
    editing = request.form.get("editing") == "1"
    owner = game_level(game_id) == Level.OWNER  # said by its role while the phone has no name
    current_app.extensions["presence"].enter(game_id, phone_id(), phone_name(), number, editing, owner)
    if session.get("entering") != game_id:
        session["entering"] = game_id  # the game page clears it, should the entry's goodbye be lost
    return "", 204


def left_entry(game_id: str, with_the_write: bool = False) -> None:
    """This phone left its entry: it is no longer entering anything. ``with_the_write``: it is
    saving it, and is gone with the manche's own write (or, refused, still entering)."""
    if isinstance(session.get("phone"), str):
        current_app.extensions["presence"].leave(game_id, session["phone"], with_the_write)
    if session.get("entering") == game_id:
        session.pop("entering")


def back_from_entry(game_id: str) -> None:
    """This phone opens the game's page while it was last entering one of its manches: it left
    the entry (the entry page's own goodbye, sent as it goes, may never arrive)."""
    if session.get("entering") == game_id:
        left_entry(game_id)


@bp.post("/games/<game_id>/presence/leave")
@writes_game
def leave(game_id):
    left_entry(game_id)
    return "", 204


def given_name(raw: str) -> str | None:
    """A phone's name as given (the one rule for names), or None: empty or not a name."""
    try:
        return clean_name(raw, MAX_NAME, field="name") if raw.strip() else None
    except InvalidName:
        return None


def name_phone_once(name: str | None) -> None:
    """The name an invite carries, for a phone that has none yet."""
    if name and not phone_name():
        session["phone_name"] = name
        session.permanent = True


@bp.post("/phone/name")
def name_phone():
    """The name this phone gives itself for the others (« Chloé saisit la manche 7… »); empty:
    none (« un autre téléphone »). Kept in its session cookie."""
    name = given_name(request.form.get("name", ""))
    if name:
        session["phone_name"] = name
    else:
        session.pop("phone_name", None)
    session.permanent = True
    if is_htmx():
        return render_template("games/_phone_name.html", phone_name=name)
    back = request.form.get("next", "")
    return redirect(back if back.startswith("/") and not back.startswith("//") else url_for("pages.home"), 303)

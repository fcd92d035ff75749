"""A club night's event stream: one Server-Sent Events stream per open night page, that hears
every table of the round being played through the live table's feed (the same changes as the game
pages: ``models/services/feed.py``, one queue shared by the tables' listeners).

A change at any table sends ``tables`` (the page fetches its live part again: a conditional GET)
and ``said``, the change in one sentence with its table's number, for the polite live region. A
new connection gives ``since``, the night's state its page shows (``NightState.stamp``), and
``turn``, its turn and whether it had ended (``NightState.moment``): if the night moved meanwhile,
``tables`` (and ``turn``) come at once. Between changes the stream looks at the night's turn
every ``LOOK_SECONDS`` (one statement): a turn started or the night ended or reopened on another
phone is heard there (``tables`` and ``turn``: the page fetches the next turn's seating, or the
podium, again too), and the stream listens to the new turn's tables from then on; a change of the
night itself (a player leaving or back, the ranking chosen: ``NightState.look``) sends ``tables``. A member removed from the group
(its games get a new revision, heard as a change of rights) is told so (``rights``: why, and the
page's forms taken away) before its stream ends; the watch link's
stream carries nothing but the tables.
"""

from __future__ import annotations

import queue

from flask import Blueprint, render_template, request
from flask_babel import gettext

from models.services.feed import INVITES, Change, End
from models.services.group_links import REMOVED_FROM_GROUP

from . import sse
from .kit import groups, nights
from .live import feed
from .nights import members_night, watched_night
from .rights import member_tokens
from .sse import message
from .texts import change_said

bp = Blueprint("night_events", __name__)

LOOK_SECONDS = 5.0  # how often a quiet stream looks at the night's round (and says it is still there)


@bp.get("/nights/<night_id>/events")
def member_events(night_id):
    return night_stream(members_night(night_id), member_tokens())


@bp.get("/w/<watch_id>/nights/<night_id>/events")
def watched_events(watch_id, night_id):
    _, state = watched_night(watch_id, night_id)
    return night_stream(state, None)


class Tables:
    """The listeners of the round's tables, on one queue."""

    def __init__(self, state):
        self.events: queue.Queue = queue.Queue()
        self.listeners: list = []
        self.listen(state)

    def listen(self, state) -> None:
        self.close()
        self.state = state
        self.table_of = {table.game_id: table.table for table in state.current}
        self.listeners = [feed().listen(game_id, events=self.events) for game_id in self.table_of]

    def get(self, timeout: float):
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        for listener in self.listeners:
            listener.close()
        self.listeners = []


def night_stream(state, members: tuple | None):
    """The stream of a night: ``members`` the tokens a member's rights rest on (None: a watcher)."""
    look = min(LOOK_SECONDS, sse.heartbeat())
    since, turn = request.args.get("since", ""), request.args.get("turn", "")

    def said(tables: Tables):
        if since != state.stamp:
            yield message("tables", state.stamp)
        if turn != state.moment:
            yield message("turn", state.moment)
        yield from told(tables, members, look)

    return sse.event_stream(lambda: Tables(state), said)


def told(tables: Tables, members: tuple | None, look: float):
    """What the night's stream says, until the server stops or the phone's rights end."""
    night = tables.state.night
    while True:
        event = tables.get(look)
        if event is None:
            now = nights().look_of(night.id)
            if now is not None and now != tables.state.look:
                before = tables.state.moment
                tables.listen(nights().state(night.id))
                turned = message("turn", now[0]) if now[0] != before else ""
                yield message("tables", tables.state.stamp) + turned
            else:
                yield sse.STILL_HERE
            continue
        if isinstance(event, End):
            yield sse.goodbye(event)
            return
        if not isinstance(event, Change):
            continue  # who is entering a manche, the open entry: the game pages' own news
        if members is not None and INVITES in event.parts and groups().membership(night.group_id, members) is None:
            yield message("rights", render_template("nights/_rights_lost.html", said=gettext(REMOVED_FROM_GROUP)))
            yield sse.END
            return
        yield message("tables", str(event.revision))
        said = change_said(event)
        if said:
            table = tables.table_of.get(event.game_id, 0)
            yield message("said", gettext("Table %(number)s: %(said)s", number=table, said=said))

"""What the live table's streams say of the open entry (the manche its phones count together):
to a phone on the entry, the entry itself as JSON (``entry`` events, read by ``hands.js``); to
everyone watching, its progress in one line (``progress``: « Manche 4 : 3 mains sur 5 »)."""

from __future__ import annotations

import json

from flask_babel import gettext, ngettext

from models.services.open_entry import entry_fields


def entry_event(change) -> str:
    """The stream's ``entry`` event data of a phone on the entry: the entry as JSON (one line)."""
    state = change.state.current(change.next_number, change.state.changed_at)
    return json.dumps(entry_fields(state, list(change.players)), ensure_ascii=False)


def progress_said(change) -> str:
    """What a watcher is told of the manche being counted: « 3 mains sur 5 », and who counts
    which hand not done yet (empty: nothing counted yet)."""
    state = change.state.current(change.next_number, change.state.changed_at)
    if not state.hands and state.winner is None:
        return ""
    players = list(change.players)
    done = len(state.expected) - len(state.missing())
    line = ngettext("Round %(number)s: %(num)s hand of %(of)s", "Round %(number)s: %(num)s hands of %(of)s", done,
                    number=state.number, of=len(state.expected))  # fmt: skip
    counting = [counting_said(players[hand.seat], hand.name) for hand in state.hands if not hand.done]
    return " · ".join([line, *counting])


def entry_messages(change, on_entry: bool) -> list[tuple[str, str]]:
    """The events a change of the entry makes on one stream: (event, data)."""
    out = [("entry", entry_event(change))] if on_entry else []
    return [*out, ("progress", progress_said(change))]


def counting_said(player: str, by: str | None) -> str:
    if by and by != player:
        return gettext("%(by)s counts the hand of %(player)s…", by=by, player=player)
    return gettext("%(player)s is counting…", player=player)

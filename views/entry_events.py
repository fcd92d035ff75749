"""What the live table's streams say of the open entry (the manche its phones count together):
to a phone on the entry, the entry itself as JSON (``entry`` events, read by ``hands.js``); to
everyone watching, its progress in one line (``progress``: « Manche 4 : 3 mains sur 5 ») and, on
the presence line, which phone counts which hand (``hands_counted``)."""

from __future__ import annotations

import json
from functools import lru_cache

from flask_babel import ngettext

from models.services.open_entry import entry_fields

TOLD_KEPT = 256  # entry changes whose JSON is kept: more than the games being counted at once


@lru_cache(maxsize=TOLD_KEPT)
def entry_event(change) -> str:
    """The stream's ``entry`` event data of a phone on the entry: the entry as JSON (one line),
    the same for every phone (nothing in it depends on who listens). The feed puts one
    ``EntryChange`` in the queue of every stream of its game: the first stream to tell it builds
    the JSON, the others are given that line (a change equal to it, as a stream opening later is
    told, is given it too)."""
    state = change.now()
    return json.dumps(entry_fields(state, list(change.players)), ensure_ascii=False)


def progress_said(change) -> str:
    """What a watcher is told of the manche being counted: « Manche 4 : 3 mains sur 5 » (empty:
    nothing counted yet). Who counts which hand is said on the presence line (``hands_counted``)."""
    state = change.now()
    if not state.hands and state.winner is None:
        return ""
    done = len(state.expected) - len(state.missing())
    return ngettext("Round %(number)s: %(num)s hand of %(of)s", "Round %(number)s: %(num)s hands of %(of)s", done,
                    number=state.number, of=len(state.expected))  # fmt: skip


def hands_counted(change) -> dict[str, tuple[str | None, list[str]]]:
    """By phone that changed a hand of the open entry: who it said it is (the player, else its own
    name) and the players whose hands it is counting (changed last by it, not done yet), for the
    presence line (``texts.entering_said``)."""
    state = change.now()
    counting: dict[str, tuple[str | None, list[str]]] = {}
    for hand in state.hands:
        if hand.phone:
            by, players = counting.get(hand.phone, (None, []))
            counting[hand.phone] = (by or hand.name, players if hand.done else [*players, change.players[hand.seat]])
    return counting


def entry_messages(change, on_entry: bool) -> list[tuple[str, str]]:
    """The events a change of the entry makes on one stream: (event, data)."""
    out = [("entry", entry_event(change))] if on_entry else []
    return [*out, ("progress", progress_said(change))]

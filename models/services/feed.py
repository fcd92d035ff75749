"""The change feed of the live table: what changed in a game, and who must hear it.

Every page of a game that is open on a phone holds a ``Listener`` (its event stream). This
process holds one subscription to the database (``notifications.subscription``) in one
background thread; when it hears that games changed, the feed reads each watched game that moved
— once per change per process, never once per stream — works out what changed by comparing it
with what it last saw (a ``Snapshot``), and puts one ``Change`` in the queue of each of that
game's listeners. The phones entering a manche (``presence``) travel the same way as
``Presence`` events. Listeners of a game keep the last ``KEPT_CHANGES`` changes, so that a phone
that reconnects with the revision it last saw gets what it missed, each change once.

The subscription's thread survives any error: it logs it, waits (``RETRY_DELAYS``, longer each
time up to a few seconds), subscribes again and looks at every watched game, so each stream
catches up from the revision it last had. Meanwhile ``down`` says so (``/healthz``).

No language here: a change is facts (what happened, which numbers, which parts of a page),
worded by the web layer.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace

from ..core.open_hands import counted_seats
from .notifications import subscription
from .presence import Entering
from .stored import version_of

KEPT_CHANGES = 32
PRESENCE_GAP = 1.0  # seconds between two presence events of a game: more often, they are coalesced
RETRY_DELAYS = (0.1, 0.5, 1.0, 2.0, 5.0)  # seconds before subscribing again, after each failure in a row
# A stopping server's streams come back spread over held ÷ REOPENS_PER_SECOND seconds, within these.
REOPENS_PER_SECOND = 250  # per worker process (bench/README.md: a restart of 11,000 phones)
BACK_FIRST, BACK_LAST = 1.0, 20.0

log = logging.getLogger(__name__)

# The parts of a page a change may concern.
SCORES, PLAYERS, INVITES = "scores", "players", "invites"


@dataclass(frozen=True)
class Snapshot:
    """What the feed last saw of a game: what its pages show, in numbers."""

    revision: int
    next_number: int
    manches: tuple  # ((number, (its version, ((side, points), …))), …) of the manches that count
    players: tuple
    seated: tuple
    ranking: tuple  # ((place, side, total), …)
    finished: bool
    winners: tuple

    @classmethod
    def of(cls, game) -> Snapshot:
        return cls(
            revision=game.revision,
            next_number=game.next_number,
            manches=tuple(
                (
                    m.number,
                    (version_of(m.stored, game.rows.hands.get(m.stored.id, ())), tuple(sorted(m.points.items()))),
                )
                for m in game.manches
            ),
            players=tuple(game.players),
            seated=tuple(game.seated),
            ranking=tuple(tuple(row) for row in game.standing.ranking),
            finished=game.standing.finished,
            winners=tuple(game.standing.winners),
        )


@dataclass(frozen=True)
class Change:
    """A game moved from one revision to another: ``facts`` say what happened, in order —
    ``("recorded", n)``, ``("edited", n)``, ``("deleted", n)``, ``("joined", name)``,
    ``("left", name)``, ``("finished",)``, ``("reopened",)`` — none when only the game's invites
    changed; ``parts`` which parts of its pages show something new."""

    game_id: str
    previous: int  # the revision this change was worked out from
    revision: int
    facts: tuple
    parts: frozenset
    next_number: int
    ranking: tuple
    winners: tuple
    finished: bool


@dataclass(frozen=True)
class PresenceChange:
    """The phones entering a manche of the game now."""

    game_id: str
    entering: tuple  # Entering, by phone


@dataclass(frozen=True)
class EntryChange:
    """The game's open entry (the manche its phones count together) moved to a new version:
    ``state`` as stored, ``players`` by seat and ``next_number`` as the feed last saw the game."""

    game_id: str
    state: object  # open_entry.EntryState
    players: tuple
    next_number: int
    seated: tuple = ()

    def now(self):
        """The entry for the game as last seen: a manche recorded since (through a whole-manche
        form, which leaves the entry as it was) makes it the next one's, empty, every seated
        player's hand counting."""
        dealt = counted_seats(list(self.players), None, set(self.seated), None)
        return self.state.current(self.next_number, self.state.changed_at, dealt)


@dataclass(frozen=True)
class End:
    """The stream ends. ``back_in``: the server is stopping (a restart), and the phone is to come
    back after that many seconds; None: for good (its client is gone)."""

    back_in: float | None = None


def changes_between(old: Snapshot, new: Snapshot, game_id: str) -> Change:
    """What a phone that saw ``old`` must hear to show ``new``."""
    facts: list = []
    old_manches, new_manches = dict(old.manches), dict(new.manches)
    if len(new.manches) > len(old.manches):
        facts.append(("recorded", new.manches[-1][0]))
    elif len(new.manches) < len(old.manches):
        facts.append(("deleted", old.manches[-1][0]))
    else:
        edited = [n for n, points in new.manches if old_manches.get(n) != points]
        if edited:
            facts.append(("edited", edited[0]))
    facts += [("joined", name) for name in new.seated if name not in old.seated and name not in old.players]
    facts += [("left", name) for name in old.seated if name not in new.seated]
    if new.finished and not old.finished:
        facts.append(("finished",))
    elif old.finished and not new.finished:
        facts.append(("reopened",))
    parts = set()
    if new_manches != old_manches or new.ranking != old.ranking or new.finished != old.finished:
        parts.add(SCORES)
    if new.players != old.players or new.seated != old.seated:
        parts |= {PLAYERS, SCORES}
    if not parts:
        parts.add(INVITES)
    return Change(
        game_id, old.revision, new.revision, tuple(facts), frozenset(parts), new.next_number, new.ranking,
        new.winners, new.finished,
    )  # fmt: skip


class Listener:
    """One open stream's queue of events (``Change``, ``PresenceChange``, ``End``)."""

    def __init__(self, feed: ChangeFeed, game_id: str, events: queue.Queue | None = None):
        self.feed = feed
        self.game_id = game_id
        self.events: queue.Queue = queue.Queue() if events is None else events
        self.seen = 0  # a revision its page showed before this process heard of it: not told again

    def get(self, timeout: float):
        """The next event, or None after ``timeout`` seconds without one."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.feed.forget(self)


@dataclass
class Watched:
    """A game some stream of this process listens to."""

    snapshot: Snapshot
    entering: tuple = ()
    entry: EntryChange | None = None  # its open entry as last told
    listeners: set = field(default_factory=set)
    kept: deque = field(default_factory=lambda: deque(maxlen=KEPT_CHANGES))
    presence_told: float = float("-inf")  # when its listeners were last told who is entering
    presence_due: bool = False  # who is entering changed since, not told yet


class ChangeFeed:
    """``read_game(id)`` gives a game's view (the service's, kept per revision); ``revisions(ids)``
    the revision of each of those games in one statement; ``presence`` the phones entering;
    ``entries`` the open entries (``open_entry.OpenEntries``: their versions, their state)."""

    def __init__(self, database, read_game, revisions, presence, clock=time.time, entries=None):
        self.database = database
        self.read_game = read_game
        self.revisions = revisions
        self.presence = presence
        self.entries = entries
        self.clock = clock
        self.games: dict[str, Watched] = {}
        self.lock = threading.RLock()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.failures = 0  # failures in a row of the subscription (0: it is up, or not started)

    # --- the streams' side ------------------------------------------------------------------------

    def listen(self, game_id: str, since: int | None = None, events: queue.Queue | None = None) -> Listener:
        """A listener of the game; with ``since`` (the revision the phone last saw), the changes
        it missed come first — those kept, else one change from what it saw to now. ``events``:
        a queue shared with other listeners (a club night's page hears all its tables at once)."""
        self._start()
        listener = Listener(self, game_id, events)
        with self.lock:
            joined = self._join(listener, since)
        if joined:  # the feed hears every change of a game it watches: its entry is told as last heard
            self._tell_entry_now(listener)
            return listener
        # nobody here watched the game: it is read (outside the lock), then watched
        game = self.read_game(game_id)
        entering = self.presence.of_games([game_id]).get(game_id, ())
        with self.lock:
            self.games.setdefault(game_id, Watched(Snapshot.of(game), entering))
            self._join(listener, since)
        # a write that landed while it was read was heard before anyone here watched the game
        self._catch_up([game_id])
        self._look_at_entries([game_id], listener)
        return listener

    def _tell_entry_now(self, listener: Listener) -> None:
        with self.lock:
            watched = self.games.get(listener.game_id)
            if watched is not None and watched.entry is not None:
                listener.events.put(self._entry_now(watched))

    def _join(self, listener: Listener, since: int | None) -> bool:
        """The listener added to its game, if watched (under the lock: a game whose last listener
        leaves is forgotten, so finding it and joining it are one step), and told what it missed
        and who is entering."""
        watched = self.games.get(listener.game_id)
        if watched is None:
            return False
        watched.listeners.add(listener)
        if since is not None and since > watched.snapshot.revision:
            listener.seen = since  # a phone's page built after a write this process is about to hear
        elif since is not None and since != watched.snapshot.revision:
            for change in self._missed(listener.game_id, watched, since):
                listener.events.put(change)
        if watched.entering:
            listener.events.put(PresenceChange(listener.game_id, watched.entering))
        return True

    @staticmethod
    def _missed(game_id: str, watched: Watched, since: int) -> list[Change]:
        """The changes a phone that saw revision ``since`` missed: the kept ones from that revision
        on, each once; else (too old, or a revision never seen apart: two writes between two looks
        are one change) one change from whatever it saw to now, every part of its page."""
        kept = list(watched.kept)
        starts = [index for index, change in enumerate(kept) if change.previous == since]
        if starts:
            return kept[starts[0] :]
        snapshot = watched.snapshot
        parts = frozenset((SCORES, PLAYERS, INVITES))
        facts = (("caught_up",),)  # what changed is not known: where the game stands is said
        return [Change(game_id, since, snapshot.revision, facts, parts, snapshot.next_number, snapshot.ranking,
                       snapshot.winners, snapshot.finished)]  # fmt: skip

    def forget(self, listener: Listener) -> None:
        with self.lock:
            watched = self.games.get(listener.game_id)
            if watched is not None:
                watched.listeners.discard(listener)
                if not watched.listeners:
                    del self.games[listener.game_id]

    def watched_games(self) -> list[str]:
        """The games some stream of this process listens to."""
        with self.lock:
            return list(self.games)

    def watched(self) -> int:
        """How many streams this process holds open."""
        with self.lock:
            return sum(len(w.listeners) for w in self.games.values())

    def close(self) -> None:
        """Every stream ends (the server is stopping), each phone told to come back after a delay
        of its own: spread over ``held ÷ REOPENS_PER_SECOND`` seconds (at least ``BACK_FIRST``, at
        most ``BACK_LAST``), so that a restart's streams are not all opened again at once."""
        self.stop.set()
        with self.lock:
            listeners = [listener for watched in self.games.values() for listener in watched.listeners]
        last = min(BACK_LAST, max(BACK_FIRST, len(listeners) / REOPENS_PER_SECOND))
        for listener in listeners:
            listener.events.put(End(random.uniform(BACK_FIRST, last)))

    # --- the subscription's side -------------------------------------------------------------------

    def _start(self) -> None:
        with self.lock:
            if self.thread is None and not self.stop.is_set():
                self.thread = threading.Thread(target=self._run, name="carte-feed", daemon=True)
                self.thread.start()

    @property
    def down(self) -> bool:
        """Whether the subscription failed and has not heard anything since."""
        return self.failures > 0

    def _run(self) -> None:
        """Run the subscription until the feed closes, again after any error (see the module)."""
        while not self.stop.is_set():
            try:
                subscription(self.database, self.watched_games).run(self.heard, self.tick, self.stop)
            except Exception:  # noqa: BLE001 — whatever it was, the feed goes on
                delay = RETRY_DELAYS[min(self.failures, len(RETRY_DELAYS) - 1)]
                self.failures += 1
                log.exception("live table: the change feed failed; subscribing again in %ss", delay)
                self.stop.wait(delay)

    def heard(self, game_ids) -> None:
        """Games changed (``None``: any of them may have): each watched one that moved is read
        once, and its listeners told."""
        self._look(game_ids)
        self.failures = 0  # heard and read: the subscription works

    def _look(self, game_ids) -> None:
        with self.lock:
            watched = list(self.games) if game_ids is None else [g for g in game_ids if g in self.games]
        if not watched:
            return
        self._catch_up(watched)
        self._look_at_presence(watched)
        self._look_at_entries(watched)

    def _catch_up(self, game_ids: list) -> None:
        """Each of these watched games that moved since the feed last saw it is read once, and its
        listeners told."""
        revisions = self.revisions(game_ids)
        moved = [g for g in game_ids if g in revisions and revisions[g] > self._revision(g)]
        for game_id in moved:
            self._publish(game_id, Snapshot.of(self.read_game(game_id)))

    def _revision(self, game_id: str) -> int:
        with self.lock:
            watched = self.games.get(game_id)
            return watched.snapshot.revision if watched else 1 << 62

    def _publish(self, game_id: str, snapshot: Snapshot) -> None:
        with self.lock:
            watched = self.games.get(game_id)
            if watched is None or snapshot.revision <= watched.snapshot.revision:
                return
            change = changes_between(watched.snapshot, snapshot, game_id)
            watched.snapshot = snapshot
            watched.kept.append(change)
            for listener in watched.listeners:
                if change.revision > listener.seen:
                    listener.events.put(change)

    def _look_at_presence(self, game_ids) -> None:
        found = self.presence.of_games(game_ids)
        now = self.clock()
        with self.lock:
            for game_id, entering in found.items():
                watched = self.games.get(game_id)
                if watched is not None:
                    self._set_entering(game_id, watched, tuple(e for e in entering if e.fresh(now)))

    def _set_entering(self, game_id: str, watched: Watched, entering: tuple) -> None:
        """Who is entering now; the listeners are told at most once every ``PRESENCE_GAP`` seconds
        (what changes in between is told once, as it then stands: ``_tell_due``)."""
        if _visible(entering) != _visible(watched.entering):  # else a heartbeat: nothing a phone would see
            watched.presence_due = True
        watched.entering = entering
        self._tell_due(game_id, watched)

    def _tell_due(self, game_id: str, watched: Watched) -> None:
        now = self.clock()
        if watched.presence_due and now - watched.presence_told >= PRESENCE_GAP:
            watched.presence_due, watched.presence_told = False, now
            for listener in watched.listeners:
                listener.events.put(PresenceChange(game_id, watched.entering))

    def _look_at_entries(self, game_ids, listener: Listener | None = None) -> None:
        """The open entries that moved are read once each and told to their games' listeners;
        a new ``listener`` is told its game's entry as it stands, moved or not."""
        if self.entries is None:
            return
        for game_id, version in self.entries.versions(game_ids).items():
            with self.lock:
                watched = self.games.get(game_id)
            if watched is None:
                continue
            told = watched.entry.state.version if watched.entry else -1
            if version > told and (state := self.entries.stored(game_id)) is not None:
                self._tell_entry(game_id, watched, state)
            elif listener is not None and watched.entry is not None:
                listener.events.put(self._entry_now(watched))

    def _entry_now(self, watched: Watched) -> EntryChange:
        """The entry as last told, for the game as it stands now: a manche recorded since (through
        a whole-manche form, which leaves the entry as it was) makes it the next one's, empty."""
        with self.lock:
            snapshot = watched.snapshot
            return replace(
                watched.entry, players=snapshot.players, next_number=snapshot.next_number, seated=snapshot.seated
            )

    def _tell_entry(self, game_id: str, watched: Watched, state) -> None:
        with self.lock:
            if watched.entry is not None and state.version <= watched.entry.state.version:
                return
            snapshot = watched.snapshot
            watched.entry = EntryChange(game_id, state, snapshot.players, snapshot.next_number, snapshot.seated)
            for listener in watched.listeners:
                listener.events.put(watched.entry)

    def tick(self) -> None:
        """At least once a second: the phones gone silent are forgotten, the presence held back
        (``PRESENCE_GAP``) is told."""
        now = self.clock()
        with self.lock:
            for game_id, watched in list(self.games.items()):
                if any(not e.fresh(now) for e in watched.entering):
                    self._set_entering(game_id, watched, tuple(e for e in watched.entering if e.fresh(now)))
                self._tell_due(game_id, watched)


def _visible(entering: tuple[Entering, ...]) -> tuple:
    return tuple((e.phone, e.name, e.number, e.editing, e.owner) for e in entering)

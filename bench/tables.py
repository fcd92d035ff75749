"""A table of ``bench/swarm.py``: five phones and, at one table in ``WATCHER_EVERY``, a watcher on
the shared view, playing manche after manche at a table's pace.

A table is set up as a family sets it up: its game is made beforehand (``prepared``: with the
services, in the orchestrator, so that making 2,000 games is not what is measured), the owner's
phone opens it with the owner's link, each other phone scans an invite of its own
(``/join/…?name=…``); each phone then shows the game page and holds its stream, the watcher the
shared view and its stream.

A round (every ``ROUND_SECONDS`` of table time, ÷ ``scale``): each phone opens the manche entry
(its page, its stream with ``entering``, the open entry, its sign of life every 10 s); the one who
went out says so, the four others count their hands — two to four changes each, a few seconds
apart, the last one marked done; once the winner's phone has heard every hand done, it saves; each
phone goes back to the game page once it hears the manche (the winner's at its answer); the
watcher fetches the shared view's live part. Measured: each hand change from the moment it was sent to each of
the other four phones hearing that version of the entry, and the manche from the moment the save was sent to
each other phone (and the watcher) hearing its ``scores`` — or a miss (not heard by the time the
phone leaves, or within ``WAIT``).
"""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from urllib.parse import quote

from .phones import FETCH, PAGE, PART, Answer, Phone, Record

PLAYERS = ("Ana", "Bob", "Chloé", "Dan", "Eve")
ROUND_SECONDS = (120.0, 180.0)  # table time between two manches
WATCHER_EVERY = 2  # one table in two has a watcher on its shared view: 10 % of the phones
PRESENCE_SECONDS = 10.0  # the entry page's sign of life (live.js), in real time
WAIT = float(os.environ.get("SWARM_WAIT", "10"))  # the most a phone waits to hear something before it counts as missed
CARDS = ("K", "3", "7", "Q", "9", "5")


class Refused(Exception):
    """A write or a page was not answered 2xx: the round is given up (the table carries on)."""


def ok(answer: Answer, what: str) -> Answer:
    if not 200 <= answer.status < 400:
        raise Refused(f"{what}: {answer.status} {answer.text()[:300] if answer.body else ''}")
    return answer


class Table:
    def __init__(self, index: int, port: int, record: Record, scale: float, address: str, watched: bool):
        self.index, self.port, self.record, self.scale = index, port, record, scale
        self.address = address
        self.phones = [Phone(port, address, record, f"t{index}p{seat}") for seat in range(len(PLAYERS))]
        self.watcher = Phone(port, address.replace("127.1.", "127.2.", 1), record, f"t{index}w") if watched else None
        self.game_id = self.share_id = ""
        self.revision, self.number = 1, 1
        self.ready = False
        self.busy = False  # playing a round now

    def all_phones(self) -> list[Phone]:
        return self.phones + ([self.watcher] if self.watcher else [])

    async def set_up(self, game: dict) -> None:
        """The phones join the game made for this table (``prepared``: its id, the owner's link,
        an invite per other player, its revision), each with its own link, as scanned."""
        self.game_id, self.share_id, self.revision = game["id"], game["share_id"], game["revision"]
        ok(await self.phones[0].fetch("set-up", "GET", f"/join/{self.game_id}/{game['edit_token']}", PAGE), "owner")
        for seat, phone in enumerate(self.phones[1:], start=1):
            link = f"/join/{self.game_id}/{game['invites'][seat - 1]}?name={quote(PLAYERS[seat])}"
            ok(await phone.fetch("set-up", "GET", link, PAGE), "invite")
        for phone in self.phones:
            await self.game_page(phone)
        if self.watcher:
            ok(await self.watcher.fetch("page", "GET", f"/s/{self.share_id}", PAGE), "shared view")
            self.watcher.listen(f"/s/{self.share_id}/events", self.revision)
        self.ready = True

    async def game_page(self, phone: Phone, saved: int | None = None) -> None:
        query = f"?saved={saved}" if saved else ""
        ok(await phone.fetch("page", "GET", f"/games/{self.game_id}{query}", PAGE), "game page")
        phone.listen(f"/games/{self.game_id}/events", self.revision)

    async def play(self, stop: asyncio.Event, quiet: asyncio.Event) -> None:
        """Rounds until ``stop``, none begun once ``quiet`` is set; the first after a random part of
        a round, so that tables spread."""
        first = True
        while not stop.is_set() and not quiet.is_set():
            pause = random.uniform(0 if first else ROUND_SECONDS[0], ROUND_SECONDS[1]) / self.scale
            first = False
            try:
                await asyncio.wait_for(stop.wait(), pause)
                return
            except TimeoutError:
                pass
            if quiet.is_set():
                break
            self.busy = True
            try:
                await self.round()
            except Refused as refused:
                self.record.aborted.append((asyncio.get_running_loop().time(), str(refused)))
                await self.catch_up()
            finally:
                self.busy = False

    async def where_it_stands(self) -> None:
        """The game's revision and next manche, as the API says."""
        answer = await self.phones[0].fetch("page", "GET", f"/api/v1/games/{self.game_id}", FETCH)
        if answer.status == 200:
            game = answer.json()
            self.revision, self.number = game["revision"], len(game["manches"]) + 1

    async def catch_up(self) -> None:
        """After a round given up: where the game stands, every phone back on the game page."""
        await self.where_it_stands()
        for phone in self.phones:
            try:
                await self.game_page(phone)
            except Refused:
                pass

    async def round(self) -> None:
        winner = random.randrange(len(PLAYERS))
        beats = [asyncio.create_task(self.signs_of_life(phone)) for phone in self.phones]
        try:
            await asyncio.gather(*(self.open_entry(phone) for phone in self.phones))
            changes: list[tuple[int, int, float]] = []  # (seat, version, stored)
            await asyncio.gather(*(self.count(seat, winner, changes) for seat in range(len(PLAYERS))))
            last = max(version for _, version, _ in changes)
            saved = await self.save(winner, last)
        finally:
            for beat in beats:
                beat.cancel()
        # each other phone is given WAIT to hear the last hand too (the winner's was): only then is
        # a hand it never heard missed, not one still on its way when the winner's save came back
        await asyncio.gather(*(p.stream.wait(lambda s=p.stream: s.entry_reached(last), WAIT)
                               for p in self.phones if p.stream is not None))  # fmt: skip
        self.hands_heard(changes)
        await asyncio.gather(*(self.back(phone, seat == winner, saved) for seat, phone in enumerate(self.phones)),
                             self.watched(saved))  # fmt: skip
        heard = [p.stream.last_revision() or 0 for p in self.all_phones() if p.stream is not None]
        self.revision, self.number = max([self.revision + 1, *heard]), self.number + 1

    async def open_entry(self, phone: Phone) -> None:
        await asyncio.sleep(random.uniform(0, 3) / self.scale)
        ok(await phone.fetch("page", "GET", f"/games/{self.game_id}/manches/new", PAGE), "entry page")
        phone.listen(f"/games/{self.game_id}/events?entering={self.number}", self.revision)
        ok(await phone.fetch("hand", "GET", f"/games/{self.game_id}/entry", FETCH), "open entry")

    async def signs_of_life(self, phone: Phone) -> None:
        try:
            while True:
                await phone.fetch("presence", "POST", f"/games/{self.game_id}/presence", FETCH, f"number={self.number}")
                await asyncio.sleep(PRESENCE_SECONDS)
        finally:
            asyncio.get_running_loop().create_task(
                phone.fetch("presence", "POST", f"/games/{self.game_id}/presence/leave", FETCH, "")
            )

    async def count(self, seat: int, winner: int, changes: list) -> None:
        """The winner's phone says who went out; the others count their hands."""
        phone, path = self.phones[seat], f"/games/{self.game_id}/entry"
        await asyncio.sleep(random.uniform(2, 5) / self.scale)
        if seat == winner:
            body = {"number": self.number, "seat": winner}
            answer = ok(await phone.fetch("hand", "PUT", path + "/winner", FETCH, body), "winner")
            changes.append((seat, answer.json()["version"], answer.asked))
            return
        times = random.randint(2, 4)
        ranks = random.sample(CARDS, times)  # a rank once a hand: never more copies than the deck holds
        for turn in range(times):
            body = {"number": self.number, "cards": ranks[: turn + 1], "typed": None, "done": turn == times - 1,
                    "me": PLAYERS[seat]}  # fmt: skip
            answer = ok(await phone.fetch("hand", "PUT", f"{path}/hands/{seat}", FETCH, body), "hand")
            changes.append((seat, answer.json()["version"], answer.asked))
            await asyncio.sleep(random.uniform(1.5, 5) / self.scale)

    async def save(self, winner: int, last: int) -> float:
        """Once the winner's phone has heard every hand (the last version), it saves: when it
        asked."""
        phone = self.phones[winner]
        stream = phone.stream
        await stream.wait(lambda: stream.entry_reached(last), WAIT)
        await asyncio.sleep(random.uniform(0.5, 2) / self.scale)
        body = {"number": self.number, "nonce": uuid.uuid4().hex, "last_card": None}
        return ok(await phone.fetch("manche", "POST", f"/games/{self.game_id}/entry/save", FETCH, body), "save").asked

    def hands_heard(self, changes: list) -> None:
        """Each hand change, from its answer to each other phone's stream hearing it."""
        for seat, version, stored in changes:
            for other, phone in enumerate(self.phones):
                if other == seat or phone.stream is None:
                    continue
                heard = phone.stream.entry_reached(version)
                if heard is None:
                    self.record.missed.append((stored, "hand"))
                else:
                    self.record.fanout.append((stored, "hand", max(heard - stored, 0.0) * 1000))

    async def back(self, phone: Phone, saver: bool, saved: float) -> None:
        """Each phone back on the game page: the saver at its answer, the others once they hear the
        manche (its delay measured)."""
        stream = phone.stream
        if not saver:
            heard = await stream.wait(lambda: stream.scores_after(self.revision), WAIT)
            self.heard(saved, heard)
        revision = max(self.revision, stream.last_revision() or 0)
        await self.game_page_after(phone, revision)

    async def game_page_after(self, phone: Phone, revision: int) -> None:
        ok(await phone.fetch("page", "GET", f"/games/{self.game_id}?saved={self.number}", PAGE), "game page")
        phone.listen(f"/games/{self.game_id}/events", max(revision, self.revision + 1))

    async def watched(self, saved: float) -> None:
        if self.watcher is None or self.watcher.stream is None:
            return
        stream = self.watcher.stream
        heard = await stream.wait(lambda: stream.scores_after(self.revision), WAIT)
        self.heard(saved, heard)
        if heard is not None:
            headers = dict(PART, **{"HX-Current-URL": f"{self.watcher.origin}/s/{self.share_id}"})
            await self.watcher.fetch("part", "GET", f"/s/{self.share_id}/live", headers)

    def heard(self, saved: float, heard: float | None) -> None:
        if heard is None:
            self.record.missed.append((saved, "manche"))
        else:
            self.record.fanout.append((saved, "manche", max(heard - saved, 0.0) * 1000))

    def close(self) -> None:
        for phone in self.all_phones():
            phone.close_stream()


def prepared(url: str, count: int) -> list[dict]:
    """``count`` games of five, made with the app's services (no request): for each its id, share
    id, the owner's token, four invites and its revision."""
    from app import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "AUTO_MIGRATE": False})
    games = app.extensions["games"]
    made = []
    for _ in range(count):
        game, token = games.create_game("classique", list(PLAYERS), mode="wins", rounds=1000, first_dealer=0)
        invites = [games.create_invite(game.id)[1] for _ in PLAYERS[1:]]
        made.append({"id": game.id, "share_id": game.share_id, "edit_token": token, "invites": invites,
                     "revision": games.get(game.id).revision})  # fmt: skip
    app.extensions["database"].dispose()
    return made

"""The game service: create or import a game, record, edit or delete a manche, invite
scorekeepers — one transaction each.

A write reads the game once (its caller usually has it already: the view it checked the form
against), checks and scores the manche in memory with the pure core — its plan, a
``game_work.Change`` — then ``game_work.run`` writes it in one short transaction that owns the
revision's check and bump, the idempotency key and the undo record (a write in between: the
whole unit again, from the game read anew); the rows are inserted in batches, and the write lock
is held for those statements alone.
It answers with what its caller needs — the recorded manche, the new totals and standing, the
game as it now stands — built from what it has just written (``GameRows.with_manche``), never by
reading it back.

Which rules a game uses is the registry's answer (``models/services/registry.py``); how a game is shown,
the read model's (``models/services/game_view.py``); its file format, ``models/services/game_file.py``; who may
write, ``models/services/access.py``.
"""

from __future__ import annotations

import functools
import json
import secrets
import time
from dataclasses import replace

from sqlalchemy import delete, select
from sqlmodel import Session

from ..core import scoring
from ..core.errors import N_, Conflict, NotFound, ValidationError
from ..core.names import clean_name
from ..core.scoring import MancheEntry, score_entry
from ..core.variant import resolve
from . import game_import, game_work, keys, open_entry
from .db import Database, Game, Hand, Invite, Manche, UndoRecord, token_hash, utcnow
from .game_file import export_document, read_order
from .game_input import (
    MAX_NAME,
    NewGame,
    Save,
    check_end_kept,
    check_no_change_after,
    check_version,
    checked_key,
    choose_first_dealer,
    clean_players,
    existing_number,
    hand_rows,
    plan_manche,
    stored_manche,
    stored_row,
    undo_kept,
    write_new_game,
)
from .game_view import GameRows, GameView, build_view, game_row, game_rows, load_rows
from .game_work import Change, bump
from .ids import checked_id, new_id
from .latest import LatestViews
from .recorded import Recorded, replayed, written
from .registry import Registry
from .seats import join_plan, leave_plan
from .stored import kept_parts, manche_record
from .undo import NEW_HANDS, NEW_MANCHE, changed, plan_undo, replace_manche, undo_target
from .unit_of_work import unit_of_work

__all__ = ["GameService", "MancheEntry", "Recorded"]

# --- the service ----------------------------------------------------------------------------------


class GameService:
    def __init__(self, database: Database, registry: Registry):
        self.db = database
        self.registry = registry
        self.latest = LatestViews()  # what a write needs of its game, kept per revision (models/services/latest.py)
        self.purge = keys.Purge()  # idempotency keys let go after keys.KEPT_DAYS, by the writes

    # reading

    def view(self, rows: GameRows) -> GameView:
        """A game's view from its rows, with the rules the registry says it is played with."""
        game = rows.game
        ruleset = self.registry.for_game(
            game["variant"],
            game["rules_json"],
            game["options_json"],
            game["table_id"],
            game["mode"],
            game["target"],
            game["rounds"],
        )
        return build_view(rows, ruleset)

    def views(self, session: Session, games: list[dict]) -> list[GameView]:
        """The views of game rows already read (three more statements for all of them)."""
        return [self.view(rows) for rows in load_rows(session, games)]

    def _one(self, read) -> GameView:
        """The view of the game row ``read(session)`` finds (a list of at most one)."""
        with self.db.snapshot() as session:  # plain rows: no ORM session on the hot path
            found = self.views(session, read(session))
        if not found:
            raise NotFound(N_("No game with this id."), field="id")
        return found[0]

    def get(self, game_id: str) -> GameView:
        game_id = checked_id(game_id)
        return self._one(lambda session: [row] if (row := game_row(session, game_id)) else [])

    def get_shared(self, share_id: str) -> GameView:
        return self._one(lambda session: game_rows(session, Game.share_id == checked_id(share_id)))

    def current(self, game_id: str) -> GameView:
        """A game's view for a small write about it (the open entry): kept per revision, one
        statement when nothing changed."""
        return self._loaded(game_id)

    def _loaded(self, game) -> GameView:
        """The game a write starts from: the view given, the one kept if still current, or read."""
        if isinstance(game, GameView):
            return game
        game_id = checked_id(game)
        return self.latest.current(self.db, game_id) or self.latest.remember(self.get(game_id))

    # creation

    def create_game(
        self,
        variant,
        players,
        teams=None,
        options=None,
        table=None,
        mode=None,
        target=None,
        rounds=None,
        first_dealer=None,
        group=None,
    ) -> tuple[GameView, str]:
        """Create a game (played in ``group``, a group id the caller is a member of, if given);
        return it and its edit token (shown once, stored only as a hash)."""
        new = self.prepare_game(variant, players, teams, options, table, mode, target, rounds, first_dealer)
        with unit_of_work(self.db) as session:
            write_new_game(session, new, group_id=group)
        return build_view(new.rows(), new.ruleset), new.token

    def prepare_game(
        self, variant, players, teams, options, table, mode, target, rounds, first_dealer, rules=None, roster=None
    ) -> NewGame:
        """A new game checked and ready to write (nothing is written): its row, players and rules.

        ``roster`` (an imported game where players joined or left) says who sat down when: the
        variant's count of players is the table's at the first manche, and such a game is never
        played in teams (nobody may join or leave a team game), whatever its count of players."""
        found, rules_json = self.registry.for_new_game(variant, rules)
        ruleset = resolve(self.registry.tables, found, options, table, mode, target, rounds)
        names = clean_players(players, ruleset, roster)
        if teams is not None and not isinstance(teams, dict):
            raise ValidationError(N_("Teams must map a team name to its two players."), field="teams")
        if roster is not None and teams:
            raise ValidationError(
                N_("The file is damaged: who joined or left the table is unreadable."), field="game.roster"
            )
        layout = None if roster is not None else scoring.team_layout(ruleset, names, teams or None)
        token = secrets.token_urlsafe(24)
        now = utcnow()
        row = {
            "id": new_id(),
            "variant": ruleset.variant.id,
            "options_json": json.dumps(dict(ruleset.options), sort_keys=True),
            "mode": ruleset.mode,
            "table_id": ruleset.table.id,
            "target": ruleset.target,
            "rounds": ruleset.rounds,
            "first_dealer": choose_first_dealer(first_dealer, len(names)),
            "edit_token_hash": token_hash(token),
            "share_id": new_id(),
            "revision": 0,
            "reshaped": 0,
            "created_at": now,
            "updated_at": now,
            "finished_at": None,
            "rules_json": rules_json,
        }
        return NewGame(row, names, scoring.sides_of(names, layout) if layout else {}, ruleset, token)

    # export and import

    def export_game(self, game_id: str) -> dict:
        """The whole game as a versioned document (``carte-game/2``), enough to rebuild it exactly."""
        return export_document(self.get(game_id))

    def imported_game(self, settings: dict) -> NewGame:
        """The new game an export document describes, with who joined or left and where they sit."""
        roster = settings.pop("roster")
        table_order = settings.pop("table_order")
        # A file that says "no teams" (``"teams": null``, as every export writes it) is played
        # without partners even at the count where the variant pairs them: a game of three that a
        # fourth joined before the first manche.
        no_teams = settings.pop("no_teams")
        new = self.prepare_game(**settings, roster=roster if roster or no_teams else None)
        if roster:
            if any(name not in new.players for name in roster):
                raise ValidationError(
                    N_("The file is damaged: who joined or left the table is unreadable."), field="game.roster"
                )
            new = replace(new, roster=roster)
        return replace(new, order=read_order(table_order, new.players))

    def import_game(self, document) -> tuple[GameView, str]:
        """A new game (new id, new token) from an export document; all or nothing: checked and
        scored in memory first (``game_import.plan``), then written in one short transaction."""
        planned = game_import.plan(self, document)
        with unit_of_work(self.db) as session:
            view = game_import.write(session, planned)
        return view, planned.new.token

    # invites (a second phone gets the right to record manches)

    def create_invite(self, game_id: str) -> tuple[str, str]:
        """A new invite for a scorekeeper: returns (invite id, invite token)."""
        token = secrets.token_urlsafe(24)
        invite_id = new_id()
        with unit_of_work(self.db) as session:
            bump(session, game_id)  # the game page lists the invites: a new version of it
            session.add(Invite(id=invite_id, game_id=game_id, token_hash=token_hash(token)))
        return invite_id, token

    def invites(self, game_id: str) -> list[Invite]:
        with Session(self.db.reader) as session:
            rows = session.execute(select(Invite).where(Invite.game_id == game_id).order_by(Invite.created_at))
            invites = list(rows.scalars().all())
            session.expunge_all()
            return invites

    def revoke_invite(self, game_id: str, invite_id: str) -> None:
        with unit_of_work(self.db) as session:
            invite = session.get(Invite, checked_id(invite_id))
            if invite is None or invite.game_id != game_id:
                raise NotFound(N_("No such invite."), field="invite")
            if invite.revoked_at is None:
                invite.revoked_at = utcnow()
                bump(session, game_id)

    def renew_share(self, game_id: str) -> str:
        """A new share link for the game (its read-only view, its QR code): the old one opens
        nothing from now on. The new id, in one transaction with the game's revision moved."""
        renewed = new_id()
        with unit_of_work(self.db) as session:
            bump(session, game_id, share_id=renewed)
        return renewed

    # writing: every write of a game is a Change made by game_work.run, one transaction each

    def record_manche(
        self,
        game,
        entry: MancheEntry,
        number=None,
        key=None,
        *,
        sent=None,
        as_next=False,
        entry_version=None,
        absent=(),
    ) -> Recorded:
        """Record the next manche of ``game`` (its view as the caller read it, or its id), and the
        parts ``sent`` with it (``stored.MANCHE_PARTS`` stored as sent: who saved it…).

        ``number``, when given, must be the next manche's number (``check_next``): two phones
        saving the same manche record it once, the second told who saved it — unless ``as_next``
        (a manche queued offline lands as the next, in order). ``key`` (an Idempotency-Key or a
        form nonce) makes a retry answer as the first time. ``entry_version``: the phone counted
        with the open entry, at that version; the entry must still be it, every hand in but the
        ``absent`` seats', recorded at 0 for now (``open_entry.check_counted``). With the manche,
        in its transaction: the open entry closed, whichever way the manche was saved. The writes
        of one game in this process take their turn (``LatestViews.turn``)."""
        request = Save(
            number if not as_next else None, checked_key(key), dict(sent or {}), entry_version, tuple(absent)
        )

        def plan(current: GameView) -> Change:
            planned = plan_manche(current, entry, request, utcnow())

            def write(session: Session) -> int:
                if request.entry_version is not None:
                    open_entry.check_counted(session, current, planned.number, request.entry_version, request.absent)
                self.purge.maybe(session)
                row = {**planned.columns, "game_id": current.id, "number": planned.number, "created_at": utcnow()}
                manche_id = session.execute(NEW_MANCHE, [row]).scalar_one()
                session.execute(NEW_HANDS, hand_rows(manche_id, planned.hands))
                open_entry.close(session, current, planned.number, time.time())
                return manche_id

            done = functools.partial(written, self.latest, current, planned)
            return Change(write, done, planned.game_columns, appended=True, number=planned.number)

        with self.latest.turn(game.id if isinstance(game, GameView) else checked_id(game)):
            return game_work.run(self.db, self._loaded(game), plan, request.key, self._replay, self._loaded)

    def edit_manche(
        self, game, number, entry: MancheEntry, version: str | None = None, key=None, sent=None
    ) -> GameView:
        """Replace a recorded manche; everything after it is recomputed (a finished game may reopen).

        A change that would end the game before manches already played is refused
        (``game_finished``), naming those manches: they would have been played after the end.
        ``version`` (``GameRows.manche_version``, as the phone's edit form read it), when given,
        must still be the manche's: else another phone corrected it meanwhile (``EditCollision``,
        carrying the manche as it now stands). ``key`` (a form nonce): a retry is answered as done.
        ``sent``: the parts stored as sent (``stored.MANCHE_PARTS``) it changes; the others stay.
        """
        number = existing_number(number)

        def plan(current: GameView) -> Change:
            stored = stored_row(current, number)
            check_version(current, number, version)
            score = score_entry(current.ruleset, current.seated_at(number), current.teams, entry)
            columns, hands = stored_manche(current.players, score, {**kept_parts(stored), **(sent or {})})
            view = build_view(
                current.rows.with_manche(manche_record(stored.id, number, columns), hands), current.ruleset
            )
            check_end_kept(current, view)

            def write(session: Session) -> None:
                replace_manche(session, stored.id, columns, hands)

            return self._rewrite(current, view, write, number, ("edited", number, undo_kept(current, stored)))

        return self._write(game, plan, key)

    def delete_manche(self, game, number, key=None) -> GameView:
        """Delete the last manche (only the last: the numbers stay a sequence). ``key`` (a form
        nonce): a retry is answered as done, never a second deletion."""
        number = existing_number(number)

        def plan(current: GameView) -> Change:
            stored = stored_row(current, number)
            if number != current.rows.manches[-1].number:
                raise Conflict(N_("Only the last round can be deleted."), field="number")
            check_no_change_after(current, number)

            def write(session: Session) -> None:
                keys.mark_gone(session, current.id, number, current.revision + 1)  # its keys stay, marked
                session.execute(delete(Hand).where(Hand.manche_id == stored.id))
                session.execute(delete(Manche).where(Manche.id == stored.id))

            view = build_view(current.rows.without_manche(number), current.ruleset)
            return self._rewrite(current, view, write, number, ("deleted", number, undo_kept(current, stored)))

        return self._write(game, plan, key)

    def _write(self, game, plan, key=None):
        """A change of a recorded game (``plan(current) -> Change``), made once with ``key``: a
        retry is answered with the game as it stands."""
        return game_work.run(
            self.db, self._loaded(game), plan, checked_key(key), lambda current, _kept: current, self.get
        )

    def _rewrite(self, current: GameView, view: GameView, write, number=None, undo=None) -> Change:
        """The change that makes ``current`` stand as ``view`` (``write``: its statements, which may
        answer the rows as written): the game's end set as ``view`` says, its answer the game as it
        then stands."""
        finished_at = (current.finished_at or utcnow()) if view.finished else None

        def done(written) -> GameView:
            rows = (written if isinstance(written, GameRows) else view.rows).with_game(
                revision=current.revision + 1, reshaped=current.rows.game["reshaped"] + 1, finished_at=finished_at
            )
            return self.latest.remember(build_view(rows, view.ruleset))

        return Change(write, done, {"finished_at": finished_at}, number=number, undo=undo)

    # undo

    def undo(self, game, kind: str, number, revision) -> tuple[GameView, bool]:
        """Undo the write that brought the game to ``revision`` (``models/services/undo.py``): a
        manche saved, edited or deleted, a player who joined or left (``number``: their seat).
        Answers the game and whether this undo had already been made (a replay: nothing written
        again).

        Valid only while the game is still at ``revision`` (else ``conflict``: another write came
        in between, and undoing now would undo something else). One transaction: the revision
        compared and bumped, the change taken back, the undo recorded so that a replay is known."""
        number = undo_target(kind, number, revision)

        def plan(current: GameView) -> Change:
            if current.revision != revision:
                raise changed()
            undone = plan_undo(current, kind, number, self._undo_record(current.id) if kind != "saved" else None)
            view = build_view(undone.probe, current.ruleset)

            def write(session: Session) -> GameRows:
                rows = undone.put_back(session)
                session.execute(delete(UndoRecord).where(UndoRecord.game_id == current.id))
                return rows

            change = self._rewrite(current, view, write, number)
            return change._replace(done=lambda rows: (change.done(rows), False))

        def replay(current: GameView, _kept) -> tuple[GameView, bool]:
            return (current if current.revision > revision else self.get(current.id)), True

        return game_work.run(self.db, self._loaded(game), plan, f"undo:{revision}", replay, self.get)

    def _undo_record(self, game_id: str) -> UndoRecord | None:
        """What the game's last edit, deletion, join or leave replaced, if it kept anything."""
        with Session(self.db.reader) as session:
            record = session.get(UndoRecord, game_id)
            if record is not None:
                session.expunge(record)
            return record

    # players joining or leaving (models/services/seats.py)

    def join_player(self, game, name, start=scoring.DEFAULT_START, after=None) -> GameView:
        """A newcomer sits down right after the player ``after`` (None: after the last at the
        table), from the total the group chose (``start``: "average", "zero" or "highest"); they
        are dealt from the next manche on, in the table's order."""
        return self._seated(game, join_plan(clean_name(name, MAX_NAME, field="name"), start, after))

    def leave_player(self, game, name) -> GameView:
        """A player leaves the table: their history and total stay, they are no more dealt to."""
        return self._seated(game, leave_plan(name))

    def _seated(self, game, seat_plan) -> GameView:
        """A player joining or leaving (``seats.py``'s plan: the game as it will stand, the
        statements, what its "Undo" needs)."""

        def plan(current: GameView) -> Change:
            view, write, undo = seat_plan(current)
            return self._rewrite(current, view, write, undo=undo)

        return self._write(game, plan)

    def check_leave(self, game, name) -> None:
        """Refuse now what ``leave_player`` would refuse (nothing is written): the question "does
        … leave?" is asked only where the answer can be yes."""
        leave_plan(name)(self._loaded(game))

    # internals

    def _replay(self, game: GameView, record: keys.KeptKey) -> Recorded:
        """The answer to a retried write: the manche its key recorded, as it stands now (a
        ``conflict`` if it was taken away since: ``keys.check_not_gone``)."""
        number = keys.check_not_gone(record)
        if number > len(game.rows.manches):  # recorded after this view was read
            game = self.get(game.id)
        return replayed(game, number)

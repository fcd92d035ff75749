"""The game service: create or import a game, record, edit or delete a manche, invite
scorekeepers — one transaction each.

A write reads the game once (its caller usually has it already: the view it checked the form
against), checks and scores the manche in memory with the pure core, then writes in one short
transaction (``unit_of_work``): the game's revision is compared and bumped in one statement
(``UPDATE … WHERE revision = ?``: a write in between means "read again and retry" — a manche
recorded reads what was added and plans again within its transaction), the rows are inserted in
batches, and the write lock is held for those statements alone.
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

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Update
from sqlmodel import Session

from ..core import scoring
from ..core.errors import N_, Conflict, EditCollision, GameFinished, NotFound, ValidationError
from ..core.names import clean_name
from ..core.scoring import MancheEntry, score_entry
from ..core.variant import resolve
from . import game_import, keys, open_entry
from .db import Database, Game, Hand, Invite, Manche, UndoRecord, token_hash, utcnow
from .game_file import export_document, read_order
from .game_input import (
    MAX_NAME,
    NewGame,
    Save,
    check_no_change_after,
    checked_key,
    choose_first_dealer,
    clean_players,
    existing_number,
    hand_rows,
    keep_for_undo,
    plan_manche,
    stored_manche,
    stored_row,
    with_absent,
    write_new_game,
)
from .game_view import GameRows, GameView, build_view, game_row, game_rows, load_rows
from .ids import checked_id, new_id
from .latest import LatestViews
from .recorded import Recorded, replayed, written
from .registry import Registry
from .seats import join_plan, leave_plan
from .stored import kept_parts, manche_record
from .undo import NEW_HANDS, NEW_MANCHE, changed, plan_undo, replace_manche, undo_target
from .unit_of_work import unit_of_work

__all__ = ["GameService", "MancheEntry", "Recorded"]

MAX_ATTEMPTS = 100  # each retry of a write means another write to the same game went through


class _Stale(Exception):
    """The game changed since it was read: read it again and retry."""


class _Replayed(Exception):
    """A write found, once caught up, that its key had recorded it already (``args[0]``)."""


@functools.cache
def _bump_statement(compared: bool, reshaped: bool, columns: tuple) -> Update:
    """The revision bump, built once per shape (the columns it also sets): a write builds no SQL."""
    query = update(Game).where(Game.id == bindparam("game_id"))
    if compared:
        query = query.where(Game.revision == bindparam("read_revision"))
    values = {name: bindparam("new_" + name) for name in columns}
    if reshaped:
        values["reshaped"] = Game.reshaped + 1
    return query.values(revision=Game.revision + 1, **values)


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
            self._bump(session, game_id)  # the game page lists the invites: a new version of it
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
                self._bump(session, game_id)

    # writing

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
        ``absent`` seats', recorded at 0 for now (``open_entry.check_counted``). In one
        transaction: the revision compared and bumped, the manche, its key, the open entry closed
        (whichever way the manche was saved) and what rode along. The writes of one game in this
        process take their turn (``LatestViews.turn``)."""
        key = checked_key(key)
        request = Save(number if not as_next else None, key, dict(sent or {}), entry_version, tuple(absent))
        with self.latest.turn(game.id if isinstance(game, GameView) else checked_id(game)):
            return self._record(game, entry, request)

    def _record(self, game, entry: MancheEntry, request: Save) -> Recorded:
        current = self._loaded(game)
        entry = with_absent(entry, request.absent, current)
        key = request.key
        if key and (done := keys.found(self.db, current.id, key)) is not None:
            return self._replay(current, done)
        state = [current, plan_manche(current, entry, request.number, utcnow(), request.sent)]

        def write(session: Session) -> int:
            current, planned = state
            for _attempt in range(MAX_ATTEMPTS):
                try:
                    self._bump(session, current.id, current.revision, appended=True, **planned.game_columns)
                    break
                except _Stale:
                    # Another write went through while this one waited for the lock, now held:
                    # catch up (one statement) and plan again here rather than wait for it again.
                    current = state[0] = self._loaded(current.id)
                    if key and (done := keys.found(self.db, current.id, key)) is not None:
                        raise _Replayed(done) from None
                    planned = state[1] = plan_manche(current, entry, request.number, utcnow(), request.sent)
            else:
                raise Conflict(N_("Another phone recorded this round at the same moment; it is shown now."))
            return self._store(session, current, planned, request)

        try:
            with unit_of_work(self.db) as session:
                manche_id = write(session)
        except _Replayed as replayed:
            return self._replay(state[0], replayed.args[0])
        except IntegrityError:
            if key and (done := keys.found(self.db, state[0].id, key)) is not None:
                return self._replay(self.get(state[0].id), done)
            raise Conflict(N_("Another phone recorded this round at the same moment; it is shown now.")) from None
        return written(self.latest, state[0], state[1], manche_id)

    def _store(self, session: Session, current: GameView, planned, request: Save) -> int:
        """The rows of a manche recorded, once its revision is bumped: the open entry's check (a
        phone that counted with it), its idempotency key, the manche and its hands, the open entry
        closed; its id."""
        if request.entry_version is not None:
            open_entry.check_counted(session, current, planned.number, request.entry_version, request.absent)
        self.purge.maybe(session)
        if request.key:
            keys.keep(session, current.id, request.key, planned.number)
        row = {**planned.columns, "game_id": current.id, "number": planned.number, "created_at": utcnow()}
        manche_id = session.execute(NEW_MANCHE, [row]).scalar_one()
        session.execute(NEW_HANDS, hand_rows(manche_id, planned.hands))
        open_entry.close(session, current, planned.number, time.time())
        return manche_id

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

        def plan(current: GameView):
            stored = stored_row(current, number)
            now = current.rows.manche_version(number)
            if version is not None and version != now:
                theirs = next(m for m in current.manches + current.after_end if m.number == number)
                raise EditCollision(
                    N_("Round %(number)s was corrected on another phone while you were correcting it."),
                    field="number",
                    number=number,
                    theirs=theirs,
                    version=now,
                )
            score = score_entry(current.ruleset, current.seated_at(number), current.teams, entry)
            columns, hands = stored_manche(current.players, score, {**kept_parts(stored), **(sent or {})})
            manche = manche_record(stored.id, number, columns)
            view = build_view(current.rows.with_manche(manche, hands), current.ruleset)
            if len(view.after_end) > len(current.after_end):  # the change moves the end earlier
                raise GameFinished(
                    N_(
                        "With this change the game ends after round %(end)s, and these rounds would come after "
                        "the end: %(later)s. Delete them first (from the last one), then make this change."
                    ),
                    field="number",
                    end=len(view.manches),
                    later=", ".join(str(m.number) for m in view.after_end),
                )

            def write(session: Session) -> None:
                keep_for_undo(session, current, "edited", stored)
                replace_manche(session, stored.id, columns, hands)

            return view, write

        return self._rewrite(game, plan, key, number)

    def delete_manche(self, game, number, key=None) -> GameView:
        """Delete the last manche (only the last: the numbers stay a sequence). ``key`` (a form
        nonce): a retry is answered as done, never a second deletion."""
        number = existing_number(number)

        def plan(current: GameView):
            stored = stored_row(current, number)
            if number != current.rows.manches[-1].number:
                raise Conflict(N_("Only the last round can be deleted."), field="number")
            check_no_change_after(current, number)

            def write(session: Session) -> None:
                keep_for_undo(session, current, "deleted", stored)
                keys.mark_gone(session, current.id, number, current.revision + 1)  # its keys stay, marked
                session.execute(delete(Hand).where(Hand.manche_id == stored.id))
                session.execute(delete(Manche).where(Manche.id == stored.id))

            return build_view(current.rows.without_manche(number), current.ruleset), write

        return self._rewrite(game, plan, key, number)

    def _rewrite(self, game, plan, key=None, number=None) -> GameView:
        """Change a recorded game: ``plan(current)`` checks the change and answers the game as it
        will stand and the statements that make it so; they run in one transaction with the
        revision compared and bumped (another write in between: read again, plan again). With
        ``key``, the change is made once: the key is kept in that transaction, a retry answered
        with the game as it stands."""
        key = checked_key(key)
        current = self._loaded(game)
        for _attempt in range(MAX_ATTEMPTS):
            if key and keys.found(self.db, current.id, key) is not None:
                return current
            view, write = plan(current)
            finished_at = (current.finished_at or utcnow()) if view.finished else None
            try:
                with unit_of_work(self.db) as session:
                    self._bump(session, current.id, current.revision, finished_at=finished_at)
                    write(session)
                    if key:
                        keys.keep(session, current.id, key, number)
            except _Stale:
                current = self.get(current.id)
                continue
            except IntegrityError:  # the same key, at the same moment
                if key and keys.found(self.db, current.id, key) is not None:
                    return self.get(current.id)
                raise
            done = build_view(
                view.rows.with_game(
                    revision=current.revision + 1,
                    reshaped=current.rows.game["reshaped"] + 1,
                    finished_at=finished_at,
                ),
                view.ruleset,
            )
            return self.latest.remember(done)
        raise Conflict(N_("Another phone changed this game at the same moment; it is shown now."))

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
        current = self._loaded(game)
        key = f"undo:{revision}"
        if keys.found(self.db, current.id, key) is not None:
            return (current if current.revision > revision else self.get(current.id)), True
        if current.revision != revision:
            raise changed()
        plan = plan_undo(current, kind, number, self._undo_record(current.id) if kind != "saved" else None)
        finished_at = (current.finished_at or utcnow()) if build_view(plan.probe, current.ruleset).finished else None
        try:
            with unit_of_work(self.db) as session:
                self._bump(session, current.id, revision, finished_at=finished_at)
                keys.keep(session, current.id, key, number)
                rows = plan.put_back(session)
                session.execute(delete(UndoRecord).where(UndoRecord.game_id == current.id))
        except _Stale:
            raise changed() from None
        except IntegrityError:
            if keys.found(self.db, current.id, key) is not None:
                return self.get(current.id), True
            raise changed() from None
        done = rows.with_game(
            revision=revision + 1, reshaped=current.rows.game["reshaped"] + 1, finished_at=finished_at
        )
        return self.latest.remember(build_view(done, current.ruleset)), False

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
        return self._rewrite(game, join_plan(clean_name(name, MAX_NAME, field="name"), start, after))

    def leave_player(self, game, name) -> GameView:
        """A player leaves the table: their history and total stay, they are no more dealt to."""
        return self._rewrite(game, leave_plan(name))

    def check_leave(self, game, name) -> None:
        """Refuse now what ``leave_player`` would refuse (nothing is written): the question "does
        … leave?" is asked only where the answer can be yes."""
        leave_plan(name)(self._loaded(game))

    # internals

    def _bump(
        self, session: Session, game_id: str, revision: int | None = None, appended: bool = False, **columns
    ) -> None:
        """Bump the game's revision (the shared view's ETag) in one statement; with ``revision``,
        only if it is still the one read (else ``_Stale``: another write went through), and its
        count of reshapes too unless the write only ``appended`` a manche (``Game.reshaped``)."""
        if revision is not None:
            columns["updated_at"] = utcnow()
        params = {"game_id": checked_id(game_id), "read_revision": revision}
        params.update({"new_" + name: value for name, value in columns.items()})
        reshaped = revision is not None and not appended
        statement = _bump_statement(revision is not None, reshaped, tuple(sorted(columns)))
        if session.execute(statement, params).rowcount != 1:
            if revision is None:
                raise NotFound(N_("No game with this id."), field="id")
            raise _Stale

    def _replay(self, game: GameView, record: keys.KeptKey) -> Recorded:
        """The answer to a retried write: the manche its key recorded, as it stands now (a
        ``conflict`` if it was taken away since: ``keys.check_not_gone``)."""
        number = keys.check_not_gone(record)
        if number > len(game.rows.manches):  # recorded after this view was read
            game = self.get(game.id)
        return replayed(game, number)

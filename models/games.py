"""The game service: create a game, record, edit or delete a manche — one transaction each.

Views (web and API) call these functions; they return ``GameView`` objects in which every
derived number (each manche's points, totals, ranking, status, dealer) is computed from what is
stored (players, hands) by the pure scoring module.
"""

from __future__ import annotations

import hmac
import json
import random
import re
import secrets
from dataclasses import dataclass, field, replace
from functools import lru_cache

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from . import scoring
from .cards import format_cards, parse_cards
from .db import Database, Game, Hand, IdempotencyRecord, Invite, Manche, Player, token_hash, utcnow
from .errors import N_, Conflict, DomainError, Forbidden, GameFinished, NotFound, Unauthorized, ValidationError
from .house import snapshot_catalog
from .names import InvalidName, clean_name
from .rules import MAX_MANCHES, Catalog, Ruleset

MAX_NAME = 40
MAX_KEY = 128


def new_id() -> str:
    """A random id: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,128}")


def checked_id(value) -> str:
    """A game, share or invite id as given in a URL; anything that cannot be one is not found."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise NotFound(N_("No game with this id."), field="id")
    return value


# --- what the service returns -------------------------------------------------------------------


@dataclass(frozen=True)
class HandView:
    player: str
    cards: list | None  # list of Card when entered as cards
    typed: int | None
    value: int


@dataclass(frozen=True)
class MancheView:
    number: int
    winner: str | None
    blocked: bool
    last_card: str | None
    hands: dict  # player -> HandView (only the hands entered)
    points: dict  # side -> points
    dealer: str


@dataclass(frozen=True)
class GameView:
    id: str
    share_id: str
    ruleset: Ruleset
    players: list
    teams: dict | None
    first_dealer: int
    manches: list
    totals: dict
    standing: scoring.Standing
    progression: list  # totals after each manche: [{side: total}, ...]
    revision: int
    created_at: object
    finished_at: object
    dealer: int  # seat of the next manche's dealer
    extra: dict = field(default_factory=dict)

    @property
    def variant(self):
        return self.ruleset.variant

    @property
    def sides(self) -> list:
        return scoring.side_names(self.players, self.teams)

    @property
    def status(self) -> str:
        return "finished" if self.standing.finished else "playing"

    @property
    def finished(self) -> bool:
        return self.standing.finished

    @property
    def next_number(self) -> int:
        return len(self.manches) + 1

    @property
    def dealer_name(self) -> str:
        return self.players[self.dealer]

    @property
    def starter_name(self) -> str:
        """The player on the dealer's left (next clockwise) starts."""
        return self.players[(self.dealer + 1) % len(self.players)]

    @property
    def cards_to_deal(self) -> int:
        return self.variant.deal.cards_for(len(self.players), self.ruleset.deck.size)

    def side_of(self, player: str) -> str:
        sides = self.extra.get("side_of")
        if sides is None:
            sides = self.extra["side_of"] = scoring.sides_of(self.players, self.teams)
        return sides[player]

    def rules_fields(self) -> dict:
        """The game's players and rules, as the API and the export files name them."""
        return {
            "variant": self.variant.id,
            "players": list(self.players),
            "teams": self.teams,
            "options": dict(self.ruleset.options),
            "mode": self.ruleset.mode,
            "table": self.ruleset.table.id,
            "target": self.ruleset.target,
            "rounds": self.ruleset.rounds,
        }

    def settings(self) -> dict:
        """What a new game needs to be played again with the same rules and players."""
        return {
            "variant": self.variant.id,
            "players": list(self.players),
            "teams": self.teams if self.teams and self.extra.get("custom_teams") else None,
            "options": dict(self.ruleset.options),
            "table": self.ruleset.table.id,
            "mode": self.ruleset.mode,
            "target": self.ruleset.target,
            "rounds": self.ruleset.rounds,
        }


@dataclass(frozen=True)
class MancheEntry:
    """One manche as entered: the winner (or blocked), each hand as cards or a typed total."""

    winner: str | None
    hands: dict
    typed: dict = field(default_factory=dict)
    blocked: bool = False
    last_card: str | None = None


@dataclass(frozen=True)
class NewGame:
    """A new game checked and ready to be written: its row, its players (by seat), each player's
    team, the teams as read back from storage, its rules, its edit token."""

    row: dict
    players: list
    side_of: dict
    teams: dict | None
    ruleset: Ruleset
    token: str

    @property
    def id(self) -> str:
        return self.row["id"]


# --- validation of a new game ------------------------------------------------------------------


def clean_players(names, ruleset: Ruleset) -> list[str]:
    """The players' names, each through the one rule for names (``names.clean_name``); two names
    that differ only by case are refused."""
    variant = ruleset.variant
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValidationError(N_("Players must be a list of names."), field="players")
    players = []
    for index, name in enumerate(names):
        try:
            players.append(clean_name(name, MAX_NAME, field=f"players.{index}"))
        except InvalidName as e:
            if e.reason != "empty":
                raise
            raise ValidationError(
                N_("Player %(seat)s has no name."), field=f"players.{index}", seat=index + 1
            ) from None
    if not variant.min_players <= len(players) <= variant.max_players:
        raise ValidationError(
            N_("This variant is played by %(min)s to %(max)s players."),
            field="players",
            min=variant.min_players,
            max=variant.max_players,
        )
    folded = [p.casefold() for p in players]
    for index, name in enumerate(folded):
        if name in folded[:index]:
            raise ValidationError(
                N_("Two players are called “%(name)s”: tell them apart."), field=f"players.{index}", name=players[index]
            )
    return players


def choose_first_dealer(first_dealer, players: int) -> int:
    """The first dealer's seat: an int among the seats, or None for a random one (a string, even
    of digits, is refused: the web form converts its text, the API takes JSON numbers)."""
    if first_dealer is None:
        return random.randrange(players)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
        raise ValidationError(N_("Choose who deals first among the players."), field="first_dealer")
    return first_dealer


# --- the service -------------------------------------------------------------------------------


class GameService:
    def __init__(self, database: Database, catalog: Catalog, house=None):
        self.db = database
        self.catalog = catalog
        self.house = house  # a HouseService: variants not in the built-in catalog

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
    ) -> tuple[GameView, str]:
        """Create a game; return it and its edit token (shown once, stored only as a hash)."""
        with Session(self.db.reader) as session:
            new = self._new_game(session, variant, players, teams, options, table, mode, target, rounds, first_dealer)
        with Session(self.db.writer) as session, session.begin():
            self._write_game(session, new)
        return self.get(new.id), new.token

    def _rules_for(self, session, variant, rules) -> tuple[Catalog, str | None]:
        """The catalog that knows ``variant``, and the rules document to keep with the game (house
        rules only): ``rules`` as given (an imported game's), else the saved house variant's."""
        if isinstance(variant, str) and variant in self.catalog.variants and rules is None:
            return self.catalog, None
        if rules is not None:
            from .house import compile_document, dump_document, normalize

            try:
                text = dump_document(normalize(rules, self.catalog))
                return compile_document(json.loads(text), str(variant), self.catalog).catalog, text
            except DomainError as e:
                e.field = f"rules.{e.field}" if e.field else "rules"
                raise
        if self.house is not None and isinstance(variant, str) and variant not in self.catalog.variants:
            try:
                entry = self.house.read(session, variant)
            except NotFound:
                entry = None
            if entry is not None:
                return entry.compiled.catalog, entry.document_json
        return self.catalog, None

    def _new_game(
        self, session, variant, players, teams, options, table, mode, target, rounds, first_dealer, rules=None
    ) -> NewGame:
        """A new game checked and ready to write (nothing is written): its row, players and rules."""
        cat, rules_json = self._rules_for(session, variant, rules)
        ruleset = cat.resolve(variant, options=options, table=table, mode=mode, target=target, rounds=rounds)
        names = clean_players(players, ruleset)
        if teams is not None and not isinstance(teams, dict):
            raise ValidationError(N_("Teams must map a team name to its two players."), field="teams")
        layout = scoring.team_layout(ruleset, names, teams or None)
        side_of = scoring.sides_of(names, layout) if layout else {}
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
            "created_at": now,
            "updated_at": now,
            "finished_at": None,
            "rules_json": rules_json,
        }
        teams_by_seat: dict | None = None
        if layout:  # as a stored game reads them back: by seat
            teams_by_seat = {}
            for name in names:
                teams_by_seat.setdefault(side_of[name], []).append(name)
        return NewGame(row, names, side_of, teams_by_seat, ruleset, token)

    @staticmethod
    def _write_game(session: Session, new: NewGame, **changes) -> None:
        """Insert a new game's row (with ``changes``) and its players: two statements."""
        session.execute(insert(Game.__table__), [{**new.row, **changes}])
        session.execute(
            insert(Player.__table__),
            [
                {"game_id": new.id, "seat": seat, "name": name, "team": new.side_of.get(name)}
                for seat, name in enumerate(new.players)
            ],
        )

    # reading

    def get(self, game_id: str) -> GameView:
        with Session(self.db.reader) as session:
            game = session.get(Game, checked_id(game_id))
            if game is None:
                raise NotFound(N_("No game with this id."), field="id")
            return self._view(session, game)

    def get_shared(self, share_id: str) -> GameView:
        with Session(self.db.reader) as session:
            game = session.exec(select(Game).where(Game.share_id == checked_id(share_id))).scalars().first()
            if game is None:
                raise NotFound(N_("No game with this id."), field="id")
            return self._view(session, game)

    def revision(self, game_id: str) -> int | None:
        with Session(self.db.reader) as session:
            return session.exec(select(Game.revision).where(Game.id == checked_id(game_id))).scalars().first()

    def check_token(self, game_id: str, token: str | None) -> None:
        """Refuse a write without the game's edit token (401) or with a wrong one (403)."""
        with Session(self.db.reader) as session:
            stored = session.exec(select(Game.edit_token_hash).where(Game.id == checked_id(game_id))).scalars().first()
        if stored is None:
            raise NotFound(N_("No game with this id."), field="id")
        if not token:
            raise Unauthorized(N_("This needs the game's edit token."))
        if not isinstance(token, str) or len(token) > 200:
            raise Forbidden(N_("This edit token does not open this game."))
        digest = token_hash(token)
        if hmac.compare_digest(digest, stored):
            return
        with Session(self.db.reader) as session:
            invite = session.exec(
                select(Invite.id).where(
                    Invite.game_id == str(game_id), Invite.token_hash == digest, Invite.revoked_at.is_(None)
                )
            ).first()
        if invite is None:
            raise Forbidden(N_("This edit token does not open this game."))

    def has_token(self, game_id: str, token: str | None) -> bool:
        try:
            self.check_token(game_id, token)
        except (Unauthorized, Forbidden, NotFound):
            return False
        return True

    # invites (a second phone gets the right to record manches)

    def create_invite(self, game_id: str) -> tuple[str, str]:
        """A new invite for a scorekeeper: returns (invite id, invite token)."""
        token = secrets.token_urlsafe(24)
        invite_id = new_id()
        with Session(self.db.writer) as session, session.begin():
            game = self._lock(session, game_id)
            session.add(Invite(id=invite_id, game_id=game_id, token_hash=token_hash(token)))
            game.revision += 1  # the game page lists the invites: a new version of it
        return invite_id, token

    def invites(self, game_id: str) -> list[Invite]:
        with Session(self.db.reader) as session:
            rows = (
                session.exec(select(Invite).where(Invite.game_id == game_id).order_by(Invite.created_at))
                .scalars()
                .all()
            )
            session.expunge_all()
            return list(rows)

    def revoke_invite(self, game_id: str, invite_id: str) -> None:
        with Session(self.db.writer) as session, session.begin():
            invite = session.get(Invite, checked_id(invite_id))
            if invite is None or invite.game_id != game_id:
                raise NotFound(N_("No such invite."), field="invite")
            if invite.revoked_at is None:
                invite.revoked_at = utcnow()
                session.add(invite)
                self._lock(session, game_id).revision += 1

    # export and import

    def export_game(self, game_id: str) -> dict:
        """The whole game as a versioned document (``carte-game/1``), enough to rebuild it exactly."""
        game = self.get(game_id)
        return export_document(game)

    def import_game(self, document) -> tuple[GameView, str]:
        """A new game (new id, new token) from an export document; all or nothing.

        Every manche is checked and scored in memory first (running totals kept as it goes), then
        the game is written in one short transaction of a fixed number of statements whatever the
        number of manches: the game, its players, its manches, their ids, their hands."""
        settings, entries, totals = read_document(document)
        with Session(self.db.reader) as session:
            new = self._new_game(session, **settings)
        ruleset, players, teams = new.ruleset, new.players, new.teams
        sides = scoring.side_names(players, teams)
        running = {side: 0 for side in sides}
        now = utcnow()
        manche_rows, hand_rows = [], []
        for index, entry in enumerate(entries):
            if scoring.standing(ruleset, running, index).finished:
                raise ValidationError(
                    N_("The file is damaged: round %(number)s comes after the end of the game."),
                    field=f"game.manches.{index}",
                    number=index + 1,
                )
            try:
                score = self._score_for(ruleset, players, teams, entry, "fr")
            except DomainError as e:
                e.field = f"game.manches.{index}.{e.field}" if e.field else f"game.manches.{index}"
                raise
            running = {side: running[side] + score.points.get(side, 0) for side in sides}
            manche, hands = stored_manche(players, score)
            manche_rows.append({**manche, "game_id": new.id, "number": index + 1, "created_at": now})
            hand_rows.extend((index + 1, hand) for hand in hands)
        if totals is not None and totals != running:
            raise ValidationError(N_("The file is damaged: its totals do not match its rounds."), field="totals")
        finished = scoring.standing(ruleset, running, len(entries)).finished
        with Session(self.db.writer) as session, session.begin():
            self._write_game(session, new, revision=1, finished_at=now if finished else None)
            if manche_rows:
                session.execute(insert(Manche.__table__), manche_rows)
                ids = dict(session.execute(select(Manche.number, Manche.id).where(Manche.game_id == new.id)).all())
                if hand_rows:
                    session.execute(
                        insert(Hand.__table__), [{**hand, "manche_id": ids[number]} for number, hand in hand_rows]
                    )
        return self.get(new.id), new.token

    # writing

    def record_manche(
        self, game_id: str, entry: MancheEntry, number: int | None = None, key: str | None = None, lang: str = "fr"
    ) -> tuple[GameView, int, bool]:
        """Record the next manche. Returns (game, manche number, replayed).

        ``number``, when given, must be the next manche's number (else ``conflict``): two phones
        recording the same manche record it once. ``key`` (an Idempotency-Key or a form nonce)
        makes a retry return the first answer instead of recording twice.
        """
        if key is not None:
            if not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
                raise ValidationError(
                    N_("The Idempotency-Key is 1 to 128 visible ASCII characters."), field="Idempotency-Key"
                )
        # The game is read and the manche checked and scored before the write lock is taken; under
        # the lock only the revision is compared (a write in between means: read again). The lock
        # is so held for the inserts and the commit alone, which keeps writes to many games flowing.
        for _attempt in range(100):  # each retry means another write went through
            if key:
                with Session(self.db.reader) as session:
                    done = self._replayed(session, checked_id(game_id), key)
                if done is not None:
                    return self.get(game_id), done, True
            current = self.get(game_id)
            expected = current.next_number
            if number is not None and _as_int(number, "number") != expected:
                raise Conflict(
                    N_("Round %(number)s is already recorded; the next one is %(next)s."),
                    field="number",
                    number=number,
                    next=expected,
                )
            if current.standing.finished:
                raise GameFinished(N_("The game is over: no more rounds can be added."))
            if len(current.manches) >= MAX_MANCHES:
                raise ValidationError(N_("A game has at most %(max)s rounds."), max=MAX_MANCHES)
            score = self._score(current, entry, lang)
            totals = {side: current.totals[side] + score.points.get(side, 0) for side in current.sides}
            finished = scoring.standing(current.ruleset, totals, expected).finished
            try:
                with Session(self.db.writer) as session, session.begin():
                    game = self._lock(session, game_id)
                    if game.revision != current.revision:
                        continue  # someone wrote in between: read the game again
                    if key:
                        session.add(IdempotencyRecord(game_id=game.id, key=key, manche_number=expected))
                    self._fill(session, current, Manche(game_id=game.id, number=expected), score)
                    game.revision += 1
                    game.updated_at = utcnow()
                    game.finished_at = (game.finished_at or utcnow()) if finished else None
                    session.add(game)
            except IntegrityError:
                if key:
                    with Session(self.db.reader) as session:
                        done = self._replayed(session, game_id, key)
                    if done is not None:
                        return self.get(game_id), done, True
                raise Conflict(N_("Another phone recorded this round at the same moment; it is shown now.")) from None
            return self.get(game_id), expected, False
        raise Conflict(N_("Another phone recorded this round at the same moment; it is shown now."))

    def edit_manche(self, game_id: str, number, entry: MancheEntry, lang: str = "fr") -> GameView:
        """Replace a recorded manche; everything after it is recomputed (a finished game may reopen).

        A change that would end the game before manches already played is refused
        (``game_finished``), naming those manches: they would have been played after the end.
        """
        number = _existing_number(number)
        with Session(self.db.writer) as session, session.begin():
            game = self._lock(session, game_id)
            manche = self._manche(session, game_id, number)
            current = self._view(session, game)
            score = self._score(current, entry, lang)
            session.execute(delete(Hand).where(Hand.manche_id == manche.id))
            manche.blocked = score.blocked
            self._fill(session, current, manche, score)
            view = self._touch(session, game)
            later = [m.number for m in view.extra["after_end"]]
            if len(later) > len(current.extra["after_end"]):  # the change moves the end earlier
                raise GameFinished(
                    N_(
                        "With this change the game ends after round %(end)s, and these rounds would come after "
                        "the end: %(later)s. Delete them first (from the last one), then make this change."
                    ),
                    field="number",
                    end=len(view.manches),
                    later=", ".join(map(str, later)),
                )
            return view

    def delete_manche(self, game_id: str, number) -> GameView:
        """Delete the last manche (only the last: the numbers stay a sequence)."""
        number = _existing_number(number)
        with Session(self.db.writer) as session, session.begin():
            game = self._lock(session, game_id)
            manche = self._manche(session, game_id, number)
            last = session.exec(select(func.max(Manche.number)).where(Manche.game_id == game_id)).scalars().first()
            if number != last:
                raise Conflict(N_("Only the last round can be deleted."), field="number")
            session.execute(
                delete(IdempotencyRecord).where(
                    IdempotencyRecord.game_id == game_id, IdempotencyRecord.manche_number == number
                )
            )
            session.execute(delete(Hand).where(Hand.manche_id == manche.id))
            session.delete(manche)
            session.flush()
            return self._touch(session, game)

    # internals

    def _lock(self, session: Session, game_id: str) -> Game:
        query = select(Game).where(Game.id == checked_id(game_id))
        if not self.db.is_sqlite:
            query = query.with_for_update()
        game = session.exec(query).scalars().first()
        if game is None:
            raise NotFound(N_("No game with this id."), field="id")
        return game

    @staticmethod
    def _replayed(session: Session, game_id: str, key: str) -> int | None:
        return (
            session.exec(
                select(IdempotencyRecord.manche_number).where(
                    IdempotencyRecord.game_id == game_id, IdempotencyRecord.key == key
                )
            )
            .scalars()
            .first()
        )

    @staticmethod
    def _manche(session: Session, game_id: str, number: int) -> Manche:
        manche = (
            session.exec(select(Manche).where(Manche.game_id == game_id, Manche.number == number)).scalars().first()
        )
        if manche is None:
            raise NotFound(N_("Round %(number)s does not exist."), field="number", number=number)
        return manche

    @classmethod
    def _score(cls, current: GameView, entry: MancheEntry, lang: str) -> scoring.MancheScore:
        return cls._score_for(current.ruleset, current.players, current.teams, entry, lang)

    @staticmethod
    def _score_for(ruleset: Ruleset, players: list, teams: dict | None, entry: MancheEntry, lang: str):
        if not isinstance(entry.hands, dict) or not isinstance(entry.typed, dict):
            raise ValidationError(N_("Hands map each player to their cards."), field="hands")
        return scoring.score_manche(
            ruleset,
            players,
            teams,
            entry.winner,
            hands=entry.hands,
            typed=entry.typed,
            blocked=bool(entry.blocked),
            last_card=entry.last_card,
            lang=lang,
        )

    @staticmethod
    def _fill(session: Session, current: GameView, manche: Manche, score: scoring.MancheScore) -> None:
        fields, hands = stored_manche(current.players, score)
        for key, value in fields.items():
            setattr(manche, key, value)
        session.add(manche)
        session.flush()
        for hand in hands:
            session.add(Hand(manche_id=manche.id, **hand))
        session.flush()

    def _touch(self, session: Session, game: Game) -> GameView:
        """Bump the revision (the shared view's ETag), keep finished_at in step with the standing,
        and return the game as it now stands."""
        game.revision += 1
        game.updated_at = utcnow()
        view = self._view(session, game)
        if view.standing.finished and game.finished_at is None:
            game.finished_at = utcnow()
        elif not view.standing.finished:
            game.finished_at = None
        session.add(game)
        session.flush()
        return replace(view, finished_at=game.finished_at)

    def _view(self, session: Session, game: Game) -> GameView:
        return load_views(session, self.catalog, [game])[0]


def stored_manche(players: list, score: scoring.MancheScore) -> tuple[dict, list[dict]]:
    """What is stored of a scored manche: its columns (winner's seat, blocked, last card) and one
    row per hand entered (seat, cards as canonical text or a typed total, value)."""
    seats = {name: seat for seat, name in enumerate(players)}
    manche = {
        "winner_seat": seats[score.winner] if score.winner else None,
        "blocked": score.blocked,
        "last_card": format_cards([score.last_card]) if score.last_card else None,
    }
    hands = []
    for name, value in score.values.items():
        cards = score.hands.get(name)
        hands.append(
            {
                "seat": seats[name],
                "cards": format_cards(cards) if cards is not None else None,
                "typed": score.typed.get(name),
                "value": value,
            }
        )
    return manche, hands


def load_views(session: Session, catalog: Catalog, games: list) -> list[GameView]:
    """Every derived number of ``games`` from what is stored, in three statements whatever the
    number of games and manches (plain rows, no ORM objects: this runs on every page and write)."""
    ids = [game.id for game in games]
    if not ids:
        return []
    players_of: dict = {}
    for game_id, _seat, name, team in session.execute(
        select(Player.game_id, Player.seat, Player.name, Player.team)
        .where(Player.game_id.in_(ids))
        .order_by(Player.game_id, Player.seat)
    ):
        players_of.setdefault(game_id, []).append((name, team))
    manches_of: dict = {}
    for row in session.execute(
        select(Manche.game_id, Manche.id, Manche.number, Manche.winner_seat, Manche.blocked, Manche.last_card)
        .where(Manche.game_id.in_(ids))
        .order_by(Manche.game_id, Manche.number)
    ):
        manches_of.setdefault(row[0], []).append(row[1:])
    hands_of: dict = {}
    for row in session.execute(
        select(Hand.manche_id, Hand.seat, Hand.cards, Hand.typed, Hand.value)
        .join(Manche, Hand.manche_id == Manche.id)
        .where(Manche.game_id.in_(ids))
        .order_by(Hand.manche_id, Hand.seat)
    ):
        hands_of.setdefault(row[0], []).append(row[1:])
    return [build_view(catalog, g, players_of.get(g.id, []), manches_of.get(g.id, []), hands_of) for g in games]


def build_view(catalog: Catalog, game: Game, player_rows: list, manche_rows: list, hands_of: dict) -> GameView:
    """A game's view from its rows: players (name, team) in seat order, manches (id, number,
    winner seat, blocked, last card) in order, hands by manche id (seat, cards, typed, value)."""
    if game.rules_json:  # house rules: the snapshot kept with the game, never the editable variant
        catalog = snapshot_catalog(game.rules_json, game.variant)
    ruleset = _resolve_cached(
        catalog, game.variant, game.options_json, game.table_id, game.mode, game.target, game.rounds
    )
    players = [name for name, _ in player_rows]
    teams: dict | None = None
    if any(team for _, team in player_rows):
        teams = {}
        for name, team in player_rows:
            teams.setdefault(team, []).append(name)
    custom_teams = bool(teams) and teams != scoring.default_teams(players)
    sides = scoring.side_names(players, teams)
    loser_deals = ruleset.loser_deals
    manches, progression, losers, after_end = [], [], [], []
    running = {side: 0 for side in sides}
    for manche_id, number, winner_seat, blocked, last_card in manche_rows:
        hands = {}
        for seat, cards, typed, value in hands_of.get(manche_id, ()):
            name = players[seat]
            hands[name] = HandView(name, stored_cards(cards) if cards is not None else None, typed, value)
        winner = players[winner_seat] if winner_seat is not None else None
        values = {name: hand.value for name, hand in hands.items()}
        points = scoring.side_points(ruleset, players, teams, winner, values)
        seat = scoring.dealer_index(len(players), game.first_dealer, number, losers if loser_deals else None)
        view = MancheView(number, winner, blocked, last_card, hands, points, players[seat])
        if manches and scoring.standing(ruleset, running, len(manches)).finished:
            # Stored before the end was moved earlier (an edit that older versions let through):
            # shown apart, never counted.
            after_end.append(view)
            continue
        losers.append(scoring.manche_loser(players, values, seat) if values else seat)
        manches.append(view)
        running = {side: running[side] + points.get(side, 0) for side in sides}
        progression.append(running)
    totals = dict(running)
    next_dealer = scoring.dealer_index(
        len(players), game.first_dealer, len(manches) + 1, losers if loser_deals else None
    )
    return GameView(
        id=game.id,
        share_id=game.share_id,
        ruleset=ruleset,
        players=players,
        teams=teams,
        first_dealer=game.first_dealer,
        manches=manches,
        totals=totals,
        standing=scoring.standing(ruleset, totals, len(manches)),
        progression=progression,
        revision=game.revision,
        created_at=game.created_at,
        finished_at=game.finished_at,
        dealer=next_dealer,
        extra={
            "custom_teams": custom_teams,
            "rules": json.loads(game.rules_json) if game.rules_json else None,
            "catalog": catalog,  # the one that knows this game's variant (a house snapshot's)
            "after_end": after_end,  # manches stored after the end of the game: not counted
        },
    )


@lru_cache(maxsize=4096)
def stored_cards(text: str) -> tuple:
    """The cards of a stored hand (canonical text, parsed once per worker)."""
    return tuple(parse_cards(text))


@lru_cache(maxsize=256)
def _resolve_cached(catalog: Catalog, variant, options_json, table, mode, target, rounds) -> Ruleset:
    return catalog.resolve(
        variant, options=json.loads(options_json), table=table, mode=mode, target=target, rounds=rounds
    )


EXPORT_FORMAT = "carte-game/1"


def export_document(game: GameView) -> dict:
    manches = []
    for m in game.manches:
        manches.append(
            {
                "number": m.number,
                "winner": m.winner,
                "blocked": m.blocked,
                "last_card": m.last_card,
                "hands": {n: format_cards(h.cards).split() for n, h in m.hands.items() if h.cards is not None},
                "points": {n: h.typed for n, h in m.hands.items() if h.typed is not None},
            }
        )
    rules = game.extra.get("rules")
    return {
        "format": EXPORT_FORMAT,
        "exported_at": utcnow().isoformat(timespec="seconds"),
        "game": {
            **game.rules_fields(),
            **({"rules": rules} if rules else {}),
            "first_dealer": game.first_dealer,
            "created_at": game.created_at.isoformat(timespec="seconds") if game.created_at else None,
            "manches": manches,
        },
        "totals": game.totals,
        "status": game.status,
        "winners": game.standing.winners,
    }


def read_document(document) -> tuple[dict, list, dict | None]:
    """Check an export document's shape; return the game's settings, its manches, its totals."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValidationError(N_("This is not a Carte ! game file (format carte-game/1)."), field="format")
    game = document.get("game")
    if not isinstance(game, dict):
        raise ValidationError(N_("The file is damaged: the game is missing."), field="game")
    manches = game.get("manches", [])
    if not isinstance(manches, list):
        raise ValidationError(N_("The file is damaged: the rounds are not a list."), field="game.manches")
    if len(manches) > MAX_MANCHES:
        raise ValidationError(
            N_("A game has at most %(max)s rounds; this file has %(count)s."),
            field="game.manches",
            max=MAX_MANCHES,
            count=len(manches),
        )
    first_dealer = game.get("first_dealer", 0)
    for name in ("variant", "table", "mode"):
        if game.get(name) is not None and not isinstance(game.get(name), str):
            raise ValidationError(N_("The file is damaged: “%(name)s” is unreadable."), field=f"game.{name}", name=name)
    settings = {
        "variant": game.get("variant"),
        "players": game.get("players"),
        "teams": game.get("teams"),
        "options": game.get("options"),
        "table": game.get("table"),
        "mode": game.get("mode"),
        "target": game.get("target"),
        "rounds": game.get("rounds"),
        "first_dealer": first_dealer if isinstance(first_dealer, int) and not isinstance(first_dealer, bool) else 0,
        "rules": game.get("rules"),
    }
    entries = []
    for index, m in enumerate(manches):
        if not isinstance(m, dict) or m.get("number") != index + 1:
            raise ValidationError(
                N_("The file is damaged: round %(number)s is out of sequence."),
                field=f"game.manches.{index}",
                number=index + 1,
            )
        hands, typed, winner = m.get("hands", {}), m.get("points", {}), m.get("winner")
        readable = (
            isinstance(hands, dict)
            and isinstance(typed, dict)
            and all(isinstance(c, list) and all(isinstance(x, str) for x in c) for c in hands.values())
            and all(isinstance(v, int) and not isinstance(v, bool) for v in typed.values())
            and (winner is None or isinstance(winner, str))
        )
        if not readable:
            raise ValidationError(
                N_("The file is damaged: a round's hands are unreadable."), field=f"game.manches.{index}"
            )
        entries.append(
            MancheEntry(
                winner=m.get("winner"),
                hands=hands,
                typed=typed,
                blocked=m.get("blocked") is True,
                last_card=m.get("last_card") if isinstance(m.get("last_card"), str) else None,
            )
        )
    totals = document.get("totals")
    return settings, entries, totals if isinstance(totals, dict) else None


def _existing_number(value) -> int:
    """A manche number from a URL: outside the possible range it simply does not exist."""
    if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= 100_000:
        raise NotFound(N_("Round %(number)s does not exist."), field="number", number=value)
    return _as_int(value, "number")


def _as_int(value, field_name: str) -> int:
    """A manche number: an int (bool excluded) from 1 to 100 000; a string is refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
        raise ValidationError(N_("The round number is a whole number."), field=field_name)
    return value

"""Backup and restore of every game: ``flask backup FILE`` / ``flask restore FILE``.

Unlike a game export (which makes a new game with new ids), a backup keeps everything as it is
stored: ids, share ids, edit-token hashes, invites, manches and hands. Restoring is idempotent:
a game already present (same id) is left alone, so restoring the same file twice adds nothing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlmodel import Session

from ..core.errors import N_, ValidationError
from .db import Database, Game, Hand, HouseVariant, IdempotencyRecord, Invite, Manche, Player, utcnow
from .stored import MANCHE_PARTS, StoredHand
from .unit_of_work import unit_of_work

BACKUP_FORMAT = "carte-backup/1"
GAME_FIELDS = ("id", "variant", "options_json", "mode", "table_id", "target", "rounds", "first_dealer",
               "edit_token_hash", "share_id", "revision", "created_at", "updated_at", "finished_at", "rules_json")  # fmt: skip
HOUSE_FIELDS = ("id", "document_json", "edit_token_hash", "created_at", "updated_at")
TIMES = {"created_at", "updated_at", "finished_at", "revoked_at", "last_used_at"}
PLAYER_FIELDS = ("seat", "name", "team", "joined_after", "left_after", "start_total", "place")
INVITE_FIELDS = ("id", "token_hash", "created_at", "revoked_at", "last_used_at")
KEY_FIELDS = ("key", "manche_number", "gone_revision", "created_at")
MANCHE_FIELDS = ("number", *(part.name for part in MANCHE_PARTS), "created_at")  # a part a backup lacks: None
HAND_FIELDS = StoredHand._fields
DEFAULTS = {"joined_after": 0, "start_total": 0}  # absent from backups made before players could join


def _dump(row, fields) -> dict:
    out = {}
    for name in fields:
        value = getattr(row, name)
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def _load(data: dict, fields) -> dict:
    out = {}
    for name in fields:
        value = data.get(name, DEFAULTS.get(name))
        if name in TIMES and isinstance(value, str):
            value = datetime.fromisoformat(value)
        out[name] = value
    return out


def backup(database: Database) -> dict:
    """Every game with everything stored about it, in a constant number of queries."""
    with database.snapshot() as connection, Session(connection) as session:
        games = session.exec(select(Game).order_by(Game.created_at)).scalars().all()
        players = session.exec(select(Player).order_by(Player.game_id, Player.seat)).scalars().all()
        manches = session.exec(select(Manche).order_by(Manche.game_id, Manche.number)).scalars().all()
        hands = session.exec(select(Hand).order_by(Hand.manche_id, Hand.seat)).scalars().all()
        invites = session.exec(select(Invite)).scalars().all()
        keys = session.exec(select(IdempotencyRecord)).scalars().all()
        house = session.exec(select(HouseVariant).order_by(HouseVariant.created_at)).scalars().all()
    hands_of: dict = {}
    for h in hands:
        hands_of.setdefault(h.manche_id, []).append(_dump(h, HAND_FIELDS))
    by_game = {
        g.id: {"game": _dump(g, GAME_FIELDS), "players": [], "manches": [], "invites": [], "keys": []} for g in games
    }
    for p in players:
        by_game[p.game_id]["players"].append(_dump(p, PLAYER_FIELDS))
    for m in manches:
        entry = _dump(m, MANCHE_FIELDS)
        entry["hands"] = hands_of.get(m.id, [])
        by_game[m.game_id]["manches"].append(entry)
    for i in invites:
        by_game[i.game_id]["invites"].append(_dump(i, INVITE_FIELDS))
    for k in keys:
        by_game[k.game_id]["keys"].append(_dump(k, KEY_FIELDS))
    return {
        "format": BACKUP_FORMAT,
        "created_at": utcnow().isoformat(),
        "games": list(by_game.values()),
        "house_variants": [_dump(h, HOUSE_FIELDS) for h in house],
    }


def restore(database: Database, document) -> tuple[int, int]:
    """Put back every game of a backup that is not already here; returns (restored, skipped)."""
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise ValidationError(N_("This is not a Carte ! backup (format carte-backup/1)."), field="format")
    entries = document.get("games")
    if not isinstance(entries, list):
        raise ValidationError(N_("The backup is damaged: the games are missing."), field="games")
    restored = skipped = 0
    with unit_of_work(database) as session:
        present = set(session.exec(select(Game.id)).scalars().all())
        _restore_house(session, document.get("house_variants") or [])
        for entry in entries:
            game = _load(entry["game"], GAME_FIELDS)
            if game["id"] in present:
                skipped += 1
                continue
            _restore_game(session, game, entry)
            present.add(game["id"])
            restored += 1
    return restored, skipped


def _restore_house(session, entries: list) -> None:
    """The house variants of a backup that are not already here."""
    present = set(session.exec(select(HouseVariant.id)).scalars().all())
    for entry in entries:
        if isinstance(entry, dict) and entry.get("id") not in present:
            session.add(HouseVariant(**_load(entry, HOUSE_FIELDS)))
            present.add(entry.get("id"))


def _restore_game(session, game: dict, entry: dict) -> None:
    """One game of a backup: its row, players, manches and their hands, invites and keys."""
    session.add(Game(**game))
    session.flush()
    for p in entry["players"]:
        player = _load(p, PLAYER_FIELDS)
        if player["place"] is None:  # a backup made before players chose their place: their seat
            player["place"] = player["seat"]
        session.add(Player(game_id=game["id"], **player))
    for m in entry["manches"]:
        manche = Manche(game_id=game["id"], **_load(m, MANCHE_FIELDS))
        session.add(manche)
        session.flush()
        for h in m["hands"]:
            session.add(Hand(manche_id=manche.id, **_load(h, HAND_FIELDS)))
    for i in entry.get("invites", []):
        session.add(Invite(game_id=game["id"], **_load(i, INVITE_FIELDS)))
    for k in entry.get("keys", []):
        session.add(IdempotencyRecord(game_id=game["id"], **_load(k, KEY_FIELDS)))
    session.flush()

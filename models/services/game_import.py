"""A game rebuilt from its file (``carte-game/2`` or ``/1``): checked and scored in memory first,
then written inside the caller's transaction — one game (``GameService.import_game``) or a whole
group's games (``group_file``), all or nothing.

Every manche is checked and scored by the core (the game played through), so a file whose rounds
or totals do not hold together is refused before anything is written; the writing is a fixed
number of statements whatever the number of games and manches: the games, their players, their
manches (their ids returned), their hands.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import insert
from sqlmodel import Session

from ..core import scoring
from ..core.errors import N_, ValidationError
from .db import Game, Manche, Player, utcnow
from .game_file import read_document
from .game_input import NewGame, hand_rows, player_rows, scored_in_file, stored_manche
from .game_view import GameRows, GameView, build_view
from .stored import manche_record
from .undo import NEW_HANDS


class PlannedGame(NamedTuple):
    """A game read from its file, checked and scored, ready to write."""

    new: NewGame
    scores: list
    finished: bool
    sent: list  # each manche's parts stored as sent (``stored.MANCHE_PARTS``)


def plan(service, document) -> PlannedGame:
    """Check and score a game file in memory (``service``: the ``GameService``, for the rules);
    nothing is written. A damaged file is a ``ValidationError`` that says what is wrong."""
    settings, entries, totals = read_document(document)
    new = service.imported_game(settings)
    roster, ruleset, players, teams = new.roster, new.ruleset, new.players, new.teams
    scores = [
        scored_in_file(ruleset, scoring.seated(players, roster, i + 1), teams, e, i)
        for i, (e, _sent) in enumerate(entries)
    ]
    # The totals, the end and the newcomers' starts are the core's (``play_through``), as every page shows them.
    progress = scoring.play_through(
        ruleset,
        players,
        teams,
        new.row["first_dealer"],
        [(s.winner, s.values) for s in scores],
        roster,
        order=new.rows().order,
    )
    if progress.counted < len(entries):
        raise ValidationError(
            N_("The file is damaged: round %(number)s comes after the end of the game."),
            field=f"game.manches.{progress.counted}",
            number=progress.counted + 1,
        )
    if totals is not None and totals != progress.totals:
        raise ValidationError(N_("The file is damaged: its totals do not match its rounds."), field="totals")
    return PlannedGame(new, scores, progress.standing.finished, [sent for _entry, sent in entries])


def write(session: Session, planned: PlannedGame, **changes) -> GameView:
    """Write a planned game inside the caller's transaction (``changes`` to its row); answers the
    game as it now stands, built from what was written."""
    row = row_changes(planned, **changes)
    stored = write_all(session, [(planned, row)])[0]
    rows = planned.new.rows(**row)
    rows = GameRows(rows.game, rows.players, tuple(m for m, _ in stored), {m.id: tuple(h) for m, h in stored})
    return build_view(rows, planned.new.ruleset)


def row_changes(planned: PlannedGame, **changes) -> dict:
    """What an imported game's row holds besides its file's settings (``changes``: its group, when
    it began)."""
    return {"revision": 1, "finished_at": utcnow() if planned.finished else None, **changes}


def write_all(session: Session, games: list) -> list:
    """Write planned games (each ``(PlannedGame, changes to its row)``) in four statements whatever
    their number: the games, their players, their manches (ids returned), their hands. Answers
    each game's ``(StoredManche, hands)``, in order."""
    if not games:
        return []
    now = utcnow()
    session.execute(insert(Game.__table__), [{**planned.new.row, **row} for planned, row in games])
    session.execute(insert(Player.__table__), [p for planned, _ in games for p in player_rows(planned.new)])
    manches = []  # (row, hands) per game
    for planned, _ in games:
        pairs = []
        for index, (score, sent) in enumerate(zip(planned.scores, planned.sent, strict=True)):
            manche, hands = stored_manche(planned.new.players, score, sent)
            pairs.append(({**manche, "game_id": planned.new.id, "number": index + 1, "created_at": now}, hands))
        manches.append(pairs)
    rows = [m for pairs in manches for m, _ in pairs]
    if not rows:
        return [[] for _ in games]
    returned = session.execute(insert(Manche.__table__).returning(Manche.id, Manche.game_id, Manche.number), rows)
    id_of = {(r.game_id, r.number): r.id for r in returned.all()}
    hands = [h for pairs in manches for m, hs in pairs for h in hand_rows(id_of[(m["game_id"], m["number"])], hs)]
    if hands:
        session.execute(NEW_HANDS, hands)
    return [
        [(manche_record(id_of[(m["game_id"], m["number"])], m["number"], m), hs) for m, hs in pairs]
        for pairs in manches
    ]

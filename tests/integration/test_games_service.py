"""The game service on the real database (SQLite file, or PostgreSQL with DATABASE_URL): create,
record, edit, delete, totals derived from the stored manches, finished_at, the number
precondition, idempotency keys and concurrent writers (SPEC §2 "end of the game", §4).

Expected numbers are computed by hand from SPEC §2's `classique` table (8 and JK 50, A 2 J 20,
K Q 10, others face value) and `standard` table; the arithmetic is in the comments.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select
from sqlmodel import Session

from models.core.cards import format_cards
from models.core.errors import (
    Conflict,
    GameFinished,
    MissingHand,
    NotFound,
    UnknownVariant,
    ValidationError,
)
from models.services.access import Level
from models.services.db import Game, Hand, IdempotencyRecord, Manche
from models.services.games import MancheEntry, Recorded


def unpack(recorded):
    """(the game as it now stands, the manche's number, whether it was a retry)."""
    return recorded.game, recorded.number, recorded.replayed


THREE = ["Ana", "Bob", "Chloé"]
THREADS = 20


def entry(winner, **hands):
    return MancheEntry(winner=winner, hands=hands)


def stored_manches(games, game_id) -> list[int]:
    with Session(games.db.reader) as session:
        return list(
            session.exec(select(Manche.number).where(Manche.game_id == game_id).order_by(Manche.number)).scalars()
        )


@pytest.fixture
def game(games):
    """A classique game (penalty, target 500) for Ana, Bob, Chloé; Ana deals first."""
    view, token = games.create_game("classique", THREE, first_dealer=0)
    return view.id, token


# --- create and read ------------------------------------------------------------------------------


def test_create_and_get(games):
    view, token = games.create_game("les-huit", ["Ana", "Bob", "Chloé", "Dan"], first_dealer=0)
    again = games.get(view.id)
    assert again.id == view.id
    assert again.players == ["Ana", "Bob", "Chloé", "Dan"]
    assert again.teams == {"Ana & Chloé": ["Ana", "Chloé"], "Bob & Dan": ["Bob", "Dan"]}
    assert again.totals == {"Ana & Chloé": 0, "Bob & Dan": 0}
    assert (again.ruleset.mode, again.ruleset.target, again.ruleset.rounds) == ("winner", 100, None)
    assert again.manches == [] and again.status == "playing" and again.finished_at is None
    assert len(token) >= 22 and token != view.id and view.share_id != view.id


def test_token_is_checked_and_stored_only_as_a_hash(app, games, game):
    game_id, token = game
    access = app.extensions["access"]
    assert access.game(game_id, token) == Level.OWNER
    assert access.game(game_id, None) == Level.NONE
    assert access.game(game_id, "") == Level.NONE
    assert access.game(game_id, token + "x") == Level.NONE
    with pytest.raises(NotFound):
        access.game("no-such-game", token)
    with Session(games.db.reader) as session:
        row = session.get(Game, game_id)
        assert token not in (row.edit_token_hash, row.id, row.share_id)


def test_create_validation(games):
    with pytest.raises(UnknownVariant):
        games.create_game("belote", THREE)
    with pytest.raises(ValidationError):
        games.create_game("classique", ["Ana"])
    with pytest.raises(ValidationError):
        games.create_game("classique", ["Ana", "ana"])
    with pytest.raises(ValidationError):
        games.create_game("classique", THREE, rounds=0)
    with pytest.raises(NotFound):
        games.get("no-such-game")


def test_dealer_rotates_clockwise(games):
    view, _ = games.create_game("classique", THREE, first_dealer=2)
    assert view.dealer_name == "Chloé"
    for _ in range(3):
        view, _, _ = unpack(games.record_manche(view.id, entry("Ana", Bob=["3H"], Chloé=["4H"])))
    # manche 1 dealt by Chloé (seat 2), then Ana (seat 0), Bob; the 4th by Chloé again
    assert [m.dealer for m in view.manches] == ["Chloé", "Ana", "Bob"]
    assert view.dealer_name == "Chloé"


# --- record, edit, delete -------------------------------------------------------------------------


def test_record_edit_delete(games, game):
    game_id, _ = game
    # Ana out: Bob 8H 50 + KS 10 = 60; Chloé JK 50 + 3C 3 = 53
    view, number, replayed = unpack(games.record_manche(game_id, entry("Ana", Bob=["8H", "KS"], Chloé=["JK", "3C"])))
    assert (number, replayed) == (1, False)
    assert view.manches[0].points == {"Ana": 0, "Bob": 60, "Chloé": 53}
    assert view.totals == {"Ana": 0, "Bob": 60, "Chloé": 53}
    # Bob out: Ana AH 20, Chloé typed 31 → 20, 60, 84
    view, number, _ = unpack(
        games.record_manche(game_id, MancheEntry(winner="Bob", hands={"Ana": ["AH"]}, typed={"Chloé": 31}))
    )
    assert number == 2 and view.totals == {"Ana": 20, "Bob": 60, "Chloé": 84}
    # manche 2 edited: Chloé out instead; Ana 2D 20, Bob 9S 9 → 0 + 20, 60 + 9, 53 + 0 = 20, 69, 53
    view = games.edit_manche(game_id, 2, entry("Chloé", Ana=["2D"], Bob=["9S"]))
    assert view.manches[1].winner == "Chloé"
    assert view.totals == {"Ana": 20, "Bob": 69, "Chloé": 53}
    with pytest.raises(Conflict):
        games.delete_manche(game_id, 1)  # only the last
    with pytest.raises(NotFound):
        games.delete_manche(game_id, 3)
    with pytest.raises(NotFound):
        games.edit_manche(game_id, 3, entry("Ana", Bob=["3H"], Chloé=["4H"]))
    view = games.delete_manche(game_id, 2)
    assert view.totals == {"Ana": 0, "Bob": 60, "Chloé": 53}
    assert stored_manches(games, game_id) == [1]
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 60, "Chloé": 53}


def test_invalid_manche_is_not_stored(games, game):
    game_id, _ = game
    with pytest.raises(MissingHand):
        games.record_manche(game_id, entry("Ana", Bob=["3H"]))
    assert stored_manches(games, game_id) == []
    games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=["4H"]))
    with pytest.raises(MissingHand):
        games.edit_manche(game_id, 1, entry("Bob", Ana=["3H"]))
    assert games.get(game_id).manches[0].winner == "Ana"  # the failed edit changed nothing


def test_editing_an_early_manche_recomputes_every_later_total(games, game):
    game_id, _ = game
    manches = [
        entry("Ana", Bob=["KH"], Chloé=["QH"]),  # 0, 10, 10
        entry("Bob", Ana=["5C"], Chloé=["6C"]),  # 5, 0, 6
        entry("Chloé", Ana=["JS"], Bob=["AS"]),  # 20, 20, 0
        entry("Ana", Bob=["7D"], Chloé=["8D"]),  # 0, 7, 50
    ]
    for e in manches:
        view, _, _ = unpack(games.record_manche(game_id, e))
    assert view.progression == [
        {"Ana": 0, "Bob": 10, "Chloé": 10},
        {"Ana": 5, "Bob": 10, "Chloé": 16},
        {"Ana": 25, "Bob": 30, "Chloé": 16},
        {"Ana": 25, "Bob": 37, "Chloé": 66},
    ]
    # manche 1 becomes: Bob out; Ana JK 50 + 8S 50 = 100; Chloé 2C 20 → manche 1 points 100, 0, 20,
    # so every later total moves by (+100, −10, +10)
    view = games.edit_manche(game_id, 1, entry("Bob", Ana=["JK", "8S"], Chloé=["2C"]))
    assert view.manches[0].points == {"Ana": 100, "Bob": 0, "Chloé": 20}
    assert [m.points for m in view.manches[1:]] == [
        {"Ana": 5, "Bob": 0, "Chloé": 6},
        {"Ana": 20, "Bob": 20, "Chloé": 0},
        {"Ana": 0, "Bob": 7, "Chloé": 50},
    ]
    assert view.progression == [
        {"Ana": 100, "Bob": 0, "Chloé": 20},
        {"Ana": 105, "Bob": 0, "Chloé": 26},
        {"Ana": 125, "Bob": 20, "Chloé": 26},
        {"Ana": 125, "Bob": 27, "Chloé": 76},
    ]
    assert games.get(game_id).totals == {"Ana": 125, "Bob": 27, "Chloé": 76}


def test_finished_at_set_and_cleared(games):
    view, _ = games.create_game("classique", ["Ana", "Bob"], target=100, first_dealer=0)
    game_id = view.id
    # Bob 8H 50 → 50 < 100: playing
    view, _, _ = unpack(games.record_manche(game_id, entry("Ana", Bob=["8H"])))
    assert view.status == "playing" and view.finished_at is None
    # Bob JK 50 → 100 ≥ 100: over, Ana (0) wins
    view, _, _ = unpack(games.record_manche(game_id, entry("Ana", Bob=["JK"])))
    assert view.status == "finished" and view.standing.winners == ["Ana"]
    assert view.finished_at is not None
    assert games.get(game_id).finished_at is not None
    with pytest.raises(GameFinished):
        games.record_manche(game_id, entry("Bob", Ana=["3H"]))
    # manche 2 edited: Bob 3S 3 → 53: the game reopens
    view = games.edit_manche(game_id, 2, entry("Ana", Bob=["3S"]))
    assert view.status == "playing" and view.standing.winners == []
    assert view.finished_at is None and games.get(game_id).finished_at is None
    # Bob KS 10 + QS 10 + 10S 10 + 7S 7 + 10H 10 = 47 → 100: over again
    view, number, _ = unpack(games.record_manche(game_id, entry("Ana", Bob=["KS", "QS", "10S", "7S", "10H"])))
    assert number == 3 and view.status == "finished" and view.finished_at is not None
    # deleting the final manche reopens it too
    view = games.delete_manche(game_id, 3)
    assert view.status == "playing" and view.finished_at is None
    assert games.get(game_id).finished_at is None


# --- number precondition and idempotency ---------------------------------------------------------


def test_number_precondition(games, game):
    game_id, _ = game
    with pytest.raises(Conflict):
        games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=["4H"]), number=2)
    _, number, _ = unpack(games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=["4H"]), number=1))
    assert number == 1
    with pytest.raises(Conflict):
        games.record_manche(game_id, entry("Bob", Ana=["3H"], Chloé=["4H"]), number=1)
    assert stored_manches(games, game_id) == [1]
    _, number, _ = unpack(games.record_manche(game_id, entry("Bob", Ana=["3H"], Chloé=["4H"]), number=2))
    assert number == 2


def test_idempotency_key(games, game):
    game_id, _ = game
    # Ana out: Bob KH 10, Chloé AC 20
    view, number, replayed = unpack(games.record_manche(game_id, entry("Ana", Bob=["KH"], Chloé=["AC"]), key="phone-1"))
    assert (number, replayed) == (1, False)
    view, number, replayed = unpack(games.record_manche(game_id, entry("Ana", Bob=["KH"], Chloé=["AC"]), key="phone-1"))
    assert (number, replayed) == (1, True)
    assert view.totals == {"Ana": 0, "Bob": 10, "Chloé": 20}
    assert stored_manches(games, game_id) == [1]
    # the key belongs to this game: the same key on another game records there
    other, _ = games.create_game("classique", THREE, first_dealer=0)
    _, number, replayed = unpack(games.record_manche(other.id, entry("Ana", Bob=["KH"], Chloé=["AC"]), key="phone-1"))
    assert (number, replayed) == (1, False)
    assert stored_manches(games, other.id) == [1]
    # a retry with the same key and the same number is a replay, not a conflict
    _, number, replayed = unpack(
        games.record_manche(game_id, entry("Ana", Bob=["KH"], Chloé=["AC"]), number=1, key="phone-1")
    )
    assert (number, replayed) == (1, True)


# --- concurrency ---------------------------------------------------------------------------------


def run_together(count, call):
    """Run ``call(i)`` in ``count`` threads released at the same moment; return results or exceptions."""
    barrier = threading.Barrier(count)

    def worker(i):
        barrier.wait(timeout=30)
        try:
            return call(i)
        except Exception as e:  # collected and checked by the test
            return e

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(worker, range(count)))


def test_concurrent_same_manche_number_records_once(games, game):
    game_id, _ = game
    results = run_together(
        THREADS, lambda i: games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=[f"{2 + i % 8}C"]), number=1)
    )
    ok = [r for r in results if isinstance(r, Recorded)]
    errors = [r for r in results if not isinstance(r, Recorded)]
    assert len(ok) == 1, results
    assert ok[0].number == 1
    assert len(errors) == THREADS - 1
    assert all(isinstance(e, Conflict) for e in errors), {type(e).__name__ for e in errors}
    assert stored_manches(games, game_id) == [1]
    assert len(games.get(game_id).manches) == 1


def test_concurrent_retries_with_one_key_record_once(games, game):
    game_id, _ = game
    # Bob 3H 3, Chloé 4H 4
    results = run_together(
        THREADS, lambda i: games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=["4H"]), key="same-key")
    )
    assert all(isinstance(r, Recorded) for r in results), [r for r in results if not isinstance(r, Recorded)]
    assert {r.number for r in results} == {1}
    assert sorted(r.replayed for r in results) == [False] + [True] * (THREADS - 1)
    assert stored_manches(games, game_id) == [1]
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 3, "Chloé": 4}
    with Session(games.db.reader) as session:
        keys = session.exec(select(IdempotencyRecord).where(IdempotencyRecord.game_id == game_id)).scalars().all()
        assert [(k.key, k.manche_number) for k in keys] == [("same-key", 1)]


def test_concurrent_writers_without_precondition_each_get_a_number(games, game):
    game_id, _ = game
    # 20 different manches at once, each Ana out with Bob 3H 3 and Chloé 4H 4: none lost, none duplicated
    results = run_together(THREADS, lambda i: games.record_manche(game_id, entry("Ana", Bob=["3H"], Chloé=["4H"])))
    assert all(isinstance(r, Recorded) for r in results), [r for r in results if not isinstance(r, Recorded)]
    assert sorted(r.number for r in results) == list(range(1, THREADS + 1))
    assert stored_manches(games, game_id) == list(range(1, THREADS + 1))
    # 20 × 3 = 60 and 20 × 4 = 80
    assert games.get(game_id).totals == {"Ana": 0, "Bob": 60, "Chloé": 80}


# --- issue 16: an edit that would end the game earlier; manches after the end ------------------------


def two_manches_to_50(games):
    """classique, target 50, Ana and Bob, Ana out twice: Bob 3♥ = 3, then 9♣ = 9 → Bob 12, playing."""
    view, _ = games.create_game("classique", ["Ana", "Bob"], target=50, first_dealer=0)
    games.record_manche(view.id, entry("Ana", Bob=["3H"]))
    view, _, _ = unpack(games.record_manche(view.id, entry("Ana", Bob=["9C"])))
    assert view.totals == {"Ana": 0, "Bob": 12} and view.status == "playing"
    return view.id


def test_an_edit_that_would_end_the_game_before_later_manches_is_refused(games):
    """000 « La partie s'arrête quand un joueur atteint 500 points (ou dépasse) » (here the game's
    target, 50). Manche 1 edited so that Bob holds 8♠ 2♥ 3♥ = 50 + 20 + 3 = 73 ≥ 50: the game would
    have ended at manche 1, and manche 2 would have been played after the end. Refused, naming it."""
    game_id = two_manches_to_50(games)
    with pytest.raises(GameFinished) as info:
        games.edit_manche(game_id, 1, entry("Ana", Bob=["8S", "2H", "3H"]))
    assert info.value.params == {"end": 1, "later": "2"} and info.value.status == 409
    view = games.get(game_id)  # nothing written
    assert view.totals == {"Ana": 0, "Bob": 12} and view.status == "playing"
    assert [format_cards(h.cards) for h in (view.manches[0].hands["Bob"],)] == ["3H"]
    # an edit that keeps the end after manche 2 goes through: Bob 10♠ = 10 → 10 + 9 = 19
    view = games.edit_manche(game_id, 1, entry("Ana", Bob=["10S"]))
    assert view.totals == {"Ana": 0, "Bob": 19}
    # ending the game at the last manche is fine: manche 2 becomes Bob 8♠ 2♥ = 70 → 80 ≥ 50, Ana wins
    view = games.edit_manche(game_id, 2, entry("Ana", Bob=["8S", "2H"]))
    assert view.status == "finished" and view.standing.winners == ["Ana"] and view.totals == {"Ana": 0, "Bob": 80}


def test_manches_stored_after_the_end_are_never_counted(games, client):
    """A game stored before the refusal existed: manche 1 already says Bob 73 (the game ended there),
    manche 2 (Bob 9) follows. Manche 2 is shown apart and never counted: Bob 73, Ana wins."""
    game_id = two_manches_to_50(games)
    with Session(games.db.writer) as session, session.begin():
        first = session.exec(select(Manche).where(Manche.game_id == game_id, Manche.number == 1)).scalars().one()
        hand = session.exec(select(Hand).where(Hand.manche_id == first.id)).scalars().one()
        hand.cards, hand.value = "8S 2H 3H", 73
        session.add(hand)
    view = games.get(game_id)
    assert view.totals == {"Ana": 0, "Bob": 73}
    assert view.status == "finished" and view.standing.winners == ["Ana"]
    assert [m.number for m in view.manches] == [1] and [m.number for m in view.after_end] == [2]
    assert view.progression == [{"Ana": 0, "Bob": 73}]
    data = client.get(f"/api/v1/games/{game_id}").get_json()
    assert data["totals"] == {"Ana": 0, "Bob": 73} and data["winners"] == ["Ana"]
    assert [m["number"] for m in data["manches"]] == [1] and [m["number"] for m in data["after_end"]] == [2]
    document = client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert [m["number"] for m in document["game"]["manches"]] == [1]
    assert document["game"]["totals"] == {"Ana": 0, "Bob": 73}
    copy = client.post("/api/v1/games/import", json=document)
    assert copy.status_code == 201 and copy.get_json()["totals"] == {"Ana": 0, "Bob": 73}
    page = client.get(f"/games/{game_id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Played after the end of the game, not counted:" in page


def test_the_loser_deals_and_a_tie_goes_left_from_the_dealer(games):
    """classique option "the loser deals" (000: « celui qui a perdu la manche précédente »); the
    loser is the highest hand, and on a tie the first of them going left from the dealer
    (interpretation, marked on the rule page). Ana deals manche 1; Chloé goes out; Ana 8♠ = 50 and
    Bob 8♥ = 50 tie → going left from Ana, Bob comes first: Bob deals manche 2."""
    view, _ = games.create_game("classique", THREE, options={"loser_deals": True}, first_dealer=0)
    view, _, _ = unpack(games.record_manche(view.id, entry("Chloé", Ana=["8S"], Bob=["8H"])))
    assert view.manches[0].dealer == "Ana"
    assert view.dealer_name == "Bob" and view.starter_name == "Chloé"
    # without the option the deal simply passes to the left: Bob too, after Ana
    plain, _ = games.create_game("classique", THREE, first_dealer=2)
    plain, _, _ = unpack(games.record_manche(plain.id, entry("Chloé", Ana=["3S"], Bob=["8H"])))
    assert plain.dealer_name == "Ana"  # Chloé dealt manche 1; her left-hand neighbour (seat 0) deals next

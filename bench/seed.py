"""Seed a database for the benchmarks: 1,000 finished games, one game of 5 players × 30 manches,
one of 200 manches, and games of 10, 100 and 1,000 manches for the growth measurement.

Rows are written directly (one transaction per game) so that seeding takes seconds; every game
is then read back through the service, which recomputes it from the stored hands.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.core.cards import format_cards  # noqa: E402
from models.core.rules import catalog  # noqa: E402
from models.core.scoring import hand_value  # noqa: E402
from models.services.db import (  # noqa: E402
    Database,
    Game,
    Hand,
    Manche,
    Player,
    token_hash,
)
from models.services.games import GameService  # noqa: E402
from models.services.house import HouseService  # noqa: E402
from models.services.ids import new_id  # noqa: E402
from models.services.registry import Registry  # noqa: E402
from models.services.schema import migrate  # noqa: E402

NAMES = ["Ana", "Bob", "Chloé", "Dan", "Émile", "Fanny", "Gus", "Hélène"]


def seed_game(session, ruleset, players, manches, rounds, rng) -> tuple[str, str]:
    token = new_id()
    game = Game(id=new_id(), variant=ruleset.variant.id, options_json=json.dumps(dict(ruleset.options)),
                mode=ruleset.mode, table_id=ruleset.table.id, target=None if rounds else ruleset.target,
                rounds=rounds, first_dealer=0, edit_token_hash=token_hash(token), share_id=new_id())  # fmt: skip
    session.add(game)
    session.flush()
    for seat, name in enumerate(players):
        session.add(Player(game_id=game.id, seat=seat, name=name))
    deck = ruleset.deck.cards()
    for number in range(1, manches + 1):
        winner = rng.randrange(len(players))
        manche = Manche(game_id=game.id, number=number, winner_seat=winner)
        session.add(manche)
        session.flush()
        pool = deck[:]
        rng.shuffle(pool)
        for seat in range(len(players)):
            if seat == winner:
                continue
            cards = [pool.pop() for _ in range(rng.randrange(1, 4))]
            session.add(
                Hand(manche_id=manche.id, seat=seat, cards=format_cards(cards), value=hand_value(cards, ruleset.table))
            )
    return game.id, token


def seed(url: str) -> dict:
    database = Database(url)
    migrate(database)
    rng = random.Random(8)
    ruleset = catalog().resolve("classique")
    out = {"finished": [], "write_games": []}
    with Session(database.writer) as session, session.begin():
        for i in range(1000):
            out["finished"].append(seed_game(session, ruleset, NAMES[i % 5 : i % 5 + 3], 12, 12, rng)[0])
        out["game_30"] = seed_game(session, ruleset, NAMES[:5], 30, 1000, rng)
        out["game_200"] = seed_game(session, ruleset, NAMES[:4], 200, 1000, rng)
        for size in (10, 100, 1000):
            out[f"growth_{size}"] = seed_game(session, ruleset, NAMES[:3], size, 1000, rng)
        for _ in range(40):
            out["write_games"].append(seed_game(session, ruleset, NAMES[:3], 0, 1000, rng))
    service = GameService(database, Registry(catalog(), HouseService(database, catalog())))
    assert service.get(out["game_200"][0]).next_number == 201
    with Session(database.reader) as session:
        out["share"] = {k: session.get(Game, out[k][0]).share_id for k in ("game_30", "game_200")}
    database.dispose()
    return out


if __name__ == "__main__":
    print(json.dumps(seed(sys.argv[1]), indent=1))

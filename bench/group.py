"""A group of many finished games, its page measured in this process, run by hand:
`python bench/group.py` (SQLite) or `DATABASE_URL=postgresql+psycopg://… python bench/group.py`.

Seeds a group (« une tablée ») of ``BENCH_GROUP_GAMES`` finished games (5,000 by default: four
friends, three at a time, 12 manches a game, one game a day back from today), written in bulk
through SQLAlchemy's documented executemany ``insert()`` (a transaction per 500 games), the group
itself made by the service; then ``BENCH_GROUP_NIGHTS`` (50) ended club nights of the group, each
8 players at 2 tables of 4 for 2 turns, one manche a game, played through the app's services
(``NightService.start``, ``next_round``, ``end``, ``GameService.record_manche``: 2 to 4 s for 50),
so that its page draws the season's table of 50 nights. Then asks its page as a member's phone does (its session cookie
holding the member token, ``Accept-Encoding: br``, French) straight through the WSGI call, as
``bench/inprocess.py`` does, against the bare page of ``bench/tiny.py``: the CPU time of the first
request (every game summed up), then per request over ``BENCH_REQUESTS`` (200), the first
request after a manche recorded in a new game of the group (that game alone played through), and
the SQL statements of one request (``tests/e2e/test_sql_counts.StatementCounter``: compiled
lookups included). Prints a markdown table. The served figures, against the bare page in the same
run, are `BENCH_ONLY=group python bench/run.py`.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, insert, select, text  # noqa: E402

from bench import tiny  # noqa: E402
from bench.inprocess import ask, cpu_per_request  # noqa: E402
from bench.phone import PHONE  # noqa: E402
from bench.serve import SECRET_KEY, database_url  # noqa: E402
from models.core.cards import format_cards  # noqa: E402
from models.core.rules import catalog  # noqa: E402
from models.core.scoring import hand_value  # noqa: E402
from models.services.db import Database, Game, Hand, Manche, Player, token_hash  # noqa: E402
from models.services.games import MancheEntry  # noqa: E402
from models.services.groups import GroupService  # noqa: E402
from models.services.ids import new_id  # noqa: E402
from models.services.schema import migrate  # noqa: E402

GAMES = int(os.environ.get("BENCH_GROUP_GAMES", "5000"))
NIGHTS = int(os.environ.get("BENCH_GROUP_NIGHTS", "50"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
FRIENDS = ["Ana", "Bob", "Chloé", "Dan"]
MANCHES = 12
BATCH = 500
CLUB = ["Ana", "Bob", "Chloé", "Dan", "Élise", "Farid", "Gus", "Hana"]
TURNS = ([CLUB[:4], CLUB[4:]], [CLUB[0::2], CLUB[1::2]])  # 8 players, 2 tables of 4, 2 turns


def game_rows(ruleset, group_id: str, day: datetime, first_manche: int, rng) -> tuple[dict, list, list, list]:
    """One finished game of three of the friends, 12 manches: its game, players, manches and hands."""
    game_id = new_id()
    players = rng.sample(FRIENDS, 3)
    game = {"id": game_id, "variant": ruleset.variant.id, "options_json": json.dumps(dict(ruleset.options)),
            "mode": ruleset.mode, "table_id": ruleset.table.id, "target": None, "rounds": MANCHES,
            "first_dealer": 0, "edit_token_hash": token_hash(new_id()), "share_id": new_id(), "revision": MANCHES,
            "reshaped": 0, "created_at": day, "updated_at": day, "finished_at": day + timedelta(hours=2),
            "group_id": group_id}  # fmt: skip
    seats = [{"game_id": game_id, "seat": seat, "name": name, "place": seat} for seat, name in enumerate(players)]
    manches, hands, deck = [], [], ruleset.deck.cards()
    for number in range(1, MANCHES + 1):
        manche_id, winner = first_manche + number - 1, rng.randrange(3)
        manches.append({"id": manche_id, "game_id": game_id, "number": number, "winner_seat": winner,
                        "blocked": False, "created_at": day + timedelta(minutes=5 * number)})  # fmt: skip
        pool = rng.sample(deck, 6)
        for seat in range(3):
            if seat != winner:
                cards = [pool.pop() for _ in range(rng.randrange(1, 4))]
                value = hand_value(cards, ruleset.table)
                hands.append({"manche_id": manche_id, "seat": seat, "cards": format_cards(cards), "value": value})
    return game, seats, manches, hands


def seed_group(url: str, games: int, nights: int = NIGHTS) -> tuple[str, str]:
    """A group of ``games`` finished games and ``nights`` ended club nights; (its id, its owner's
    member token)."""
    database = Database(url)
    migrate(database)
    group_id, token = GroupService(database).create("Les jeudis", "Ana")
    ruleset, rng = catalog().resolve("classique"), random.Random(42)
    today = datetime.now(UTC).replace(hour=20, minute=0, second=0, microsecond=0)
    with database.writer.connect() as conn:
        next_manche = (conn.execute(select(func.max(Manche.id))).scalar() or 0) + 1
    for start in range(0, games, BATCH):
        rows: tuple[list, list, list, list] = ([], [], [], [])
        for n in range(start, min(games, start + BATCH)):
            made = game_rows(ruleset, group_id, today - timedelta(days=games - n), next_manche, rng)
            next_manche += MANCHES
            for kept, more in zip(rows, made, strict=True):
                kept.extend(more if isinstance(more, list) else [more])
        with database.writer.begin() as conn:
            for table, values in zip((Game, Player, Manche, Hand), rows, strict=True):
                conn.execute(insert(table), values)
    if not database.is_sqlite:  # the manches were given their ids: the next one the app writes follows them
        with database.writer.begin() as conn:
            conn.execute(text("SELECT setval(pg_get_serial_sequence('manche', 'id'), (SELECT max(id) FROM manche))"))
    database.dispose()
    play_nights(url, group_id, nights)
    return group_id, token


def play_nights(url: str, group_id: str, nights: int) -> None:
    """``nights`` ended club nights of the group, played through the app's services (8 players, 2
    tables of 4, 2 turns, one manche a game): at each table one player goes out, the others keep a
    card or two."""
    from app import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False})
    service, games, rng = app.extensions["nights"], app.extensions["games"], random.Random(7)
    cards = ["3C", "7D", "KS", "5H", "9C", "4D", "6S", "QH"]
    for number in range(nights):
        night_id, _ = service.start(group_id, f"Soirée {number + 1}", "classique", None, 1, TURNS[0], f"bench-{number}")
        for turn, seating in enumerate(TURNS, start=1):
            if turn > 1:
                assert service.next_round(service.state(night_id).night, turn, seating)
            for table, names in zip(service.state(night_id).current, seating, strict=True):
                out = names[rng.randrange(len(names))]
                pool = rng.sample(cards, 6)
                kept = {name: [pool.pop() for _ in range(rng.randrange(1, 3))] for name in names if name != out}
                games.record_manche(table.game_id, MancheEntry(out, kept))
        service.end(night_id)
    app.extensions["database"].dispose()


def main() -> None:
    from app import create_app
    from tests.e2e.test_sql_counts import StatementCounter

    workdir = tempfile.mkdtemp(prefix="carte-group-")
    url = database_url("group", workdir)
    started = time.monotonic()
    group_id, token = seed_group(url, GAMES)
    seeded = time.monotonic() - started
    tiny_url = f"sqlite:///{Path(workdir) / 'tiny.db'}"
    tiny.prepare(tiny_url)
    os.environ["DATABASE_URL"] = tiny_url
    bare = tiny.create_app()
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False})
    cookie = app.session_interface.get_signing_serializer(app).dumps({"group_tokens": [[group_id, token]]})
    headers, path = {**PHONE, "Cookie": f"session={cookie}"}, f"/groups/{group_id}"
    first = time.process_time()
    assert ask(app, path, headers) == 200
    first = (time.process_time() - first) * 1e6
    with StatementCounter(app.extensions["database"]) as counter:
        assert ask(app, path, headers) == 200
    reference = cpu_per_request(bare, "/html", PHONE)
    cost = cpu_per_request(app, path, headers, REQUESTS)
    # a manche recorded in a new game of the group: the next visit plays that game through alone
    games = app.extensions["games"]
    game, _token = games.create_game("classique", FRIENDS[:3], first_dealer=0, group=group_id)
    games.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]}))
    changed = time.process_time()
    assert ask(app, path, headers) == 200
    changed = (time.process_time() - changed) * 1e6
    app.extensions["database"].dispose()
    print(f"\n{GAMES:,} finished games in one group, and {NIGHTS} ended club nights (8 players, 2 "
          f"tables, 2 turns) seeded in {seeded:.1f} s; in process, CPU per "
          f"request; load average {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    print("| measure | value | target |\n|---|---:|---|")
    print(f"| the group's page, first request (every game summed up) | {first:,.0f} µs | |")
    print(f"| the group's page after a manche of one of its games | {changed:,.0f} µs | |")
    print(f"| the group's page, then (over {REQUESTS:,}) | {cost:,.0f} µs ({cost / reference:.2f}× the bare page's "
          f"{reference:,.0f} µs) | ≤ 2× |")  # fmt: skip
    print(f"| SQL statements of one request | {counter.count} | constant |")


if __name__ == "__main__":
    main()

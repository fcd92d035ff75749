"""A process holds at most ``CONNECTIONS_PER_PROCESS`` (6) PostgreSQL connections whatever its
load: three app instances (three workers) under 36 clients writing and reading hold at most 18
in all, the live feed's listeners counted."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text

from models.services.db import CONNECTIONS_PER_PROCESS
from tests.conftest import USE_PG
from tests.integration.test_connection_faults import admin_engine, close, make_app, own_database

__all__ = ["own_database"]  # the fixture, used below

pytestmark = pytest.mark.skipif(not USE_PG, reason="a PostgreSQL server's connections (SQLite opens files)")

THREE = ["Ana", "Bob", "Chloé"]
MANCHE = {"winner": "Ana", "hands": {"Bob": ["3C"], "Chloé": ["4C"]}}
WORKERS, CLIENTS, ROUNDS = 3, 36, 4


def test_three_workers_under_36_clients_hold_at_most_18_connections(own_database):
    name, url = own_database
    apps = [make_app(url) for _ in range(WORKERS)]
    try:
        games = []
        for _ in range(8):
            resp = apps[0].test_client().post("/api/v1/games", json={"variant": "classique", "players": THREE})
            game = resp.get_json()
            games.append((game["id"], {"Authorization": f"Bearer {game['edit_token']}"}))
        listeners = [app.extensions["feed"].listen(games[0][0]) for app in apps]  # each worker's LISTEN
        statuses: list[int] = []
        counts: list[int] = []
        done = threading.Event()
        start = threading.Barrier(CLIENTS)

        def client(number: int) -> None:
            app = apps[number % WORKERS]
            game_id, auth = games[number % len(games)]
            http = app.test_client()
            start.wait(30)
            for round_ in range(ROUNDS):
                key = {"Idempotency-Key": f"{number}-{round_}"}
                statuses.append(
                    http.post(f"/api/v1/games/{game_id}/manches", json=MANCHE, headers=auth | key).status_code
                )
                statuses.append(http.get(f"/api/v1/games/{game_id}", headers=auth).status_code)

        def count() -> None:
            with admin_engine().connect() as connection:
                while not done.wait(0.02):
                    counts.append(
                        connection.execute(
                            text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"), {"name": name}
                        ).scalar()
                    )

        counter = threading.Thread(target=count)
        counter.start()
        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        done.set()
        counter.join(10)
        for listener in listeners:
            listener.close()
        assert len(statuses) == CLIENTS * ROUNDS * 2
        assert set(statuses) <= {200, 201, 503}, sorted(set(statuses))
        assert statuses.count(201) >= CLIENTS * ROUNDS // 2  # most writes went through
        assert counts and max(counts) <= WORKERS * CONNECTIONS_PER_PROCESS == 18, max(counts)
    finally:
        for app in apps:
            close(app)

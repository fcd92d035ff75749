"""What the rate limits cost a phone's manche, A/B, run by hand: `python bench/limiter.py` (SQLite)
or `DATABASE_URL=postgresql+psycopg://… python bench/limiter.py` (PostgreSQL). Needs `wrk` (Debian).

The same app served three times side by side (gunicorn with the repository's config,
``BENCH_WORKERS`` workers each): limits off (``RATELIMIT_ENABLED=0``), limits on with their counters
in memory (the default), and on in Redis (``REDIS_URL``, when a Redis answers on 127.0.0.1:6379).
wrk writes manches to 8 new games a round **as a phone does**: the entry's form posted to
``/games/<id>/manches`` (winner, typed totals, a nonce of its own per request) with the session
cookie of the phone that created the game, ``Origin`` and ``Sec-Fetch-Site: same-origin``,
``Accept-Encoding: br``, French — each answer a 303 to the game page. Each form says
``queued=1``, as a phone's queue sends a manche kept offline (saved as the next one): wrk's
connections to one game would otherwise race for one number, the losers told 409 (in process the
requests come one at a time, each with the number a phone shows). Then the owner's game page
(a read: the limiter's hooks run, its filter lets it by). ``BENCH_ROUNDS`` rounds (3) of
``BENCH_SECONDS`` (4) each, the three servers in turn (the order turned each round), the median
round kept per row; every 303 checked afterwards to be a manche stored. The server CPU per request
(from /proc) is the figure to read on a machine that runs other work.

Then the same in process (the WSGI call, no sockets), where the limiter's own cost stands out of
the noise: CPU per request (this thread's) of the phone's manche, of a hand scored through the API
(a write the limits count, without the database) and of the owner's game page, the median of
``BENCH_BLOCKS`` blocks (30) with the three settings in turn. ``BENCH_ONLY=served`` or
``in-process`` runs one half.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sqlalchemy import func, select  # noqa: E402
from sqlmodel import Session  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from bench.phone import PHONE  # noqa: E402
from bench.seed import seed_game  # noqa: E402
from bench.serve import SECRET_KEY, cpu_seconds, database_url, gunicorn, lua_file  # noqa: E402
from models.core.rules import catalog  # noqa: E402
from models.services.db import Database, Manche  # noqa: E402
from models.services.schema import migrate  # noqa: E402

SECONDS = os.environ.get("BENCH_SECONDS", "4")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONNECTIONS = os.environ.get("BENCH_CONNECTIONS", "16")
GAMES = 8
HIGH = {"WRITE_LIMIT": "1000000 per minute", "CREATE_LIMIT": "1000000 per minute"}  # counted, never reached
VARIANTS = {"limits off": {**HIGH, "RATELIMIT_ENABLED": "0"}, "limits on, memory": HIGH,
            "limits on, Redis": {**HIGH, "REDIS_URL": "redis://127.0.0.1:6379/0"}}  # fmt: skip
PORTS = {"limits off": 8771, "limits on, memory": 8772, "limits on, Redis": 8773}


def redis_answers() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


def new_games(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` new games of three players (classique, 1,000 manches at most): (id, the session
    cookie of the phone that created it, signed as the served apps sign theirs)."""
    from app import create_app

    database, rng = Database(url), random.Random()
    ruleset = catalog().resolve("classique")
    with Session(database.writer) as session, session.begin():
        made = [seed_game(session, ruleset, ["Ana", "Bob", "Chloé"], 0, 1000, rng) for _ in range(count)]
    database.dispose()
    signer = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False, "RATELIMIT_ENABLED": False}
    )
    sign = signer.session_interface.get_signing_serializer(signer).dumps
    signer.extensions["feed"].close()
    signer.extensions["database"].dispose()
    return [(game_id, "session=" + sign({"tokens": [[game_id, token]]})) for game_id, token in made]


def lua_manches(base: str, games: list[tuple[str, str]], answers: str) -> str:
    """A wrk script: the manche entry's form, round-robin over ``games`` with each owner's cookie,
    a nonce of its own per request; the 303s counted per thread, written to ``answers``."""
    rows = ",".join(f'{{"{g}","{c}"}}' for g, c in games)
    headers = {**PHONE, "Content-Type": "application/x-www-form-urlencoded", "Origin": base,
               "Sec-Fetch-Site": "same-origin"}  # fmt: skip
    lua_headers = ", ".join(f'["{k}"] = "{v}"' for k, v in headers.items())
    script = f"""
games = {{{rows}}}
run = "{os.urandom(6).hex()}"
counter, saved, threads, ids = 0, 0, {{}}, 0
setup = function(thread)
  ids = ids + 1
  thread:set("id", ids)
  table.insert(threads, thread)
end
request = function()
  counter = counter + 1
  local g = games[(counter % #games) + 1]
  local headers = {{{lua_headers}}}
  headers["Cookie"] = g[2]
  local body = "winner=0&number=1&queued=1&last_card=&p1-typed=12&p2-typed=5&nonce=" .. run .. "-" .. id .. "-" .. counter
  return wrk.format("POST", "/games/" .. g[1] .. "/manches", headers, body)
end
response = function(status, headers, body)
  if status == 303 then saved = saved + 1 end
end
done = function(summary, latency, requests)
  local file = io.open("{answers}", "a")
  for _, thread in ipairs(threads) do file:write(thread:get("saved") .. "\\n") end
  file:close()
end
"""
    return lua_file(script)


def wrk(base: str, path: str, script: str | None = None, headers: dict | None = None) -> dict:
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency"]
    for key, value in (headers or {}).items():
        command += ["-H", f"{key}: {value}"]
    command += ["-s", script] if script else []
    cpu = cpu_seconds(base)
    out = subprocess.run([*command, base + path], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(base) - cpu

    def ms(label):
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)

    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"p50": ms("50%"), "p99": ms("99%"), "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "cpu_us": cpu / max(requests, 1) * 1e6, "errors": int(errors.group(1)) if errors else 0}  # fmt: skip


def stored(url: str, game_ids: list[str]) -> int:
    database = Database(url)
    with database.reader.connect() as conn:
        count = conn.execute(select(func.count()).select_from(Manche).where(Manche.game_id.in_(game_ids))).scalar()
    database.dispose()
    return count


def measure(url: str, names: list[str]) -> dict:
    """Per variant, per round: the writes' and the page's figures; the 303s answered and the manches stored."""
    results = {name: {"writes": [], "page": [], "saved": 0, "stored": 0} for name in names}
    page_game = new_games(url, 1)[0]
    servers = [gunicorn(url, PORTS[name], **VARIANTS[name]) for name in names]
    bases = dict(zip(names, [server.__enter__() for server in servers], strict=True))
    try:
        for turn in range(ROUNDS):
            for name in names[turn % len(names) :] + names[: turn % len(names)]:
                base, games, answers = bases[name], new_games(url, GAMES), tempfile.mktemp(suffix=".txt")
                page = (f"/games/{page_game[0]}", {**PHONE, "Cookie": page_game[1]})
                for _ in range(16):  # every worker has served the page and checked the cookie once
                    urllib.request.urlopen(urllib.request.Request(base + page[0], headers=page[1])).read()
                results[name]["writes"].append(wrk(base, "/", lua_manches(base, games, answers)))
                results[name]["saved"] += sum(int(line) for line in Path(answers).read_text().split())
                results[name]["stored"] += stored(url, [g for g, _ in games])
                results[name]["page"].append(wrk(base, page[0], headers=page[1]))
    finally:
        for server in servers:
            server.__exit__(None, None, None)
    return results


def form_environs(games: list[tuple[str, str]], count: int, first: int = 1) -> list[dict]:
    """``count`` manche entries as the phone posts them (round-robin over ``games``, the first one
    numbered ``first`` in each), ready for the WSGI call (made before the clock starts)."""
    environs = []
    for n in range(count):
        game_id, cookie = games[n % len(games)]
        headers = {**PHONE, "Cookie": cookie, "Origin": "http://127.0.0.1", "Sec-Fetch-Site": "same-origin"}
        form = {"winner": "0", "number": str(first + n // len(games)), "last_card": "", "p1-typed": "12",
                "p2-typed": "5", "nonce": f"{n}-{random.random()}"}  # fmt: skip
        path = f"/games/{game_id}/manches"
        environs.append(
            EnvironBuilder(path, "http://127.0.0.1", method="POST", data=form, headers=headers).get_environ()
        )
    return environs


def score_environs(count: int) -> list[dict]:
    """``count`` POSTs of a hand to ``/api/v1/score``: a write the limits count, with no database."""
    body = {"variant": "classique", "cards": ["8H", "KD"]}
    return [
        EnvironBuilder("/api/v1/score", "http://127.0.0.1", method="POST", json=body).get_environ()
        for _ in range(count)
    ]


def page_environs(game: tuple[str, str], count: int) -> list[dict]:
    """``count`` visits of the game page by the phone that created the game (a read)."""
    headers = {**PHONE, "Cookie": game[1]}
    return [
        EnvironBuilder(f"/games/{game[0]}", "http://127.0.0.1", headers=headers).get_environ() for _ in range(count)
    ]


def cpu_per_request(app, environs: list[dict], answer: str) -> float:
    """Microseconds of CPU per request through the WSGI call (each answered ``answer``), this
    thread's alone (not the change feed's, which reads each game written)."""
    status = []
    started = time.thread_time()
    for environ in environs:
        for _ in app(environ, lambda s, h, e=None: status.append(s)):
            pass
    elapsed = time.thread_time() - started
    assert all(s.startswith(answer) for s in status), set(status)
    return elapsed / len(environs) * 1e6


def in_process(url: str, names: list[str]) -> dict:
    """Per variant, the median over ``BENCH_BLOCKS`` blocks (the variants in turn) of the CPU per
    request in this process, the app made anew for each block (the limiter is one per process, set
    by the last app made): a manche (``BENCH_WRITES`` over 8 new games: a game read whole costs
    more with each manche; each game written once first), and a hand scored through the API."""
    from app import create_app

    configs = {"limits off": {"RATELIMIT_ENABLED": False},
               "limits on, memory": {"RATELIMIT_ENABLED": True},  # the app's own in-process storage
               "limits on, Redis": {"RATELIMIT_ENABLED": True, "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0"}}  # fmt: skip
    costs = {name: {"manche": [], "score": [], "page": []} for name in names}
    for block in range(int(os.environ.get("BENCH_BLOCKS", "30"))):
        for name in names[block % len(names) :] + names[: block % len(names)]:
            games = new_games(url, GAMES)
            warm, manches = (
                form_environs(games, GAMES),
                form_environs(games, int(os.environ.get("BENCH_WRITES", "48")), 2),
            )
            config = {"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False, **HIGH, **configs[name]}
            app = create_app(config)
            cpu_per_request(app, warm, "303")
            costs[name]["manche"].append(cpu_per_request(app, manches, "303"))
            cpu_per_request(app, score_environs(20), "200")
            costs[name]["score"].append(cpu_per_request(app, score_environs(400), "200"))
            cpu_per_request(app, page_environs(games[0], 20), "200")
            costs[name]["page"].append(cpu_per_request(app, page_environs(games[0], 400), "200"))
            app.extensions["feed"].close()
            app.extensions["database"].dispose()
    return {name: {kind: statistics.median(values) for kind, values in kinds.items()} for name, kinds in costs.items()}


def median(rounds: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rounds)


def table(results: dict) -> str:
    off = results["limits off"]
    lines = ["| served | manche writes /s | p50 ms | p99 ms | CPU per write | vs off | 303s, stored "
             "| owner's page /s | CPU per page | vs off |", "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]  # fmt: skip
    for name, r in results.items():
        write_cpu, page_cpu = median(r["writes"], "cpu_us"), median(r["page"], "cpu_us")
        every = "every 303 stored" if r["stored"] >= r["saved"] else f"**{r['saved'] - r['stored']} not stored**"
        lines.append(
            f"| {name} | {median(r['writes'], 'rps'):,.0f} | {median(r['writes'], 'p50'):.2f} "
            f"| {median(r['writes'], 'p99'):.2f} | {write_cpu:,.0f} µs | {write_cpu - median(off['writes'], 'cpu_us'):+,.0f} µs "
            f"| {r['saved']:,}, {r['stored']:,}: {every} | {median(r['page'], 'rps'):,.0f} | {page_cpu:,.0f} µs "
            f"| {page_cpu - median(off['page'], 'cpu_us'):+,.0f} µs |"
        )  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    workdir = Path(tempfile.mkdtemp(prefix="carte-limits-"))
    url = database_url("limits", str(workdir))
    database = Database(url)
    migrate(database)
    database.dispose()
    names = [name for name in VARIANTS if name != "limits on, Redis" or redis_answers()]
    kind = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    if os.environ.get("BENCH_ONLY") != "in-process":
        load = os.getloadavg()[0]
        results = measure(url, names)
        print(f"\n{kind}, gunicorn.conf.py (gevent), {os.environ.get('BENCH_WORKERS', '2')} workers a server, wrk -t2 "
              f"-c{CONNECTIONS} -d{SECONDS}s, median of {ROUNDS} rounds, {os.cpu_count()} cores, load average before "
              f"{load:.2f} / after {os.getloadavg()[0]:.2f}\n")  # fmt: skip
        print(table(results))
    if os.environ.get("BENCH_ONLY") != "served":
        load = os.getloadavg()[0]
        costs = in_process(url, names)
        print(f"\n{kind}, in process (the WSGI call, one thread), CPU per manche posted, load average before "
              f"{load:.2f} / after {os.getloadavg()[0]:.2f}\n")  # fmt: skip
        print("| in process | a phone's manche (stored) | vs off | a hand scored (API, no database) | vs off "
              "| the owner's game page (a read) | vs off |\n|---|---:|---:|---:|---:|---:|---:|")  # fmt: skip
        off = costs["limits off"]
        for name, cost in costs.items():
            print(f"| {name} | " + " | ".join(f"{cost[kind]:,.0f} µs | {cost[kind] - off[kind]:+,.0f} µs"
                                              for kind in ("manche", "score", "page")) + " |")  # fmt: skip


if __name__ == "__main__":
    main()

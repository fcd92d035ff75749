"""Benchmarks (issue 7), run by hand: `python bench/run.py` (SQLite) or
`DATABASE_URL=postgresql+psycopg://… python bench/run.py` (PostgreSQL).

Seeds a fresh database (bench/seed.py), starts gunicorn with 2 workers, drives it with wrk from a
second process and prints p50/p99 latency and throughput per endpoint, then the game page's time
at 10, 100 and 1,000 manches. Needs `wrk` (Debian package).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.seed import seed  # noqa: E402
from bench.serve import gunicorn  # noqa: E402

DURATION = os.environ.get("BENCH_SECONDS", "8")
CONNECTIONS = os.environ.get("BENCH_CONNECTIONS", "16")


def wrk(url: str, script: str | None = None, headers: dict | None = None) -> dict:
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{DURATION}s", "--latency"]
    for key, value in (headers or {}).items():
        command += ["-H", f"{key}: {value}"]
    if script:
        command += ["-s", script]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout

    def ms(label):
        match = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", output)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"p50": ms("50%"), "p99": ms("99%"), "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
            "errors": int(non2xx.group(1)) if non2xx else 0}  # fmt: skip


def lua_post(path: str, body: dict, games: list | None = None) -> str:
    """A wrk script that POSTs JSON (round-robin over games with their tokens, when given)."""
    payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"')
    rows = ",".join(f'{{"{g}","{t}"}}' for g, t in games or [])
    script = f'''
games = {{{rows}}}
counter = 0
request = function()
  counter = counter + 1
  local headers = {{["Content-Type"] = "application/json"}}
  local path = "{path}"
  if #games > 0 then
    local g = games[(counter % #games) + 1]
    path = string.gsub(path, "GAME", g[1])
    headers["Authorization"] = "Bearer " .. g[2]
  end
  return wrk.format("POST", path, headers, "{payload}")
end
'''
    handle = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    handle.write(script)
    handle.close()
    return handle.name


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    workdir = Path(tempfile.mkdtemp(prefix="carte-bench-"))
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir / 'bench.db'}"
    database_name = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    if url.startswith("postgres"):
        from sqlalchemy import text

        from models.db import Database

        admin = Database(url)
        with admin.writer.begin() as conn:  # a schema of its own, dropped and made anew each run
            conn.execute(text("DROP SCHEMA IF EXISTS carte_bench CASCADE; CREATE SCHEMA carte_bench"))
        admin.dispose()
        url += ("&" if "?" in url else "?") + "options=-csearch_path%3Dcarte_bench"
    started = time.monotonic()
    data = seed(url)
    print(f"seeded {database_name} in {time.monotonic() - started:.1f} s")
    game_30, _ = data["game_30"]
    share = data["share"]["game_30"]
    rows = []
    with gunicorn(url, 8765, WRITE_LIMIT="1000000 per minute", CREATE_LIMIT="1000000 per minute") as base:
        rows.append(("/healthz", wrk(base + "/healthz")))
        rows.append(("game page (5 × 30)", wrk(f"{base}/games/{game_30}")))
        etag = None
        live = f"{base}/s/{share}/live"
        try:
            with urllib.request.urlopen(live) as r:
                etag = r.headers.get("ETag")
            rows.append(("shared view (200)", wrk(f"{base}/s/{share}")))
            rows.append(("shared view poll (304)", wrk(live, headers={"If-None-Match": etag})))
        except OSError:
            print("(no shared view yet)")
        body = {"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}
        rows.append(("manche POST", wrk(base + "/", lua_post("/api/v1/games/GAME/manches", body, data["write_games"]))))
        check = {"variant": "huit-americain", "top": "AH", "card": "8C", "pending": True}
        rows.append(("dispute checker POST", wrk(base + "/", lua_post("/api/v1/referee/check", check))))
        for size in (10, 100, 1000):
            rows.append((f"game page, {size} manches", wrk(f"{base}/games/{data[f'growth_{size}'][0]}")))
    print(f"\n{database_name}, gunicorn 2 workers, wrk -t2 -c{CONNECTIONS} -d{DURATION}s, {os.cpu_count()} cores\n")
    print("| endpoint | p50 ms | p99 ms | req/s | non-2xx |")
    print("|---|---:|---:|---:|---:|")
    for name, r in rows:
        print(f"| {name} | {r['p50']:.2f} | {r['p99']:.2f} | {r['rps']:.0f} | {r['errors']} |")


if __name__ == "__main__":
    main()

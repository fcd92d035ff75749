"""Benchmarks (issues 7 and 17), run by hand: `python bench/run.py` (SQLite) or
`DATABASE_URL=postgresql+psycopg://… python bench/run.py` (PostgreSQL).

Seeds a fresh database (bench/seed.py), starts the app and the tiny baseline (bench/tiny.py) side
by side under gunicorn with the same settings (2 sync workers), drives each endpoint in turn with
wrk from a second process, as a phone asks (``Accept-Encoding: br``, the session cookie it was
given sent back), and prints a markdown table: p50/p99 latency, throughput, and the ratio that
counts — a page's p50 over the app's ``/healthz`` p50, a write's throughput over the baseline's
INSERT. Ratios measured in one run are comparable across machines; raw figures are not.
Needs `wrk` (Debian package).
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
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import tiny  # noqa: E402
from bench.seed import seed  # noqa: E402
from bench.serve import gunicorn  # noqa: E402

DURATION = os.environ.get("BENCH_SECONDS", "8")
CONNECTIONS = os.environ.get("BENCH_CONNECTIONS", "16")
ADMIN = "bench-admin-token"
PHONE = {"Accept-Encoding": "br", "Accept-Language": "fr-FR,fr;q=0.9"}


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


def lua_post(path: str, body: dict | None, games: list | None = None, content_type="application/json") -> str:
    """A wrk script that POSTs JSON (round-robin over games with their tokens, when given)."""
    payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"') if body is not None else ""
    rows = ",".join(f'{{"{g}","{t}"}}' for g, t in games or [])
    script = f'''
games = {{{rows}}}
counter = 0
request = function()
  counter = counter + 1
  local headers = {{["Content-Type"] = "{content_type}"}}
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


def as_a_phone(url: str, headers: dict | None = None) -> dict:
    """The headers a phone sends on its second visit: brotli, its language, and the session
    cookie the first visit gave it (if any)."""
    headers = {**PHONE, **(headers or {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            cookie = response.headers.get("Set-Cookie")
    except urllib.error.HTTPError as answer:  # a 304 (the poll), a 404
        cookie = answer.headers.get("Set-Cookie")
    return {**headers, "Cookie": cookie.split(";", 1)[0]} if cookie else headers


def get(url: str, headers: dict | None = None) -> dict:
    return wrk(url, headers=as_a_phone(url, headers))


def database_url(workdir: Path) -> tuple[str, str, str]:
    """(the app's URL, the baseline's URL, the database's name): a schema each on PostgreSQL,
    dropped and made anew every run; a file each on SQLite."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{workdir / 'bench.db'}", f"sqlite:///{workdir / 'tiny.db'}", "SQLite"
    from sqlalchemy import text

    from models.services.db import Database

    admin = Database(url)
    with admin.writer.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS carte_bench CASCADE; CREATE SCHEMA carte_bench"))
        conn.execute(text("DROP SCHEMA IF EXISTS carte_tiny CASCADE; CREATE SCHEMA carte_tiny"))
    admin.dispose()
    joiner = "&" if "?" in url else "?"
    return (url + joiner + "options=-csearch_path%3Dcarte_bench", url + joiner + "options=-csearch_path%3Dcarte_tiny",
            "PostgreSQL")  # fmt: skip


def measure(data: dict, url: str, tiny_url: str) -> list[tuple]:
    """(label, result, ratio kind, target, reference) per endpoint. The kinds are "page" (its p50
    over the app's ``/healthz`` p50) and "write" (its req/s over the baseline's INSERT); the
    reference is measured again right before each of them, so that a ratio compares two figures
    taken under the same load (the machine may be shared)."""
    game_30, _ = data["game_30"]
    share = data["share"]["game_30"]
    admin = {"Authorization": f"Bearer {ADMIN}"}
    rows = []
    limits = {"WRITE_LIMIT": "1000000 per minute", "CREATE_LIMIT": "1000000 per minute", "ADMIN_TOKEN": ADMIN}
    with gunicorn(url, 8765, **limits) as base, gunicorn(tiny_url, 8767, app="bench.tiny:create_app()") as floor:
        insert = lua_post("/insert", None)

        def page(label, path, target="", headers=None):
            for _ in range(4):  # each worker fills its caches first
                as_a_phone(base + path, headers)
            rows.append((label, get(base + path, headers), "page", target, get(base + "/healthz")))

        rows.append(("tiny: nothing (`/healthz`)", get(floor + "/healthz"), "tiny", "", None))
        rows.append(("tiny: one SELECT + template", get(floor + "/page"), "tiny", "", None))
        rows.append(("tiny: one INSERT (POST)", wrk(floor + "/", insert), "tiny", "", None))
        rows.append(("`/healthz` (the floor)", get(base + "/healthz"), "floor", "", None))
        page("shared view", f"/s/{share}", "≤ 1.5×")
        live = f"/s/{share}/live"
        with urllib.request.urlopen(base + live) as r:
            etag = r.headers.get("ETag")
        page("shared view poll (304)", live, headers={"If-None-Match": etag})
        page("game page, reader (5 × 30)", f"/games/{game_30}", "≤ 2×")
        page("rules page", "/rules/classique")
        for size in (10, 100, 1000):
            page(f"game page, {size:,} manches", f"/games/{data[f'growth_{size}'][0]}", "constant")
        page("`/games`, 1,000+ finished games", "/games", "≤ 3×", admin)
        page("player page (~645 games)", "/players/" + urllib.parse.quote("Chloé"), "≤ 3×", admin)
        body = {"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}
        script = lua_post("/api/v1/games/GAME/manches", body, data["write_games"])
        tiny_insert = wrk(floor + "/", insert)
        rows.append(("manche POST (API, 40 games)", wrk(base + "/", script), "write", "≥ 0.4×, ≥ 500/s", tiny_insert))
        check = {"variant": "huit-americain", "top": "AH", "card": "8C", "pending": True}
        script = lua_post("/api/v1/referee/check", check)
        rows.append(("dispute checker POST", wrk(base + "/", script), "page", "", get(base + "/healthz")))
    return rows


def table(rows: list[tuple]) -> str:
    lines = [
        "| endpoint | p50 ms | p99 ms | req/s | non-2xx | reference just before | ratio | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for label, r, kind, target, ref in rows:
        reference = ratio = ""
        if kind == "page":
            reference, ratio = f"/healthz {ref['p50']:.2f} ms", f"{r['p50'] / ref['p50']:.2f}× p50"
        elif kind == "write":
            reference, ratio = f"INSERT {ref['rps']:,.0f}/s", f"{r['rps'] / ref['rps']:.2f}× INSERT"
        lines.append(
            f"| {label} | {r['p50']:.2f} | {r['p99']:.2f} | {r['rps']:,.0f} | {r['errors']} | {reference} | {ratio} "
            f"| {target} |"
        )
    return "\n".join(lines)


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    workdir = Path(tempfile.mkdtemp(prefix="carte-bench-"))
    url, tiny_url, database_name = database_url(workdir)
    started = time.monotonic()
    data = seed(url)
    tiny.prepare(tiny_url)
    print(f"seeded {database_name} in {time.monotonic() - started:.1f} s")
    load = os.getloadavg()
    rows = measure(data, url, tiny_url)
    print(f"\n{database_name}, gunicorn 2 sync workers (app and tiny baseline alike), wrk -t2 -c{CONNECTIONS} "
          f"-d{DURATION}s, Accept-Encoding: br, {os.cpu_count()} cores, load average before "
          f"{load[0]:.2f} / after {os.getloadavg()[0]:.2f}\n")  # fmt: skip
    print(table(rows))


if __name__ == "__main__":
    main()

"""Benchmarks as a phone asks (issues 7, 17 and 29), run by hand: `python bench/run.py` (SQLite)
or `DATABASE_URL=postgresql+psycopg://… python bench/run.py` (PostgreSQL).

Seeds a fresh database (bench/seed.py), serves the app and the bare baseline (bench/tiny.py:
Flask on the same stack — gunicorn with the repository's config, SQLAlchemy with the app's engine
settings) side by side with the same workers, and drives each endpoint in turn with wrk from a
second process, **as each phone asks**: the owner's, a scorekeeper's and a watcher's session
cookie (each got the way that phone gets it: the owner's signed with the app's key as its own
browser holds it, the scorekeeper's from the invite link, the watcher's from the shared view),
``Accept-Encoding: br`` and its language. Every figure is divided by the bare page (one small
HTML page, no database) measured just before AND just after it (their mean), or for writes by
the bare INSERT (WAL, synchronous FULL) before and after. Writes go round-robin over 8 games,
and every 2xx is checked afterwards to be a manche really stored. Prints a markdown table.
Ratios measured in one run compare across machines; raw figures do not. Needs `wrk` (Debian).
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
from bench.group import seed_group  # noqa: E402
from bench.phone import ADMIN, PHONE, owner_cookie  # noqa: E402
from bench.seed import seed  # noqa: E402
from bench.serve import SECRET_KEY, cpu_seconds, database_url, gunicorn, lua_file  # noqa: E402

DURATION = os.environ.get("BENCH_SECONDS", "8")
CONNECTIONS = os.environ.get("BENCH_CONNECTIONS", "16")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1"))
ONLY = os.environ.get("BENCH_ONLY", "")  # "writes": the manche writes' row alone; "group": the group's page
GROUP_GAMES = int(os.environ.get("BENCH_GROUP_GAMES", "5000"))  # the finished games of the group a member asks
WRITE_SECONDS = 4  # 8 games hold 8,000 manches: 2,000 writes a second at most in a round
# Requests asked of a page before it is measured, each on a connection of its own: every worker
# must have served it once (with 2 workers, 4 left one worker cold one run in eight; 16, one in
# 16,000), or the run's CPU figure holds one worker's rendering of the page.
WARM_UP = 16


def wrk(url: str, script: str | None = None, headers: dict | None = None, seconds: str = DURATION) -> dict:
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency"]
    for key, value in (headers or {}).items():
        command += ["-H", f"{key}: {value}"]
    if script:
        command += ["-s", script]
    server = url.split("/", 3)[:3]
    base = "/".join(server)
    cpu = cpu_seconds(base)
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(base) - cpu

    def ms(label):
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return {"p50": ms("50%"), "p99": ms("99%"), "rps": rps, "requests": requests,
            "errors": int(non2xx.group(1)) if non2xx else 0, "cpu_us": cpu / max(requests, 1) * 1e6,
            "mean_ms": int(CONNECTIONS) / max(rps, 1e-9) * 1000}  # fmt: skip


def lua_post(path: str, body: dict | None, games: list | None = None, answers: str | None = None) -> str:
    """A wrk script that POSTs JSON (round-robin over games with their tokens, when given). Every
    answer goes through the same ``response`` function; with ``answers``, the manche number each
    2xx names is counted and the counts written there at the end ("number count" lines; "none"
    for a 2xx that names no manche)."""
    payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"') if body is not None else ""
    rows = ",".join(f'{{"{g}","{t}"}}' for g, t in games or [])
    script = f'''
games = {{{rows}}}
counter = 0
numbers = {{}}
threads = {{}}
setup = function(thread)
  table.insert(threads, thread)
end
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
response = function(status, headers, body)
  if status >= 200 and status < 300 then
    local number = body and string.match(body, '"number":%s*(%d+)') or "none"
    numbers[number] = (numbers[number] or 0) + 1
  end
end
done = function(summary, latency, requests)
  local out = "{answers or ""}"
  if out == "" then return end
  local file = io.open(out, "a")
  for _, thread in ipairs(threads) do
    for number, count in pairs(thread:get("numbers")) do
      file:write(number .. " " .. count .. "\\n")
    end
  end
  file:close()
end
'''
    return lua_file(script)


def cookie_of(url: str, headers: dict | None = None) -> str | None:
    """The session cookie a phone is given by its first visit to ``url`` (redirects not followed)."""

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url, headers={**PHONE, **(headers or {})})
    try:
        with urllib.request.build_opener(Stay).open(request) as response:
            cookie = response.headers.get("Set-Cookie")
    except urllib.error.HTTPError as answer:  # the invite's 303
        cookie = answer.headers.get("Set-Cookie")
    return cookie.split(";", 1)[0] if cookie else None


def database_urls(workdir: Path) -> tuple[str, str, str]:
    """(the app's URL, the baseline's URL, the database's name): a schema each on PostgreSQL
    (``carte_bench``, ``carte_tiny``), a file each on SQLite, made anew every run."""
    name = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    return database_url("bench", str(workdir)), database_url("tiny", str(workdir)), name


def phones(url: str, base: str, data: dict) -> dict:
    """The headers of each phone: owner, scorekeeper (joined by an invite), watcher, administrator,
    and the member of a group (the phone that made it)."""
    from app import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False})
    game_id, token = data["game_30"]
    _invite, invite = app.extensions["games"].create_invite(game_id)
    member = {"group_tokens": [list(data["group"])]}  # as the phone that made the group holds it
    app.extensions["database"].dispose()
    return {
        "owner": {**PHONE, "Cookie": owner_cookie(url, game_id, token)},
        "scorekeeper": {**PHONE, "Cookie": cookie_of(f"{base}/join/{game_id}/{invite}")},
        "watcher": {**PHONE, "Cookie": cookie_of(f"{base}/s/{data['share']['game_30']}")},
        "owner of 1,000": {**PHONE, "Cookie": owner_cookie(url, *data["growth_1000"])},
        "admin": {**PHONE, "Authorization": f"Bearer {ADMIN}"},
        "member": {**PHONE, "Cookie": f"session={app.session_interface.get_signing_serializer(app).dumps(member)}"},
    }


def median_round(rounds: list[tuple], ratio) -> tuple:
    """Of several rounds (result, bare before, bare after), the one whose ratio is the median."""
    return sorted(rounds, key=lambda r: ratio(*r))[len(rounds) // 2]


def p50_ratio(result, before, after) -> float:
    return result["p50"] / ((before["p50"] + after["p50"]) / 2)


def p99_ratio(result, before, after) -> float:
    return result["p99"] / ((before["p99"] + after["p99"]) / 2)


def rps_ratio(result, before, after) -> float:
    return result["rps"] / ((before["rps"] + after["rps"]) / 2)


def measure(data: dict, url: str, tiny_url: str) -> list[tuple]:
    """(label, result, kind, target, reference before, reference after) per endpoint: with
    ``BENCH_ROUNDS`` > 1, bare page and page measured in turn that many times (each round's bare
    page after is the next one's before), and the median round kept."""
    rows = []
    limits = {"WRITE_LIMIT": "1000000 per minute", "CREATE_LIMIT": "1000000 per minute", "ADMIN_TOKEN": ADMIN,
              "STREAMS_PER_CLIENT": "100000"}  # fmt: skip
    with gunicorn(url, 8765, **limits) as base, gunicorn(tiny_url, 8767, app="bench.tiny:create_app()") as floor:
        heads = phones(url, base, data)
        bare = lambda: wrk(floor + "/html", headers=PHONE)  # noqa: E731

        def page(label, path, who, target=""):
            headers = heads[who]
            for _ in range(WARM_UP):  # each worker fills its caches first (a page rendered, a cookie checked)
                urllib.request.urlopen(urllib.request.Request(base + path, headers=headers)).read()
            rounds, before = [], bare()
            for _ in range(ROUNDS):
                result, after = wrk(base + path, headers=headers), bare()
                rounds.append((result, before, after))
                before = after
            result, before, after = median_round(rounds, p50_ratio)
            rows.append((label, result, "page", target, before, after))
            return rounds

        if ONLY == "writes":
            return [writes(url, data, base, floor)]
        group_page = (f"group of {GROUP_GAMES:,} games (member)", f"/groups/{data['group'][0]}", "member", "≤ 2×")
        if ONLY == "group":
            page(*group_page)
            return rows
        game_30, _ = data["game_30"]
        page("shared view (watcher)", f"/s/{data['share']['game_30']}", "watcher", "≤ 2×")
        owner_rounds = page("game page (owner)", f"/games/{game_30}", "owner", "≤ 2×")
        page("game page (scorekeeper)", f"/games/{game_30}", "scorekeeper", "≤ 2×")
        page("game page (watcher's cookie)", f"/games/{game_30}", "watcher", "")
        page("game of 1,000 manches (owner)", f"/games/{data['growth_1000'][0]}", "owner of 1,000", "≤ 2×")
        page("`/games`, 1,000+ games", "/games", "admin", "≤ 2×")
        page("player page, ~645 games", "/players/" + urllib.parse.quote("Chloé"), "admin", "≤ 2×")
        page(*group_page)
        result, before, after = median_round(owner_rounds, p99_ratio)
        rows.append(("game page (owner) p99", result, "p99", "≤ 3×", before, after))
        rows.append(writes(url, data, base, floor))
    return rows


def writes(url: str, data: dict, base: str, floor: str) -> tuple:
    """Manche writes through the API, round-robin over 8 games (8 new ones each round), against
    the bare INSERT measured before and after; every 2xx checked afterwards to be a manche stored
    (``write_check``). A round lasts at most ``WRITE_SECONDS``: 8 games hold 8,000 manches
    (``MAX_MANCHES``), which a fast machine could pass in a longer run."""
    body = {"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}
    answers = tempfile.NamedTemporaryFile(suffix=".txt", delete=False).name
    insert = lua_post("/insert", None)
    seconds = str(max(1, min(int(float(DURATION)), WRITE_SECONDS)))
    rounds, before, written = [], wrk(floor + "/", insert, seconds=seconds), []
    for turn in range(min(ROUNDS, len(data["write_games"]) // 8)):
        games = data["write_games"][8 * turn : 8 * turn + 8]
        script = lua_post("/api/v1/games/GAME/manches", body, games, answers)
        result, after = wrk(base + "/", script, seconds=seconds), wrk(floor + "/", insert, seconds=seconds)
        rounds.append((result, before, after))
        before, written = after, written + [g for g, _ in games]
    result, before, after = median_round(rounds, rps_ratio)
    result = {**result, **write_check(url, written, answers)}  # every round's answers
    return ("manche writes, 8 games", result, "write", "≥ 0.33×, every 2xx stored", before, after)


def write_check(url: str, game_ids: list[str], answers: str) -> dict:
    """Whether every 2xx answer is a manche really stored: the 2xx answers (counted by wrk's
    script, by the manche number each names) against the manches stored in the games afterwards.
    For each number, no more 2xx answers than games holding a manche of that number (a 2xx naming
    none, or naming a manche that is not there, is ``unstored``). More manches stored than 2xx
    answers is expected: the requests in flight when wrk stops are answered after it counted."""
    from collections import Counter

    from sqlalchemy import func, select

    from models.services.db import Database, Manche

    answered: Counter = Counter()
    for line in Path(answers).read_text().splitlines():
        number, count = line.split()
        answered[number] += int(count)
    database = Database(url)
    with database.reader.connect() as conn:
        query = select(Manche.number, func.count()).where(Manche.game_id.in_(game_ids)).group_by(Manche.number)
        stored = {str(number): count for number, count in conn.execute(query)}
    database.dispose()
    unstored = sum(max(0, count - stored.get(number, 0)) for number, count in answered.items())
    return {"answered": sum(answered.values()), "stored": sum(stored.values()), "unstored": unstored}


def table(rows: list[tuple]) -> str:
    """The markdown table: each row's figures, the bare reference's before and after, the ratio
    asked, and the server's CPU time per request against the bare one's (a steadier figure on a
    machine that runs other work: it does not count the time spent waiting for a core)."""
    lines = [
        "| as a phone asks | p50 ms | p99 ms | req/s | non-2xx | bare, before / after | ratio | target "
        "| server CPU per request (÷ bare) |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for label, r, kind, target, before, after in rows:
        if kind == "write":
            reference = (before["rps"] + after["rps"]) / 2
            refs = f"INSERT {before['rps']:,.0f} / {after['rps']:,.0f} /s"
            every = "every 2xx stored" if r["unstored"] == 0 else f"**{r['unstored']} 2xx not stored**"
            ratio = f"{r['rps'] / reference:.2f}× (2xx {r['answered']:,}, stored {r['stored']:,}: {every})"
        elif kind == "p99":
            refs = f"{before['p99']:.2f} / {after['p99']:.2f} ms p99"
            ratio = f"{r['p99'] / ((before['p99'] + after['p99']) / 2):.2f}× p99"
        else:
            refs = f"{before['p50']:.2f} / {after['p50']:.2f} ms"
            ratio = f"{r['p50'] / ((before['p50'] + after['p50']) / 2):.2f}×"
        cpu = f"{r['cpu_us']:,.0f} µs ({r['cpu_us'] / ((before['cpu_us'] + after['cpu_us']) / 2):.2f}×)"
        lines.append(
            f"| {label} | {r['p50']:.2f} | {r['p99']:.2f} | {r['rps']:,.0f} | {r['errors']} | {refs} | {ratio} "
            f"| {target} | {cpu} |"
        )
    unfair = sorted(
        {label for label, r, _kind, _target, before, after in rows if not all(map(served_in_turn, (r, before, after)))}
    )
    if unfair:
        lines.append(
            "\n**wrk's latencies do not hold in this run** (a p50 under half of connections ÷ requests a second: "
            "some connections waited while others were served, and wrk's correction made up samples from those "
            "waits; see bench/README.md): " + ", ".join(unfair)
        )
    return "\n".join(lines)


def served_in_turn(result: dict) -> bool:
    """Whether wrk's latencies can be read: in a closed loop whose connections are served in turn,
    the p50 is near the mean latency, connections ÷ requests a second (Little's law). Far below
    it, most requests were quick and a few waited very long — the waits wrk's correction for
    coordinated omission turns into made-up samples (bench/README.md)."""
    return result["p50"] >= result["mean_ms"] / 2


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    workdir = Path(tempfile.mkdtemp(prefix="carte-bench-"))
    url, tiny_url, database_name = database_urls(workdir)
    started = time.monotonic()
    data = seed(url)
    data["group"] = seed_group(url, GROUP_GAMES)
    tiny.prepare(tiny_url)
    print(f"seeded {database_name} in {time.monotonic() - started:.1f} s")
    load = os.getloadavg()
    rows = measure(data, url, tiny_url)
    workers = os.environ.get("BENCH_WORKERS", "2")
    print(f"\n{database_name}, gunicorn.conf.py (gevent), {workers} workers for the app and the bare baseline alike, "
          f"wrk -t2 -c{CONNECTIONS} -d{DURATION}s, {ROUNDS} round(s) (median), as phones ask (their cookie, Accept-Encoding: br, fr), "
          f"{os.cpu_count()} cores, load average before {load[0]:.2f} / after {os.getloadavg()[0]:.2f}\n")  # fmt: skip
    print(table(rows))


if __name__ == "__main__":
    main()

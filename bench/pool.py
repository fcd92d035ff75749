"""A busy server queues, it does not refuse: run by hand, `DATABASE_URL=postgresql+psycopg://…
python bench/pool.py` (or on SQLite without it). Needs `wrk` (Debian).

The app served by gunicorn with the repository's config and ``BENCH_WORKERS`` workers (3), 36
clients at once for ``BENCH_SECONDS`` (30): 24 write manches through the API round-robin over 8
games (``Authorization: Bearer`` with each game's token, as an API client does; several clients
on one game, so its writes queue on its row), 12 read the games' pages (``Accept-Encoding: br``,
French). wrk waits up to 30 s for an answer. Prints each kind's rate, p50 and p99, and every
answer that was not 2xx by status with its error code; the server's CPU in the run and the
machine's load beside it. A healthy server answers everything 2xx however long the queue: the
figure is the count of non-2xx, 0.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.serve import cpu_seconds, database_url, gunicorn, lua_file  # noqa: E402

SECONDS = os.environ.get("BENCH_SECONDS", "30")
WRITERS, READERS, GAMES = 24, 12, 8
BODY = {"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}


def script(games: list[tuple[str, str]], write: bool, refused: str) -> str:
    """A wrk script that asks the games round-robin (a manche written, or the page read) and
    writes each answer that is not 2xx to ``refused`` (its status and error code, one a line)."""
    rows = ",".join(f'{{"{g}","{t}"}}' for g, t in games)
    body = json.dumps(BODY).replace("\\", "\\\\").replace('"', '\\"')
    ask = (
        f'wrk.format("POST", "/api/v1/games/" .. g[1] .. "/manches", {{["Content-Type"] = "application/json", '
        f'["Authorization"] = "Bearer " .. g[2]}}, "{body}")'
        if write
        else 'wrk.format("GET", "/games/" .. g[1], {["Accept-Encoding"] = "br", ["Accept-Language"] = "fr"})'
    )
    return lua_file(f"""
games = {{{rows}}}
counter = 0
request = function()
  counter = counter + 1
  local g = games[(counter % #games) + 1]
  return {ask}
end
response = function(status, headers, body)
  if status >= 300 then
    local file = io.open("{refused}", "a")
    file:write(status .. " " .. (string.match(body or "", '"code":%s*"([%w_]+)"') or "-") .. "\\n")
    file:close()
  end
end
""")


def wrk(base: str, connections: int, lua: str) -> subprocess.Popen:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{SECONDS}", "--latency", "--timeout", "30s", "-s", lua, base + "/"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def figures(out: str) -> str:
    def field(pattern):
        found = re.search(pattern, out)
        return found.group(1) if found else "?"

    rate, p50, p99 = field(r"Requests/sec:\s+([\d.]+)"), field(r"50%\s+(\S+)"), field(r"99%\s+(\S+)")
    return f"{rate}/s, p50 {p50}, p99 {p99}"


def main():
    os.environ.setdefault("BENCH_WORKERS", "3")
    url = database_url("pool", tempfile.mkdtemp())
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "migrate"], cwd=ROOT, check=True,
                   env={**os.environ, "DATABASE_URL": url}, capture_output=True)  # fmt: skip
    with gunicorn(url, 8731, RATELIMIT_ENABLED="0") as base:
        games = []
        for _ in range(GAMES):
            body = json.dumps({"variant": "classique", "players": ["Ana", "Bob", "Chloé"], "rounds": 1000}).encode()
            request = urllib.request.Request(base + "/api/v1/games", body, {"Content-Type": "application/json"})
            game = json.load(urllib.request.urlopen(request))
            games.append((game["id"], game["edit_token"]))
        refused = tempfile.NamedTemporaryFile(suffix=".txt", delete=False).name
        cpu, load = cpu_seconds(base), os.getloadavg()[0]
        writes = wrk(base, WRITERS, script(games, True, refused))
        reads = wrk(base, READERS, script(games, False, refused))
        written, read = writes.communicate()[0], reads.communicate()[0]
        cpu, load = cpu_seconds(base) - cpu, (load + os.getloadavg()[0]) / 2
    answers = Counter(Path(refused).read_text().splitlines())
    print(f"{os.environ['BENCH_WORKERS']} workers, {'PostgreSQL' if 'postgresql' in url else 'SQLite'}, "
          f"{WRITERS} writers + {READERS} readers on {GAMES} games, {SECONDS} s, load {load:.1f}")  # fmt: skip
    print(f"- manche writes: {figures(written)}")
    print(f"- game pages: {figures(read)}")
    print(f"- server CPU: {cpu:.1f} s in {SECONDS} s")
    print(f"- not 2xx: {sum(answers.values())} {dict(answers) if answers else ''}")


if __name__ == "__main__":
    main()

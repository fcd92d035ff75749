"""Lighthouse (mobile preset, Debian's Chromium) on the main pages, run by hand:
`python bench/lighthouse.py` (needs `npm install lighthouse` in bench/node_modules or on PATH).

Starts the app under gunicorn on a fresh SQLite file with a game in progress, opens the pages
that need edit rights with that game's session cookie, and prints performance, accessibility,
best practices and the bytes transferred per page.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.serve import SECRET_KEY, gunicorn  # noqa: E402
from models.services.games import MancheEntry  # noqa: E402

FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking "
         "--disable-component-update --disable-sync --no-first-run --disable-quic")  # fmt: skip


def lighthouse_command() -> list[str]:
    local = ROOT / "bench" / "node_modules" / ".bin" / "lighthouse"
    if local.exists():
        return [str(local)]
    if shutil.which("lighthouse"):
        return ["lighthouse"]
    sys.exit("lighthouse is needed: (cd bench && npm install --no-audit --no-fund lighthouse)")


def prepare(url: str) -> tuple[dict, str]:
    """A game with three manches, created through the web form so that we hold its session cookie."""
    # The cookie must be signed with the key the server checks it with (else the manche entry is a 401).
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY})
    client = app.test_client()
    form = {"variant": "classique", "shown_variant": "classique", "players": ["Ana", "Bob", "Chloé"],
            "end": "target", "first_dealer": "0"}  # fmt: skip
    response = client.post("/games", data=form)
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    cookie = response.headers["Set-Cookie"].split(";", 1)[0]
    games = app.extensions["games"]
    for _ in range(3):
        games.record_manche(game_id, MancheEntry("Ana", {"Bob": ["8H", "KS"], "Chloé": ["3C", "JK"]}))
    share_id = games.get(game_id).share_id
    pages = {
        "home": "/",
        "new game": "/games/new",
        "game": f"/games/{game_id}",
        "manche entry": f"/games/{game_id}/manches/new",
        "shared view": f"/s/{share_id}",
        "rounds (paged history)": f"/games/{game_id}/rounds",
        "games list": "/games",
        "player page": "/players/Ana",
        "rules": "/rules/classique",
        "dispute checker": "/referee",
    }
    app.extensions["database"].dispose()
    return pages, cookie


def main():
    command = lighthouse_command()
    workdir = Path(tempfile.mkdtemp(prefix="carte-lh-"))
    url = f"sqlite:///{workdir / 'lh.db'}"
    pages, cookie = prepare(url)
    rows = []
    with gunicorn(url, 8766) as base:
        for name, path in pages.items():
            report = workdir / "report.json"
            subprocess.run(
                [*command, base + path, f"--chrome-flags={FLAGS}", "--output=json", f"--output-path={report}",
                 "--quiet", "--only-categories=performance,accessibility,best-practices",
                 f"--extra-headers={json.dumps({'Cookie': cookie})}"],
                env={**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}, check=True,
            )  # fmt: skip
            data = json.loads(report.read_text())
            if data.get("runtimeError"):
                sys.exit(f"{name} ({path}): {data['runtimeError'].get('message')}")
            scores = {k: round(v["score"] * 100) for k, v in data["categories"].items()}
            weight = data["audits"]["total-byte-weight"]["numericValue"]
            rows.append((name, scores["performance"], scores["accessibility"], scores["best-practices"], weight))
    print("\n| page | performance | accessibility | best practices | bytes transferred |")
    print("|---|---:|---:|---:|---:|")
    for name, perf, a11y, best, weight in rows:
        print(f"| {name} | {perf} | {a11y} | {best} | {weight:,.0f} |")


if __name__ == "__main__":
    main()

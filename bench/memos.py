"""What each of the app's memos saves, A/B in one process, run by hand: `python bench/memos.py`.

The app keeps a few per-process memos (``models/services/lru.py``); each must name the figure that
would break without it. Here each is measured as ``bench/inprocess.py`` measures a page — CPU
time per request through the WSGI call, as a phone asks (its cookie or token, ``Accept-Encoding:
br``, French) — with the memo as the app keeps it and emptied (an ``LRU`` of size 0: every entry
let go at once), in turn, ``BENCH_ROUNDS`` rounds (3), the best round of each kept; the
difference is divided by the bare page's CPU (``bench/tiny.py``), which is how far the page's
ratio in ``bench/run.py`` would move without the memo.

- the sessions verified lately (``views/sessions.py``): the owner's game page, kept compressed,
  where checking the cookie is most of the work;
- the owners found (``models/services/access.py``): a manche written through the API with the
  game's token, on a game of its own each round;
- the latest views (``models/services/latest.py``): the same writes (without it each write reads
  its game again).

``BENCH_DIR`` keeps the seeded database for the next run (as ``bench/inprocess.py``).
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.inprocess import ask, cpu_per_request, environ, seeded  # noqa: E402
from bench.phone import PHONE, owner_cookie  # noqa: E402
from bench.serve import SECRET_KEY  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "2000"))
WRITES = int(os.environ.get("BENCH_WRITES", "300"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
MANCHE = json.dumps({"winner": "Ana", "hands": {"Bob": ["3C", "KD"], "Chloé": ["8H"]}}).encode()


def post(app, path: str, body: dict | bytes, headers: dict) -> tuple[int, bytes]:
    """One POST of JSON through the WSGI call: its status and body."""
    body = body if isinstance(body, bytes) else json.dumps(body).encode()
    env = environ(path, headers)
    env.update(REQUEST_METHOD="POST", CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    env["wsgi.input"] = io.BytesIO(body)
    status = []
    answer = app(env, lambda s, h, e=None: status.append(s))
    text = b"".join(answer)
    answer.close()
    return int(status[0].split()[0]), text


def cpu_per_write(app) -> float:
    """Microseconds of CPU per manche written through the API, on a new game of its own."""
    new = {"variant": "classique", "players": ["Ana", "Bob", "Chloé"], "rounds": 1000}
    made = post(app, "/api/v1/games", new, {"Accept-Language": "fr"})  # its answer read here: not compressed
    assert made[0] == 201, made
    game = json.loads(made[1])
    path, headers = f"/api/v1/games/{game['id']}/manches", {**PHONE, "Authorization": f"Bearer {game['edit_token']}"}
    started = time.process_time()
    for _ in range(WRITES):
        assert post(app, path, MANCHE, headers)[0] == 201
    return (time.process_time() - started) / WRITES * 1e6


def swap(target, name: str, kept):
    """The memo ``target.name`` kept (``kept``), or forgotten (an LRU of size 0)."""
    from models.services.lru import LRU

    return (lambda: setattr(target, name, kept)), (lambda: setattr(target, name, LRU(0)))


def compare(label, measure, keep, forget, bare) -> None:
    """The best round of ``measure()`` with the memo kept and forgotten, in turn; printed as µs and
    as the share of the bare page's CPU that forgetting adds."""
    best = {"kept": None, "forgotten": None}
    for _ in range(ROUNDS):
        reference = cpu_per_request(*bare, count=REQUESTS)
        for name, setting in (("kept", keep), ("forgotten", forget)):
            setting()
            cost = measure() / reference
            best[name] = cost if best[name] is None else min(best[name], cost)
    keep()
    print(f"| {label} | {best['kept']:.2f}× | {best['forgotten']:.2f}× | +{best['forgotten'] - best['kept']:.2f}× |")


def main() -> None:
    from app import create_app

    url, data, bare_app = seeded("carte-memos-")
    bare = (bare_app, "/html", PHONE)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False, "RATELIMIT_ENABLED": False})
    game_30, token = data["game_30"]
    owner = (f"/games/{game_30}", {**PHONE, "Cookie": owner_cookie(url, game_30, token)})
    assert ask(app, *owner) == 200
    sessions, access, latest = app.session_interface, app.extensions["access"], app.extensions["games"].latest
    print(f"CPU per request ÷ the bare page's, best of {ROUNDS} rounds\n")
    print("| memo: what it serves | kept | forgotten | what forgetting adds |\n|---|---:|---:|---:|")
    page = lambda: cpu_per_request(app, *owner, count=REQUESTS)  # noqa: E731
    compare("sessions verified: the owner's game page", page, *swap(sessions, "verified", sessions.verified), bare)
    write = lambda: cpu_per_write(app)  # noqa: E731
    compare("owners found: a manche written with the game's token", write, *swap(access, "owners", access.owners), bare)
    compare("latest views: the same writes", write, *swap(latest, "views", latest.views), bare)


if __name__ == "__main__":
    main()

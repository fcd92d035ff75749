"""The pages of ``bench/run.py`` measured in this process, run by hand: `python bench/inprocess.py`.

The CPU time (``time.process_time``) each page takes over ``BENCH_REQUESTS`` requests (2,000 by
default), asked as a phone asks (its cookie, ``Accept-Encoding: br``, French) straight through
the WSGI call a server makes — no sockets, no gunicorn — against the bare page of
``bench/tiny.py`` asked the same way, in turn, ``BENCH_ROUNDS`` times (3), the best round kept.
CPU time holds still when other work shares the machine, so this is the figure to compare two
versions of the code by; ``bench/run.py`` (wrk, gunicorn) is the one the targets are read from.
``BENCH_DIR`` keeps the seeded database (and what ``bench/seed.py`` said of it) for the next run. ``BENCH_PAGES=owner,games`` measures the pages whose labels hold one of those words;
``BENCH_PROFILE=owner`` prints pyinstrument's profile of that page instead.
"""

from __future__ import annotations

import io
import json
import os
import runpy
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import tiny  # noqa: E402
from bench.phone import ADMIN, PHONE, owner_cookie  # noqa: E402
from bench.seed import seed  # noqa: E402
from bench.serve import SECRET_KEY  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def environ(path: str, headers: dict) -> dict:
    """What gunicorn hands the app for a GET of ``path`` with ``headers``."""
    path, _, query = path.partition("?")
    base = {
        "REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": urllib.parse.unquote(path, encoding="latin-1"), "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8765", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8765", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
    }  # fmt: skip
    for key, value in headers.items():
        base["HTTP_" + key.upper().replace("-", "_")] = value
    return base


def ask(app, path: str, headers: dict) -> int:
    """One request through the WSGI call; its status."""
    status = []
    body = app(environ(path, headers), lambda s, h, e=None: status.append(s))
    for _ in body:
        pass
    if hasattr(body, "close"):
        body.close()
    return int(status[0].split()[0])


def cpu_per_request(app, path: str, headers: dict, count: int = REQUESTS) -> float:
    """Microseconds of CPU per request, over ``count`` requests."""
    started = time.process_time()
    for _ in range(count):
        ask(app, path, headers)
    return (time.process_time() - started) / count * 1e6


def pages(data: dict, url: str, app) -> dict:
    """Each page's (path, headers), as bench/run.py asks them."""
    game_30, token = data["game_30"]
    invite = app.extensions["games"].create_invite(game_30)[1]
    with app.test_client() as client:
        client.get(f"/join/{game_30}/{invite}", headers=PHONE)
        keeper = client.get_cookie("session").value
        client.delete_cookie("session")
        client.get(f"/s/{data['share']['game_30']}", headers=PHONE)
        watcher = client.get_cookie("session").value
    return {
        "shared view (watcher)": (f"/s/{data['share']['game_30']}", {**PHONE, "Cookie": f"session={watcher}"}),
        "game page (owner)": (f"/games/{game_30}", {**PHONE, "Cookie": owner_cookie(url, game_30, token)}),
        "game page (scorekeeper)": (f"/games/{game_30}", {**PHONE, "Cookie": f"session={keeper}"}),
        "game page (watcher's cookie)": (f"/games/{game_30}", {**PHONE, "Cookie": f"session={watcher}"}),
        "game of 1,000 manches (owner)": (
            f"/games/{data['growth_1000'][0]}",
            {**PHONE, "Cookie": owner_cookie(url, *data["growth_1000"])},
        ),
        "`/games`, 1,000+ games": ("/games", {**PHONE, "Authorization": f"Bearer {ADMIN}"}),
        "player page, ~645 games": ("/players/" + urllib.parse.quote("Chloé"), {**PHONE, "Authorization": f"Bearer {ADMIN}"}),
    }  # fmt: skip


def seeded(prefix: str) -> tuple[str, dict, object]:
    """The seeded database (kept in ``BENCH_DIR`` for the next run), what seeding said of it, and
    the bare app (``bench/tiny.py``) beside it."""
    workdir = Path(os.environ.get("BENCH_DIR") or tempfile.mkdtemp(prefix=prefix))
    workdir.mkdir(parents=True, exist_ok=True)
    url, said = f"sqlite:///{workdir / 'bench.db'}", workdir / "seeded.json"
    if not said.exists():
        said.write_text(json.dumps(seed(url)))
    tiny_url = f"sqlite:///{workdir / 'tiny.db'}"
    tiny.prepare(tiny_url)
    os.environ["DATABASE_URL"] = tiny_url
    return url, json.loads(said.read_text()), tiny.create_app()


def main() -> None:
    from app import create_app

    url, data, bare = seeded("carte-inprocess-")
    config = {"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY, "AUTO_MIGRATE": False, "ADMIN_TOKEN": ADMIN}
    app = create_app(config)
    asked = pages(data, url, app)
    for path, headers in asked.values():  # every page rendered and stored once
        assert ask(app, path, headers) == 200, path
    runpy.run_path(str(ROOT / "gunicorn.conf.py"))["collect_for_a_server"]()  # as in a worker
    if os.environ.get("BENCH_PROFILE"):
        return profile(
            app, *asked[dict(owner="game page (owner)").get(os.environ["BENCH_PROFILE"], os.environ["BENCH_PROFILE"])]
        )
    bare_path, bare_headers = "/html", PHONE
    print(f"{REQUESTS:,} requests a page, best of {ROUNDS} rounds, CPU µs per request (÷ the bare page's)\n")
    print("| page | µs | ÷ bare |\n|---|---:|---:|")
    only = os.environ.get("BENCH_PAGES")
    for label, (path, headers) in asked.items():
        if only and not any(word in label for word in only.split(",")):
            continue
        best = None
        for _ in range(ROUNDS):
            reference = cpu_per_request(bare, bare_path, bare_headers)
            cost = cpu_per_request(app, path, headers)
            if best is None or cost / reference < best[0] / best[1]:
                best = (cost, reference)
        print(f"| {label} | {best[0]:,.0f} | {best[0] / best[1]:.2f}× (bare {best[1]:,.0f}) |")


def profile(app, path: str, headers: dict) -> None:
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0001)
    profiler.start()
    for _ in range(REQUESTS):
        ask(app, path, headers)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()

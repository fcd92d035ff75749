"""The commands of the README and the guides run as they are written.

Each guide's ``sh`` blocks (``tests/unit/test_docs.py`` says which are run and which only say what
they need) run in order in one bash, as a reader would type them one after the other: with
``set -euo pipefail``, the project importable, the suite's own database as ``DATABASE_URL`` and a
server of the app at ``CARTE``. A block followed by a ``json`` block prints that JSON: what the
guide shows must be in what it printed (``"…"`` stands for anything). The commands run in a
scratch directory, those of the developing guide in the project (they read it and write nothing).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading

import pytest
from werkzeug.serving import make_server

from app import create_app
from tests.unit.test_docs import GUIDES, ROOT, blocks, name

BETWEEN = "----- block "
ANYTHING = "…"


def runnable(path):
    """The blocks of ``path`` that run, each with the JSON block that follows it (or None)."""
    found = blocks(path)
    return [
        (block, json.loads(after.text) if after is not None and after.language == "json" else None)
        for block, after in zip(found, [*found[1:], None][: len(found)], strict=True)
        if block.language == "sh" and block.needs is None
    ]


def holds(shown, printed) -> bool:
    """What a guide shows is in what was printed: the same keys with the same values (more keys
    printed are fine), lists item by item, "…" for any value."""
    if shown == ANYTHING:
        return True
    if isinstance(shown, dict):
        return isinstance(printed, dict) and all(k in printed and holds(v, printed[k]) for k, v in shown.items())
    if isinstance(shown, list):
        return isinstance(printed, list) and len(shown) == len(printed) and all(map(holds, shown, printed))
    return shown == printed


@pytest.fixture
def carte(app_config):
    """The app served on 127.0.0.1 (a random port): the server the guides' examples talk to."""
    server = make_server("127.0.0.1", 0, create_app(app_config), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.app.extensions["feed"].close()
    server.app.extensions["database"].dispose()


GUIDES_THAT_RUN = [path for path in GUIDES if runnable(path)]


@pytest.mark.parametrize("path", GUIDES_THAT_RUN, ids=name)
def test_a_guide_s_commands_run_and_print_what_it_shows(path, carte, app_config, tmp_path):
    missing = [tool for tool in ("curl", "jq") if shutil.which(tool) is None]
    if missing and os.environ.get("CI") != "true":
        pytest.skip(f"the guides' examples need {' and '.join(missing)} (.ci/run installs them)")
    steps = runnable(path)
    script = ["set -euo pipefail"]
    for index, (block, _) in enumerate(steps):
        script += [f"printf '\\n{BETWEEN}{index}\\n'", block.text]
    env = {**os.environ, "CARTE": carte, "DATABASE_URL": app_config["DATABASE_URL"], "SECRET_KEY": "docs",
           "PYTHONPATH": str(ROOT), "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}  # fmt: skip
    where = ROOT if path.name == "developing.md" else tmp_path
    ran = subprocess.run(["bash", "-c", "\n".join(script)], cwd=where, env=env, capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    printed = ran.stdout.split(f"\n{BETWEEN}")[1:]
    assert ran.returncode == 0, (f"{name(path)}: block {len(printed)} failed", ran.stdout[-2000:], ran.stderr[-2000:])
    for (block, shown), output in zip(steps, printed, strict=True):
        if shown is not None:
            value = json.loads(output.partition("\n")[2])
            assert holds(shown, value), (f"{name(path)} line {block.line}", shown, value)

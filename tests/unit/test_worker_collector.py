"""A gunicorn worker sets Python's cycle collector for a server once its app is loaded (issue 29,
``gunicorn.conf.py``): what start-up made is frozen out of the collector's passes, and a young pass
comes every ``YOUNG_COLLECTION`` allocations."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path
from types import SimpleNamespace

from gunicorn.http import wsgi

CONFIG = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def test_a_worker_freezes_what_start_up_made_and_collects_less_often():
    write, threshold = wsgi.Response.write, gc.get_threshold()
    spec = importlib.util.spec_from_file_location("carte_gunicorn_conf_gc", CONFIG)
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    made_at_start = [[] for _ in range(3)]  # lists: tracked by the collector, made before the hook
    assert all(gc.is_tracked(o) for o in made_at_start)
    try:
        config.post_worker_init(SimpleNamespace(wsgi=None, alive=True))  # a worker without the app's feed
        assert gc.get_freeze_count() >= len(made_at_start)
        assert not any(any(x is o for o in made_at_start) for x in gc.get_objects())  # frozen: not walked
        assert gc.get_threshold() == (config.YOUNG_COLLECTION, *threshold[1:])
        assert config.YOUNG_COLLECTION > threshold[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        wsgi.Response.write = write

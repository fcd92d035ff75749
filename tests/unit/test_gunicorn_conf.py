"""gunicorn.conf.py as gunicorn reads it: ordinary settings and hooks, and nothing of gunicorn
changed. A worker sets Python's cycle collector for a server once its app is loaded: what
start-up made is frozen out of the collector's passes, and a young pass comes every
``YOUNG_COLLECTION`` allocations."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import gunicorn.http.wsgi
import gunicorn.util
from gunicorn.config import Config
from gunicorn.http.parser import RequestParser

CONFIG = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def read_config(name: str):
    spec = importlib.util.spec_from_file_location(name, CONFIG)
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    return config


def test_a_worker_freezes_what_start_up_made_and_collects_less_often():
    threshold = gc.get_threshold()
    config = read_config("carte_gunicorn_conf_gc")
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


def test_reading_the_config_changes_nothing_of_gunicorn():
    watched = (gunicorn.http.wsgi, gunicorn.http.wsgi.Response, gunicorn.util)
    before = [dict(vars(thing)) for thing in watched]
    config = read_config("carte_gunicorn_conf_plain")
    assert [dict(vars(thing)) for thing in watched] == before
    assert config.worker_class == "gevent" and config.graceful_timeout > 0
    assert callable(config.when_ready) and callable(config.post_request)


def scheme_seen(monkeypatch, trusted: str | None, peer=("127.0.0.1", 40000)) -> str:
    """The scheme gunicorn gives a request sent by ``peer`` with ``X-Forwarded-Proto: https``,
    its settings read from gunicorn.conf.py as gunicorn reads them, ``TRUSTED_PROXIES`` as given."""
    if trusted is None:
        monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    else:
        monkeypatch.setenv("TRUSTED_PROXIES", trusted)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    config, cfg = read_config("carte_gunicorn_conf_proxies"), Config()
    for name in cfg.settings:
        if hasattr(config, name):
            cfg.set(name, getattr(config, name))
    raw = [b"GET / HTTP/1.1\r\nHost: carte.example\r\nX-Forwarded-Proto: https\r\n\r\n"]
    return next(iter(RequestParser(cfg, iter(raw), peer))).scheme


def test_gunicorn_believes_forwarded_headers_only_behind_trusted_proxies(monkeypatch):
    """Without TRUSTED_PROXIES (or 0) nobody's X-Forwarded-Proto is believed, not even this
    machine's (gunicorn's own default trusts 127.0.0.1): as docs/hosting.md says. Behind a
    proxy, gunicorn believes this machine's, as the app's ProxyFix believes the proxies'."""
    assert scheme_seen(monkeypatch, None) == "http"
    assert scheme_seen(monkeypatch, "0") == "http"
    assert scheme_seen(monkeypatch, "0", peer="/run/carte.sock") == "http"  # a UNIX socket's peer too
    assert scheme_seen(monkeypatch, "1") == "https"
    assert scheme_seen(monkeypatch, "1", peer=("203.0.113.9", 40000)) == "http"

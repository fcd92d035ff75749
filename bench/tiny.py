"""The tiny baseline (issue 17): a Flask app on the app's own stack — gunicorn, Flask, Jinja,
SQLAlchemy with the app's engine settings (``models.services.db.make_engine``: on SQLite WAL, synchronous
FULL, BEGIN IMMEDIATE for writes) — doing the least a page or a write can do:

- ``POST /insert``: one INSERT in one transaction;
- ``GET /html``: one small HTML page (a Jinja template, no database) — the bare page every
  page of the app is measured against (issue 29);
- ``GET /page``: one SELECT and the same template;
- ``GET /healthz``: nothing at all.

``bench/run.py`` serves it beside the app (``gunicorn "bench.tiny:create_app()"``, same workers)
and prints the app's figures as ratios of these. Its table lives in a schema or file of its own.
"""

from __future__ import annotations

import os

from flask import Flask
from sqlalchemy import text

from models.services.db import Database

TEMPLATE = """<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><main><h1>{{ title }}</h1><ul>{% for row in rows %}<li>{{ row.id }} — {{ row.label }}</li>{% endfor %}
</ul></main></body></html>"""


ROWS = [{"id": 1, "label": "un"}, {"id": 2, "label": "deux"}, {"id": 3, "label": "trois"}]


def prepare(url: str) -> None:
    """The baseline's table with three rows (run once, before the workers start)."""
    database = Database(url)
    with database.writer.begin() as conn:
        key = "INTEGER PRIMARY KEY" if database.is_sqlite else "SERIAL PRIMARY KEY"
        conn.execute(text(f"CREATE TABLE IF NOT EXISTS tiny (id {key}, label VARCHAR(40) NOT NULL)"))
        if conn.execute(text("SELECT COUNT(*) FROM tiny")).scalar() == 0:
            conn.execute(text("INSERT INTO tiny (label) VALUES ('un'), ('deux'), ('trois')"))
    database.dispose()


def create_app() -> Flask:
    app = Flask(__name__)
    database = Database(os.environ["DATABASE_URL"])
    template = app.jinja_env.from_string(TEMPLATE)  # compiled once, as Flask does for a template file
    insert = text("INSERT INTO tiny (label) VALUES (:label)")
    select = text("SELECT id, label FROM tiny WHERE id <= 3 ORDER BY id")

    @app.post("/insert")
    def write():
        with database.writer.begin() as conn:
            conn.execute(insert, {"label": "manche"})
        return "", 204

    @app.get("/page")
    def page():
        with database.reader.connect() as conn:
            rows = conn.execute(select).all()
        return template.render(title="Carte", rows=rows)

    @app.get("/html")
    def html():
        return template.render(title="Carte", rows=ROWS)

    @app.get("/healthz")
    def healthz():
        return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}

    return app

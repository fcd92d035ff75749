"""Alembic environment: the app passes its connection (``config.attributes["connection"]``);
run from the command line, the URL comes from DATABASE_URL or the default SQLite file."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import context

from models.services.db import make_engine, metadata
from models.services.schema import keys_held

config = context.config


def default_url() -> str:
    instance = Path(__file__).resolve().parent.parent / "instance"
    return os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'carte.db'}"


def run_migrations(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or default_url())
    with engine.connect() as conn, keys_held(conn):
        run_migrations(conn)
    engine.dispose()

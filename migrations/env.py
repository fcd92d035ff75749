"""Alembic environment: the app passes its connection (``config.attributes["connection"]``);
run from the command line, the URL comes from DATABASE_URL or the default SQLite file."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import context

from models.services.db import make_engine, metadata
from models.services.schema import unchecked_references

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
        if connection.dialect.name == "sqlite":  # references unchecked meanwhile: every one still holds
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the migration left rows referring to nothing: {broken[:5]}")


connection = config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or default_url())
    with engine.connect() as conn, unchecked_references(conn), conn.begin():
        run_migrations(conn)
    engine.dispose()

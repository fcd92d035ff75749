"""The database's schema: brought to the latest revision with Alembic (``migrations/``)."""

from __future__ import annotations

from pathlib import Path

from .db import Database

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def migrate(database: Database, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with Alembic (the run command does this at start)."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    with database.writer.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

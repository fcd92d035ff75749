"""Fixtures: an app on a fresh database per test (SQLite by default, PostgreSQL when
DATABASE_URL says so: one schema per test session — so one per pytest-xdist worker — emptied
between tests). Which tests run on which database, and why: tests/README.md."""

from __future__ import annotations

import os
import shutil
import uuid

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import text

from app import create_app
from models.services.db import Database, metadata
from models.services.schema import migrate

# Property tests check what is computed, never how fast: no deadline and no "too slow" health
# check, which a busy CI machine (two cores shared with the browser tests) trips now and then.
settings.register_profile("carte", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("carte")

PG_URL = os.environ.get("DATABASE_URL", "")
USE_PG = PG_URL.startswith("postgres")


def pg_url_with_schema(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


def pytest_collection_modifyitems(items):
    """The slow tests first: pytest-xdist hands tests out in this order, so none of the long ones
    is the last a worker holds, which the other worker could not take from it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """A database migrated once for the session: a template SQLite file, or a PostgreSQL schema."""
    if USE_PG:
        schema = f"test_{uuid.uuid4().hex[:12]}"
        admin = Database(PG_URL)
        with admin.writer.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = pg_url_with_schema(PG_URL, schema)
        database = Database(url)
        migrate(database)
        database.dispose()
        yield url
        with admin.writer.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    else:
        path = tmp_path_factory.mktemp("template") / "template.db"
        database = Database(f"sqlite:///{path}")
        migrate(database)
        database.dispose()
        yield path


@pytest.fixture
def database_url(migrated_database, tmp_path):
    """A URL to an empty, migrated database for one test."""
    if USE_PG:
        database = Database(migrated_database)
        names = ", ".join(f'"{t.name}"' for t in metadata.sorted_tables)
        with database.writer.begin() as conn:
            conn.execute(text(f"TRUNCATE {names} CASCADE"))
        database.dispose()
        return migrated_database
    path = tmp_path / "carte.db"
    shutil.copy(migrated_database, path)
    return f"sqlite:///{path}"


@pytest.fixture
def app_config(database_url):
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": database_url,
        "AUTO_MIGRATE": False,
        "RATELIMIT_ENABLED": False,
    }


@pytest.fixture
def app(app_config):
    application = create_app(app_config)
    yield application
    application.extensions["feed"].close()
    application.extensions["database"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def games(app):
    """The game service of the test app."""
    return app.extensions["games"]

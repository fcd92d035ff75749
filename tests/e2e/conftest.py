"""Fixtures of the HTTP tests (the app, its client and the database are tests/conftest.py's)."""

from __future__ import annotations

import pytest

from tests.e2e.test_api import THREE, create


@pytest.fixture
def three(client):
    """A classique game for Ana, Bob and Chloé (1 deck + 2 jokers, target 500), by the JSON API:
    the game's body and the header that carries its edit token."""
    return create(client, "classique", THREE)

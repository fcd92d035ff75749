"""Schemathesis against the app's own OpenAPI description: whatever it sends, no 5xx, and
every rejection is a 4xx with the error format of SPEC §4."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from app import create_app


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    from models.services.db import Database
    from models.services.schema import migrate

    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    database = Database(f"sqlite:///{path}")
    migrate(database)
    database.dispose()
    application = create_app(
        {"TESTING": True, "SECRET_KEY": "fuzz", "DATABASE_URL": f"sqlite:///{path}", "AUTO_MIGRATE": False,
         "RATELIMIT_ENABLED": False}
    )  # fmt: skip
    client = application.test_client()
    game = client.post("/api/v1/games", json={"variant": "classique", "players": ["Ana", "Bob", "Chloé"]}).get_json()
    application.config["FUZZ_GAME"] = game
    return application


schema = schemathesis.pytest.from_fixture("fuzz_schema")


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_app):
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", fuzz_app)


def error_format(response, case):
    """Every 4xx answer of the API has the SPEC §4 error body."""
    if 400 <= response.status_code < 500:
        body = response.json()
        assert isinstance(body.get("error"), dict), body
        assert body["error"].get("code") and body["error"].get("message"), body


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_never_fails(case, fuzz_app):
    game = fuzz_app.config["FUZZ_GAME"]
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game["id"]
    headers = {"Authorization": f"Bearer {game['edit_token']}", "Accept-Encoding": "identity"}
    response = case.call(headers=headers)
    case.validate_response(response, checks=[not_a_server_error])
    error_format(response, case)

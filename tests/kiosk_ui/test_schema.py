"""Schemathesis against the OpenAPI schema, in-process over ASGI: no 5xx, no schema violation.

Every operation is called with generated bodies, paths and queries, as a signed-in
player and a signed-in operator, and every answer is checked: never a server error,
always the documented content type, and a body that matches the response schema.
Bounded to a few hundred examples in all.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from kiosk_ui.app import create_app
from kiosk_ui.settings import parse

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    store: Path = tmp_path_factory.mktemp("schema") / "store"
    app = create_app(
        parse(
            {
                "store": {"dir": str(store), "synchronous": "NORMAL"},
                "rng": {"source": "sim", "sim_seed": 5, "test_mode": True},
                "devices": {"dice": "sim://dice?seed=3"},
                "demo": {"enabled": True, "credit": 100_000},
                "lobby": {"all_variants": True},
                "operator": {"user": "admin", "password": PASSWORD},
            },
            source="schema-test",
        )
    )
    with TestClient(app) as client:  # runs the lifespan: the appliance lives in app.state
        player = client.post("/api/players", json={"name": "Fuzz"}).json()["token"]
        op = client.post("/api/operator/login", json={"user": "admin", "password": PASSWORD})
        headers = {"x-player-token": player, "authorization": f"Bearer {op.json()['token']}"}
        yield {"app": app, "headers": headers}


def operations(app: Any) -> list[Any]:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    out = []
    for result in schema.get_all_operations():
        op = result.ok()
        # Signing out would end the operator session the rest of the run relies on.
        if op.path != "/api/operator/logout":
            out.append(op)
    return out


@pytest.mark.slow
def test_no_server_error_and_responses_match_the_schema(served: dict[str, Any]) -> None:
    ops = operations(served["app"])
    assert len(ops) >= 20, [op.label for op in ops]
    checked: list[str] = []
    for op in ops:

        @given(case=op.as_strategy())
        @settings(
            max_examples=15,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case: Any) -> None:
            case.call_and_validate(
                headers=served["headers"],
                checks=[not_a_server_error, content_type_conformance, response_schema_conformance],
            )

        run()
        checked.append(op.label)
    assert "POST /api/tables/{table_id}/actions" in checked

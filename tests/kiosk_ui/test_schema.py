"""Schemathesis against the OpenAPI schema of the app served on loopback: no 5xx, no violation.

Every operation is called with generated bodies, paths and queries, as a signed-in
player and a signed-in operator, and every answer is checked: never a server error,
always the documented content type, and a body that matches the response schema.
Bounded to a few hundred examples in all.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from kiosk_ui.settings import parse
from kiosk_ui.web.app import create_app

PASSWORD = "correct horse battery"
SKIPPED = {("POST", "/api/operator/logout"), ("POST", "/api/operator/certify")}


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # runs in a thread: leave signals alone
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The app on a real loopback port (one lifespan, so operator sessions persist)."""
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
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = _Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    with httpx.Client(base_url=url) as client:
        player = client.post("/api/players", json={"name": "Fuzz"}).json()["token"]
        op = client.post("/api/operator/login", json={"user": "admin", "password": PASSWORD})
        headers = {"x-player-token": player, "authorization": f"Bearer {op.json()['token']}"}
        me = client.get("/api/me", headers=headers).json()["id"]
        body = {"kind": "place-bet", "bet": "banker", "amount": 1_000}
        client.post("/api/tables/baccarat-pinnacle/actions", json=body, headers=headers)
        client.post("/api/tables/baccarat-pinnacle/actions", json={"kind": "deal"}, headers=headers)
        game = client.get("/api/history", headers=headers).json()[0]["game"]
        known = {
            "table_id": [t["id"] for t in client.get("/api/tables").json()],
            "player": [me],
            "game": [game],
        }
    yield {"url": url, "headers": headers, "known": known}
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


def operations(url: str) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    out = []
    for result in schema.get_all_operations():
        op = result.ok()
        # Signing out would end the operator session the rest of the run relies on, and
        # each accepted certification run is minutes of CPU in a background thread
        # (the browser test starts and checks one).
        if (op.method.upper(), op.path) not in SKIPPED:
            out.append(op)
    return out


@pytest.mark.slow
def test_no_server_error_and_responses_match_the_schema(served: dict[str, Any]) -> None:
    ops = operations(served["url"])
    assert len(ops) >= 20, [op.label for op in ops]
    checked: list[str] = []
    for op in ops:

        @given(case=op.as_strategy(), pick=st.integers(0, 1_000), real=st.booleans())
        @settings(
            max_examples=20,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case: Any, pick: int, real: bool) -> None:
            # Half the cases name a real table, player or game, so the handlers behind
            # the 404s are reached too; signed in as a player and as the admin.
            for name, values in served["known"].items():
                if real and case.path_parameters and name in case.path_parameters:
                    case.path_parameters[name] = values[pick % len(values)]
            mine = served["headers"]
            kept = {k: v for k, v in (case.headers or {}).items() if k.lower() not in mine}
            case.headers = {**kept, **mine}
            if case.cookies:
                case.cookies.pop("croupier_operator", None)
            case.call_and_validate(
                checks=[not_a_server_error, content_type_conformance, response_schema_conformance],
            )

        run()
        checked.append(op.label)
    assert "POST /api/tables/{table_id}/actions" in checked

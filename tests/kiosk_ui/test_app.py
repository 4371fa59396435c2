"""The HTTP API driven in-process (FastAPI TestClient, real store, real rng, sim devices)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from games.core.cards import Card
from kiosk_ui.settings import parse
from kiosk_ui.store import log_records
from kiosk_ui.web.app import create_app

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def settings_for(store: Path, **extra: Any):
    data = {
        "store": {"dir": str(store), "synchronous": "NORMAL"},
        "rng": {"source": "sim", "sim_seed": 11, "test_mode": True},
        "devices": {"shoe": "sim://shoe?seed=7", "dice": "sim://dice?seed=3"},
        "demo": {"enabled": True, "credit": 100_000},
        "lobby": {"all_variants": True},
        "operator": {"user": "admin", "password": "correct horse"},
        "tables": [{"id": "baccarat-live", "variant": "baccarat-pinnacle", "source": "shoe"}],
    }
    data.update(extra)
    return parse(data, source="test")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings_for(tmp_path / "store"))
    with TestClient(app) as c:
        yield c


def new_player(client: TestClient) -> dict[str, str]:
    r = client.post("/api/players", json={"name": "Ann"})
    assert r.status_code == 201
    return {"x-player-token": r.json()["token"]}


def act(client: TestClient, who: dict[str, str], table: str, **body: Any):
    return client.post(f"/api/tables/{table}/actions", json=body, headers=who)


def test_lobby_lists_every_variant_with_limits(client: TestClient) -> None:
    tables = client.get("/api/tables").json()
    ids = {t["id"] for t in tables}
    assert {"baccarat-pinnacle", "blackjack-pinnacle", "craps-pinnacle", "baccarat-live"} <= ids
    bac = next(t for t in tables if t["id"] == "baccarat-pinnacle")
    assert bac["limits"]["banker"]["maximum"] == 50_000


def test_a_round_settles_and_shows_in_history(client: TestClient) -> None:
    who = new_player(client)
    r = act(client, who, "baccarat-pinnacle", kind="place-bet", bet="player", amount=2_000)
    assert r.status_code == 200, r.text
    assert r.json()["balance"] == 98_000
    r = act(client, who, "baccarat-pinnacle", kind="deal")
    body = r.json()
    assert body["over"]
    settled = [e for e in body["events"] if e["kind"] == "bet-settled"]
    net = sum(e["returned"] - e["commission"] - e["stake"] for e in settled)
    assert body["balance"] == 100_000 + net
    hist = client.get("/api/history", headers=who).json()
    assert [h["net"] for h in hist] == [net]
    recall = client.get(f"/api/history/{hist[0]['game']}", headers=who).json()
    assert recall["matches"]
    assert "Result seat 0" in recall["text"]


def test_errors_are_json_with_stable_codes_and_change_nothing(client: TestClient) -> None:
    who = new_player(client)
    cases = [
        (dict(kind="place-bet", bet="banker", amount=1_000_000), 409, "bet-refused"),
        (dict(kind="place-bet", bet="nonsense", amount=1_000), 409, None),
        (dict(kind="deal"), 409, "illegal-action"),
        (dict(kind="place-bet", bet="banker", amount=-1), 422, "invalid-request"),
        (dict(kind="fly", bet="banker"), 422, "invalid-request"),
        (dict(kind="place-bet", bet="banker", amount=5_000_000), 409, None),
    ]
    for body, status, code in cases:
        r = act(client, who, "baccarat-pinnacle", **body)
        assert r.status_code == status, (body, r.text)
        err = r.json()["error"]
        assert err["message"] and "Traceback" not in err["message"]
        if code:
            assert err["code"] == code
    assert client.get("/api/me", headers=who).json()["balance"] == 100_000
    assert client.get("/api/tables/nope", headers=who).json()["error"]["code"] == "no-such-table"
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401


def test_idempotency_key_applies_a_replayed_request_once(client: TestClient) -> None:
    who = new_player(client)
    headers = {**who, "idempotency-key": "bet-1"}
    body = {"kind": "place-bet", "bet": "banker", "amount": 1_000}
    r1 = client.post("/api/tables/baccarat-pinnacle/actions", json=body, headers=headers)
    r2 = client.post("/api/tables/baccarat-pinnacle/actions", json=body, headers=headers)
    assert r1.json() == r2.json()
    assert client.get("/api/me", headers=who).json()["balance"] == 99_000
    # A double-clicked Deal without a key: the second is refused, the round settles once.
    assert act(client, who, "baccarat-pinnacle", kind="deal").status_code == 200
    second = act(client, who, "baccarat-pinnacle", kind="deal")
    assert second.status_code == 409
    assert len(client.get("/api/history", headers=who).json()) == 1


def _shoe(client: TestClient, game: str) -> tuple[list[str], int]:
    conn = client.app.state.appliance.runtime.db.conn  # type: ignore[attr-defined]
    row = conn.execute("SELECT cards, next FROM shoes WHERE game = ?", (game,)).fetchone()
    return [str(Card.from_index(int(i))) for i in row[0].split(",")], int(row[1])


def _hidden_positions(client: TestClient, game: str) -> set[int]:
    conn = client.app.state.appliance.runtime.db.conn  # type: ignore[attr-defined]
    out = set()
    for line in log_records.game_lines(conn, game):
        rec = json.loads(line)
        draw = rec["body"].get("_draw", {}) if rec["type"] == "action" else {}
        if draw.get("hidden"):
            out.add(int(draw["draw"]) - 1)
    return out


def _assert_no_leak(client: TestClient, game: str, text: str, revealed: bool) -> None:
    order, dealt = _shoe(client, game)
    hidden = set() if revealed else _hidden_positions(client, game)
    visible = Counter(c for i, c in enumerate(order[:dealt]) if i not in hidden)
    seen = Counter(CARD.findall(text))
    for card in seen:
        assert card in visible, f"{card} appears in a response but was not dealt face up"


@pytest.mark.parametrize("table", ["blackjack-pinnacle", "blackjack-21st-century"])
def test_no_response_leaks_the_hole_card_or_the_shoe(client: TestClient, table: str) -> None:
    who = new_player(client)
    for _ in range(25):
        r = act(client, who, table, kind="place-bet", bet="main", amount=1_000)
        assert r.status_code == 200, r.text
        game = r.json()["game"]
        r = act(client, who, table, kind="deal")
        while True:
            body = r.json()
            assert r.status_code == 200, r.text
            _assert_no_leak(client, game, r.text, body["over"])
            view = client.get(f"/api/tables/{table}", headers=who)
            _assert_no_leak(client, game, view.text, body["over"])
            if body["over"]:
                break
            legal = body["view"]["legal"]
            choice = next(
                (d for d in ("no-insurance", "stand") if d in legal),
                legal[0] if legal else None,
            )
            assert choice is not None
            r = act(client, who, table, kind="decide", decision=choice)


def test_operator_console_needs_sign_in_and_logs_actions(client: TestClient) -> None:
    assert client.get("/api/operator/devices").status_code == 401
    bad = client.post("/api/operator/login", json={"user": "admin", "password": "wrong"})
    assert bad.status_code == 401
    tok = client.post("/api/operator/login", json={"user": "admin", "password": "correct horse"})
    auth = {"authorization": f"Bearer {tok.json()['token']}"}
    devices = client.get("/api/operator/devices", headers=auth).json()
    assert {d["role"] for d in devices} == {"shoe", "dice"}
    who = new_player(client)
    pid = client.get("/api/me", headers=who).json()["id"]
    r = client.post(f"/api/operator/players/{pid}/cash-in", json={"amount": 5_000}, headers=auth)
    assert r.json()["balance"] == 105_000
    act(client, who, "baccarat-pinnacle", kind="place-bet", bet="tie", amount=1_000)
    r = client.post("/api/operator/tables/baccarat-pinnacle/void", json={"reason": "test"},
                    headers=auth)  # fmt: skip
    assert r.status_code == 409  # not suspended yet
    client.post("/api/operator/tables/baccarat-pinnacle/suspend", json={"reason": "jam"},
                headers=auth)  # fmt: skip
    assert act(client, who, "baccarat-pinnacle", kind="deal").status_code == 423
    r = client.post("/api/operator/tables/baccarat-pinnacle/void", json={"reason": "jam"},
                    headers=auth)  # fmt: skip
    assert r.json()["returned"] == {"0:tie": 1_000}
    assert client.get("/api/me", headers=who).json()["balance"] == 105_000
    client.post("/api/operator/tables/baccarat-pinnacle/resume", headers=auth)
    verify = client.post("/api/operator/log/verify", headers=auth).json()
    assert verify["ok"], verify
    audit = client.get("/api/operator/audit", headers=auth).json()
    assert audit["ok"], audit
    conn = client.app.state.appliance.runtime.db.conn  # type: ignore[attr-defined]
    kinds = [json.loads(x)["type"] for x in log_records.lines(conn)]
    assert {"sign-in", "cash-in", "table-suspended", "game-void", "table-resumed"} <= set(kinds)


def test_live_table_follows_the_device(client: TestClient) -> None:
    who = new_player(client)
    act(client, who, "baccarat-live", kind="place-bet", bet="banker", amount=1_000)
    with client.websocket_connect("/api/ws/tables/baccarat-live") as ws:
        r = act(client, who, "baccarat-live", kind="deal")
        assert r.status_code == 200
        assert not r.json()["over"]  # cards come from the shoe, not from the request
        kinds = set()
        for _ in range(20):
            msg = ws.receive_json()
            kinds.add(msg["type"])
            if msg["type"] == "update" and any(
                e["kind"] == "bet-settled" for e in msg.get("events", [])
            ):
                break
    assert "update" in kinds
    view = client.get("/api/tables/baccarat-live", headers=who).json()
    assert view["over"]


def test_bet_slip_and_deal_is_atomic(client: TestClient) -> None:
    who = new_player(client)
    refused = client.post(
        "/api/tables/baccarat-pinnacle/round",
        json={"bets": {"player": 1_000, "tie": 999_999}},
        headers=who,
    )
    assert refused.status_code == 409
    assert client.get("/api/me", headers=who).json()["balance"] == 100_000
    assert client.get("/api/history", headers=who).json() == []
    ok = client.post(
        "/api/tables/baccarat-pinnacle/round",
        json={"bets": {"player": 1_000, "tie": 500}},
        headers=who,
    )
    body = ok.json()
    assert ok.status_code == 200, ok.text
    assert body["over"]
    net = sum(
        e["returned"] - e["commission"] - e["stake"]
        for e in body["events"]
        if e["kind"] == "bet-settled"
    )
    assert body["balance"] == 100_000 + net

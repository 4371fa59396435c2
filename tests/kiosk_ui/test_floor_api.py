"""The floor's HTTP API (issue 17 points 10-11): vouchers over HTTP, the cage, attendant
calls and live alarms, role management and its attacker tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kiosk_ui.web.app import create_app
from tests.kiosk_ui.test_app import settings_for

ADMIN = {"user": "admin", "password": "correct horse"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings_for(tmp_path / "store", kiosk={"name": "k-07", "voucher_days": 7}))
    with TestClient(app) as c:
        yield c


def player(client: TestClient) -> dict[str, str]:
    r = client.post("/api/players", json={"name": "Ann"})
    return {"x-player-token": r.json()["token"]}


def operator(client: TestClient, who: dict[str, str] = ADMIN) -> dict[str, str]:
    r = client.post("/api/operator/login", json=who)
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return {"authorization": f"Bearer {r.json()['token']}"}


def balance(client: TestClient, who: dict[str, str]) -> int:
    value: int = client.get("/api/me", headers=who).json()["balance"]
    return value


def test_ticket_out_ticket_in_and_the_cage(client: TestClient) -> None:
    ann, bob = player(client), player(client)
    r = client.post("/api/vouchers", json={"amount": 2_500}, headers=ann)
    assert r.status_code == 201, r.text
    v = r.json()["voucher"]
    assert (v["amount"], v["kiosk"], v["status"], len(v["number"])) == (2_500, "k-07", "issued", 18)
    assert v["expires"] > v["issued"] and not r.json()["session_ended"]
    # another kiosk takes it in, once
    r = client.post(
        "/api/vouchers/redeem", json={"number": v["printed"], "kiosk": "k-2"}, headers=bob
    )
    assert r.status_code == 200 and r.json()["balance"] == 102_500
    again = client.post("/api/vouchers/redeem", json={"number": v["number"]}, headers=ann)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "voucher-redeemed")
    # the whole balance to a voucher ends the session; the cage pays it in cash
    r = client.post("/api/vouchers", json={}, headers=bob)
    assert r.json()["voucher"]["amount"] == 102_500 and r.json()["session_ended"]
    op = operator(client)
    listed = client.get("/api/operator/vouchers", headers=op).json()
    assert (listed["outstanding"], listed["liability"]) == (1, 102_500)
    assert all("number" not in x for x in listed["vouchers"])
    paid = client.post(
        "/api/operator/vouchers/redeem", json={"number": r.json()["voucher"]["number"]}, headers=op
    )
    assert paid.status_code == 200 and paid.json()["voucher"]["closed_by"] == "cage:admin"
    audit = client.get("/api/operator/audit", headers=op).json()
    assert audit["ok"] and audit["report"]["vouchers"] == 0


def test_bad_numbers_are_refused_clearly_and_guessing_is_throttled(client: TestClient) -> None:
    ann = player(client)
    r = client.post("/api/vouchers/redeem", json={"number": "12"}, headers=ann)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "voucher-number")
    from kiosk_ui.cashier.numbers import check_digit

    codes = []
    for i in range(11):
        body = f"{i:017d}"
        r = client.post(
            "/api/vouchers/redeem", json={"number": body + check_digit(body)}, headers=ann
        )
        codes.append(r.status_code)
    assert codes == [404] * 10 + [429] and int(r.headers["retry-after"]) >= 1
    op = operator(client)
    (alarm,) = [
        a for a in client.get("/api/operator/alarms", headers=op).json() if a["kind"] == "integrity"
    ]
    assert alarm["message"].startswith("10 wrong voucher numbers from testclient")
    assert balance(client, ann) == 100_000
    r = client.post("/api/vouchers", json={"amount": 10**9}, headers=ann)
    assert r.status_code == 422


def test_a_player_cannot_use_the_cage(client: TestClient) -> None:
    ann = player(client)
    v = client.post("/api/vouchers", json={"amount": 100}, headers=ann).json()["voucher"]
    r = client.post("/api/operator/vouchers/redeem", json={"number": v["number"]}, headers=ann)
    assert r.status_code == 401
    auditor = operator(client)
    client.post(
        "/api/operator/operators",
        json={"user": "audrey", "password": "audrey's secret", "role": "auditor"},
        headers=auditor,
    )
    aud = operator(client, {"user": "audrey", "password": "audrey's secret"})
    r = client.post("/api/operator/vouchers/redeem", json={"number": v["number"]}, headers=aud)
    assert r.status_code == 403


def test_role_changes_are_the_admins_and_end_the_sessions(client: TestClient) -> None:
    admin = operator(client)
    r = client.post(
        "/api/operator/operators",
        json={"user": "olga", "password": "olga's passphrase", "role": "operator"},
        headers=admin,
    )
    assert r.status_code == 201
    olga = operator(client, {"user": "olga", "password": "olga's passphrase"})
    # olga may not give herself (or anyone) a role, nor add operators
    r = client.post("/api/operator/operators/olga/role", json={"role": "admin"}, headers=olga)
    assert r.status_code == 403
    r = client.post(
        "/api/operator/operators",
        json={"user": "eve", "password": "eve's passphrase", "role": "auditor"},
        headers=olga,
    )
    assert r.status_code == 403
    # the admin makes her a technician: her session ends, the new role applies
    r = client.post("/api/operator/operators/olga/role", json={"role": "technician"}, headers=admin)
    assert r.json() == {"user": "olga", "role": "technician", "disabled": False}
    assert client.get("/api/operator/me", headers=olga).status_code == 401
    r = client.post("/api/operator/operators/admin/role", json={"role": "auditor"}, headers=admin)
    assert r.status_code == 422  # no admin demotes themselves: an admin always remains
    r = client.post("/api/operator/operators/nobody/role", json={"role": "auditor"}, headers=admin)
    assert r.status_code == 404
    # disabled: the right password no longer signs in
    client.post("/api/operator/operators/olga/disable", headers=admin)
    r = client.post("/api/operator/login", json={"user": "olga", "password": "olga's passphrase"})
    assert r.status_code == 401 and "disabled" in r.json()["error"]["message"]


def _events(client: TestClient, op: dict[str, str], until: str) -> list[dict[str, Any]]:
    """Read the alarm stream until an event whose alarm message contains ``until``."""
    seen: list[dict[str, Any]] = []
    with client.stream("GET", "/api/operator/alarms/stream", headers=op) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        name = ""
        for line in r.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                seen.append({"event": name, "data": data})
                if name == "alarm" and until in data["alarm"]["message"]:
                    return seen
                if name == "snapshot" and any(until in a["message"] for a in data):
                    return seen
    return seen


def test_attendant_calls_and_suspensions_are_alarms(client: TestClient) -> None:
    ann, op = player(client), operator(client)
    assert client.get("/api/operator/alarms/stream").status_code == 401
    r = client.post("/api/attendant", json={"where": "table blackjack"}, headers=ann)
    call = r.json()["call"]
    assert call["state"] == "open"
    seen = _events(client, op, "attendant wanted at k-07 (table blackjack)")
    assert seen and seen[0]["event"] == "snapshot"
    alarms = client.get("/api/operator/alarms", headers=op).json()
    mine = next(a for a in alarms if a["kind"] == "attendant")
    r = client.post(f"/api/operator/alarms/{mine['id']}/ack", headers=op)
    assert r.json()["state"] == "acknowledged" and r.json()["by"] == "admin"
    assert client.get("/api/attendant", headers=ann).json()["call"]["state"] == "acknowledged"
    client.post("/api/attendant/cancel", headers=ann)
    assert client.get("/api/attendant", headers=ann).json()["call"] is None
    # a suspended table is an alarm, cleared by the resume
    client.post(
        "/api/operator/tables/craps-pinnacle/suspend", json={"reason": "dice check"}, headers=op
    )
    floor = client.app.state.floor  # type: ignore[attr-defined]
    floor.scan()
    kinds = {
        (a["kind"], a["state"])
        for a in client.get("/api/operator/alarms", headers=op).json()
        if a["key"] == "table:craps-pinnacle"
    }
    assert kinds == {("table-suspended", "open")}
    client.post("/api/operator/tables/craps-pinnacle/resume", headers=op)
    floor.scan()
    states = [
        a["state"]
        for a in client.get("/api/operator/alarms", headers=op).json()
        if a["key"] == "table:craps-pinnacle"
    ]
    assert states == ["cleared"]
    with client.app.state.appliance.runtime.db.read() as tx:  # type: ignore[attr-defined]
        types = [json.loads(x)["type"] for x in tx.log.lines()]
    assert {"attendant-call", "alarm-acknowledged", "attendant-cancelled"} <= set(types)


def test_table_suspension_kinds() -> None:
    from kiosk_ui.cashier.floor import table_alarm_kind

    assert table_alarm_kind("shoe does not match its commitment at card 12") == "integrity"
    assert table_alarm_kind("device shoe unavailable: gone") == "device-fault"
    assert table_alarm_kind("RNG halted: health test") is None
    assert table_alarm_kind("by admin: check") == "table-suspended"


def test_idle_end_keeps_the_wallet_by_default(client: TestClient) -> None:
    ann = player(client)
    cfg = client.get("/api/kiosk").json()
    assert cfg == {"name": "k-07", "idle_seconds": 120, "at_idle": "keep", "voucher_days": 7}
    r = client.post("/api/session/idle", json={}, headers=ann)
    assert r.json() == {"voucher": None, "session_ended": False, "in_play": False}
    assert balance(client, ann) == 100_000


def test_idle_end_pays_a_voucher_when_configured(tmp_path: Path) -> None:
    app = create_app(settings_for(tmp_path / "s", kiosk={"at_idle": "voucher"}))
    with TestClient(app) as c:
        ann = player(c)
        # a bet on a layout: the session stays (what it wins must reach this wallet)
        t = "/api/tables/blackjack-pinnacle"
        bet = {"kind": "place-bet", "seat": 0, "bet": "main", "amount": 1_000}
        assert c.post(f"{t}/actions", json=bet, headers=ann).status_code == 200, "bet"
        dealt = c.post(f"{t}/actions", json={"kind": "deal", "seat": 0}, headers=ann).json()
        assert not dealt["over"], "the hand waits for the player"
        r = c.post("/api/session/idle", json={}, headers=ann)
        assert r.json() == {"voucher": None, "session_ended": False, "in_play": True}
        out = c.post("/api/vouchers", json={}, headers=ann).json()
        assert out["voucher"]["amount"] == 99_000 and not out["session_ended"]
        op = operator(c)
        for path in ("suspend", "void"):
            c.post(
                f"/api/operator/tables/blackjack-pinnacle/{path}",
                json={"reason": "end it"},
                headers=op,
            )
        r = c.post("/api/session/idle", json={"kiosk": "k-9"}, headers=ann)
        body = r.json()
        assert body["session_ended"] and body["voucher"]["amount"] == 1_000
        assert body["voucher"]["kiosk"] == "k-9" and balance(c, ann) == 0


@pytest.mark.parametrize(
    ("kiosk", "said"),
    [
        ({"at_idle": "print"}, "[kiosk] at_idle = \"print\": must be one of 'keep' or 'voucher'"),
        ({"voucher_days": 0}, "[kiosk] voucher_days = 0: must be at least 1"),
        ({"name": "a b"}, '[kiosk] name = "a b": must be letters, digits'),
        ({"idle": 3}, "[kiosk] idle: unknown key"),
    ],
)
def test_kiosk_settings_are_checked(tmp_path: Path, kiosk: dict[str, Any], said: str) -> None:
    from kiosk_ui.settings import SettingsError

    with pytest.raises(SettingsError) as err:
        settings_for(tmp_path, kiosk=kiosk)
    assert said in str(err.value)


def _alarms_of(client: TestClient, op: dict[str, str], kind: str) -> list[dict[str, Any]]:
    return [a for a in client.get("/api/operator/alarms", headers=op).json() if a["kind"] == kind]


def test_an_rng_halt_is_one_alarm_and_clears_on_restart(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rng.errors import EntropyError, RngHalted

    op = operator(client)
    supply = client.app.state.appliance.rng.supply  # type: ignore[attr-defined]

    def dead(n: int) -> bytes:
        raise EntropyError("source unplugged")

    monkeypatch.setattr(supply.primary, "read", dead)
    with pytest.raises(RngHalted):
        supply.entropy_input(256)
    floor = client.app.state.floor  # type: ignore[attr-defined]
    floor.scan()
    halts = _alarms_of(client, op, "rng-halt")
    assert [a["state"] for a in halts] == ["open"] and "source unplugged" in halts[0]["message"]
    monkeypatch.undo()
    supply.restart()
    floor.scan()
    assert [a["state"] for a in _alarms_of(client, op, "rng-halt")] == ["cleared"]


def test_a_failed_audit_is_an_integrity_alarm(client: TestClient) -> None:
    player(client)  # a demo cash-in: the cash account exists
    op = operator(client)
    db = client.app.state.appliance.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as tx:  # a cached balance changed behind the ledger's back
        tx.execute("UPDATE accounts SET balance = balance + 1 WHERE name = 'cash'")
    assert client.get("/api/operator/audit", headers=op).json()["ok"] is False
    (alarm,) = _alarms_of(client, op, "integrity")
    assert alarm["key"] == "ledger-audit" and "the ledger audit fails" in alarm["message"]


def test_a_guessed_operator_password_is_throttled(client: TestClient) -> None:
    admin = operator(client)
    client.post(
        "/api/operator/operators",
        json={"user": "olga", "password": "olga's passphrase", "role": "operator"},
        headers=admin,
    )
    codes = [
        client.post(
            "/api/operator/login", json={"user": "olga", "password": f"guess {i}"}
        ).status_code
        for i in range(5)
    ]
    r = client.post("/api/operator/login", json={"user": "olga", "password": "olga's passphrase"})
    assert codes == [401] * 5 and r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_chips_at_a_poker_room_keep_the_session_at_idle(tmp_path: Path) -> None:
    """A player seated at a poker room with chips keeps the session: the stack comes back
    to this wallet when the seat is freed."""
    app = create_app(settings_for(tmp_path / "s", kiosk={"at_idle": "voucher"}))
    with TestClient(app) as c:
        ann = player(c)
        room = "/api/rooms/poker-room-holdem-2-4"
        r = c.post(f"{room}/buy-in", json={"seat": 1, "amount": 4_000}, headers=ann)
        assert r.status_code == 200, r.text
        r = c.post("/api/session/idle", json={}, headers=ann)
        assert r.json()["in_play"] and not r.json()["session_ended"]

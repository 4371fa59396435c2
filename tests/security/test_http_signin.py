"""Issue 12, point 12: operator sign-in resists guessing, and accounts can be managed.

Through the real server (uvicorn in a thread, ``served``): password guessing locks the
user and then the address without further password work or log records per refused
try; an unknown user name costs the same KDF run as a known one (counted through the
app's own ``Operators`` object: the count of password hashes computed, not a timing);
the password can be changed; a disabled operator's session is refused at once; only
an admin manages operators.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from kiosk_ui.store import log_records
from tests.security.conftest import OPERATOR_PASSWORD, Served, demo_settings

LOGIN = "/api/operator/login"


def _login(url: str, user: str, password: str) -> httpx.Response:
    # A generous read timeout: fifty parallel sign-ins on a loaded 2-core machine wait
    # behind each other's scrypt (httpx's default 5 s failed the run, not the defence).
    return httpx.post(f"{url}{LOGIN}", json={"user": user, "password": password}, timeout=60.0)


def _bearer(r: httpx.Response) -> dict[str, str]:
    assert r.status_code == 200, r.text
    return {"authorization": f"Bearer {r.json()['token']}"}


def _sign_in_records(srv: Served) -> list[dict[str, Any]]:
    rt = srv.app.state.appliance.runtime
    with rt.db.lock:
        lines = log_records.lines(rt.db.conn)
    records = [json.loads(x) for x in lines]
    return [r for r in records if str(r["type"]).startswith("sign-in")]


@pytest.mark.slow
def test_fifty_wrong_passwords_lock_the_account_without_more_work(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    ops = srv.app.state.appliance.operators
    kdf_before, logged_before = ops.kdf_runs, len(_sign_in_records(srv))
    answers = [_login(srv.url, "admin", f"guess-{i}") for i in range(50)]
    codes = [r.status_code for r in answers]
    assert codes[:5] == [401] * 5, codes
    assert codes[5:] == [429] * 45, codes
    assert all(int(r.headers["retry-after"]) >= 1 for r in answers[5:])
    assert answers[-1].json()["error"]["code"] == "sign-in-throttled"
    # Refused tries cost no scrypt and no log record of their own.
    assert ops.kdf_runs - kdf_before == 5
    records = _sign_in_records(srv)[logged_before:]
    assert [r["type"] for r in records] == ["sign-in"] * 5 + ["sign-in-locked"], records
    # Locked means locked: the right password is refused too, until the window passes.
    right = _login(srv.url, "admin", OPERATOR_PASSWORD)
    assert right.status_code == 429, right.text
    assert ops.kdf_runs - kdf_before == 5
    ops.users.base_seconds = 0.0  # the configurable window: let this one pass now
    assert _login(srv.url, "admin", OPERATOR_PASSWORD).status_code == 200
    # The next failure after a success starts counting from zero again.
    assert _login(srv.url, "admin", "guess-again").status_code == 401


def test_fifty_parallel_guesses_get_no_more_tries_than_five_in_a_row(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    ops = srv.app.state.appliance.operators
    with ThreadPoolExecutor(max_workers=50) as pool:
        codes = list(pool.map(lambda i: _login(srv.url, "admin", f"guess-{i}").status_code,
                              range(50)))  # fmt: skip
    assert codes.count(401) <= 5 and codes.count(429) >= 45, codes
    assert ops.kdf_runs <= 5, ops.kdf_runs
    assert _login(srv.url, "admin", OPERATOR_PASSWORD).status_code == 429


def test_one_address_spraying_names_is_throttled(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    ops = srv.app.state.appliance.operators
    codes = [_login(srv.url, f"user{i}", "password1").status_code for i in range(30)]
    assert codes[:20] == [401] * 20 and codes[20:] == [429] * 10, codes
    assert ops.kdf_runs == 20
    r = _login(srv.url, "admin", OPERATOR_PASSWORD)
    assert r.status_code == 429 and "retry-after" in r.headers, r.text


def test_an_unknown_user_costs_the_same_work_as_a_known_one(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    ops = srv.app.state.appliance.operators
    for user in ("admin", "nobody-here"):
        before, logged = ops.kdf_runs, len(_sign_in_records(srv))
        r = _login(srv.url, user, "not the password")
        assert r.status_code == 401, r.text
        assert r.json()["error"]["message"] == "wrong user name or password"
        assert ops.kdf_runs - before == 1, user  # one scrypt, known or not
        assert len(_sign_in_records(srv)) - logged == 1, user
    # ... and an unknown name locks exactly like a known one.
    known = [_login(srv.url, "admin", "x-wrong-x").status_code for _ in range(5)]
    unknown = [_login(srv.url, "nobody-here", "x-wrong-x").status_code for _ in range(5)]
    assert known == unknown == [401, 401, 401, 401, 429], (known, unknown)


def test_password_change_makes_the_old_password_stop_working(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    admin = _bearer(_login(srv.url, "admin", OPERATOR_PASSWORD))
    other = _bearer(_login(srv.url, "admin", OPERATOR_PASSWORD))
    url = f"{srv.url}/api/operator/password"
    new = "a much better passphrase"
    wrong = httpx.post(url, json={"old_password": "nope", "new_password": new}, headers=admin)
    assert wrong.status_code == 403, wrong.text
    short = httpx.post(
        url, json={"old_password": OPERATOR_PASSWORD, "new_password": "short"}, headers=admin
    )
    assert short.status_code == 422 and "new_password" in short.json()["error"]["message"]
    ok = httpx.post(
        url, json={"old_password": OPERATOR_PASSWORD, "new_password": new}, headers=admin
    )
    assert ok.status_code == 200, ok.text
    assert _login(srv.url, "admin", OPERATOR_PASSWORD).status_code == 401
    assert _login(srv.url, "admin", new).status_code == 200
    assert httpx.get(f"{srv.url}/api/operator/me", headers=admin).status_code == 200
    assert httpx.get(f"{srv.url}/api/operator/me", headers=other).status_code == 401


def test_admin_manages_operators_and_a_disabled_session_is_refused(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    admin = _bearer(_login(srv.url, "admin", OPERATOR_PASSWORD))
    ops_url = f"{srv.url}/api/operator/operators"
    r = httpx.post(
        ops_url, json={"user": "olga", "password": "olga's passphrase", "role": "operator"},
        headers=admin,
    )  # fmt: skip
    assert r.status_code == 201, r.text
    olga = _bearer(_login(srv.url, "olga", "olga's passphrase"))
    assert httpx.get(f"{srv.url}/api/operator/tables", headers=olga).status_code == 200
    # A non-admin manages nothing.
    new = {"user": "mallory", "password": "mallory's passphrase", "role": "operator"}
    assert httpx.post(ops_url, json=new, headers=olga).status_code == 403
    assert httpx.get(ops_url, headers=olga).status_code == 403
    assert httpx.post(f"{ops_url}/admin/disable", headers=olga).status_code == 403
    reset = {"password": "taken over by olga"}
    assert httpx.post(f"{ops_url}/admin/password", json=reset, headers=olga).status_code == 403
    assert _login(srv.url, "mallory", "mallory's passphrase").status_code == 401
    # The admin disables olga: her live session ends at once, and she cannot sign in.
    r = httpx.post(f"{ops_url}/olga/disable", headers=admin)
    assert r.status_code == 200 and r.json()["disabled"] is True, r.text
    assert httpx.get(f"{srv.url}/api/operator/tables", headers=olga).status_code == 401
    r = _login(srv.url, "olga", "olga's passphrase")
    assert r.status_code == 401 and "disabled" in r.json()["error"]["message"], r.text
    listed = httpx.get(ops_url, headers=admin).json()
    assert {"user": "olga", "role": "operator", "disabled": True} in listed, listed
    assert httpx.post(f"{ops_url}/admin/disable", headers=admin).status_code == 422  # self
    assert httpx.post(f"{ops_url}/nobody/disable", headers=admin).status_code == 404
    # Enabled again, with a password the admin reset.
    assert httpx.post(f"{ops_url}/olga/enable", headers=admin).json()["disabled"] is False
    r = httpx.post(f"{ops_url}/olga/password", json={"password": "reset by the admin"},
                   headers=admin)  # fmt: skip
    assert r.status_code == 200, r.text
    assert _login(srv.url, "olga", "olga's passphrase").status_code == 401
    assert _login(srv.url, "olga", "reset by the admin").status_code == 200
    kinds = {r["type"] for r in _log(srv)}
    assert {"operator-disabled", "operator-enabled", "password-reset"} <= kinds


def _log(srv: Served) -> list[dict[str, Any]]:
    rt = srv.app.state.appliance.runtime
    with rt.db.lock:
        return [json.loads(x) for x in log_records.lines(rt.db.conn)]

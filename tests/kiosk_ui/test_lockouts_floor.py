"""Guessing spread over a floor buys no more tries (kiosk_ui.backoff.StoreBackoff).

The attacker's move: the floor has several servers on one store (the workers of
``serve --workers`` on one SQLite file, appliances on one PostgreSQL database), and
each used to count failed sign-ins and wrong voucher numbers on its own, so five
guesses at each server of a floor of N were 5 x N guesses per lock window, and a
restart forgot every lock. The counts now live in the store: five failures in all lock
the name on every server, before any password work there; the lock is logged once; a
success anywhere clears the count everywhere; a restart keeps the lock.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kiosk_ui import auth
from kiosk_ui.auth import USER_LIMIT, Operators
from kiosk_ui.cashier import numbers
from kiosk_ui.cashier.vouchers import GUESS_LIMIT, Cashier
from kiosk_ui.errors import AuthError, SignInThrottled, VoucherError, VoucherThrottled
from kiosk_ui.table.runtime import Runtime

from .conftest import verified_lines

PASSWORD = "the right passphrase"
Start = Callable[[int], Runtime]


@pytest.fixture
def servers(shared_store: tuple[Start, Path], store_url: str | None) -> tuple[Start, Path]:
    """``start(i)``: the i-th server of one shared store (a worker of the SQLite file, or
    an appliance with its copy of the keys on the PostgreSQL database), with an admin."""
    rt = Runtime(shared_store[1], url=store_url)
    Operators(rt).add("admin", PASSWORD, "admin", by="bootstrap")
    rt.close()
    return shared_store


def _guess(ops: Operators, password: str, address: str = "10.0.0.9") -> str:
    """One sign-in as admin: "ok", "wrong" or "throttled"."""
    try:
        ops.login("admin", password, 10, address)
    except SignInThrottled:
        return "throttled"
    except AuthError:
        return "wrong"
    return "ok"


def test_guesses_spread_over_two_servers_lock_the_name_on_both(
    servers: tuple[Start, Path], store_url: str | None
) -> None:
    start, store = servers
    a, b = Operators(start(0)), Operators(start(1))
    turns = [a, b] * 3
    verdicts = [_guess(ops, f"guess-{i}") for i, ops in enumerate(turns)]
    # five failures in all, not five at each: the sixth try, at either, is refused
    assert verdicts == ["wrong"] * USER_LIMIT + ["throttled"], verdicts
    kdf = a.kdf_runs, b.kdf_runs
    assert sum(kdf) == USER_LIMIT
    assert _guess(a, PASSWORD) == "throttled"  # the right password too, while it lasts
    assert _guess(b, "guess-x", address="10.0.0.10") == "throttled"  # any address
    assert (a.kdf_runs, b.kdf_runs) == kdf  # refused before any password work
    if store_url is None:  # the signed log of every chain: the lock recorded once
        records = [json.loads(line) for line in verified_lines(store)]
        locked = [r["body"] for r in records if r["type"] == "sign-in-locked"]
        assert locked == [{"user": "admin", "seconds": 30, "failures": 5, "refused_before": 0}]
    # the window passes (the configured base, applied to locks in place): one more try
    a.users.base_seconds = b.users.base_seconds = 0.0
    assert _guess(b, PASSWORD) == "ok"


def test_a_success_on_one_server_clears_the_count_on_the_other(
    servers: tuple[Start, Path],
) -> None:
    start, _ = servers
    a, b = Operators(start(0)), Operators(start(1))
    assert [_guess(b, f"g{i}") for i in range(USER_LIMIT - 1)] == ["wrong"] * (USER_LIMIT - 1)
    assert _guess(a, PASSWORD) == "ok"
    # counted from zero again on b too: four more wrong ones lock nothing
    assert [_guess(b, f"h{i}") for i in range(USER_LIMIT - 1)] == ["wrong"] * (USER_LIMIT - 1)
    assert _guess(a, PASSWORD) == "ok"


def test_a_burst_at_two_servers_at_once_has_five_tries_in_flight_in_all(
    servers: tuple[Start, Path], store_url: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty guesses sent at the same instant, ten to each server, each password check
    made slow (0.4 s, as a loaded box's scrypt): every one of them arrives while the
    others are still under way. Each attempt is charged in the store before its check,
    so the floor has at most five in flight: five checks in all, the rest refused with
    no password work. When each server bounded only its own tries in flight, this
    burst got five checks at each, ten in all."""
    start, _ = servers
    a, b = Operators(start(0)), Operators(start(1))
    slow_check = auth.check_password

    def check(password: str, stored: str) -> bool:
        time.sleep(0.4)
        return slow_check(password, stored)

    monkeypatch.setattr(auth, "check_password", check)
    ready = threading.Barrier(20)

    def guess(i: int) -> str:
        ready.wait()
        return _guess((a, b)[i % 2], f"burst-{i}")

    with ThreadPoolExecutor(max_workers=20) as pool:
        verdicts = list(pool.map(guess, range(20)))
    checks = a.kdf_runs + b.kdf_runs
    assert verdicts.count("wrong") == checks and verdicts.count("throttled") == 20 - checks
    if store_url is None:  # one writer lock: every attempt is charged in turn
        assert checks == USER_LIMIT, verdicts
    else:  # PostgreSQL ends one of two writers of the row at once: refused, not let in
        assert 1 <= checks <= USER_LIMIT, verdicts
    monkeypatch.setattr(auth, "check_password", slow_check)
    if checks == USER_LIMIT:  # the fifth failure locked the name on both
        assert _guess(a, PASSWORD) == _guess(b, PASSWORD) == "throttled"
        assert a.kdf_runs + b.kdf_runs == checks


def test_a_restart_keeps_the_lock(servers: tuple[Start, Path]) -> None:
    start, _ = servers
    rt = start(0)
    ops = Operators(rt)
    assert [_guess(ops, f"g{i}") for i in range(USER_LIMIT)] == ["wrong"] * USER_LIMIT
    rt.close()
    again = Operators(start(0))  # the same server, restarted
    assert _guess(again, PASSWORD) == "throttled"
    assert again.kdf_runs == 0


def test_wrong_voucher_numbers_spread_over_two_servers_lock_the_address(
    servers: tuple[Start, Path],
) -> None:
    start, _ = servers
    a, b = (Cashier(start(i), voucher_days=30) for i in (0, 1))
    unknown = [numbers.new_number() for _ in range(GUESS_LIMIT)]
    verdicts = []
    for i, number in enumerate(unknown):
        try:
            (a if i % 2 else b).redeem(number, operator="cage", address="10.0.0.7")
        except VoucherThrottled:
            verdicts.append("throttled")
        except VoucherError:
            verdicts.append("wrong")
    assert verdicts == ["wrong"] * GUESS_LIMIT
    for cage in (a, b):  # locked at both, before any lookup
        with pytest.raises(VoucherThrottled):
            cage.redeem(numbers.new_number(), operator="cage", address="10.0.0.7")

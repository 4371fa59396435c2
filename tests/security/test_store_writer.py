"""Issue 12, point 18: one writer per store.

Attack: two processes writing one store collided mid-run (``croupier: error:
UNIQUE constraint failed: log.seq``), each holding its own idea of the log's head.
Now the first writer holds an exclusive lock on the store for as long as it runs
and a second one (another ``serve``, ``table autoplay``) is refused at open with
one line naming the holder: pid, host, command, since when. Readers (``ledger
audit``, ``log verify``) still open the store read-only meanwhile, and a holder
killed with SIGKILL leaves no lock behind (the kernel drops the flock).
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import Process, croupier, demo_settings, write_config
from .test_store_missing import assert_one_line_refusal, serve_outcome


def _store(tmp_path: Path) -> tuple[Path, Path]:
    store = tmp_path / "store"
    config = write_config(tmp_path, demo_settings(store))
    init = croupier("store", "init", "--config", str(config))
    if init.returncode != 0:  # the code before point 8 had no store init: serve made it
        assert "invalid choice" in init.stderr, init.stderr
    return store, config


@pytest.mark.slow
def test_a_second_serve_on_a_served_store_is_refused_naming_the_holder(
    tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    store, config = _store(tmp_path)
    first = serve_process(config)

    line = assert_one_line_refusal(serve_outcome(config), str(store), "in use by")
    assert f"pid {first.proc.pid} " in line
    assert "serve" in line and "since 20" in line

    autoplay = croupier(
        "table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "3",
        "--store", str(store), "--sync", "NORMAL", "--quiet",
    )  # fmt: skip
    line = assert_one_line_refusal((autoplay.returncode, autoplay.stderr), "in use by")
    assert f"pid {first.proc.pid} " in line

    # readers are not writers: they still open the store while it is served
    audit = croupier("ledger", "audit", "--store", str(store))
    assert audit.returncode == 0 and "AUDIT OK" in audit.stdout, audit.stdout + audit.stderr
    pubkey = croupier("log", "pubkey", "--store", str(store))
    assert pubkey.returncode == 0, pubkey.stderr
    (tmp_path / "pub.pem").write_text(pubkey.stdout)
    verify = croupier("log", "verify", "--store", str(store), "--pubkey", str(tmp_path / "pub.pem"))
    assert verify.returncode == 0, verify.stdout + verify.stderr

    assert first.proc.poll() is None  # the holder was never disturbed


@pytest.mark.slow
def test_a_killed_holder_leaves_no_lock_behind(
    tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    store, config = _store(tmp_path)
    first = serve_process(config)
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=30)
    assert (store / "croupier.lock").exists()  # the file stays, naming a dead pid

    second = serve_process(config)  # starts: the kernel released the dead holder's flock
    line = assert_one_line_refusal(serve_outcome(config), "in use by")
    assert f"pid {second.proc.pid} " in line

"""Issue 12, point 8: a missing or emptied store is not a new one.

Attack: the database of a store that has played is emptied (zero bytes), deleted,
stripped of a table, or its key directory removed, and the appliance restarted.
Before the fix ``croupier serve`` started a fresh store beside the old keys: every
wallet and all history gone, the new log signed with the same key, so ``log verify``
of the new store passed. Now every such store is refused with one line naming what
is missing (exit 2), by ``serve`` and by ``croupier store init`` alike; a store is
made only by ``croupier store init``, and ``serve`` refuses a location with none.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import croupier, demo_settings, write_config

DB = "croupier.db"


def serve_outcome(config: Path, *extra: str, timeout: float = 120) -> tuple[int | str, str]:
    """Run `croupier serve --port 0 --config F` until it serves or exits.

    Returns ``("started", what it printed after the address)`` if it came up (then
    stopped), else ``(exit status, stderr)``.
    """
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(config)]
    with subprocess.Popen(
        [*cmd, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:  # closes its pipes on the way out
        assert proc.stdout is not None and proc.stderr is not None
        try:
            for line in proc.stdout:
                if "serving on" in line:
                    proc.terminate()
                    rest = proc.stdout.read()  # what the iterator buffered, up to the exit
                    proc.wait(timeout=timeout)
                    return "started", rest
            proc.wait(timeout=timeout)
            return proc.returncode, proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def assert_one_line_refusal(outcome: tuple[int | str, str], *words: str) -> str:
    """Exit 2, stderr exactly one line ``croupier: error: ...`` containing ``words``."""
    status, err = outcome
    assert status == 2, f"expected a refusal (exit 2), got {status!r}: {err}"
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("croupier: error: "), err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def played_store(tmp_path: Path) -> tuple[Path, Path]:
    """A store that has history (made the way both old and new code allow), and its config."""
    store = tmp_path / "store"
    done = croupier(
        "table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "5",
        "--store", str(store), "--sync", "NORMAL", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (store / "keys").is_dir()
    return store, write_config(tmp_path, demo_settings(store))


def _empty(store: Path) -> None:
    for name in (DB, f"{DB}-wal", f"{DB}-shm"):
        (store / name).unlink(missing_ok=True)
    (store / DB).write_bytes(b"")


def _delete(store: Path) -> None:
    for name in (DB, f"{DB}-wal", f"{DB}-shm"):
        (store / name).unlink(missing_ok=True)


def _drop_accounts(store: Path) -> None:
    conn = sqlite3.connect(store / DB)
    conn.executescript("PRAGMA foreign_keys=OFF; DROP TABLE postings; DROP TABLE accounts;")
    conn.close()


def _remove_keys(store: Path) -> None:
    for key in (store / "keys").iterdir():
        key.unlink()
    (store / "keys").rmdir()


DAMAGE: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "emptied": (_empty, ("is empty (0 bytes)", "signing keys exist in", "keys")),
    "deleted": (_delete, ("store missing but its signing keys exist in", "restore")),
    "tables-dropped": (_drop_accounts, ("missing its tables", "accounts", "postings")),
    "keys-removed": (_remove_keys, ("signing keys are missing", "log records")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_store_is_refused_not_replaced(tmp_path: Path, damage: str) -> None:
    store, config = played_store(tmp_path)
    harm, words = DAMAGE[damage]
    harm(store)
    before = sorted(p.name for p in store.rglob("*"))
    size = (store / DB).stat().st_size if (store / DB).exists() else None

    assert_one_line_refusal(serve_outcome(config), str(store), *words)
    # store init does not paper over it either
    init = croupier("store", "init", "--config", str(config))
    assert_one_line_refusal((init.returncode, init.stderr), *words)
    # nothing was created in its place: no new database, schema or key
    assert sorted(p.name for p in store.rglob("*") if p.name != "croupier.lock") == [
        n for n in before if n != "croupier.lock"
    ]
    assert ((store / DB).stat().st_size if (store / DB).exists() else None) == size


def test_only_store_init_makes_a_store(tmp_path: Path) -> None:
    """Creating a store is the explicit `croupier store init`: serve refuses a location
    with no store at all (one line naming it, nothing created); init makes one once and
    refuses to make one over an existing store; serve then opens it, and refuses it
    while keys/ holds a voucher key other than the one init made."""
    store = tmp_path / "store"
    config = write_config(tmp_path, demo_settings(store))
    refused = assert_one_line_refusal(serve_outcome(config), "no store at", "store init")
    assert str(store) in refused
    assert not (store / DB).exists() and not (store / "keys").exists()
    made = croupier("store", "init", "--config", str(config))
    assert made.returncode == 0, made.stderr
    assert f"created store {store}" in made.stdout
    voucher_key = store / "keys" / "voucher-number.key"  # with the other keys, 0600
    assert voucher_key.stat().st_mode & 0o777 == 0o600 and len(voucher_key.read_text()) == 64
    made_key = voucher_key.read_text()
    voucher_key.write_text("ab" * 32)  # an appliance given a key not the store's
    assert_one_line_refusal(serve_outcome(config), "voucher key", "not the one", "copy keys/")
    voucher_key.write_text(made_key)
    again = croupier("store", "init", "--config", str(config))
    assert_one_line_refusal((again.returncode, again.stderr), "already exists")
    quiet = croupier("store", "init", "--if-missing", "--config", str(config))
    assert quiet.returncode == 0 and "exists" in quiet.stdout
    status, _ = serve_outcome(config)
    assert status == "started"
    assert (store / DB).exists() and (store / "keys").is_dir()

"""``croupier store backup``: a proven copy of a store, taken while it is written, that restores.

What the command must survive: a copy taken while another process commits groups (half
a group copied would be a broken backup), a store altered before its backup (the copy
must not pass as good), a folder that already holds something (an older backup
overwritten), the keys written beside the database copy (a copy with the voucher key can
be searched for voucher numbers), a backup inside the store, a PostgreSQL store. Real
processes, a real SQLite file.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk_ui.store import log_records

from .conftest import Process, croupier, demo_settings, write_config

DB = "croupier.db"


def made_store(tmp_path: Path) -> tuple[Path, Path]:
    """A store made as ``make run`` makes one (``store init``): its config and directory."""
    store = tmp_path / "store"
    config = write_config(tmp_path, demo_settings(store))
    made = croupier("store", "init", "--config", str(config))
    assert made.returncode == 0, made.stderr
    return config, store


def autoplay(store: Path, rounds: int) -> subprocess.Popen[str]:
    """Another process writing the store: baccarat rounds, one group commit each."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "table", "autoplay", "--game", "baccarat",
           "--rounds", str(rounds), "--store", str(store), "--seed", "5", "--sync", "FULL",
           "--quiet"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished_games(out: str) -> int:
    found = re.search(r"([\d,]+) finished games", out)
    assert found, out
    return int(found[1].replace(",", ""))


def restore(copy: Path, keys: Path, into: Path) -> None:
    """What docs/deploy.md tells the technician: the copy's files, and keys/ back in it."""
    into.mkdir()
    for f in copy.iterdir():
        shutil.copy2(f, into / f.name)
    shutil.copytree(keys, into / "keys")


@pytest.mark.slow
def test_backups_taken_while_another_process_writes_are_proven_and_one_restores(
    tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    config, store = made_store(tmp_path)
    writer = autoplay(store, 1500)
    copies: list[Path] = []
    games: list[int] = []
    try:
        while writer.poll() is None or not copies:
            copy, keys = tmp_path / f"copy-{len(copies)}", tmp_path / f"keys-{len(copies)}"
            done = croupier(
                "store", "backup", str(copy), "--keys", str(keys), "--config", str(config)
            )
            assert done.returncode == 0, done.stdout + done.stderr
            assert "SQLite's integrity check: ok" in done.stdout
            assert "OK: the copy's log verifies" in done.stdout and "AUDIT OK" in done.stdout
            games.append(finished_games(done.stdout))
            copies.append(copy)
            time.sleep(0.2)
    finally:
        _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    # several copies while the writer ran, each of one commit, later ones further on
    assert len(copies) >= 3, games
    assert games == sorted(games) and games[0] < 1500
    # a copy is one file: no -wal beside it to forget, readable by the auditor's tools alone
    assert sorted(f.name for f in copies[1].iterdir()) == [DB, "software-manifest.json"]
    assert (copies[1] / DB).stat().st_mode & 0o777 == 0o600
    assert not any(p.name.startswith("log-signing") for p in copies[1].iterdir())
    # restored, the middle copy serves (the seal and the keys back), its books balance
    restored = tmp_path / "restored"
    restore(copies[1], tmp_path / "keys-1", restored)
    audit = croupier("ledger", "audit", "--store", str(restored))
    assert audit.returncode == 0 and "AUDIT OK" in audit.stdout, audit.stdout + audit.stderr
    served = serve_process(write_config(tmp_path, demo_settings(restored), "restored.toml"))
    with urllib.request.urlopen(f"{served.url}/api/status", timeout=10) as answer:
        assert answer.status == 200
        status = json.loads(answer.read())
    assert status["store"] is None and status["tables"], status  # no store fault


def test_a_store_altered_before_its_backup_is_not_passed_as_good(tmp_path: Path) -> None:
    config, store = made_store(tmp_path)
    writer = autoplay(store, 20)
    _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    conn = sqlite3.connect(log_records.db_path(store))
    seq, data = conn.execute(
        "SELECT seq, data FROM log WHERE type = 'event' ORDER BY seq LIMIT 1"
    ).fetchone()
    rec = json.loads(data)
    rec["ts"] += 1  # a payload changed behind the chain's back
    with conn:
        conn.execute(
            "UPDATE log SET data = ? WHERE seq = ?",
            (json.dumps(rec, separators=(",", ":"), sort_keys=True).encode(), seq),
        )
    conn.close()
    before = hashlib.sha256((store / DB).read_bytes()).hexdigest()
    copy = tmp_path / "copy"
    done = croupier("store", "backup", str(copy), "--config", str(config))
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        f"FAILED: the copy's log in {copy}" in done.stdout
        and f"record {seq} altered" in done.stdout
    )
    assert "AUDIT OK" not in done.stdout and "Traceback" not in done.stderr
    assert (copy / DB).exists()  # kept: it shows the live store's state to the technician
    assert hashlib.sha256((store / DB).read_bytes()).hexdigest() == before  # read only


@pytest.mark.parametrize(
    "case",
    [
        "backup folder not empty",
        "backup folder is a file",
        "keys inside the backup",
        "backup inside the keys",
        "backup inside the store",
        "no store",
        "postgresql store",
    ],
)
def test_a_bad_backup_request_is_one_line_and_writes_nothing(tmp_path: Path, case: str) -> None:
    config, store = made_store(tmp_path)
    dest, keys = tmp_path / "copy", tmp_path / "keys"
    args = [str(dest), "--keys", str(keys), "--config", str(config)]
    expect = "not a new or empty folder"
    if case == "backup folder not empty":
        dest.mkdir()
        (dest / DB).write_bytes(b"last night's backup")
    elif case == "backup folder is a file":
        dest.write_text("x")
    elif case == "keys inside the backup":
        args[2], expect = str(dest / "keys"), "must be apart"
    elif case == "backup inside the keys":
        args[0], expect = str(keys / "copy"), "must be apart"
    elif case == "backup inside the store":
        args[0], expect = str(store / "copy"), "is inside the store"
    elif case == "no store":
        args[-1] = str(write_config(tmp_path, demo_settings(tmp_path / "none"), "none.toml"))
        expect = "no Croupier store at"
    else:
        other = tmp_path / "pg"
        other.mkdir()
        (other / "database.url").write_text("postgresql://floor-db/croupier\n")
        args += ["--store", str(other)]
        expect = "is on PostgreSQL: back it up with the database's own tools"
    was = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    done = croupier("store", "backup", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0], done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    # nothing written: no folder made, no file changed
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == was
    assert not keys.exists()
    if case not in ("backup folder not empty", "backup folder is a file"):
        assert not Path(args[0]).exists() and not dest.exists()

"""What the store leaves where other people can look: files other local users can read,
and what every role of the PostgreSQL server sees of a connection.

- A new SQLite store's database, and the WAL and shared-memory files SQLite makes beside
  it, are readable by their owner only (they hold the operators' password hashes, the
  players' names and wallets); the umask is the usual 022.
- A floor appliance needs only rows' rights on the store's tables (the schema's owner
  makes them, with the floor's leases and servers, at ``store init``).
- A store URL too malformed to take apart (a space or a stray ``%`` in the password, an
  unclosed ``[``, a mistyped scheme) is refused in one line that never shows the password.
- A connection's ``application_name`` (in ``pg_stat_activity``, which any role of the
  server reads) names the command without a URL or a password in it, even when the
  command line carried the store URL with its password.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from kiosk_ui.store import pg
from kiosk_ui.store.db import Database
from kiosk_ui.store.schema import DB_NAME
from tests.kiosk_ui.pg_cluster import Cluster
from tests.kiosk_ui.served import init_store, join_floor, serve, stop
from tests.kiosk_ui.test_floor_view import appliance_config, call


def test_a_new_stores_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        db = Database(tmp_path / "store", create=True)
        try:
            with db.transaction() as tx:  # a write: the WAL and its index exist now
                tx.execute("INSERT INTO meta (key, value) VALUES ('probe', 'x')")
            files = [tmp_path / "store" / f"{DB_NAME}{end}" for end in ("", "-wal", "-shm")]
            modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
        finally:
            db.close()
    finally:
        os.umask(old)
    assert modes == {f.name: 0o600 for f in files}


def test_the_server_sees_no_password_in_a_connections_name(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    with psycopg.connect(pg_cluster.admin_url, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS cr")
        admin.execute("CREATE ROLE cr LOGIN")  # a short name: the password is in the first 40
        url = (
            f"postgresql://cr:hunter2pw@/croupier?host={pg_cluster.socket_dir}"
            f"&port={pg_cluster.port}"
        )
        monkeypatch.setattr(sys, "argv", ["croupier", "serve", "--url", url])
        conn = pg.connect(url)
        try:
            (name,) = admin.execute(
                "SELECT application_name FROM pg_stat_activity WHERE pid = %s",
                (conn.info.backend_pid,),
            ).fetchone() or ("",)
        finally:
            conn.close()
    assert name.startswith("croupier pid")
    assert "hun" not in name and "cr:" not in name and "://" not in name


def test_a_floor_appliance_serves_with_a_role_that_has_rows_rights_only(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    """The store made by the schema's owner (``store init``); a second appliance of the
    floor connects as a role with SELECT/INSERT/UPDATE/DELETE on its tables and nothing
    else (no CREATE on the schema): it serves its table and a player's session."""
    url = pg_cluster.fresh_url()
    schema = url.rsplit("%3D", 1)[1]
    init_store(appliance_config(tmp_path, "a", url, "bac-a"))
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS rows_only")
        admin.execute("CREATE ROLE rows_only LOGIN")
        for grant in (
            f"GRANT USAGE ON SCHEMA {schema} TO rows_only",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO rows_only",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO rows_only",
        ):
            admin.execute(grant.encode())
    cfg_b = appliance_config(tmp_path, "b", url.replace("user=croupier", "user=rows_only"), "bac-b")
    join_floor(tmp_path / "a", tmp_path / "b", cfg_b)
    proc, port = serve(cfg_b)
    try:
        status, tables, _ = call(port, "GET", "/api/tables")
        assert status == 200 and [t["id"] for t in tables] == ["bac-b"]
        assert call(port, "POST", "/api/players", {"name": "Ann"})[0] == 201
    finally:
        stop(proc)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://pit:s3cr et@db/floor",  # a space
        "postgresql://pit:s3cr%zzet@db/floor",  # a stray %
        "postgresql://pit:s3cret@[db/floor",  # an unclosed [
        "postgresql:///floor?host=db&password=s3cr et",
        "postgre://pit:s3cret@db/floor",  # a mistyped scheme
    ],
)
def test_a_malformed_store_url_is_refused_without_its_password(tmp_path: Path, url: str) -> None:
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--store", str(tmp_path)]
    done = subprocess.run([*cmd, "--url", url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("croupier: error: store URL") and done.stderr.count("\n") == 1
    assert "s3cr" not in done.stderr + done.stdout

"""A throwaway PostgreSQL server for the tests: Debian's binaries, a temporary cluster.

Never a mock: ``initdb`` makes a cluster in a temporary folder and ``pg_ctl`` starts
the real server on a unix socket in that folder (no TCP port to collide with), once
per test session (per xdist worker). ``initdb`` refuses to run as root, so as root
(CI) the cluster is made and run by an unprivileged account (``postgres``, which
Debian's package creates, else ``nobody``) that owns the folder. Each test gets a
fresh schema of its own (:meth:`Cluster.fresh_url`): a store in it starts empty,
and tests never see each other's rows. ``make system-deps`` installs the package
(``postgresql``) when the binaries are missing.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

SEARCH = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin")


def find_bin(name: str) -> str | None:
    """The newest installed server binary ``name`` (Debian keeps them off PATH)."""
    found = [p for pattern in SEARCH for p in glob.glob(os.path.join(pattern, name))]

    def version(path: str) -> tuple[int, ...]:
        parts = [s for s in Path(path).parts if s.replace(".", "").isdigit()]
        return tuple(int(x) for x in parts[0].split(".")) if parts else (0,)

    if found:
        return max(found, key=version)
    return shutil.which(name)


def _runner() -> tuple[list[str], int | None, int | None]:
    """The command prefix that runs the server unprivileged, and that user's uid/gid."""
    if os.geteuid() != 0:
        return [], None, None
    for user in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"], entry.pw_uid, entry.pw_gid
    raise RuntimeError("running as root with neither a postgres nor a nobody account")


@dataclass
class Cluster:
    folder: Path
    socket_dir: Path
    pg_ctl: str
    prefix: list[str]
    port: int = 5432

    @property
    def admin_url(self) -> str:
        return f"postgresql:///postgres?host={self.socket_dir}&port={self.port}&user=croupier"

    def url(self, schema: str | None = None) -> str:
        base = f"postgresql:///croupier?host={self.socket_dir}&port={self.port}&user=croupier"
        return base if schema is None else f"{base}&options=-csearch_path%3D{schema}"

    def fresh_url(self) -> str:
        """The URL of a new, empty schema (one store's worth of tables)."""
        import psycopg

        schema = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as pg:
            pg.execute(f"CREATE SCHEMA {schema}".encode())
        return self.url(schema)

    def stop(self) -> None:
        subprocess.run(
            [*self.prefix, self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Cluster:
    """Make and start a cluster (raises RuntimeError naming what is missing)."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError(
            "PostgreSQL's initdb/pg_ctl not found: `make system-deps` installs Debian's "
            "postgresql package"
        )
    prefix, uid, gid = _runner()
    folder = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
    sock = folder / "sock"
    sock.mkdir()
    if uid is not None and gid is not None:
        for p in (folder, sock):
            os.chown(p, uid, gid)
    data = folder / "data"
    subprocess.run(
        [*prefix, initdb, "-D", str(data), "-U", "croupier", "--auth=trust", "--locale=C",
         "-E", "UTF8", "--no-sync"],
        check=True, capture_output=True,
    )  # fmt: skip
    options = (
        f"-c listen_addresses='' -c unix_socket_directories='{sock}' -c max_connections=60 "
        "-c shared_buffers=32MB -c fsync=on -c synchronous_commit=on"
    )
    subprocess.run(
        [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "server.log"),
         "-w", "-t", "60", "start"],
        check=True, capture_output=True,
    )  # fmt: skip
    cluster = Cluster(folder, sock, pg_ctl, prefix)
    import psycopg

    with psycopg.connect(cluster.admin_url, autocommit=True) as pg:
        pg.execute(b"CREATE DATABASE croupier")
    return cluster

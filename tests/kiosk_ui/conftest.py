from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from certification.log.chains import ChainsReport, verify_chains
from certification.log.keys import KeyStore
from kiosk_ui.store import log_records
from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
from rng.sample import Rng, SeededBytes
from tests.kiosk_ui import pg_cluster as pg_cluster_module
from tests.kiosk_ui.pg_cluster import Cluster


def seeded_outcomes(seed: int) -> RngOutcomes:
    """A reproducible, not-for-play outcome source (the CTR_DRBG seeded from a number)."""
    return RngOutcomes(Rng(SeededBytes(seed)), name=f"rng:seeded:{seed}")


@pytest.fixture
def runtime(tmp_path: Path, store_url: str | None) -> Iterator[Runtime]:
    """A runtime on a new store, on each backend (``store_url``)."""
    rt = Runtime(
        tmp_path / "store", synchronous="NORMAL", checkpoint_every=50, create=True, url=store_url
    )
    yield rt
    rt.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One real PostgreSQL server for the whole session (see tests/kiosk_ui/pg_cluster.py)."""
    cluster = pg_cluster_module.start()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest) -> str | None:
    """The database of a test's store: None (SQLite in the store directory, the default)
    or a fresh schema on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return None
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.fresh_url()


def shared_server(first: Path, store_url: str | None, i: int) -> Runtime:
    """The i-th server of the shared store made at ``first`` (``store init``'s directory):
    on SQLite a worker of its one file; on PostgreSQL an appliance with its own directory
    beside ``first`` (``a{i}``) holding a copy of the floor's keys."""
    if store_url is None:
        return Runtime(first, synchronous="NORMAL", shared=True, worker=i)
    where = first.parent / f"a{i}"
    if i and not where.exists():
        shutil.copytree(first / "keys", where / "keys")
    return Runtime(where, synchronous="NORMAL", url=store_url, shared=True)


@pytest.fixture
def shared_store(
    tmp_path: Path, store_url: str | None
) -> Iterator[tuple[Callable[[int], Runtime], Path]]:
    """A store made for several servers (``croupier store init`` at ``tmp_path / "a0"``)
    and ``start(i)``: its i-th server (:func:`shared_server`); whatever a test left
    running is closed after it. Yields ``start`` and the store directory to audit."""
    first = tmp_path / "a0"
    Runtime(first, create=True, url=store_url).close()
    running: list[Runtime] = []

    def start(i: int) -> Runtime:
        rt = shared_server(first, store_url, i)
        running.append(rt)
        return rt

    yield start, first
    for rt in running:
        if rt.leasing is not None and not rt.leasing.stopped.is_set():
            rt.close()


def _rows(store: Path) -> list[tuple[str, bytes]]:
    conn = log_records.open_readonly(store)
    try:
        return [row for chunk in log_records.rows(conn) for row in chunk]
    finally:
        conn.close()


def verified_chains(store: Path) -> ChainsReport:
    """``log verify`` of every chain of the store, trusting the store's key."""
    key = KeyStore(store).current()
    assert key is not None
    return verify_chains(_rows(store), [key.public])


def verified_lines(store: Path) -> list[bytes]:
    """The store's signed log, every line (every chain, in the store's order), once each
    chain verifies against the store's key."""
    verified_chains(store)
    return [data for _, data in _rows(store)]

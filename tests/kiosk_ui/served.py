"""What the served crash tests share: a kiosk config on a new store, ``croupier serve`` in
its own process, JSON requests to it, and the SIGKILL (the log read back verified after
it: ``conftest.verified_lines``).

``test_kill_served`` (baccarat terminals) and ``test_kill_served_room`` (a poker room)
start, kill and check the server the same way; only what they play and what they count
differ. ``test_floor_served`` and ``test_floor_view`` start their appliances with
:func:`serve` and their ``serve --workers 2`` supervisors with :func:`serve_workers`, on
configs :func:`write_config` writes, and stop them with :func:`stop`.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench._common import free_ports


def config(tmp_path: Path, sections: list[str], url: str | None = None) -> Path:
    """``tmp_path/kiosk.toml``: a FULL-sync store at ``tmp_path/store`` (on ``url``'s
    PostgreSQL if given), the seeded simulator, demo credit, the operator, then
    ``sections`` (the tables, any ``[seats]``); the store is made once, as ``make run``
    does (``serve`` never creates one)."""
    database = f'\nurl = "{url}"' if url else ""
    store = f'dir = "{tmp_path / "store"}"\nsynchronous = "FULL"{database}'
    path = write_config(
        tmp_path / "kiosk.toml", store, "kill-test-password", sections, credit=10_000_000
    )
    init_store(path)
    return path


def write_config(
    path: Path, store: str, password: str, sections: list[str], credit: int = 1_000_000
) -> Path:
    """Write the kiosk config ``path``: the ``[store]`` section's lines ``store``, the
    seeded simulator (test mode), ``credit`` cents of demo credit, the operator ``admin``
    with ``password``, the lobby of the configured tables only, then ``sections``."""
    lines = [
        f"[store]\n{store}",
        '[rng]\nsource = "sim"\nsim_seed = 9\ntest_mode = true',
        f"[demo]\nenabled = true\ncredit = {credit}",
        f'[operator]\nuser = "admin"\npassword = "{password}"',
        "[lobby]\nall_variants = false",
        *sections,
    ]
    path.write_text("\n\n".join(lines) + "\n")
    return path


def init_store(cfg: Path) -> None:
    """``croupier store init`` on ``cfg`` (what ``make run`` does once)."""
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(cfg)]
    subprocess.run(init, check=True, capture_output=True)


def join_floor(first: Path, store: Path, cfg: Path) -> None:
    """Provision an appliance of ``first``'s floor: the floor's keys copied from the
    store directory ``first`` into its own ``store`` (as an IT department copies a
    certificate), then its install sealed (``verify-install --seal`` on ``cfg``)."""
    shutil.copytree(first / "keys", store / "keys")
    seal = [sys.executable, "-m", "kiosk_ui.cli", "verify-install", "--seal", "--config"]
    subprocess.run([*seal, str(cfg)], check=True, capture_output=True)


def serve(cfg: Path, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    """``croupier serve --port PORT`` on ``cfg`` (0: any free one): the process and its
    port, once it listens."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", str(port), "--config", str(cfg)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if m := re.search(r"http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
            wait_listening(port)  # the address is printed just before the socket listens
            return proc, port
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("croupier serve did not start")


def wait_listening(port: int, tries: int = 100) -> None:
    """Return once ``port`` on loopback takes a connection (``tries`` probes 50 ms apart)."""
    for _ in range(tries):
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            probe.connect()
            return
        except OSError:
            time.sleep(0.05)
        finally:
            probe.close()
    raise AssertionError(f"nothing listens on port {port}")


def sigkill(proc: subprocess.Popen[str]) -> None:
    """Kill the server with no warning (what a power cut leaves) and reap it."""
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.stdout is not None
    proc.stdout.close()


def stop(proc: subprocess.Popen[Any], timeout: float = 30) -> None:
    """Stop a server as its operator does (SIGTERM: its graceful shutdown; SIGCONT too,
    for one a test froze with SIGSTOP), kill it if it is not gone within ``timeout``
    seconds, reap it and close its pipe. One already reaped is only closed."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGCONT)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


@contextmanager
def serve_workers(cfg: Path, workers: int = 2) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``croupier serve --workers N`` on ``cfg``: the supervisor and worker 0's port
    (worker I listens on that port + I), once every worker serves; stopped on exit."""
    sup, base = start_supervisor(cfg, workers)
    try:
        yield sup, base
    finally:
        stop(sup, timeout=60)


def start_supervisor(
    cfg: Path, workers: int = 2, *, stderr: Path | None = None, new_session: bool = False
) -> tuple[subprocess.Popen[bytes], int]:
    """``croupier serve --workers N`` started (``stderr``: its and its workers' stderr to
    that file; ``new_session``: a process group of its own, for a Ctrl-C killpg) and
    serving: it and worker 0's port. Ports are picked free, then bound by the workers:
    one taken in between (another test's connection) makes a worker refuse to start and
    the supervisor end, and the start is tried again on other ports, up to three times."""
    for attempt in range(3):
        base = free_ports(workers)
        cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", str(base),
               "--config", str(cfg), "--workers", str(workers)]  # fmt: skip
        with open(stderr or os.devnull, "a") as sink:
            sup = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=sink, start_new_session=new_session
            )
        try:
            for port in range(base, base + workers):
                listening(port, proc=sup)
            return sup, base
        except Ended:
            stop(sup)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class Ended(AssertionError):
    """The server process ended before it served (listening's ``proc``)."""


def listening(
    port: int, after: int | None = None, proc: subprocess.Popen[Any] | None = None
) -> None:
    """Wait until ``port`` serves HTTP (``after``: from a process other than that killed
    one, i.e. its restart; ``proc``: raise :class:`Ended` at once if it ends first)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise Ended(f"the server for port {port} ended ({proc.returncode}) before it served")
        if after is not None and Path(f"/proc/{after}").exists():
            time.sleep(0.1)
            continue
        try:
            status, _ = post(port, "/api/health", {})
            if status in (200, 405):
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"nothing served on port {port}")


def post(
    port: int, path: str, body: object, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"content-type": "application/json"}
        if token:
            headers["x-player-token"] = token
        conn.request("POST", path, json.dumps(body), headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def get(port: int, path: str, token: str) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"x-player-token": token})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def new_players(port: int, names: list[str]) -> list[str]:
    """A player session for each name; their tokens (they outlive restarts: store and key)."""
    tokens = []
    for name in names:
        status, body = post(port, "/api/players", {"name": name})
        assert status == 201
        tokens.append(body["token"])
    return tokens


def until(what: str, test: Callable[[], Any], seconds: float = 30) -> Any:
    """``test()``'s first true answer, asked every 0.2 s (a guard of ``seconds``, no speed
    asserted: the floor's polls and leases run in seconds)."""
    deadline = time.monotonic() + seconds
    while not (answer := test()):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.2)
    return answer

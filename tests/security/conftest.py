"""Shared harness for the attack tests of issue 12: real servers, real stores.

Each test under ``tests/security/`` reproduces one attack from the adversarial review
against the real thing: ``croupier serve`` as a subprocess (``serve_process``), or the
FastAPI app served by uvicorn in a thread (``served``), on a store in ``tmp_path``.
``write_config`` writes a settings TOML; ``demo_settings`` / ``real_money_settings``
give the mappings the attacks start from.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from kiosk_ui.settings import Settings, parse
from kiosk_ui.web.app import create_app
from tests.kiosk_ui.served import wait_listening

OPERATOR_PASSWORD = "correct horse battery staple"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def to_toml(data: dict[str, Any]) -> str:
    """A settings mapping as TOML (tables, arrays of tables, scalars): enough for configs."""
    out: list[str] = []
    for key, value in data.items():
        if not isinstance(value, (dict, list)) or (
            isinstance(value, list) and not all(isinstance(v, dict) for v in value)
        ):
            out.append(f"{key} = {_toml_value(value)}")
    for key, value in data.items():
        if isinstance(value, dict):
            out.append(f"\n[{key}]")
            out += [f"{k} = {_toml_value(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for item in value:
                out.append(f"\n[[{key}]]")
                out += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
    return "\n".join(out) + "\n"


def demo_settings(store: Path) -> dict[str, Any]:
    """A demo appliance on simulated sources (test mode): what `make run` serves."""
    return {
        "store": {"dir": str(store), "synchronous": "NORMAL"},
        "rng": {"source": "sim", "sim_seed": 11, "test_mode": True},
        "devices": {"shoe": "sim://shoe?seed=7", "dice": "sim://dice?seed=3"},
        "demo": {"enabled": True, "credit": 100_000},
        "lobby": {"all_variants": False},
        "operator": {"user": "admin", "password": OPERATOR_PASSWORD},
        "tables": [
            {"id": "bac", "variant": "baccarat-pinnacle"},
            {"id": "baccarat-live", "variant": "baccarat-pinnacle", "source": "shoe"},
        ],
    }


def real_money_settings(store: Path) -> dict[str, Any]:
    """A real-money appliance (demo off, no test mode) on the OS CSPRNG."""
    return {
        "store": {"dir": str(store), "synchronous": "NORMAL"},
        "rng": {"source": "os"},
        "demo": {"enabled": False},
        "lobby": {"all_variants": False},
        "operator": {"user": "admin", "password": OPERATOR_PASSWORD},
        "tables": [{"id": "bac", "variant": "baccarat-pinnacle"}],
    }


def write_config(tmp_path: Path, data: dict[str, Any], name: str = "croupier.toml") -> Path:
    path = tmp_path / name
    path.write_text(to_toml(data))
    return path


@dataclass
class Process:
    proc: subprocess.Popen[str]
    port: int
    url: str

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def croupier(
    *args: str, timeout: float = 120, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI (`python -m kiosk_ui.cli ...`) and capture its output."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, input=input)


def start_serve(config: Path, *extra: str, timeout: float = 60) -> Process:
    """Create the store if there is none (`croupier store init --if-missing`, as `make
    run` does), start `croupier serve --port 0 --config F`, return once it listens.

    Raises AssertionError with what the process printed if it exits instead (a damaged
    store is refused by init and serve alike: serve's refusal is what gets reported).
    """
    croupier("store", "init", "--if-missing", "--config", str(config))
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(config)]
    proc = subprocess.Popen(
        [*cmd, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if m := re.search(r"http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
            wait_listening(port, tries=200)
            return Process(proc, port, f"http://127.0.0.1:{port}")
        if not line and proc.poll() is not None:
            break
    proc.kill()
    _, err = proc.communicate(timeout=10)
    raise AssertionError(f"croupier serve did not start (exit {proc.returncode}): {err.strip()}")


@pytest.fixture
def serve_process() -> Iterator[Callable[..., Process]]:
    """Start real `croupier serve` processes; all are stopped after the test."""
    started: list[Process] = []

    def start(config: Path, *extra: str) -> Process:
        p = start_serve(config, *extra)
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()
        for pipe in (p.proc.stdout, p.proc.stderr):
            if pipe is not None:
                pipe.close()


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # running in a thread: leave signals alone
        pass


@dataclass
class Served:
    url: str
    app: Any
    settings: Settings


@pytest.fixture
def served() -> Iterator[Callable[[dict[str, Any]], Served]]:
    """Serve settings (a mapping, as in a config file) with uvicorn in a thread."""
    running: list[tuple[_Server, threading.Thread, socket.socket]] = []

    def start(data: dict[str, Any]) -> Served:
        settings = parse(data, source="security-test")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        app = create_app(settings)
        config = uvicorn.Config(
            app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1
        )
        srv = _Server(config)
        thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        running.append((srv, thread, sock))
        deadline = time.monotonic() + 30
        while not srv.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return Served(f"http://127.0.0.1:{port}", app, settings)

    yield start
    for srv, thread, sock in running:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()

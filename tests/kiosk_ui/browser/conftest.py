"""A real server (uvicorn on 127.0.0.1, port 0, tmp store) and Debian's Chromium via Playwright.

The browser is launched once per worker from /usr/bin/chromium (never downloaded);
every test gets its own server and store, and a fresh browser context (a new
player, as a new kiosk session would be).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page

from kiosk_ui.settings import Settings, parse
from kiosk_ui.web.app import create_app

OPERATOR_PASSWORD = "correct horse battery"


def settings_for(store: Path) -> Settings:
    return parse(
        {
            "store": {"dir": str(store), "synchronous": "NORMAL"},
            "rng": {"source": "sim", "sim_seed": 11, "test_mode": True},
            "devices": {"shoe": "sim://shoe?seed=7", "dice": "sim://dice?seed=3"},
            "demo": {"enabled": True, "credit": 100_000},
            "lobby": {"all_variants": True, "time_zone": "America/New_York"},
            "operator": {"user": "admin", "password": OPERATOR_PASSWORD},
            "tables": [{"id": "baccarat-live", "variant": "baccarat-pinnacle", "source": "shoe"}],
        },
        source="browser-test",
    )


@dataclass
class Served:
    url: str
    app: Any


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # running in a thread: leave signals alone
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(settings_for(tmp_path / "store"))
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    srv = _Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield Served(f"http://127.0.0.1:{port}", app)
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def operator_password() -> str:
    return OPERATOR_PASSWORD


@pytest.fixture
def page(browser: Browser, server: Served) -> Iterator[Page]:
    ctx = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # The pages run under their Content-Security-Policy: a refused script, style or
    # connection is a broken page even if nothing throws.
    pg.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    pg.set_default_timeout(15_000)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"

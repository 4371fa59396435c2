"""Take the README/docs screenshots with the same Chromium the browser tests use.

Run: .venv/bin/python tests/kiosk_ui/browser/make_screenshots.py [--out docs/screenshots]

It serves the app on 127.0.0.1 (port 0, tmp store, simulated devices), opens the
lobby, then plays a blackjack round until a hand is in play (decisions on screen).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def main() -> int:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from kiosk_ui.settings import parse
    from kiosk_ui.web.app import create_app

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    store = Path(tempfile.mkdtemp(prefix="croupier-shots-")) / "store"
    settings = parse(
        {
            "store": {"dir": str(store), "synchronous": "NORMAL"},
            "rng": {"source": "sim", "sim_seed": 11, "test_mode": True},
            "devices": {"shoe": "sim://shoe?seed=7", "dice": "sim://dice?seed=3"},
            "demo": {"enabled": True, "credit": 100_000},
            "lobby": {"all_variants": True},
            "operator": {"user": "admin", "password": "screenshots only"},
            "tables": [{"id": "baccarat-live", "variant": "baccarat-pinnacle", "source": "shoe"}],
        },
        source="screenshots",
    )
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), log_level="warning", timeout_graceful_shutdown=1)
    )
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    chromium_args = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
    ]  # fmt: skip
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=chromium_args)
        page = browser.new_page(base_url=base, viewport={"width": 1280, "height": 900})
        page.goto("/")
        page.wait_for_selector(".tile")
        page.screenshot(path=str(args.out / "lobby.png"))
        page.goto("/table/blackjack-pinnacle")
        page.wait_for_selector('.spot[data-bet="main"]')
        for _ in range(30):
            page.locator("body:not(.busy)").wait_for(state="attached")
            page.click('.chip[data-value="2500"]')
            page.click('.spot[data-bet="main"]')
            page.wait_for_selector("#deal")
            page.click("#deal")
            page.locator("body:not(.busy)").wait_for(state="attached")
            if page.locator('#decisions button[data-decision="hit"]').count():
                break
            while page.evaluate("document.body.dataset.over") != "true":
                page.click("#decisions button[data-decision]")
                page.locator("body:not(.busy)").wait_for(state="attached")
        page.screenshot(path=str(args.out / "table.png"), full_page=True)
        browser.close()
    server.should_exit = True
    print(f"wrote {args.out / 'lobby.png'} and {args.out / 'table.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Take the docs screenshots with the same Chromium the browser tests use (`make screenshots`).

Run: .venv/bin/python tests/kiosk_ui/browser/make_screenshots.py [--out docs/screenshots]
     [--only TABLE ...] [--sizes landscape portrait phone]

It serves the app on 127.0.0.1 (port 0, tmp store, simulated devices, one RNG table per
variant), opens the lobby, then every table at the kiosk sizes (1920x1080 landscape,
1080x1920 portrait): chips on a spot and the round started, so the bets, the chips and
the decisions are what a player sees there. Each shot is the screen, not the whole page:
what is not in it would need scrolling. A full run into docs/screenshots also rewrites the
table of them in docs/kiosk.md (between its screenshots markers).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
SIZES = {
    "landscape": {"width": 1920, "height": 1080},
    "portrait": {"width": 1080, "height": 1920},
    "phone": {"width": 375, "height": 812},
}
SIZE_NAMES = {"landscape": "1920x1080", "portrait": "1080x1920", "phone": "375 px phone"}
# What each drawn table has on it for its picture: (spot, chip) in order, then the start.
STAGED: dict[str, list[tuple[str, int]]] = {
    "craps": [("pass", 2500), ("field", 500)],
    "roulette": [("red", 2500), ("straight-17", 500), ("split-17-20", 100),
                 ("corner-25-26-28-29", 500), ("dozen-2", 10000)],
    "sicbo": [("big", 2500), ("total-10", 500), ("triple-4", 100), ("combo-2-5", 500)],
}  # fmt: skip
START = {"craps": "roll", "sicbo": "roll", "roulette": "spin"}
MAIN_SPOTS = ("ante", "main", "bet", "banker", "pass", "red", "big")
# Families with a page of their own (the lobby's Play opens it); the others use /table/.
OWN_PAGE = {"video_poker": "/video_poker/", "poker_room": "/room/"}


def settings(store: Path) -> Any:
    from kiosk_ui.settings import parse

    return parse(
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


def idle(page: Any) -> None:
    page.locator("body:not(.busy)").wait_for(state="attached")


def place(page: Any, bets: list[tuple[str, int]]) -> None:
    for bet, chip in bets:
        chip_button = page.locator(f'.chip[data-value="{chip}"]')
        target = page.locator(f'.spot[data-bet="{bet}"]')
        if not chip_button.count() or not target.count() or target.first.is_disabled():
            continue
        chip_button.click()
        target.first.click()
        idle(page)


def stage(page: Any, table: dict[str, Any]) -> None:
    """Chips on the table's spots and the round started (a craps point set, if it comes).

    At the drawn tables the chips go down again after the roll or spin, so the picture has
    both the result (dice, wheel) and chip stacks on the layout.
    """
    family = table["family"]
    limits = table["limits"]
    main_spot = next((b for b in MAIN_SPOTS if b in limits), next(iter(limits)))
    bets = STAGED.get(family) or [(main_spot, 2500)]
    start = START.get(family, "deal")
    for _ in range(8):
        place(page, bets)
        button = page.locator(f"#{start}")
        if not button.count():
            break
        button.click()
        idle(page)
        page.wait_for_timeout(1700)  # the roll/deal/spin animations end before the picture
        if family != "craps" or page.locator(".puck-art.on").count():
            break
    if family == "craps":
        odds = [("pass-odds", 2500), ("place-win-6", 500), ("place-win-8", 500), ("hard-8", 100)]
        place(page, odds)
    elif family in STAGED:
        place(page, bets)


def shoot(page: Any, base: str, table: dict[str, Any], sizes: list[str], out: Path) -> list[Path]:
    """One player, one page load, one staged round; a picture per size (the page redraws
    for each size: it says which in ``data-viewport``)."""
    page.context.clear_cookies()  # a new player: no seat or round held from another picture
    page.set_viewport_size(SIZES[sizes[0]])
    own = OWN_PAGE.get(table["family"])
    page.goto(f"{base}{own or '/table/'}{table['id']}")
    if own:  # another page's own controls: shown as they open
        page.wait_for_load_state("load")
        page.wait_for_timeout(1500)
    else:
        page.locator("#title").filter(has_not_text="…").wait_for()
        page.wait_for_selector(".spot")
        idle(page)
        stage(page, table)
    paths = []
    for size in sizes:
        page.set_viewport_size(SIZES[size])
        w, h = SIZES[size].values()
        if own:
            page.wait_for_timeout(500)
        else:
            page.locator(f"body[data-viewport='{w}x{h}']").wait_for(state="attached")
            idle(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        path = out / f"{table['id']}-{size}.png"
        page.screenshot(path=str(path), full_page=size == "phone")  # a phone scrolls down
        paths.append(path)
    return paths


BEGIN = "<!-- screenshots: made by make_screenshots.py, do not edit by hand -->"
END = "<!-- /screenshots -->"


def index(tables: list[dict[str, Any]], sizes: list[str]) -> str:
    """The table of every table's pictures, as docs/kiosk.md shows it."""
    lines = [
        BEGIN,
        "| Table | " + " | ".join(SIZE_NAMES[s] for s in sizes) + " |",
        "|---|" + "---|" * len(sizes),
    ]
    for t in tables:
        cells = " | ".join(f"[{SIZE_NAMES[s]}](screenshots/{t['id']}-{s}.png)" for s in sizes)
        lines.append(f"| {t['title']} | {cells} |")
    return "\n".join([*lines, END])


def link(doc: Path, block: str) -> None:
    """Put the pictures' table into the doc between its markers (or at its end)."""
    text = doc.read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


def main() -> int:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from kiosk_ui.web.app import create_app

    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    p.add_argument("--only", nargs="*", default=None, help="table ids (default: every table)")
    p.add_argument("--sizes", nargs="*", default=["landscape", "portrait"], choices=sorted(SIZES))
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    store = Path(tempfile.mkdtemp(prefix="croupier-shots-")) / "store"
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(settings(store))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    chromium_args = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
    ]  # fmt: skip
    written: list[Path] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=chromium_args)
        page = browser.new_page(base_url=base, viewport={"width": 1280, "height": 900})
        page.goto("/")
        page.wait_for_selector(".tile")
        tables = page.request.get("/api/tables").json()
        if args.only is None:
            page.screenshot(path=str(args.out / "lobby.png"))
            written.append(args.out / "lobby.png")
        chosen = [t for t in tables if args.only is None or t["id"] in args.only]
        for table in chosen:
            written += shoot(page, base, table, args.sizes, args.out)
        if args.only is None and args.out.resolve() == (ROOT / "docs" / "screenshots").resolve():
            link(ROOT / "docs" / "kiosk.md", index(chosen, args.sizes))
        browser.close()
    server.should_exit = True
    print(f"wrote {len(written)} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

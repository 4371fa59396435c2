"""Issue 12 A2: test mode is visible on every player page and in /api/status.

The attack: ``[rng] test_mode = true`` lets a deterministic (seeded, predictable)
source drive a table, and nothing told the player: the table ran silently. Now
``/api/status`` says ``"test_mode": true`` and the lobby, every table page and the
history page show the test banner, checked in a real browser (Debian's Chromium
through Playwright) against the real server; without test mode no banner shows.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.security.conftest import real_money_settings

PAGES = ("/", "/table/bac", "/history")


def _test_mode_settings(tmp_path: Path) -> dict[str, Any]:
    """A real-money config put in test mode with the seeded simulator: a lab table."""
    data = real_money_settings(tmp_path / "store")
    data["rng"] = {"source": "sim", "sim_seed": 11, "test_mode": True}
    return data


def _status(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/status", timeout=10) as r:
        return dict(json.loads(r.read()))


def test_status_says_test_mode(served: Any, tmp_path: Path) -> None:
    assert _status(served(_test_mode_settings(tmp_path)).url)["test_mode"] is True


def test_status_says_no_test_mode(served: Any, tmp_path: Path) -> None:
    assert _status(served(real_money_settings(tmp_path / "store")).url)["test_mode"] is False


def _banners(browser: Browser, url: str) -> dict[str, bool]:
    """Each player page: is the test banner visible once the page has loaded?"""
    ctx = browser.new_context(base_url=url)
    seen: dict[str, bool] = {}
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        for path in PAGES:
            page.goto(path)
            page.wait_for_selector("#balance[data-cents]")  # the page's script has run
            page.wait_for_load_state("networkidle")
            banner = page.locator("#test-mode")
            seen[path] = banner.count() == 1 and banner.is_visible()
            if seen[path]:
                assert "TEST MODE" in banner.inner_text()
    finally:
        ctx.close()
    return seen


@pytest.mark.browser
@pytest.mark.slow
def test_every_player_page_shows_the_test_banner(
    browser: Browser, served: Any, tmp_path: Path
) -> None:
    srv = served(_test_mode_settings(tmp_path))
    assert _banners(browser, srv.url) == dict.fromkeys(PAGES, True)


@pytest.mark.browser
@pytest.mark.slow
def test_no_banner_without_test_mode(browser: Browser, served: Any, tmp_path: Path) -> None:
    srv = served(real_money_settings(tmp_path / "store"))
    assert _banners(browser, srv.url) == dict.fromkeys(PAGES, False)

"""Fixtures shared by every test folder.

``browser``: one headless Chromium per test process (session scope), for the browser
tests of kiosk_ui and of security alike. Playwright's sync API runs its event loop on
the main thread for as long as it is open, so a second ``sync_playwright()`` in the same
process (a module's own browser fixture, say) fails while this one lives: there is one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    from tests.chromium import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()

"""Issue 17 points 1-7: the floor terminal's broken controls and the player's words.

Each test drives the pages in Debian's Chromium as a player (or the operator) would and
checks what the player sees, not only what the server holds.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_operator_sign_in_shows_the_form_alone_then_the_console_alone(
    page: Page, operator_password: str
) -> None:
    """Point 3: `hidden` hides, whatever display the page's CSS gives the element."""
    page.goto("/operator")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    expect(page.locator("#p-devices")).to_be_hidden()
    expect(page.locator("#logout")).to_be_hidden()
    page.fill("#user", "admin")
    page.fill("#password", operator_password)
    page.click("#login button[type=submit]")
    expect(page.locator("#console")).to_be_visible()
    expect(page.locator("#login")).to_be_hidden()
    expect(page.locator("#logout")).to_be_visible()
    page.click("#logout")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()

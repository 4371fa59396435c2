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


def open_table(page: Page, table: str) -> None:
    page.goto(f"/table/{table}")
    expect(page.locator("#title")).not_to_have_text("…")
    page.wait_for_selector(".spot")
    idle(page)


def idle(page: Page) -> None:
    expect(page.locator("body:not(.busy)")).to_be_attached()


def place(page: Page, spot: str, chip: int = 500) -> None:
    page.click(f'.chip[data-value="{chip}"]')
    page.click(f'.spot[data-bet="{spot}"]')
    idle(page)


def test_oasis_draw_shows_its_price_and_replaces_the_picked_cards(page: Page) -> None:
    """Point 1: Draw sends the picked cards' positions; the button names the price first."""
    open_table(page, "oasis-poker")
    place(page, "ante")  # $5 ante: 1 card 1x, 2 cards 2x, 3 cards 3x (the paytable's prices)
    page.click("#deal")
    idle(page)
    draw = page.locator("#draw")
    expect(draw).to_be_disabled()
    expect(draw).to_have_text("Draw: select the cards to replace")
    hand = page.locator('.hand[data-hand="hand"] svg.card')
    expect(hand).to_have_count(5)
    before = hand.evaluate_all("cs => cs.map(c => c.dataset.card)")
    hand.nth(1).click()
    expect(draw).to_have_text("Draw 1 card for $5.00")
    hand.nth(3).click()
    expect(draw).to_have_text("Draw 2 cards for $10.00")
    draw.click()
    idle(page)
    expect(page.locator("#notice")).to_be_hidden()
    expect(hand).to_have_count(5)
    after = hand.evaluate_all("cs => cs.map(c => c.dataset.card)")
    kept = [before[i] for i in (0, 2, 4)]
    assert after[:3] == kept and not set(after[3:]) & {before[1], before[3]}
    expect(page.locator("#draw")).to_have_count(0)  # one draw per game
    page.click('#decisions button[data-decision="fold"]')
    idle(page)
    expect(page.locator('#result li[data-bet="draw"]')).to_contain_text("-$10.00")
    hist = page.request.get("/api/history").json()
    assert hist[0]["staked"] == 500 + 1_000


def operator_session(page: Page, password: str) -> None:
    """Sign the page's browser context in as the operator (the API, with its cookie)."""
    r = page.request.post("/api/operator/login", data={"user": "admin", "password": password})
    assert r.ok, r.text()


def test_suspend_and_resume_reach_an_open_table_page(page: Page, operator_password: str) -> None:
    """Point 4: both arrive over the table's WebSocket; no reload, no operator's words."""
    open_table(page, "war-standard")
    place(page, "main")
    spot = page.locator('.spot[data-bet="main"]')
    expect(spot).to_be_enabled()
    operator_session(page, operator_password)
    r = page.request.post("/api/operator/tables/war-standard/suspend", data={"reason": "jam"})
    assert r.ok, r.text()
    expect(page.locator("#phase")).to_have_text("suspended")
    expect(spot).to_be_disabled()
    expect(page.locator("#deal")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("Table closed for a moment")
    expect(page.locator("main")).not_to_contain_text("admin")
    expect(page.locator("main")).not_to_contain_text("jam")
    r = page.request.post("/api/operator/tables/war-standard/resume")
    assert r.ok, r.text()
    expect(page.locator("#status")).not_to_contain_text("closed")
    expect(spot).to_be_enabled()
    expect(page.locator("#deal")).to_be_visible()

"""Issue 17 point 12: axe-core finds no serious or critical violation on any page.

axe-core (4.12, bundled in axe-playwright-python's wheel with its MPL-2.0 licence: no
fetch at run time) runs in Debian's Chromium on the lobby, a table page of every family
(open, with a bet on, mid-round, and with an error and the rules shown), the history with
a recall open, the operator's sign-in and console, and the status page.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from games import catalog
from tests.kiosk_ui.browser.test_pages import plan_for
from tests.kiosk_ui.browser.test_terminal import finish, idle, open_table, place

pytestmark = pytest.mark.browser

AXE = Axe()
BAD = ("serious", "critical")


def violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    found: list[dict[str, Any]] = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in BAD
    ]


def check(page: Page, where: str, seen: dict[str, list[str]]) -> None:
    bad = violations(page)
    if bad:
        seen[where] = bad


# Families whose pages are their own (the poker room, video poker): their helpers' tests.
OWN_PAGES = {"poker_room", "video_poker"}


@pytest.mark.slow
def test_no_serious_violation_on_any_table_page(page: Page) -> None:
    seen: dict[str, list[str]] = {}
    for family in sorted(set(catalog.families()) - OWN_PAGES):
        plan = plan_for(family)
        open_table(page, plan.table)
        check(page, f"{family} open", seen)
        place(page, plan.spot)
        expect(page.locator(f"#{plan.start}"), family).to_be_visible()
        page.click(f"#{plan.start}")
        idle(page)
        check(page, f"{family} in play", seen)
        for _ in range(100):  # craps: Roll (no decision button) until the game is over
            if page.evaluate("document.body.dataset.over") == "true":
                break
            if not page.locator("#roll:not([disabled])").count():
                break
            page.click("#roll")
            idle(page)
        finish(page, (*plan.prefer, "stand", "fold", "house-way", "roll"))
        page.click("#rules-box summary")
        spot = page.locator(f'.spot[data-bet="{plan.spot}"]')
        for _ in range(3):  # $500 chips until a limit or the balance refuses one
            if page.locator(".field-error").count() or not spot.is_enabled():
                break
            place(page, plan.spot, chip=50_000)
        check(page, f"{family} over, error and rules", seen)
        if page.locator("#clear").is_enabled():  # the next table needs the balance back
            page.click("#clear")
            idle(page)
    assert not seen, seen


def test_no_serious_violation_on_the_other_pages(page: Page, operator_password: str) -> None:
    seen: dict[str, list[str]] = {}
    page.goto("/")
    expect(page.locator(".tile").first).to_be_visible()
    check(page, "lobby", seen)
    open_table(page, "baccarat-pinnacle")
    check(page, "baccarat", seen)
    place(page, "banker")
    page.click("#deal")
    idle(page)
    page.goto("/history")
    page.locator("#games tbody tr").first.click()
    expect(page.locator("#recall-picture svg.card").first).to_be_visible()
    check(page, "history", seen)
    page.goto("/status")
    expect(page.locator("main")).not_to_be_empty()
    check(page, "status", seen)
    page.goto("/operator")
    expect(page.locator("#login")).to_be_visible()
    check(page, "operator sign-in", seen)
    page.fill("#user", "admin")
    page.fill("#password", operator_password)
    page.click("#login button[type=submit]")
    expect(page.locator('#devices tr[data-role="shoe"]')).to_be_visible()
    check(page, "operator console", seen)
    assert not seen, seen

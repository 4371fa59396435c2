"""Issue 17 point 12 on the two families with pages of their own: axe-core finds no
serious or critical violation on the video poker machine (before the deal, holding, and
after the draw) nor on the poker room (seated, mid-hand with decisions offered, and the
hand's result). The other pages are in test_accessibility.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.kiosk_ui.browser.conftest import Served
from tests.kiosk_ui.browser.test_accessibility import violations
from tests.kiosk_ui.browser.test_poker_room import CALLING, play_hand, players, sit_down
from tests.kiosk_ui.browser.test_video_poker import deal, open_machine

pytestmark = pytest.mark.browser


def test_no_serious_violation_on_the_video_poker_machine(page: Page) -> None:
    seen: dict[str, list[str]] = {}
    for table in ("video-poker-jacks", "video-poker-european-slot", "video-poker-mystery"):
        open_machine(page, table)
        if bad := violations(page):
            seen[f"{table} before the deal"] = bad
        deal(page)
        if bad := violations(page):
            seen[f"{table} holding"] = bad
        deal(page)  # the draw
        if bad := violations(page):
            seen[f"{table} after the draw"] = bad
    assert not seen, seen


def test_no_serious_violation_in_the_poker_room(browser: Browser, server: Served) -> None:
    table = "poker-room-holdem-2-4"
    seen: dict[str, list[str]] = {}
    with players(browser, server, 2) as pages:
        sit_down(pages, server, table, (40, 50))
        view = pages[0].request.get(f"/api/rooms/{table}").json()
        actor = view["state"]["to_act"]
        acting = pages[actor if actor is not None else 0]
        expect(acting.locator("#decisions button").first).to_be_visible()
        if bad := violations(acting):
            seen["mid-hand, decisions offered"] = bad
        play_hand(pages, table, CALLING)
        expect(pages[0].locator("#result")).to_be_visible()
        if bad := violations(pages[0]):
            seen["the hand's result"] = bad
    assert not seen, seen

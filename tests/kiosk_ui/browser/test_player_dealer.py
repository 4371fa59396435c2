"""End-to-end: the California Player/Dealer (page 004), two players at one table.

One player takes the position the page offers and puts up a bank; the other plays a hand
against it; the bank pays and collects what it covers, the house nothing.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.kiosk_ui.browser.conftest import Served
from tests.kiosk_ui.browser.test_pages import START, Plan, idle, open_table, place, play_round

pytestmark = pytest.mark.browser

#: table -> the spots the other player bets, the decisions it prefers
TABLES = {
    "three-card-poker": (("ante",), ("play",)),
    "ultimate-texas-holdem": (("ante",), ("check", "fold")),  # the blind goes with the ante
    "blackjack-21st-century": (("main",), ("no-insurance", "stand")),
    "pai-gow-fortune": (("main",), ("house-way",)),
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_player_takes_the_player_dealer_position_and_banks_the_other(
    page: Page, browser: Browser, server: Served, table: str
) -> None:
    """004_20f479e9f2752085.txt: "If the player's hand qualifies for payouts, the player
    is paid by the player-dealer"; README "More readings": "the position is offered to
    each seated player in turn for two hands; a player who takes it puts up a bank"."""
    TABLE, (spots, prefer) = table, TABLES[table]
    open_table(page, f"{TABLE}?seat=0")
    take = page.locator("#take-player-dealer")
    expect(take).to_be_visible()
    expect(page.locator('#decisions button[data-decision="decline-bank"]')).to_be_visible()
    expect(page.locator("#player-dealer")).to_contain_text("offered to you")
    page.fill("#bank-amount", "200")
    take.click()
    idle(page)
    expect(page.locator("#player-dealer")).to_contain_text("Player/Dealer: you, bank $200.00")
    state = page.request.get(f"/api/tables/{TABLE}?seat=0").json()["state"]
    assert state["player_dealer"]["seat"] == 0 and state["player_dealer"]["bank"] == 20_000

    ctx = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
    try:
        other = ctx.new_page()
        other.set_default_timeout(15_000)
        open_table(other, f"{TABLE}?seat=1")
        expect(other.locator("#player-dealer")).to_contain_text(
            "Player/Dealer: seat 1, bank $200.00"
        )
        for spot in spots:
            place(other, spot)
        play_round(other, Plan(TABLE, spots[0], "deal", prefer))
        mine = other.request.get("/api/history").json()[0]
        net, fee = mine["net"], mine["collection"]
        bank_fee = page.request.get("/api/history").json()[0]["collection"]
        # the bank took the other side of every covered wager: its net is the player's on the
        # wagers, negated; each seat paid its own collection (004 "paying the appropriate
        # collection": the bank's on its bank, the README's schedule; a bank that covered
        # nothing played no hand and pays none)
        assert (fee > 0) == (bank_fee > 0), (mine, bank_fee)
        assert page.request.get("/api/me").json()["balance"] == START - (net + fee) - bank_fee
        assert other.request.get("/api/me").json()["balance"] == START + net
    finally:
        ctx.close()

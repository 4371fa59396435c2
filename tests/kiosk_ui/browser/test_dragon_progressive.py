"""End-to-end: the land pai gow table's dragon hand and the progressive meters on the pages.

shared/rules/001_4697bf24ec253ef9.txt (Pai Gow Poker Differences - Physical vs. Online):
"Physical: Players may play more than one hand when sitting at a Pai Gow table with fewer
players than hands. The extra hands are called "dragon" hands."
001 (Caribbean Stud Poker): "Each click stores one $1 chip. Every time you start a new game
round, one $1 chip is taken from the queue for the progressive jackpot side bet. You can
queue up to ten chips."
004: "There is also a progressive jackpot for 3-card poker".
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.core.cards import parse_cards
from games.pai_gow.house_way import house_way
from tests.kiosk_ui.browser.test_pages import (
    START,
    Plan,
    header_balance,
    idle,
    money,
    open_table,
    place,
    play_round,
    wallet,
)

pytestmark = pytest.mark.browser


def _view(page: Page, table: str) -> dict[str, Any]:
    out: dict[str, Any] = page.request.get(f"/api/tables/{table}?seat=0").json()
    return out


def _meter(page: Page, meter: str) -> int:
    return next(
        m["amount"] for m in page.request.get("/api/jackpots").json() if m["meter"] == meter
    )


def test_a_player_takes_sets_and_settles_a_dragon_hand(page: Page) -> None:
    """001, "Physical: ... The extra hands are called "dragon" hands." On the land table the
    page offers the dragon hand, shows its seven cards to its taker only, lets the player
    set it (the set decision with hand=1) and shows it revealed and settled as bet
    ``dragon``; the wallet agrees with the history."""
    table = "pai-gow-land"
    open_table(page, table)
    place(page, "main")
    page.click("#deal")
    idle(page)
    expect(page.locator("#dragon-offer")).to_contain_text("offered to you")
    page.click('#decisions button[data-decision="dragon"]')
    idle(page)
    expect(page.locator("#dragon-taker")).to_contain_text(f"played by you for {money(500)}")
    dragon = page.locator('[data-hand="dragon"] .card')
    expect(dragon).to_have_count(7)
    page.click('#decisions button[data-decision="house-way"]')  # the player's own hand
    idle(page)
    expect(page.locator('#decisions button[data-decision="set"]')).to_have_count(0)
    cards = _view(page, table)["state"]["dragon"]["cards"]
    assert len(cards) == 7
    low = {
        str(c) for c in house_way(parse_cards(" ".join(cards))).low
    }  # a setting that never fouls
    expect(page.locator("#dragon-set")).to_be_disabled()
    for i, c in enumerate(cards):
        if c in low:
            dragon.nth(i).click()
    expect(page.locator("#dragon-set")).to_be_enabled()
    page.click("#dragon-set")
    idle(page)
    expect(page.locator("body[data-over='true']")).to_be_attached()
    state = _view(page, table)["state"]
    assert state["dragon"]["setting"].split(" | ")[0].split() == [c for c in cards if c in low]
    settled = [s for s in state["settlements"] if s["bet"] == "dragon"]
    assert len(settled) == 1 and settled[0]["stake"] == 500 and "foul" not in settled[0]["note"]
    expect(page.locator('.pay[data-bet="dragon"]')).to_be_visible()
    expect(page.locator('[data-hand="dragon-low"] .card')).to_have_count(2)
    history = page.request.get("/api/history").json()
    assert [h["table"] for h in history] == [table]
    assert header_balance(page) == wallet(page) == START + history[0]["net"]


def test_the_three_card_progressive_spot_and_meter(page: Page) -> None:
    """004: "There is also a progressive jackpot for 3-card poker". The table page shows
    the meter (from /api/jackpots) and the $1 progressive spot; a round with the bet moves
    the meter by the bet's contribution, and the page shows the new amount."""
    table, meter = "three-card-poker", "three-card-poker"
    open_table(page, table)
    box = page.locator("#jackpot")
    expect(box).to_be_visible()
    before = _meter(page, meter)
    expect(page.locator("#jackpot-amount")).to_have_text(money(before))
    place(page, "ante")
    place(page, "progressive", chip=100)
    expect(page.locator('.spot[data-bet="progressive"] .stake')).to_have_text(money(100))
    play_round(page, Plan(table, "ante", "deal", ("play",)))
    after = _meter(page, meter)
    assert after != before
    expect(page.locator("#jackpot-amount")).to_have_text(money(after))
    history = page.request.get("/api/history").json()
    assert header_balance(page) == wallet(page) == START + history[0]["net"]


def test_the_stud_jackpot_chip_queue(page: Page) -> None:
    """001: "Each click stores one $1 chip. Every time you start a new game round, one $1
    chip is taken from the queue for the progressive jackpot side bet. You can queue up to
    ten chips." The page shows the queued chips with add and clear buttons; a round takes
    one chip as its jackpot bet and the meter moves; clear takes the rest back."""
    table, meter = "caribbean-stud", "caribbean-stud"
    open_table(page, table)
    queue = page.locator("#jackpot-queue")
    expect(queue).to_have_text("Jackpot chips queued: 0 of 10")
    expect(page.locator("#clear-jackpot-chips")).to_be_disabled()
    for n in (1, 2, 3):
        page.click("#jackpot-chip")
        idle(page)
        expect(queue).to_have_text(f"Jackpot chips queued: {n} of 10")
    assert wallet(page) == START  # a queued chip is not on the layout yet
    before = _meter(page, meter)
    expect(page.locator("#jackpot-amount")).to_have_text(money(before))
    place(page, "ante")
    play_round(page, Plan(table, "ante", "deal", ("call",)))
    history = page.request.get("/api/history").json()
    assert history[0]["game"] == _view(page, table)["game"]
    settled = _view(page, table)["state"]["settlements"]
    assert [s["stake"] for s in settled if s["bet"] == "jackpot"] == [100]
    after = _meter(page, meter)
    assert after != before
    expect(page.locator("#jackpot-amount")).to_have_text(money(after))
    expect(queue).to_have_text("Jackpot chips queued: 2 of 10")
    page.click("#clear-jackpot-chips")
    idle(page)
    expect(queue).to_have_text("Jackpot chips queued: 0 of 10")
    assert header_balance(page) == wallet(page) == START + history[0]["net"]

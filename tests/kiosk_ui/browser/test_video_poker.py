"""The video poker machine page in Chromium (issue 16): a hand dealt, holds changed, drawn
and paid; the High-Low double-up won and lost; the Mystery reel raising a line.

The server's RNG is the seeded simulator of a test-mode store (conftest), so every run
deals the same hands; each test still reads what was dealt from the server's view and the
log, and checks the page, the wallet and the history against it.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

START = 100_000  # demo credit, cents


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def idle(page: Page) -> None:
    expect(page.locator("body:not(.busy)")).to_be_attached()


def view(page: Page, table: str) -> dict[str, Any]:
    return dict(page.request.get(f"/api/tables/{table}").json())


def wallet(page: Page) -> int:
    return int(page.request.get("/api/me").json()["balance"])


def open_machine(page: Page, table: str) -> None:
    page.goto("/")
    page.locator(f'.tile[data-table="{table}"]').get_by_role("button", name="Play").click()
    expect(page).to_have_url(f"/video_poker/{table}")
    expect(page.locator("#title")).not_to_have_text("…")
    expect(page.locator("#denoms button").first).to_be_visible()
    idle(page)


def deal(page: Page) -> None:
    page.click("#deal-draw")
    # the first deal of a process may wait for the exact hold's counts (seconds of CPU)
    expect(page.locator("body:not(.busy)")).to_be_attached(timeout=60_000)


def test_a_hand_dealt_holds_changed_drawn_and_paid(page: Page) -> None:
    table = "video-poker-jacks"
    open_machine(page, table)
    expect(page.locator("#credits")).to_have_text("4,000")  # $1,000.00 in quarters
    page.click("#bet-one")  # two coins
    expect(page.locator("#coins")).to_have_text("2")
    expect(page.locator("#paytable thead th.lit")).to_have_text("2")
    deal(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "holding")
    st = view(page, table)["state"]
    auto = st["auto_hold"]
    for i in range(1, 6):  # the machine's hold is shown, on the card and on its button
        pressed = "true" if i in auto else "false"
        expect(page.locator(f"#hold-{i}")).to_have_attribute("aria-pressed", pressed)
    expect(page.locator(".vp-slot .auto", has_text="machine holds")).to_have_count(len(auto))
    page.click("#hold-1")  # the player changes the hold
    page.click(".vp-slot[data-pos='5'] .card")  # a card is a hold toggle too
    mine = sorted({1, 5} ^ set(auto))
    expect(page.locator("#deal-draw")).to_have_text("Draw")
    deal(page)
    expect(page.locator("body")).to_have_attribute("data-over", "true")
    st = view(page, table)["state"]
    assert st["held"] == mine and st["dealt"] != [] and len(st["cards"]) == 5
    for i in mine:  # held cards stayed
        assert st["cards"][i - 1] == st["dealt"][i - 1]
    paid = st["settlements"][0]["returned"]
    assert wallet(page) == START - 50 + paid
    expect(page.locator("#balance")).to_have_attribute("data-cents", str(START - 50 + paid))
    if st["line"]:
        expect(page.locator(f'#paytable tr.win[data-hand="{st["line"]}"]')).to_be_visible()
        expect(page.locator("#message")).to_contain_text(f"paid {money(paid)}")
    else:
        expect(page.locator("#message")).to_contain_text("No win")
    page.click("#vp-cash-out")  # the machine's Cash Out: the floor's voucher for the credits
    expect(page.locator("#cashout-dialog")).to_be_visible()
    expect(page.locator("#cashout-amount")).to_have_text(money(START - 50 + paid))
    page.click("#cashout-dialog button:has-text('Cancel')")
    page.goto("/history")
    page.locator("#games tbody tr").first.click()
    held = " ".join(map(str, mine))
    expect(page.locator("#recall-text")).to_contain_text(f"draw {held}")
    expect(page.locator("#recall-text")).to_contain_text("the machine holds")


def play_to_double_up(page: Page, table: str) -> dict[str, Any]:
    """Deal and draw on the machine's hold until a hand wins; its view then."""
    for _ in range(40):
        deal(page)
        deal(page)  # Draw
        st = view(page, table)["state"]
        if st["phase"] == "double-up":
            return dict(st)
    raise AssertionError("no winning hand in 40")


def test_double_up_won_and_lost_with_the_deck_counter(page: Page) -> None:
    table = "video-poker-european-slot"
    open_machine(page, table)
    expect(page.locator("#deck-left")).to_have_text("141")  # a fresh deck on entry
    deal(page)
    expect(page.locator("#deck-left")).to_have_text("136")
    deal(page)
    outcomes: set[bool] = set()
    for _ in range(20):
        if view(page, table)["state"]["phase"] != "double-up":
            st = play_to_double_up(page, table)
        else:
            st = view(page, table)["state"]
        expect(page.locator("#double-up")).to_be_visible()
        du = st["double_up"]
        expect(page.locator("#du-high")).to_have_text(str(du["high_left"]))
        expect(page.locator("#du-low")).to_have_text(str(du["low_left"]))
        before = wallet(page)
        win = st["win"]
        page.click("#half")  # Half Gamble: half to the credits, half at risk
        idle(page)
        expect(page.locator("#du-banked")).to_have_text(money(win - win // 2))
        call = "high" if du["high_left"] >= du["low_left"] else "low"
        page.click(f"#{call}")
        idle(page)
        st = view(page, table)["state"]
        card = st["double_up"]["cards"][-1]
        won = card["won"]
        expect(page.locator("#du-cards > div").last).to_have_class("won" if won else "lost")
        if won:
            expect(page.locator("#du-risk")).to_have_text(money(2 * (win // 2)))
            expect(page.locator("#du-wins")).to_have_text("1 of 5")
            page.click("#collect")
            idle(page)
            assert wallet(page) == before + (win - win // 2) + 2 * (win // 2)
        else:
            expect(page.locator("body")).to_have_attribute("data-over", "true")
            assert wallet(page) == before + (win - win // 2)  # only the half sent home
        assert view(page, table)["state"]["settlements"][0]["returned"] == wallet(page) - before
        outcomes.add(won)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}
    page.goto("/history")
    page.locator("#games tbody tr").first.click()
    expect(page.locator("#recall-text")).to_contain_text("called")


def test_the_mystery_reel_raises_a_line(page: Page) -> None:
    table = "video-poker-mystery"
    open_machine(page, table)
    expect(page.locator("#mystery")).to_be_visible()
    expect(page.locator("#mystery-stop")).to_contain_text("spins when you deal")
    page.click("#bet-max")  # five coins and the deal
    expect(page.locator("body:not(.busy)")).to_be_attached(timeout=60_000)
    st = view(page, table)["state"]
    stop = st["mystery"]
    expect(page.locator("#mystery-stop")).to_contain_text(stop["stop"])
    expect(page.locator("#reel span.stop")).to_have_text(stop["stop"])
    raised = next(r for r in st["paytable"] if r["raised"])
    assert raised["hand"] == stop["raised"]
    row = page.locator(f'#paytable tr.raised[data-hand="{raised["hand"]}"]')
    expect(row).to_be_visible()
    expect(row.locator("td.lit")).to_have_text(str(raised["pays"][4]))
    expect(page.locator("#paytable thead th.lit")).to_have_text("5")

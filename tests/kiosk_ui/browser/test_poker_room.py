"""End-to-end: poker rooms (issue 15) in real Chromium, one browser context per player.

Three players buy in at one hold'em table from the page and play a hand to the showdown,
each seeing only their own hole cards; a stud hand opens with the bring-in; an Omaha hand
with a short stack all in makes a side pot. Every decision is a button the room's view
listed, with its amount; the lobby shows each room's stakes and seated players.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from kiosk_ui.table.room import Room
from tests.kiosk_ui.browser.conftest import Served

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bo", "Cy")
CALLING = ("check", "call", "bring-in")
RAISING = ("raise", "bet", "complete", "call", "check", "bring-in")


@contextmanager
def players(browser: Browser, server: Served, n: int) -> Iterator[list[Page]]:
    """``n`` kiosks: a browser context each (a player session each)."""
    contexts = [
        browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
        for _ in range(n)
    ]
    pages = []
    errors: list[str] = []
    for ctx in contexts:
        pg = ctx.new_page()
        pg.set_default_timeout(20_000)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(pg)
    try:
        yield pages
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors on a room page: {errors}"


def sit_down(pages: list[Page], server: Served, table: str, amounts: tuple[int, ...]) -> None:
    """Each page names its player, opens the room and buys in at its seat (dollars)."""
    room = server.app.state.appliance.runtime.tables[table]
    assert isinstance(room, Room)
    room.hand_pause = 3_600.0  # the dealer waits until every test player is seated
    for seat, (pg, amount) in enumerate(zip(pages, amounts, strict=True)):
        assert pg.request.post("/api/players", data={"name": NAMES[seat]}).ok  # the kiosk's
        pg.goto(f"/room/{table}")
        expect(pg.locator("#title")).not_to_have_text("…")
        pg.select_option("#buy-seat", str(seat))
        pg.fill("#buy-amount", str(amount))
        pg.click("#buy-button")
        expect(pg.locator("#my-seat")).to_contain_text(f"Your seat {seat + 1}")
        expect(pg.locator(f'.room-seat[data-seat="{seat}"] .seat-stack')).to_have_text(
            f"${amount}.00"
        )
    room.hand_pause = 0.0  # deal now
    for pg in pages:
        expect(pg.locator(".room-seat .cards svg").first).to_be_visible()
    room.hand_pause = 3_600.0  # and leave that hand's result on show


def play_hand(pages: list[Page], table: str, prefer: tuple[str, ...]) -> list[str]:
    """Click, at the page whose turn it is, the first decision of ``prefer`` the page
    offers, until the hand is over; returns every decision label clicked."""
    clicked: list[str] = []
    deadline = time.monotonic() + 120  # a runaway loop's stop, not a speed check
    while time.monotonic() < deadline:
        view = pages[0].request.get(f"/api/rooms/{table}").json()
        if view["over"]:
            return clicked
        actor = view["state"]["to_act"]
        if actor is None:
            pages[0].wait_for_timeout(50)
            continue
        pg = pages[actor]
        mine = pg.request.get(f"/api/rooms/{table}").json()["state"]  # what the page shows
        offered = [o["name"] for o in mine["options"]]
        if not offered:  # the turn moved on meanwhile
            continue
        choice = next(d for d in prefer if d in offered)
        button = pg.locator(f'#decisions button[data-decision="{choice}"]').first
        expect(button).to_be_visible()
        clicked.append(button.inner_text())
        button.click()
    raise AssertionError("the hand did not end")


def own_cards_only(pages: list[Page], hidden: int) -> None:
    """Each page shows its own hole cards face up and every other seat's face down."""
    for seat, pg in enumerate(pages):
        mine = pg.locator(f'.room-seat[data-seat="{seat}"] svg.card')
        expect(mine.first).to_be_visible()
        assert pg.locator(f'.room-seat[data-seat="{seat}"] svg.card[data-card="back"]').count() == 0
        for other in range(len(pages)):
            if other != seat:
                backs = pg.locator(f'.room-seat[data-seat="{other}"] svg.card[data-card="back"]')
                expect(backs).to_have_count(hidden)


def test_three_players_play_a_holdem_hand_to_the_showdown(browser: Browser, server: Served) -> None:
    table = "poker-room-holdem-2-4"
    with players(browser, server, 3) as pages:
        sit_down(pages, server, table, (40, 50, 60))
        own_cards_only(pages, hidden=2)
        button = pages[0].locator(".room-button")
        expect(button).to_have_count(1)  # the dealer button
        expect(pages[0].locator(".room-bet")).to_have_count(2)  # the blinds in front
        clicked = play_hand(pages, table, CALLING)
        assert any(label.startswith("Call $") for label in clicked)  # amounts on the buttons
        for pg in pages:
            result = pg.locator("#result")
            expect(result).to_be_visible()
            expect(result).to_contain_text("wins")
            expect(result).to_contain_text(re.compile(r"(Ann|Bo|Cy) wins \$"))  # by name
            expect(pg.locator("#board svg.card")).to_have_count(5)
        pages[0].goto("/")  # the lobby's row: stakes and seated players
        row = pages[0].locator('.room-row[data-room="poker-room-holdem-2-4"]')
        expect(row).to_contain_text("Stakes $2.00/$4.00 fixed limit")
        expect(row).to_contain_text("3 of 9 seated: Ann")
        history = pages[1].request.get(f"/api/rooms/{table}/hands").text()
        assert history.startswith("PokerStars Hand #") and "Dealt to Bo [" in history


def test_a_stud_hand_opens_with_the_bring_in(browser: Browser, server: Served) -> None:
    table = "poker-room-stud-2-4"
    with players(browser, server, 3) as pages:
        sit_down(pages, server, table, (40, 40, 40))
        own_cards_only(pages, hidden=2)  # two down, one up: another's two down stay hidden
        view = pages[0].request.get(f"/api/rooms/{table}").json()
        low = pages[view["state"]["to_act"]]
        bring = low.locator('#decisions button[data-decision="bring-in"]')
        expect(bring).to_have_text("Bring in $1.00")  # half the lower limit (page 001)
        expect(low.locator('#decisions button[data-decision="complete"]')).to_have_text(
            "Complete to $2.00"
        )
        clicked = play_hand(pages, table, CALLING)
        assert clicked[0] == "Bring in $1.00"
        for pg in pages:
            expect(pg.locator("#result")).to_contain_text("wins")


def test_an_omaha_hand_with_a_short_stack_all_in_makes_a_side_pot(
    browser: Browser, server: Served
) -> None:
    table = "poker-room-omaha-2-4"
    with players(browser, server, 3) as pages:
        sit_down(pages, server, table, (20, 100, 100))  # seat 0: the minimum buy-in
        own_cards_only(pages, hidden=4)
        play_hand(pages, table, RAISING)  # everybody raises to the cap: seat 0 goes all in
        for pg in pages:
            expect(pg.locator("#result")).to_contain_text("pot 1")  # the side pot's award
        hands = pages[2].request.get(f"/api/rooms/{table}/hands").text()
        assert "Side pot" in hands and "and is all-in" in hands

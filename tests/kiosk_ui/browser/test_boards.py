"""Issue 17 point 8: craps, roulette and sic bo drawn as their layouts, tapped on the board.

Each board is the project's own SVG with a `.spot[data-bet]` button over every area: the
tests check that every bet the variant's limits name is a spot on the board (nothing in a
dropdown), that a tap places that very bet (the table's view on the server says so), that
every spot can be hit where it is drawn (the centre of each one is that spot, not a
neighbour drawn over it), that chips show as stacks in their denominations, that the puck
sits on the point and the wheel shows the number, and that the roll/deal/spin animations
run and are switched off under `prefers-reduced-motion`.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.kiosk_ui.browser.conftest import Served

pytestmark = pytest.mark.browser

KIOSK = {"width": 1920, "height": 1080}

# For each spot: is the element at its centre the spot itself (reachable by a tap there)?
REACHABLE = """bs => bs.filter(b => {
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(hit && hit.closest('.spot') === b);
}).map(b => b.dataset.bet)"""


def idle(page: Page) -> None:
    expect(page.locator("body:not(.busy)")).to_be_attached()


def open_table(page: Page, table: str) -> dict[str, Any]:
    page.set_viewport_size(KIOSK)
    page.goto(f"/table/{table}")
    expect(page.locator("#title")).not_to_have_text("…")
    page.wait_for_selector(".board .spot")
    idle(page)
    tables = page.request.get("/api/tables").json()
    meta: dict[str, Any] = next(t for t in tables if t["id"] == table)
    return meta


def tap(page: Page, bet: str, chip: int = 500) -> None:
    page.click(f'.chip[data-value="{chip}"]')
    page.click(f'.board .spot[data-bet="{bet}"]')
    idle(page)


def my_bets(page: Page, table: str) -> dict[str, int]:
    state = page.request.get(f"/api/tables/{table}").json()["state"] or {}
    bets = state.get("bets") or {}
    if "0" in bets and isinstance(bets["0"], dict):
        bets = bets["0"]
    return {k: v for k, v in bets.items() if isinstance(v, int) and v}


def slip_bets(page: Page) -> dict[str, int]:
    """The page's bet slip: the chips tapped, sent whole at Spin/Roll (craps places each)."""
    slip: dict[str, int] = page.evaluate("() => ({ ...S.slip })")
    return slip


def staked_last(page: Page) -> int:
    """What the last settled game staked: the slip reached the table in full."""
    return int(page.request.get("/api/history").json()[0]["staked"])


def board_bets(page: Page) -> list[str]:
    return page.locator(".board .spot").evaluate_all("bs => bs.map(b => b.dataset.bet)")


def test_every_bet_of_every_drawn_table_is_a_spot_on_its_board(page: Page) -> None:
    drawn = (
        "craps-pinnacle",
        "sicbo-macau",
        *(f"roulette-{v}" for v in ("single-zero", "double-zero", "la-partage")),
    )
    for table in drawn:
        meta = open_table(page, table)
        shown = board_bets(page)
        assert sorted(shown) == sorted(meta["limits"]), table  # each once, none missing
        assert page.locator("#spots select, #spots option").count() == 0, table  # no dropdown
        assert page.locator(".board svg.board-art").count() >= 1
        # every spot is hit where it is drawn: no target hides another one's centre
        assert page.locator(".board .spot").evaluate_all(REACHABLE) == [], table


def test_craps_taps_place_the_named_bets_with_stacks_and_the_puck_on_the_point(page: Page) -> None:
    open_table(page, "craps-pinnacle")
    expect(page.locator(".board .spot[data-bet='come']")).to_be_disabled()  # no point yet
    expect(page.locator(".puck-art.off")).to_have_count(1)
    tap(page, "pass", 2500)
    tap(page, "pass", 500)
    tap(page, "pass", 100)
    tap(page, "field", 500)
    assert my_bets(page, "craps-pinnacle") == {"pass": 3100, "field": 500}
    pass_spot = page.locator(".board .spot[data-bet='pass']")
    expect(pass_spot.locator(".stake")).to_have_text("$31.00")
    # the stack is drawn in denominations: one $25, one $5, one $1 chip
    chips = pass_spot.locator("svg.stack .chip-top").evaluate_all(
        "cs => cs.map(c => c.getAttribute('class'))"
    )
    assert sorted(chips) == ["chip-top d100", "chip-top d2500", "chip-top d500"]
    for _ in range(30):  # roll until a point is set (a 7/11/craps ends the game: bet again)
        view = page.request.get("/api/tables/craps-pinnacle").json()
        if view["state"] and view["state"]["table_point"] and not view["over"]:
            break
        if view["over"] or not view["state"]:
            tap(page, "pass", 500)
        page.click("#roll")
        idle(page)
    point = view["state"]["table_point"]
    puck = page.locator(f".puck-art.on[data-point='{point}']")
    expect(puck).to_have_count(1)
    box = page.locator(f".board .spot[data-bet='place-win-{point}']").bounding_box()
    disc = puck.locator("circle").bounding_box()
    assert box and disc
    assert box["x"] <= disc["x"] and disc["x"] + disc["width"] <= box["x"] + box["width"] + 1
    assert box["y"] <= disc["y"] and disc["y"] + disc["height"] <= box["y"] + box["height"] + 1
    before = my_bets(page, "craps-pinnacle")
    spots = page.request.get("/api/tables/craps-pinnacle/spots").json()
    wanted = ["pass-odds", "come", "dont-come", "place-win-6", "place-lose-5", "buy-4", "lay-10",
              "big-8", "hard-8", "any-7", "world", "crap-3", "any-craps"]  # fmt: skip
    placed = [b for b in wanted if b in spots["placeable"]]
    assert len(placed) >= 10, spots["placeable"]
    for bet in placed:
        tap(page, bet, 500)
    after = my_bets(page, "craps-pinnacle")
    assert {b: after.get(b, 0) - before.get(b, 0) for b in placed} == dict.fromkeys(placed, 500)
    # take a bet down on the board: the tools' button, then the spot
    page.click("#take-down-mode")
    page.click(".board .spot[data-bet='place-win-6']")
    idle(page)
    assert "place-win-6" not in my_bets(page, "craps-pinnacle")
    expect(page.locator(".board .spot[data-bet='place-win-6'] .stake")).to_have_count(0)


def test_roulette_inside_bets_are_tapped_on_the_board_and_the_wheel_shows_it(page: Page) -> None:
    zeros = {
        "roulette-single-zero": ["first-four", "trio-0-2-3", "split-0-3"],
        "roulette-double-zero": [
            "top-line",
            "trio-0-00-2",
            "split-0-00",
            "split-00-2",
            "split-0-2",
        ],
    }
    for table, extra in zeros.items():
        open_table(page, table)
        bets = ["straight-17", "split-17-20", "split-16-17", "corner-25-26-28-29", "street-7-8-9",
                "line-31-32-33-34-35-36", "column-2", "dozen-3", "red", "high", *extra]  # fmt: skip
        for bet in bets:
            tap(page, bet, 100)
        assert slip_bets(page) == dict.fromkeys(bets, 100), table
        page.click("#spin")
        idle(page)
        assert slip_bets(page) == {} and staked_last(page) == 100 * len(bets), table
        view = page.request.get(f"/api/tables/{table}").json()
        number = str(view["state"]["number"])
        expect(page.locator(".wheel-number")).to_have_attribute("data-number", number)
        expect(page.locator("svg.wheel .wheel-ball")).to_have_count(1)
        expect(page.locator(f".board .win-marker[data-number='{number}']")).to_have_count(1)
        assert page.locator(f"svg.wheel .pocket[data-pocket='{number}']").count() == 1
        spins = page.evaluate("() => document.body.dataset.spins")
        tap(page, "red", 100)  # the next game: the number stays in the marquee and the pocket
        expect(page.locator(".recent-numbers .recent").first).to_have_text(number)
        expect(page.locator("svg.wheel .wheel-ball")).to_have_count(1)
        assert page.evaluate("() => document.body.dataset.spins") == spins  # not spun again


def test_sicbo_is_tapped_on_its_layout(page: Page) -> None:
    open_table(page, "sicbo-macau")
    bets = ["small", "odd", "total-9", "double-3", "triple-6", "any-triple", "combo-2-5"]
    bets.append("single-4")
    for bet in bets:
        tap(page, bet, 100)
    assert slip_bets(page) == dict.fromkeys(bets, 100)
    # each drawn area shows its dice: a triple three, a combination two, a single one
    assert page.locator(".board svg.board-art .art-die").count() == 6 * 2 + 6 * 3 + 15 * 2 + 6
    page.click("#roll")
    idle(page)
    expect(page.locator("#felt svg.die")).to_have_count(3)
    assert slip_bets(page) == {} and staked_last(page) == 100 * len(bets)


def animation_of(page: Page, selector: str, cls: str) -> str:
    """The CSS animation an element gets with its animation class on (kept on, whatever the
    clock: the class comes off after the animation's time, which a slow machine may pass)."""
    name: str = page.locator(selector).first.evaluate(
        "(e, cls) => { e.classList.add(cls); return getComputedStyle(e).animationName; }", cls
    )
    return name


def motion(browser: Browser, server: Served, reduced: bool) -> dict[str, Any]:
    """Roll at craps, deal at blackjack, spin at roulette: the animation names each got."""
    ctx = browser.new_context(
        base_url=server.url, viewport=KIOSK, reduced_motion="reduce" if reduced else "no-preference"
    )
    page = ctx.new_page()
    out: dict[str, Any] = {}
    try:
        open_table(page, "craps-pinnacle")
        tap(page, "pass")
        page.click("#roll")
        idle(page)
        # the page counts what it animated: no timing in the test (a slow machine still passes)
        expect(page.locator("body[data-rolls='1']")).to_be_attached()
        out["dice"] = animation_of(page, "#felt svg.die", "rolling")
        page.goto("/table/blackjack-pinnacle")
        page.wait_for_selector(".spot[data-bet='main']")
        idle(page)
        page.click('.chip[data-value="500"]')
        page.click(".spot[data-bet='main']")
        idle(page)
        page.click("#deal")
        idle(page)
        expect(page.locator("body[data-deals]")).to_be_attached()
        out["cards"] = animation_of(page, "#felt svg.card", "deal-in")
        open_table(page, "roulette-single-zero")
        tap(page, "red")
        page.click("#spin")
        idle(page)
        expect(page.locator("body[data-spins='1']")).to_be_attached()
        out["wheel"] = animation_of(page, "svg.wheel .wheel-rotor", "spinning")
    finally:
        ctx.close()
    return out


def test_dice_cards_and_wheel_move_unless_reduced_motion_is_asked(
    browser: Browser, server: Served
) -> None:
    moving = {"dice": "roll", "cards": "deal-in", "wheel": "wheel-spin"}
    assert motion(browser, server, reduced=False) == moving
    assert motion(browser, server, reduced=True) == dict.fromkeys(moving, "none")

"""The floor terminal in Chromium (issue 17 points 10-11): the cash-out voucher and its
barcode, ticket-in at another kiosk, the cage, attendant calls and device faults on the
operator console without a reload, role management, the idle attract screen, and the
technician's status page at 1920 and 375 px."""

from __future__ import annotations

import dataclasses
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect

from kiosk_ui.web.app import create_app
from tests.kiosk_ui.browser.conftest import Served, _Server, settings_for

pytestmark = pytest.mark.browser

ITF = ["00110", "10001", "01001", "11000", "00101", "10100", "01100", "00011", "10010", "01010"]


def decode_itf(bars: list[tuple[float, float]]) -> str:
    """Read an Interleaved 2 of 5 symbol back from its bars ([x, width]): the spaces are
    the gaps between bars. Checks the start and stop patterns."""
    widths: list[float] = []
    for i, (x, w) in enumerate(bars):
        if i:
            widths.append(x - (bars[i - 1][0] + bars[i - 1][1]))
        widths.append(w)
    narrow = min(widths)
    bits = "".join("1" if w > 2 * narrow else "0" for w in widths)
    assert bits[:4] == "0000" and bits[-3:] == "100", "start or stop pattern missing"
    body, digits = bits[4:-3], ""
    assert len(body) % 10 == 0
    for k in range(0, len(body), 10):
        chunk = body[k : k + 10]
        digits += str(ITF.index(chunk[0::2])) + str(ITF.index(chunk[1::2]))
    return digits


def barcode(page: Page) -> str:
    bars: list[list[float]] = page.eval_on_selector_all(
        "#v-barcode rect", "rs => rs.map(r => [+r.getAttribute('x'), +r.getAttribute('width')])"
    )
    return decode_itf([(x, w) for x, w in bars])


def new_page(browser: Browser, server: Served, **kw: Any) -> Page:
    ctx = browser.new_context(base_url=server.url, **kw)
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    return pg


def sign_in(page: Page, password: str) -> None:
    page.goto("/operator")
    page.fill("#user", "admin")
    page.fill("#password", password)
    page.click("#login button[type=submit]")
    expect(page.locator("#console")).to_be_visible()


def test_cash_out_voucher_and_ticket_in_at_another_kiosk(
    page: Page, browser: Browser, server: Served
) -> None:
    page.goto("/?kiosk=K-A")
    expect(page.locator("#balance")).to_have_text("$1,000.00")
    page.click("#cash-out")
    expect(page.locator("#cashout-amount")).to_have_text("$1,000.00")
    page.click("#cashout-confirm")
    page.wait_for_url("**/voucher")
    assert "kiosk" not in page.url and page.url.endswith("/voucher")  # no number in the URL
    expect(page.locator("#v-amount")).to_have_text("$1,000.00")
    expect(page.locator("#v-words")).to_have_text("one thousand dollars and 00 cents")
    expect(page.locator("#v-kiosk")).to_have_text("K-A")
    printed = page.locator("#v-number").inner_text()
    number = printed.replace(" ", "")
    assert len(number) == 18 and printed.count(" ") == 4
    assert barcode(page) == number  # the bars scan back to the validation number
    expect(page.locator("#v-expires")).not_to_be_empty()
    # another kiosk, another player: ticket in
    other = new_page(browser, server)
    other.goto("/?kiosk=K-B")
    expect(other.locator("#balance")).to_have_text("$1,000.00")
    other.click("#ticket-in")
    other.fill("#ticket-number", printed)
    other.click("#ticket-confirm")
    expect(other.locator("#ticket-dialog .floor-msg")).to_contain_text("$1,000.00 added")
    expect(other.locator("#balance")).to_have_text("$2,000.00")
    # done: the voucher leaves this kiosk; a new session cannot redeem it again
    page.click("#done")
    page.wait_for_url(f"{server.url}/")
    page.goto("/voucher")
    expect(page.locator("#notice")).to_contain_text("No voucher to show")
    page.goto("/")
    page.click("#ticket-in")
    page.fill("#ticket-number", number)
    page.click("#ticket-confirm")
    expect(page.locator("#ticket-dialog .floor-msg")).to_contain_text("already paid")
    # a typo is told apart from a wrong number
    page.fill("#ticket-number", number[:-1] + str((int(number[-1]) + 1) % 10))
    page.click("#ticket-confirm")
    expect(page.locator("#ticket-dialog .floor-msg")).to_contain_text("mistyped")
    other.context.close()


def test_operator_console_shows_alarms_live_and_pays_at_the_cage(
    page: Page, browser: Browser, server: Served, operator_password: str
) -> None:
    sign_in(page, operator_password)
    expect(page.locator("#alarm-live")).to_contain_text("live")
    player = new_page(browser, server)
    player.goto("/table/blackjack-pinnacle")
    player.click("#call-attendant")
    expect(player.locator("#attendant-status")).to_contain_text("Attendant called")
    row = page.locator('#alarms tr[data-kind="attendant"]')
    expect(row).to_contain_text("attendant wanted at kiosk-1 (table blackjack-pinnacle)")
    row.get_by_role("button", name="Acknowledge").click()
    expect(row).to_contain_text("acknowledged by admin")
    expect(player.locator("#attendant-status")).to_contain_text(
        "An attendant is on the way", timeout=20_000
    )
    # a device fault reaches the console without a reload
    server.app.state.appliance.devices["dice"].close()
    expect(page.locator('#alarms tr[data-kind="device-fault"]')).to_contain_text("device dice")
    # the cage pays a voucher printed at a kiosk, once
    r = player.request.post("/api/vouchers", data={"amount": 2_550})
    number = r.json()["voucher"]["number"]
    page.click("#p-cage h3")  # nothing to reload: the list loaded at sign-in
    page.fill("#cage-number", number)
    page.click("#cage-form button[type=submit]")
    expect(page.locator("#notice")).to_contain_text("pay $25.50 in cash")
    expect(page.locator("#vouchers tbody tr").first).to_contain_text("redeemed · cage:admin")
    page.fill("#cage-number", number)
    page.click("#cage-form button[type=submit]")
    expect(page.locator("#notice")).to_contain_text("already paid")
    player.context.close()


def test_a_call_pressed_before_the_page_has_its_session_waits_for_it(
    browser: Browser, server: Served
) -> None:
    """A player who presses Call attendant while the table page is still starting their
    session (its POST /api/players not yet answered) gets the call, not 'no player
    session': the bar waits for the page's start and shares it (one session, not two).
    The start is held back here until after the press, so the order is certain."""
    player = new_page(browser, server)
    held: list[Any] = []
    player.route("**/api/players", lambda route: held.append(route))
    player.goto("/table/blackjack-pinnacle")
    player.click("#call-attendant")
    player.wait_for_timeout(300)  # the press's requests are under way, the start still held
    assert len(held) == 1, "the press started a second session beside the page's own"
    held[0].continue_()
    player.unroute("**/api/players")
    expect(player.locator("#attendant-status")).to_contain_text("Attendant called")
    expect(player.locator("#notice")).not_to_contain_text("no player session")
    player.context.close()


def test_the_pages_first_look_answered_late_never_wipes_a_call_made_since(
    browser: Browser, server: Served
) -> None:
    """The bar's first look at the player's call (GET /api/attendant, at mount) is
    answered 'no call' but reaches the page only after the player has pressed Call
    attendant and been answered: the call stays shown (only the latest request's answer
    counts). The look's answer is fetched from the server at once and held back in the
    page until after the press, so the order is certain."""
    player = new_page(browser, server)
    player.goto("/")  # a session first: the table page's look is then answered 200
    expect(player.locator("#balance")).to_have_text("$1,000.00")
    held: list[tuple[Any, Any]] = []

    def hold_first_look(route: Any) -> None:
        if held or route.request.method != "GET":
            route.continue_()
            return
        held.append((route, route.fetch()))  # answered now: no call yet

    player.route("**/api/attendant", hold_first_look)
    player.goto("/table/blackjack-pinnacle")
    player.click("#call-attendant")
    expect(player.locator("#attendant-status")).to_contain_text("Attendant called")
    assert len(held) == 1 and held[0][1].json()["call"] is None
    route, answer = held[0]
    route.fulfill(response=answer)  # the stale 'no call' arrives now
    player.wait_for_timeout(500)
    expect(player.locator("#attendant-status")).to_contain_text("Attendant called")
    expect(player.locator("#call-attendant")).to_have_text("Cancel call")
    player.context.close()


def test_admin_changes_an_operators_role(page: Page, operator_password: str) -> None:
    sign_in(page, operator_password)
    page.fill("#op-user", "tom")
    page.fill("#op-password", "tom's passphrase")
    page.select_option("#op-role", "operator")
    page.click("#op-add button[type=submit]")
    row = page.locator('#operators tr[data-user="tom"]')
    expect(row).to_contain_text("operator")
    row.locator("select.role-select").select_option("technician")
    row.get_by_role("button", name="Set role").click()
    expect(page.locator("#notice")).to_contain_text("tom is now technician")
    expect(row.locator("td").nth(1)).to_have_text("technician")
    # tom (technician) signs in: no Operators panel, and the API refuses him
    tom = page.context.browser.new_context(base_url=page.url.split("/operator")[0])  # type: ignore[union-attr]
    tp = tom.new_page()
    tp.goto("/operator")
    tp.fill("#user", "tom")
    tp.fill("#password", "tom's passphrase")
    tp.click("#login button[type=submit]")
    expect(tp.locator("#console")).to_be_visible()
    expect(tp.locator("#p-operators")).to_be_hidden()
    r = tp.request.post("/api/operator/operators/admin/role", data={"role": "auditor"})
    assert r.status == 403
    # the admin disables tom: his open console falls back to the sign-in form by itself
    expect(tp.locator("#alarm-live")).to_contain_text("live")
    page.locator('#operators tr[data-user="tom"]').get_by_role("button", name="Disable").click()
    expect(page.locator("#notice")).to_contain_text("tom disabled")
    page.request.post("/api/players", data={"name": "caller"})
    page.request.post("/api/attendant", data={"where": "lobby"})  # an event on the stream
    expect(tp.locator("#login")).to_be_visible(timeout=20_000)
    expect(tp.locator("#console")).to_be_hidden()
    tom.close()


def test_idle_brings_the_attract_screen_and_keeps_the_wallet(page: Page) -> None:
    page.clock.install()
    page.goto("/table/roulette-double-zero")
    expect(page.locator("#balance")).to_have_text("$1,000.00")
    expect(page.locator("#attract")).to_be_hidden()
    page.clock.fast_forward(121_000)  # [kiosk] idle_seconds = 120 (the default)
    page.wait_for_url("**/")
    expect(page.locator("#attract")).to_be_visible()
    expect(page.locator("#attract")).to_contain_text("Touch anywhere to play")
    page.locator("#attract").click()
    expect(page.locator("#attract")).to_be_hidden()
    expect(page.locator("#balance")).to_have_text("$1,000.00")  # at_idle = "keep"
    # idle in the lobby: the attract screen again
    page.clock.fast_forward(121_000)
    expect(page.locator("#attract")).to_be_visible()


@pytest.mark.parametrize("width", [1920, 375])
def test_status_page_is_a_readable_page_at_kiosk_and_phone_width(
    browser: Browser, server: Served, width: int
) -> None:
    pg = new_page(browser, server, viewport={"width": width, "height": 1000})
    pg.goto("/status")
    expect(pg.locator('#devices [data-role="shoe"]')).to_contain_text("ok")
    expect(pg.locator("#rng-main")).to_contain_text("Active source")
    expect(pg.locator('#tables [data-table="baccarat-live"]')).to_contain_text("open")
    expect(pg.locator("#floor-section")).to_be_hidden()  # one process: no floor to list
    assert "{" not in pg.locator("main").inner_text()  # no raw JSON on the page
    scroll = pg.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide at {width} px"
    assert pg.request.get("/api/status").json()["devices"]  # the JSON stays for machines
    pg.context.close()


@pytest.fixture
def voucher_at_idle(tmp_path: Path) -> Iterator[Served]:
    """A server whose kiosks pay the wallet to a voucher when idle ([kiosk] at_idle)."""
    settings = dataclasses.replace(settings_for(tmp_path / "store"), at_idle="voucher")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    app = create_app(settings)
    srv = _Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not srv.started:
        assert thread.is_alive(), "the test server did not start"
        threading.Event().wait(0.02)
    yield Served(f"http://127.0.0.1:{sock.getsockname()[1]}", app)
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


def test_idle_pays_the_wallet_to_a_voucher_when_configured(
    browser: Browser, voucher_at_idle: Served
) -> None:
    pg = new_page(browser, voucher_at_idle)
    pg.clock.install()
    pg.goto("/table/baccarat-pinnacle?kiosk=K-9")
    expect(pg.locator("#balance")).to_have_text("$1,000.00")
    first = pg.request.get("/api/me").json()["id"]
    pg.clock.fast_forward(121_000)
    pg.wait_for_url("**/voucher")
    expect(pg.locator("#v-amount")).to_have_text("$1,000.00")
    expect(pg.locator("#v-kiosk")).to_have_text("K-9")
    pg.click("#done")
    expect(pg.locator("#balance")).to_have_text("$1,000.00")  # a new session's demo credit
    assert pg.request.get("/api/me").json()["id"] != first  # the idle session ended
    pg.context.close()

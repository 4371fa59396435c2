"""End-to-end: a player bets behind another's seated hand on the table page (page 004,
21st Century Blackjack: "Multiple Players may bet on the same hand"; "The seated Player
will make the final decision on the hand")."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.kiosk_ui.browser.conftest import Served
from tests.kiosk_ui.browser.test_pages import START, header_balance, idle, money, wallet

pytestmark = pytest.mark.browser

TABLE = "blackjack-21st-century"


def _seated_player(server: Served) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(base_url=server.url, timeout=15)
    token = client.post("/api/players", json={"name": "Ann"}).json()["token"]
    return client, {"x-player-token": token}


def _act(client: httpx.Client, who: dict[str, str], **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/tables/{TABLE}/actions", json={"seat": 0, **body}, headers=who)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_player_bets_behind_a_seated_hand(page: Page, server: Served) -> None:
    """004, Game Rules 7: "Multiple Players may bet on the same hand." The page shows a
    backline spot behind Ann's occupied seat; the bet moves the wallet; Ann decides and
    the backline bet is settled with her hand."""
    ann, who = _seated_player(server)
    _act(ann, who, kind="place-bet", bet="main", amount=1000)
    page.goto(f"/table/{TABLE}?seat=1")
    expect(page.locator("#title")).not_to_have_text("…")
    spot = page.locator('.backline-spot[data-seat="0"]')
    expect(spot).to_be_visible()
    idle(page)
    page.click('.chip[data-value="500"]')
    spot.locator(".backline-bet").click()
    idle(page)
    expect(spot).to_contain_text(f"Behind seat 1 · {money(500)}")
    expect(page.locator("#backline-bets")).to_contain_text("(yours)")
    assert header_balance(page) == wallet(page) == START - 500
    body = _act(ann, who, kind="deal")
    while not body["over"]:
        choice = next(d for d in ("no-insurance", "stand") if d in body["view"]["legal"])
        body = _act(ann, who, kind="decide", decision=choice)
    page.reload()
    expect(page.locator("#backline-bets")).to_contain_text("(yours) · ")
    history = page.request.get("/api/history").json()
    assert [h["table"] for h in history] == [TABLE]
    assert header_balance(page) == wallet(page) == START + history[0]["net"]
    ann.close()

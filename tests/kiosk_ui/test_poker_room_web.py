"""A poker room over HTTP and its WebSocket feed (issue 15): three players and an observer
at one hold'em table. The attacker's view: no answer to anyone, no feed message and no
hand history shows a card before the rules show it to that viewer (another player's hole
cards before the showdown; a folded hand's, ever); forged or out-of-turn decisions are
refused and change nothing."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kiosk_ui.settings import parse
from kiosk_ui.store import log_records
from kiosk_ui.table.room import Room
from kiosk_ui.web.app import create_app

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")
TABLE = "poker-room-holdem-2-4"  # all_variants: one table per variant, the variant's id


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = parse(
        {
            "store": {"dir": str(tmp_path / "store"), "synchronous": "NORMAL"},
            "rng": {"source": "sim", "sim_seed": 21, "test_mode": True},
            "demo": {"enabled": True, "credit": 100_000},
            "lobby": {"all_variants": True},
            "operator": {"user": "admin", "password": "correct horse"},
            "seats": {"action_seconds": 600.0, "idle_seconds": 3600.0},
        },
        source="test",
    )
    with TestClient(create_app(settings)) as c:
        yield c


def _player(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201
    return {"x-player-token": r.json()["token"]}


def _room(client: TestClient) -> Room:
    room = client.app.state.appliance.runtime.tables[TABLE]  # type: ignore[attr-defined]
    assert isinstance(room, Room)
    return room


def _cards_dealt(client: TestClient, game: str) -> dict[str, str]:
    """Every card dealt this hand -> who saw it when dealt ("all" or a seat)."""
    conn = client.app.state.appliance.runtime.db.conn  # type: ignore[attr-defined]
    out = {}
    for line in log_records.game_lines(conn, game):
        rec = json.loads(line)
        if rec["type"] == "event" and rec["body"]["kind"] == "card-shown":
            out.setdefault(rec["body"]["card"], rec["body"]["to"])
    return out


def _hidden_from(dealt: dict[str, str], seat: int | None) -> set[str]:
    return {c for c, to in dealt.items() if to != "all" and to != str(seat)}


def _wait_for_hand(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 30  # the seat clock deals (a second's tick): not a timing assert
    while time.monotonic() < deadline:
        view = client.get(f"/api/rooms/{TABLE}", headers=who).json()
        if view["state"] is not None and not view["over"]:
            return view
        time.sleep(0.05)
    raise AssertionError("the room never dealt")


def test_nothing_hidden_leaves_the_server_and_only_the_engine_decides(
    client: TestClient,
) -> None:
    players = [_player(client, n) for n in ("Ann", "Bo", "Cy")]
    observer = _player(client, "Otto")
    for seat, who in enumerate(players):
        r = client.post(
            f"/api/rooms/{TABLE}/buy-in", json={"seat": seat, "amount": 4_000}, headers=who
        )
        assert r.status_code == 200, r.text
    lobby = {r["id"]: r for r in client.get("/api/rooms").json()}
    assert [p["name"] for p in lobby[TABLE]["seated"]] == ["Ann", "Bo", "Cy"]
    assert lobby[TABLE]["stakes"] == {"lower": 200, "higher": 400}
    seen: list[tuple[int | None, str, bool]] = []  # (viewer's seat, what it was sent, over)
    with client.websocket_connect(f"/api/ws/tables/{TABLE}") as feed:
        _room(client).hand_pause = 0.0
        view = _wait_for_hand(client, players[0])
        game = view["game"]
        feed_messages = [(feed.receive_text(), False)]  # the deal's notice
        folded = None
        while True:
            state = client.get(f"/api/rooms/{TABLE}", headers=players[0]).json()
            for seat, who in [*enumerate(players), (None, observer)]:
                body = client.get(f"/api/rooms/{TABLE}", headers=who)
                seen.append((seat, body.text, state["over"]))
                other = client.get(f"/api/tables/{TABLE}?seat=0", headers=who)
                seen.append((seat, other.text, state["over"]))
            if state["over"]:
                break
            actor = state["state"]["to_act"]
            others = [p for s, p in enumerate(players) if s != actor]
            forged = client.post(  # out of turn: refused, nothing changes
                f"/api/rooms/{TABLE}/decide", json={"decision": "fold"}, headers=others[0]
            )
            assert forged.status_code == 409 and "error" in forged.json()
            legal = {o["name"]: o for o in _options(client, players[actor])}
            choice = (
                "fold"
                if folded is None and "fold" in legal
                else next(d for d in ("check", "call") if d in legal)
            )
            folded = actor if choice == "fold" and folded is None else folded
            r = client.post(
                f"/api/rooms/{TABLE}/decide", json={"decision": choice}, headers=players[actor]
            )
            assert r.status_code == 200, r.text
            seen.append((actor, r.text, r.json()["over"]))
            feed_messages.append((feed.receive_text(), r.json()["over"]))
    dealt = _cards_dealt(client, game)
    assert len(_hidden_from(dealt, None)) == 6  # three hands of two hole cards
    for seat, text, over in seen:
        if not over:
            leaked = set(CARD.findall(text)) & _hidden_from(dealt, seat)
            assert not leaked, f"seat {seat} was sent {leaked} before the showdown"
    for message, over in feed_messages:  # the feed carries nothing hidden from anybody
        if not over:
            assert not set(CARD.findall(message)) & _hidden_from(dealt, None)
    assert folded is not None
    folded_cards = {c for c, to in dealt.items() if to == str(folded)}
    for seat, text, _over in seen:  # a folded hand is never shown, not even after the hand
        if seat != folded:
            assert not set(CARD.findall(text)) & folded_cards, f"seat {seat} saw a folded hand"
    for message, _over in feed_messages:
        assert not set(CARD.findall(message)) & folded_cards, "the feed showed a folded hand"
    for seat, who in enumerate(players):
        hands = client.get(f"/api/rooms/{TABLE}/hands", headers=who).text
        assert hands.startswith("PokerStars Hand #")
        mine = {c for c, to in dealt.items() if to == str(seat)}
        assert mine <= set(CARD.findall(hands))  # "Dealt to" the hero
        if seat != folded:
            assert not folded_cards & set(CARD.findall(hands)), "a folded hand was shown"
    observer_view = client.get(f"/api/rooms/{TABLE}", headers=observer).json()
    assert observer_view["seat"] is None and observer_view["state"]["options"] == []
    assert client.get(f"/api/operator/rooms/{TABLE}/hands").status_code == 401
    login = {"user": "admin", "password": "correct horse"}
    token = client.post("/api/operator/login", json=login).json()["token"]
    every = client.get(
        f"/api/operator/rooms/{TABLE}/hands", headers={"authorization": f"Bearer {token}"}
    )
    assert every.status_code == 200 and every.text.startswith("PokerStars Hand #")
    assert "Dealt to" not in every.text  # the operator's file shows what the table showed
    assert not set(CARD.findall(every.text)) & folded_cards


def _options(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    view = client.get(f"/api/rooms/{TABLE}", headers=who).json()
    options: list[dict[str, Any]] = view["state"]["options"]
    assert options and all(o["to"] >= 0 for o in options)  # every action with its amounts
    return options


def test_buy_in_and_leave_over_http_move_the_wallet(client: TestClient) -> None:
    ann = _player(client, "Ann")
    r = client.post(f"/api/rooms/{TABLE}/buy-in", json={"seat": 4, "amount": 500}, headers=ann)
    assert r.status_code == 409 and "minimum buy-in" in r.json()["error"]["message"]
    r = client.post(f"/api/rooms/{TABLE}/buy-in", json={"seat": 4, "amount": "4000"}, headers=ann)
    assert r.status_code == 422  # money is a JSON integer, never guessed from text
    r = client.post(f"/api/rooms/{TABLE}/buy-in", json={"seat": 4, "amount": 4_000}, headers=ann)
    assert r.json()["stack"] == 4_000
    assert client.get("/api/me", headers=ann).json()["balance"] == 96_000
    r = client.post(f"/api/rooms/{TABLE}/sit-out", headers=ann)
    assert r.json()["sitting_out"] is True
    view = client.get(f"/api/rooms/{TABLE}", headers=ann).json()
    assert view["sitting_out"] and view["players"][0]["sitting_out"]
    r = client.post(f"/api/rooms/{TABLE}/return", headers=ann)
    assert r.json()["sitting_out"] is False
    assert not client.get(f"/api/rooms/{TABLE}", headers=ann).json()["sitting_out"]
    r = client.post(f"/api/rooms/{TABLE}/leave", headers=ann)
    assert r.json()["freed"] == "now" and r.json()["balance"] == 100_000
    r = client.post(f"/api/tables/{TABLE}/sit?seat=4", headers=ann)
    assert r.status_code == 409  # a poker seat is bought, never taken by a bet's request
    r = client.post(
        "/api/rooms/baccarat-pinnacle/buy-in", json={"seat": 0, "amount": 4_000}, headers=ann
    )
    assert r.status_code == 404
    audit = client.app.state.appliance.runtime.audit()  # type: ignore[attr-defined]
    assert audit["stacks"] == 0 and audit["total"] == 0

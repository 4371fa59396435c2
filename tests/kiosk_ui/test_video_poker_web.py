"""Video poker through the HTTP API (issue 16): no response shows a card before it is
dealt, and forged, out-of-turn or repeated requests change nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .test_app import CARD, _shoe, act, client, new_player

__all__ = ["client"]  # the fixture, imported for these tests

TABLE = "video-poker-jacks"


def deal(client: TestClient, who: dict[str, str], amount: int = 125):
    return client.post(
        f"/api/tables/{TABLE}/round", json={"bets": {"coin-25": amount}}, headers=who
    )


def test_no_response_shows_a_card_before_it_is_dealt(client: TestClient) -> None:
    who = new_player(client)
    for _ in range(8):
        r = deal(client, who)
        assert r.status_code == 200, r.text
        game = r.json()["game"]
        order, dealt = _shoe(client, game)
        assert dealt == 5
        view = client.get(f"/api/tables/{TABLE}", headers=who)
        for text in (r.text, view.text):
            assert set(CARD.findall(text)) <= set(order[:5]), "an undealt card was shown"
        held = view.json()["state"]["auto_hold"]
        r = act(client, who, TABLE, kind="decide", decision="draw", arg=" ".join(map(str, held)))
        assert r.status_code == 200 and r.json()["over"], r.text
        order, dealt = _shoe(client, game)
        assert dealt == 10 - len(held)
        assert set(CARD.findall(r.text)) <= set(order[:dealt])


def test_forged_out_of_turn_and_repeated_requests_change_nothing(client: TestClient) -> None:
    who = new_player(client)
    start = client.get("/api/me", headers=who).json()["balance"]
    r = deal(client, who, amount=150)  # six coins
    assert 400 <= r.status_code < 500 and "at most 5 coins" in r.text
    assert client.get("/api/me", headers=who).json()["balance"] == start
    assert deal(client, who).status_code == 200
    for decision, arg, why in (("high", "", "hold your cards"), ("draw", "6", "positions 1 to 5")):
        r = act(client, who, TABLE, kind="decide", decision=decision, arg=arg)
        assert 400 <= r.status_code < 500 and why in r.text, r.text
    key = {"Idempotency-Key": "draw-once", **who}
    body = {"kind": "decide", "decision": "draw", "arg": "1 2 3 4 5"}
    first = client.post(f"/api/tables/{TABLE}/actions", json=body, headers=key)
    again = client.post(f"/api/tables/{TABLE}/actions", json=body, headers=key)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    paid = first.json()["view"]["state"]["settlements"][0]["returned"]
    assert client.get("/api/me", headers=who).json()["balance"] == start - 125 + paid
    history = client.get("/api/history", headers=who).json()
    assert len(history) == 1 and history[0]["net"] == paid - 125

"""Backline bets through the API and the runtime: one player seated, one betting behind.

Page 004, 21st Century Blackjack, Game Rules 7 and 8: "Multiple Players may bet on the same
hand." / "The seated Player will make the final decision on the hand."
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.collection import README_DEFAULT
from games.core.records import Deal, Decide, PlaceBet, RemoveBet
from kiosk_ui.store import ledger
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.web.app import create_app
from tests.kiosk_ui.conftest import seeded_outcomes
from tests.kiosk_ui.test_app import act, new_player, settings_for

TABLE = "blackjack-21st-century"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings_for(tmp_path / "store"))
    with TestClient(app) as c:
        yield c


def _runtime(client: TestClient) -> Any:
    return client.app.state.appliance.runtime  # type: ignore[attr-defined]


def _balance(client: TestClient, who: dict[str, str]) -> int:
    return int(client.get(f"/api/tables/{TABLE}", headers=who).json()["balance"])


def _play_out(client: TestClient, who: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    """The seated player answers every decision (no insurance, stand) until the game ends."""
    while not body["over"]:
        legal = body["view"]["legal"]
        choice = next(d for d in ("no-insurance", "stand") if d in legal)
        r = act(client, who, TABLE, kind="decide", decision=choice, seat=0)
        assert r.status_code == 200, r.text
        body = r.json()
    return body


def test_a_player_without_a_seat_bets_behind_the_seated_hand(client: TestClient) -> None:
    """004 Game Rules 7 "Multiple Players may bet on the same hand" and 8 "The seated Player
    will make the final decision on the hand": Bo holds no seat, bets behind Ann's seat 0
    through the bet route (``backline: true``), may not deal or decide, and is settled with
    Ann's hand from his own wallet; the ledger audits and the game replays."""
    ann, bo = new_player(client), new_player(client)
    start = _balance(client, bo)
    r = act(client, ann, TABLE, kind="place-bet", seat=0, bet="main", amount=1000)
    assert r.status_code == 200, r.text
    r = act(client, bo, TABLE, kind="place-bet", seat=0, bet="main", amount=500, backline=True)
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert r.json()["balance"] == start - 500
    view = client.get(f"/api/tables/{TABLE}", headers=bo).json()
    assert view["seats"] == {"0": "taken"} and not view["seated"]
    position = view["behind"]["0"]
    assert view["state"]["backline"] == [
        {"position": position, "seat": 0, "stake": 500, "result": ""}
    ]
    rt = _runtime(client)
    assert rt.seats_held(client.get("/api/me", headers=bo).json()["id"]) == 0
    refused = act(client, bo, TABLE, kind="deal", seat=0, backline=True)
    assert refused.status_code == 409 and "seated player decides" in refused.text
    refused = act(client, bo, TABLE, kind="deal", seat=position)
    assert refused.status_code in (409, 422)
    r = act(client, ann, TABLE, kind="deal", seat=0)
    assert r.status_code == 200, r.text
    if not r.json()["over"]:
        refused = act(client, bo, TABLE, kind="decide", decision="stand", seat=0, backline=True)
        assert refused.status_code == 409
    _play_out(client, ann, r.json())
    replayed = rt.replay(game)
    assert replayed is not None and replayed.matches
    settled = {s.seat: s for s in replayed.engine.settlements}
    ann_main, bo_main = settled[0], settled[position]
    assert bo_main.result == ann_main.result and bo_main.stake == 500
    assert _balance(client, bo) == start - 500 + bo_main.returned
    rt.audit()


def test_backline_bets_count_for_no_seat_limit_and_need_a_seated_hand(
    client: TestClient,
) -> None:
    """A backline bet needs someone seated to follow ("Multiple Players may bet on the same
    hand"), never the bettor's own seat, and holds no seat: the backliner may still take
    seats up to the limit."""
    ann, bo = new_player(client), new_player(client)
    bet = {"kind": "place-bet", "bet": "main", "amount": 500, "backline": True}
    r = act(client, bo, TABLE, seat=3, **bet)
    assert r.status_code == 409 and "nobody sits in seat 3" in r.text
    assert act(client, ann, TABLE, kind="place-bet", seat=0, bet="main", amount=1000).is_success
    r = act(client, ann, TABLE, seat=0, **bet)
    assert r.status_code == 409 and "is yours" in r.text
    assert act(client, bo, TABLE, seat=0, **bet).is_success
    for seat in (1, 2):  # the seat limit (2 per table) counts Bo's seats only
        assert client.post(f"/api/tables/{TABLE}/sit?seat={seat}", headers=bo).is_success
    r = act(client, bo, TABLE, seat=0, kind="remove-bet", bet="main", backline=True)
    assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{TABLE}", headers=bo).json()["state"]["backline"] == []


def test_other_tables_refuse_backline_bets_in_their_words(client: TestClient) -> None:
    """004, 6 Card Bonus: "Backline betting may not be permitted on the 6 Card Bonus
    wager."; a game of one's own has no seated hand to bet behind."""
    ann, bo = new_player(client), new_player(client)
    r = act(client, ann, "three-card-poker", kind="place-bet", seat=0, bet="ante", amount=500)
    assert r.status_code == 200, r.text
    bonus = {"kind": "place-bet", "seat": 0, "amount": 500, "backline": True}
    r = act(client, bo, "three-card-poker", bet="six-card-bonus", **bonus)
    assert r.status_code == 409
    assert "Backline betting may not be permitted on the 6 Card Bonus wager" in r.text
    r = act(client, bo, "three-card-poker", bet="ante", **bonus)
    assert r.status_code == 409 and "no backline bet" in r.text
    r = act(client, bo, "blackjack-pinnacle", bet="main", **bonus)
    assert r.status_code == 409 and "no seated hand" in r.text


def _house(rt: Runtime) -> int:
    with rt.db.read() as tx:
        return int(tx.ledger.balance(ledger.HOUSE))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    stakes=st.lists(st.sampled_from([0, 100, 500, 2500]), min_size=3, max_size=3),
)
def test_backline_chips_are_conserved_and_settled_once(
    tmp_path_factory: pytest.TempPathFactory, seed: int, stakes: list[int]
) -> None:
    """Through the runtime and its ledger ("Multiple Players may bet on the same hand"):
    Ann plays seat 0, three players bet behind her (some nothing, some take it down again);
    every chip placed leaves the layout once, settled with her hand or returned; the
    wallets and the house account for every cent and the ledger audits."""
    rt = Runtime(tmp_path_factory.mktemp("rt") / "store", synchronous="NORMAL", create=True)
    table = rt.open_table("bj", TABLE, seeded_outcomes(seed))
    ann = rt.create_player("Ann")
    backers = [rt.create_player(f"B{i}") for i in range(3)]
    for p in (ann, *backers):
        rt.cash_in(p, 100_000, operator="cage")
    house_before = _house(rt)
    table.sit(0, ann)
    table.act(PlaceBet(seat=0, bet="main", amount=1000))
    placed: dict[int, int] = {}
    for who, amount in zip(backers, stakes, strict=True):
        if not amount:
            continue
        position = table.behind(0, who, "main", placing=True)
        table.sit_behind(position, who)
        table.act(PlaceBet(seat=position, bet="main", amount=amount))
        placed[position] = amount
        if amount == 100:  # this one changes their mind
            table.act(RemoveBet(seat=position, bet="main"))
            del placed[position]
    game = table.game
    result = table.act(Deal(seat=0))
    while not result.over:
        legal = result.view["legal"]
        choice = next(d for d in ("no-insurance", "stand") if d in legal)
        result = table.act(Decide(seat=0, decision=choice))
    assert game is not None
    replayed = rt.replay(game)
    assert replayed is not None and replayed.matches
    settled = [s for s in replayed.engine.settlements if s.seat in placed]
    assert sorted(s.seat for s in settled) == sorted(placed)  # each once
    assert all(s.stake == placed[s.seat] for s in settled)
    ann_result = next(s.result for s in replayed.engine.settlements if s.seat == 0)
    assert all(s.result == ann_result for s in settled)
    with rt.db.read() as tx:
        assert tx.ledger.balance(ledger.stakes("bj")) == 0
    wallets = sum(rt.balance(p) for p in (ann, *backers))
    with rt.db.read() as tx:  # page 004's collection: the seated hand pays it
        collected = tx.ledger.balance(ledger.COLLECTION)
    assert collected == README_DEFAULT.fee(1000)
    # every cent accounted for
    assert wallets + _house(rt) + collected == 4 * 100_000 + house_before
    nets = {p: rt.balance(p) - 100_000 for p in backers}
    for s in settled:
        who = table.seats[s.seat]
        assert nets[who] == s.returned - s.stake
    assert rt.seats_held(backers[0]) == 0
    rt.audit()
    rt.close()

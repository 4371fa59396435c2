"""Issue 12, C11: nobody can block the floor (real uvicorn server, real store).

The attacks: one anonymous player takes every seat of every table; a refused bet still
seats its player; suspend, void and resume free no seat; an absent player stalls a
shared game forever. Each test drives the served app over HTTP and polls (never
asserting on time) where a timer does the work.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from kiosk_ui.store.log_records import lines as log_lines
from tests.security.conftest import (
    OPERATOR_PASSWORD,
    Process,
    Served,
    demo_settings,
    write_config,
)

ServeFn = Callable[[dict[str, Any]], Served]
_OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Any:
    yield
    while _OPEN:
        _OPEN.pop().close()


def client(url: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    _OPEN.append(c)
    return c


class Player:
    """An anonymous player session (what any browser gets from POST /api/players)."""

    def __init__(self, url: str, name: str) -> None:
        self.http = client(url)
        r = self.http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        self.http.headers["x-player-token"] = r.json()["token"]
        self.id: str = r.json()["player"]["id"]

    def view(self, table: str, seat: int = 0) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table}", params={"seat": seat})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def sit(self, table: str, seat: int) -> httpx.Response:
        return self.http.post(f"/api/tables/{table}/sit", params={"seat": seat})

    def act(self, table: str, seat: int = 0, **body: Any) -> httpx.Response:
        return self.http.post(f"/api/tables/{table}/actions", json={"seat": seat, **body})

    def balance(self) -> int:
        return int(self.http.get("/api/me").json()["balance"])


def operator(url: str) -> httpx.Client:
    c = client(url)
    r = c.post("/api/operator/login", json={"user": "admin", "password": OPERATOR_PASSWORD})
    assert r.status_code == 200, r.text
    c.headers["authorization"] = f"Bearer {r.json()['token']}"
    return c


def settings(tmp_path: Path, **seats: Any) -> dict[str, Any]:
    data = demo_settings(tmp_path / "store")
    data["tables"] = [
        {"id": "ez", "variant": "baccarat-ez"},
        {"id": "tcp", "variant": "three-card-poker"},
        {"id": "bj", "variant": "blackjack-pinnacle"},
        {"id": "uth", "variant": "ultimate-texas-holdem"},
    ]
    if seats:
        data["seats"] = seats
    return data


def taken(p: Player, table: str) -> set[str]:
    """The seats another player sees taken at ``table``."""
    return {s for s, who in p.view(table)["seats"].items() if who == "taken"}


def until(check: Callable[[], bool], what: str) -> None:
    """Poll until ``check()`` holds; fail naming ``what`` if it never does."""
    for _ in range(600):
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def log_records(served: Served) -> list[dict[str, Any]]:
    conn = served.app.state.appliance.runtime.db.conn
    with served.app.state.appliance.runtime.db.lock:
        return [json.loads(x) for x in log_lines(conn)]


def finish_round(p: Player, table: str, seat: int = 0) -> dict[str, Any]:
    """Play the seat's decisions passively until its game is over."""
    for _ in range(40):
        v = p.view(table, seat)
        if v["over"]:
            return v
        legal = v["legal"]
        choice = next((d for d in ("no-insurance", "stand", "play") if d in legal), None)
        if choice is None:
            time.sleep(0.05)
            continue
        r = p.act(table, seat, kind="decide", decision=choice)
        assert r.status_code == 200, r.text
    raise AssertionError(f"the game at {table} did not finish")


# --- the attacks ------------------------------------------------------------------


def test_one_player_cannot_take_every_seat_of_every_table(served: ServeFn, tmp_path: Path) -> None:
    data = settings(tmp_path)
    data["lobby"] = {"all_variants": True}
    srv = served(data)
    hog, other = Player(srv.url, "hog"), Player(srv.url, "other")
    tables = client(srv.url).get("/api/tables").json()
    assert len(tables) >= 28
    tried = refused = 0
    for t in tables:
        for seat in range(t["seats"]):
            tried += 1
            r = hog.sit(t["id"], seat)
            if r.status_code != 200:
                assert r.status_code == 409 and r.json()["error"]["code"] == "seat", r.text
                refused += 1
    assert tried >= 87 and refused > 0
    blocked = {t["id"]: taken(other, t["id"]) for t in tables}
    assert sum(len(s) for s in blocked.values()) <= 4  # [seats] floor, the default
    assert all(len(s) <= 2 for s in blocked.values())  # [seats] per_table
    # Every one-seat RNG game is the other player's own: none of them is blocked.
    r = other.http.post(
        "/api/tables/blackjack-pinnacle/round", json={"seat": 0, "bets": {"main": 500}}
    )
    assert r.status_code == 200, r.text
    # At the floor limit a new seat is refused; leaving one frees it for a new one.
    free = next(t["id"] for t in tables if t["seats"] > 1 and not blocked[t["id"]])
    assert hog.sit(free, 1).status_code == 409
    held = next(tid for tid, s in blocked.items() if s)
    seat = int(sorted(blocked[held])[0])
    r = hog.http.post(f"/api/tables/{held}/leave", params={"seat": seat})
    assert r.json()["freed"] == "now", r.text
    assert hog.sit(free, 1).status_code == 200


def test_a_refused_bet_takes_no_seat(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    r = ann.http.post("/api/tables/ez/round", json={"seat": 3, "bets": {"player": 60_000}})
    assert r.status_code == 409, r.text
    r = ann.act("ez", 4, kind="place-bet", bet="tie", amount=7)  # below the minimum
    assert r.status_code == 409, r.text
    assert taken(bo, "ez") == set()
    assert bo.sit("ez", 3).status_code == 200
    assert bo.sit("ez", 4).status_code == 200
    assert ann.balance() == 100_000


def test_two_players_each_play_their_own_one_seat_game(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    # Ann opens a game and walks away in the middle of it; Bo plays on regardless.
    a = ann.act("bj", kind="place-bet", bet="main", amount=1_000)
    assert a.status_code == 200, a.text
    b = bo.act("bj", kind="place-bet", bet="main", amount=2_000)
    assert b.status_code == 200, b.text
    assert a.json()["game"] != b.json()["game"]
    assert bo.view("bj")["seats"] == {"0": "you"}
    games = set()
    for _ in range(3):  # interleaved: neither waits on the other
        for p in (bo, ann):
            r = p.act("bj", kind="deal")
            if r.status_code == 409:  # the round was already dealt
                r = p.http.post("/api/tables/bj/round", json={"seat": 0, "bets": {"main": 1_000}})
            assert r.status_code == 200, r.text
            games.add(r.json()["game"])
        for p in (ann, bo):
            finish_round(p, "bj")
    assert len(games) == 6
    for p in (ann, bo):
        history = p.http.get("/api/history").json()
        assert len(history) == 3
        for h in history:
            recall = p.http.get(f"/api/history/{h['game']}").json()
            assert recall["matches"], recall
    op = operator(srv.url)
    assert op.post("/api/operator/log/verify").json()["ok"]
    assert op.get("/api/operator/audit").json()["ok"]


def test_suspend_void_resume_free_the_seats(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path))
    ann, bo, cy = Player(srv.url, "ann"), Player(srv.url, "bo"), Player(srv.url, "cy")
    assert ann.sit("ez", 0).status_code == 200  # seated, nothing on the layout
    assert bo.act("ez", 1, kind="place-bet", bet="banker", amount=1_000).status_code == 200
    op = operator(srv.url)
    assert op.post("/api/operator/tables/ez/suspend", json={"reason": "jam"}).status_code == 200
    assert taken(cy, "ez") == {"1"}  # suspended: only the seat with stakes is kept
    r = op.post("/api/operator/tables/ez/void", json={"reason": "jam"})
    assert r.json()["returned"] == {"1:banker": 1_000}, r.text
    assert taken(cy, "ez") == set()  # voided: nothing is on the layout, every seat is free
    assert op.post("/api/operator/tables/ez/resume").status_code == 200
    assert cy.sit("ez", 0).status_code == 200 and cy.sit("ez", 1).status_code == 200
    assert bo.balance() == 100_000
    # A per-player table: suspend and void reach every player's own game.
    assert ann.act("bj", kind="place-bet", bet="main", amount=1_500).status_code == 200
    assert bo.act("bj", kind="place-bet", bet="main", amount=2_500).status_code == 200
    assert op.post("/api/operator/tables/bj/suspend", json={"reason": "tilt"}).status_code == 200
    assert ann.act("bj", kind="deal").status_code == 423
    assert bo.act("bj", kind="deal").status_code == 423
    r = op.post("/api/operator/tables/bj/void", json={"reason": "tilt"})
    assert sorted(r.json()["games"].values(), key=str) == [{"0:main": 1_500}, {"0:main": 2_500}]
    assert op.post("/api/operator/tables/bj/resume").status_code == 200
    assert ann.balance() == 100_000 and bo.balance() == 100_000
    r = ann.http.post("/api/tables/bj/round", json={"seat": 0, "bets": {"main": 1_000}})
    assert r.status_code == 200, r.text
    assert op.post("/api/operator/log/verify").json()["ok"]
    assert op.get("/api/operator/audit").json()["ok"]


def test_leave_and_the_operator_free_a_seat(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    assert ann.sit("ez", 0).status_code == 200
    r = ann.http.post("/api/tables/ez/leave", params={"seat": 0})
    assert r.status_code == 200 and r.json()["freed"] == "now", r.text
    assert bo.sit("ez", 0).status_code == 200
    # A seat with a bet down is freed when its game ends, not before (its bet is Ann's).
    assert ann.act("ez", 1, kind="place-bet", bet="player", amount=1_000).status_code == 200
    r = ann.http.post("/api/tables/ez/leave", params={"seat": 1})
    assert r.json()["freed"] == "after the game"
    assert bo.sit("ez", 1).status_code == 409
    assert bo.http.post("/api/tables/ez/round", json={"seat": 0, "bets": {"tie": 100}}).json()[
        "over"
    ]
    assert "1" not in taken(bo, "ez")
    # The operator frees a seat a player holds (and the log names the operator).
    assert ann.sit("ez", 2).status_code == 200
    op = operator(srv.url)
    r = op.post("/api/operator/tables/ez/seats/2/free")
    assert r.status_code == 200 and r.json()["when"] == "now", r.text
    assert bo.sit("ez", 2).status_code == 200
    freed = [x for x in log_records(srv) if x["type"] == "seat-freed"]
    assert freed and freed[-1]["source"] == "operator:admin"
    assert freed[-1]["body"]["player"] == ann.id


def test_an_idle_seat_is_freed(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path, idle_seconds=0.3))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    assert ann.sit("ez", 5).status_code == 200
    until(lambda: "5" not in taken(bo, "ez"), "the idle seat is freed")
    assert bo.sit("ez", 5).status_code == 200


def test_an_absent_player_is_defaulted_by_the_action_clock(served: ServeFn, tmp_path: Path) -> None:
    srv = served(settings(tmp_path, action_seconds=0.3))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    assert ann.act("tcp", 0, kind="place-bet", bet="ante", amount=500).status_code == 200
    r = bo.http.post("/api/tables/tcp/round", json={"seat": 1, "bets": {"ante": 500}})
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    # Both seats are dealt in; Bo plays, Ann never comes back.
    assert bo.act("tcp", 1, kind="decide", decision="play").status_code == 200
    until(lambda: bo.view("tcp", 1)["over"], "Bo's round completes")
    assert ann.view("tcp", 0)["sitting_out"]
    timeouts = [
        x
        for x in log_records(srv)
        if x["type"] == "action" and x["game"] == game and x["source"] == "timeout"
    ]
    assert [(t["body"]["seat"], t["body"]["decision"]) for t in timeouts] == [(0, "fold")]
    recall = bo.http.get(f"/api/history/{game}").json()
    assert recall["matches"], recall
    op = operator(srv.url)
    assert op.post("/api/operator/log/verify").json()["ok"]
    assert op.get("/api/operator/audit").json()["ok"]


def test_per_player_games_survive_a_crash(
    serve_process: Callable[..., Process], tmp_path: Path
) -> None:
    config = write_config(tmp_path, settings(tmp_path))
    first = serve_process(config)
    ann, bo = Player(first.url, "ann"), Player(first.url, "bo")
    open_games = {}
    for p, stake in ((ann, 1_000), (bo, 2_000)):
        r = p.act("bj", kind="place-bet", bet="main", amount=stake)
        assert r.status_code == 200, r.text
        open_games[p.id] = r.json()["game"]
    assert len(set(open_games.values())) == 2
    first.proc.kill()
    first.proc.wait()
    second = serve_process(config)
    for p in (ann, bo):  # the same sessions, on the restarted server
        p.http.base_url = httpx.URL(second.url)
        r = p.act("bj", kind="deal")
        assert r.status_code == 200, r.text
        assert r.json()["game"] == open_games[p.id]  # each resumed into its own player's game
        finish_round(p, "bj")
        assert [h["game"] for h in p.http.get("/api/history").json()] == [open_games[p.id]]
    op = operator(second.url)
    assert op.post("/api/operator/log/verify").json()["ok"]
    assert op.get("/api/operator/audit").json()["ok"]


def test_an_absent_players_undealable_bet_is_taken_down(served: ServeFn, tmp_path: Path) -> None:
    """An ante without its blind, left on the layout, refuses every deal at the table:
    the clock takes the absent seat's bets down (logged), and the others play."""
    srv = served(settings(tmp_path, action_seconds=0.3))
    ann, bo = Player(srv.url, "ann"), Player(srv.url, "bo")
    assert ann.act("uth", 0, kind="place-bet", bet="ante", amount=500).status_code == 200
    bets = {"ante": 500, "blind": 500}
    r = bo.http.post("/api/tables/uth/round", json={"seat": 1, "bets": bets, "deal": False})
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    until(lambda: not bo.view("uth", 1)["legal"] or bo.view("uth", 1)["over"], "Bo is dealt")
    until(lambda: ann.balance() == 100_000, "Ann's ante is returned")
    for _ in range(10):
        v = bo.view("uth", 1)
        if v["over"]:
            break
        check = next((d for d in ("check", "fold") if d in v["legal"]), None)
        if check is not None:
            assert bo.act("uth", 1, kind="decide", decision=check).status_code == 200
        else:
            time.sleep(0.05)
    until(lambda: bo.view("uth", 1)["over"], "Bo's round completes")
    timeouts = [
        (x["body"]["kind"], x["body"]["seat"])
        for x in log_records(srv)
        if x["type"] == "action" and x["game"] == game and x["source"] == "timeout"
    ]
    assert ("remove-bet", 0) in timeouts, timeouts
    assert bo.http.get(f"/api/history/{game}").json()["matches"]

"""Issue 12 A4: the shoe commitment is checked (runtime, `croupier log verify`, recall).

The attack: an insider with the store file swaps the next card of an open game's
stored shoe (a sqlite UPDATE while the appliance is stopped) and restarts it. The
runtime must not deal the planted card: it re-checks the stored order against the
commitment in the log, suspends the table and raises an operator alarm. `log verify`
names the game and the position; recall says the commitment does not hold. A second
attack rewrites a settled game's revealed shoe and re-signs the chain with the store's
own key: the chain verifies, the commitment does not.
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from certification.log.chain import CHECKPOINT, JournalWriter
from certification.log.keys import KeyStore
from games.core.cards import Card
from tests.security.conftest import (
    OPERATOR_PASSWORD,
    Process,
    croupier,
    demo_settings,
    write_config,
)

Start = Callable[..., Process]


class Client:
    """A JSON client that keeps every response body it saw (for the leak checks)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[str] = []

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        req.add_header("Origin", self.url)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, text = resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        self.seen.append(text)
        return status, json.loads(text) if text else None

    def player(self, name: str) -> dict[str, str]:
        status, out = self.call("POST", "/api/players", {"name": name})
        assert status == 201, out
        return {"X-Player-Token": out["token"]}

    def operator(self) -> dict[str, str]:
        status, out = self.call(
            "POST", "/api/operator/login", {"user": "admin", "password": OPERATOR_PASSWORD}
        )
        assert status == 200, out
        return {"Authorization": f"Bearer {out['token']}"}


def config(tmp_path: Path) -> tuple[Path, Path]:
    store = tmp_path / "store"
    data = demo_settings(store)
    data.pop("devices")
    data["tables"] = [
        {"id": "bj", "variant": "blackjack-pinnacle"},
        {"id": "bac", "variant": "baccarat-pinnacle"},
    ]
    return store, write_config(tmp_path, data)


def verify(store: Path, tmp_path: Path) -> tuple[int, str]:
    pub = croupier("log", "pubkey", "--store", str(store))
    assert pub.returncode == 0, pub.stderr
    pem = tmp_path / "pub.pem"
    pem.write_text(pub.stdout)
    out = croupier("log", "verify", "--store", str(store), "--pubkey", str(pem))
    return out.returncode, out.stdout + out.stderr


def open_blackjack_hand(client: Client, player: dict[str, str]) -> dict[str, Any]:
    """Play blackjack until a hand waits on the player's decision; return that answer."""
    for _ in range(40):
        status, out = client.call(
            "POST",
            "/api/tables/bj/round",
            {"seat": 0, "bets": {"main": 1000}, "deal": True},
            player,
        )
        assert status == 200, out
        while not out["over"] and "hit" not in out["view"]["legal"]:
            # An offer first (insurance, even money): decline it, as a player may.
            legal = out["view"]["legal"]
            decision = next((d for d in legal if d.startswith("no")), legal[0])
            status, out = client.call(
                "POST",
                "/api/tables/bj/actions",
                {"seat": 0, "kind": "decide", "decision": decision},
                player,
            )
            assert status == 200, out
        if not out["over"]:
            return dict(out)
    raise AssertionError("no blackjack hand waited on a decision in 40 rounds")


def shows_card(card: str, text: str) -> bool:
    """Whether a response body shows ``card`` ("Kd"): as a card is written, a word of its
    own (a JSON string, or a word of a message), not two letters inside a token. A
    random token or key (base64url: letters, digits, - and _) holds any two-letter card
    as a substring about once in 130 tokens, so a plain ``in`` failed the leak check
    on an operator's fresh login token now and then."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


def plant_next_card(store: Path, game: str, seen: list[str]) -> tuple[str, int]:
    """Swap the next card of the game's stored shoe with a later one nobody has seen;
    return the planted card and its position (1-based)."""
    conn = sqlite3.connect(store / "croupier.db")
    try:
        cards, nxt = conn.execute(
            "SELECT cards, next FROM shoes WHERE game = ?", (game,)
        ).fetchone()
        order = [int(c) for c in cards.split(",")]
        text = "".join(seen)
        original = str(Card.from_index(order[nxt]))
        for j in range(nxt + 1, len(order)):
            planted = str(Card.from_index(order[j]))
            # A picture card nobody was shown (see shows_card).
            if planted[0] in "KQ" and planted != original and not shows_card(planted, text):
                order[nxt], order[j] = order[j], order[nxt]
                break
        else:
            raise AssertionError("no card to plant")
        with conn:
            conn.execute(
                "UPDATE shoes SET cards = ? WHERE game = ?", (",".join(map(str, order)), game)
            )
    finally:
        conn.close()
    return planted, nxt + 1


@pytest.mark.slow
def test_a_swapped_card_in_an_open_games_stored_shoe_is_never_dealt(
    tmp_path: Path, serve_process: Start
) -> None:
    store, cfg = config(tmp_path)
    first = serve_process(cfg)
    client = Client(first.url)
    ann = client.player("Ann")
    hand = open_blackjack_hand(client, ann)
    game = hand["game"]
    first.stop()

    planted, position = plant_next_card(store, game, client.seen)
    seen_before = len(client.seen)

    second = serve_process(cfg)
    client.url = second.url
    op = client.operator()
    # Recovery checked the stored shoe against its commitment: the table is suspended
    # with the alarm, before anyone could ask for a card.
    _, tables = client.call("GET", "/api/operator/tables", headers=op)
    bj = next(t for t in tables if t["id"] == "bj")
    assert bj["suspended"] and "commitment" in bj["suspended"], bj
    assert game in bj["games"].values()  # a one-seat RNG table: the player's own game
    _, recoveries = client.call("GET", "/api/operator/recoveries", headers=op)
    assert [r["outcome"] for r in recoveries if r["game"] == game] == ["suspended"]
    # The player tries to go on: hit, stand, a fresh round: nothing is dealt.
    for body in (
        {"seat": 0, "kind": "decide", "decision": "hit"},
        {"seat": 0, "kind": "decide", "decision": "stand"},
    ):
        status, out = client.call("POST", "/api/tables/bj/actions", body, ann)
        assert status == 423, out
    status, out = client.call("GET", "/api/tables/bj?seat=0", headers=ann)
    assert status == 200 and out["suspended"]
    # An operator resuming the table does not make it deal from the changed shoe.
    status, _ = client.call("POST", "/api/operator/tables/bj/resume", {}, op)
    assert status == 200
    status, out = client.call(
        "POST", "/api/tables/bj/actions", {"seat": 0, "kind": "decide", "decision": "hit"}, ann
    )
    assert status == 423, out
    second.stop()

    # The alarm is in the log.
    conn = sqlite3.connect(store / "croupier.db")
    try:
        alarms = [
            json.loads(d)["body"]
            for (d,) in conn.execute("SELECT data FROM log WHERE type = 'operator-alarm'")
        ]
    finally:
        conn.close()
    assert alarms and all(a["alarm"] == "shoe-commitment" and a["table"] == "bj" for a in alarms)
    # `log verify` reads the store's shoe of the open game and names game and position.
    code, out = verify(store, tmp_path)
    assert code == 1, out
    assert game in out and f"position {position}" in out, out

    # The operator voids the hand: the stakes come back and the shoe is revealed as
    # stored; verify names it, and the player's recall says the commitment fails.
    third = serve_process(cfg)
    client.url = third.url
    op = client.operator()
    status, out = client.call("POST", "/api/operator/tables/bj/void", {"reason": "shoe alarm"}, op)
    assert status == 200, out
    status, recall = client.call("GET", f"/api/history/{game}", headers=ann)
    assert status == 200, recall
    assert recall["commitment"]["holds"] is False
    assert recall["commitment"]["sha256"]
    third.stop()
    code, out = verify(store, tmp_path)
    assert code == 1 and game in out and f"position {position}" in out, out

    for text in client.seen[seen_before:]:
        assert not shows_card(planted, text), text


def resign_with_edit(store: Path, game: str, edit: Callable[[dict[str, Any]], None]) -> None:
    """An insider with the store and its signing key rewrites one game-end record and
    rebuilds the whole chain and every checkpoint with the store's own key."""
    key = KeyStore(store).current()
    assert key is not None
    conn = sqlite3.connect(store / "croupier.db")
    try:
        recs = [json.loads(d) for (d,) in conn.execute("SELECT data FROM log ORDER BY seq")]
        writer = JournalWriter(key, checkpoint_every=10**9)
        out = []
        for rec in recs:
            if rec["game"] == game and rec["type"] == "game-end":
                edit(rec["body"])
            if rec["type"] == CHECKPOINT:
                out.append(writer.checkpoint(rec["ts"], rec["source"]))
            else:
                out += writer.append(
                    rec["ts"], rec["source"], rec["type"], rec["body"], rec["game"]
                )
        with conn:
            conn.execute("DELETE FROM log")
            conn.executemany(
                "INSERT INTO log (seq, hash, type, game, data) VALUES (?, ?, ?, ?, ?)",
                [(r.seq, r.hash, r.type, r.game, r.data) for r in out],
            )
    finally:
        conn.close()


@pytest.mark.slow
def test_a_settled_games_revealed_shoe_rewritten_and_resigned_fails_verify(
    tmp_path: Path, serve_process: Start
) -> None:
    store, cfg = config(tmp_path)
    proc = serve_process(cfg)
    client = Client(proc.url)
    ann = client.player("Ann")
    status, out = client.call(
        "POST", "/api/tables/bac/round", {"seat": 0, "bets": {"banker": 1000}, "deal": True}, ann
    )
    assert status == 200 and out["over"], out
    game = out["game"]
    proc.stop()
    assert verify(store, tmp_path)[0] == 0

    def swap_first_two(body: dict[str, Any]) -> None:
        order = body["shoe_reveal"]["cards"].split(",")
        j = next(
            i
            for i in range(1, len(order))
            if Card.from_index(int(order[i])) != Card.from_index(int(order[0]))
        )
        order[0], order[j] = order[j], order[0]
        body["shoe_reveal"]["cards"] = ",".join(order)

    resign_with_edit(store, game, swap_first_two)
    code, text = verify(store, tmp_path)
    assert code == 1, text
    assert game in text and "shoe position 1:" in text and "does not hash" in text, text
    # The chain itself is sound (re-signed with the store's key): only the shoe fails.
    assert "shoe commitment broken" in text
    rec = croupier("log", "recall", game, "--store", str(store))
    assert rec.returncode == 1 and "DOES NOT HOLD" in rec.stdout, rec.stdout


@pytest.mark.slow
def test_the_stored_shoe_changed_under_a_running_game_is_never_dealt(
    tmp_path: Path, serve_process: Start
) -> None:
    """The same insider, without a restart: the store file is written while the
    appliance serves (between two requests). Skipping a card (moving the stored
    position) or swapping the next one: the table suspends before dealing it."""
    store, cfg = config(tmp_path)
    proc = serve_process(cfg)
    client = Client(proc.url)
    op = client.operator()
    for attack in ("UPDATE shoes SET next = next + 1 WHERE game = ?", "swap"):
        ann = client.player("Ann")  # a fresh player (and per-player game) per attack
        hand = open_blackjack_hand(client, ann)
        game = hand["game"]
        if attack == "swap":
            planted, _ = plant_next_card(store, game, client.seen)
        else:
            conn = sqlite3.connect(store / "croupier.db", timeout=30)
            with conn:
                cards, nxt = conn.execute(
                    "SELECT cards, next FROM shoes WHERE game = ?", (game,)
                ).fetchone()
                planted = str(Card.from_index(int(cards.split(",")[nxt + 1])))
                conn.execute(attack, (game,))
            conn.close()
        seen_before = len(client.seen)
        status, out = client.call(
            "POST", "/api/tables/bj/actions", {"seat": 0, "kind": "decide", "decision": "hit"}, ann
        )
        # Swapped: the order kept since the shuffle is dealt; the changed copy is caught
        # when the game ends and would reveal it (the hit busts, or stand ends the hand):
        # that last step is refused and the table suspends.
        if attack == "swap" and status == 200 and not out["over"]:
            status, out = client.call(
                "POST",
                "/api/tables/bj/actions",
                {"seat": 0, "kind": "decide", "decision": "stand"},
                ann,
            )
        assert status == 423, out
        _, tables = client.call("GET", "/api/operator/tables", headers=op)
        bj = next(t for t in tables if t["id"] == "bj")
        assert bj["suspended"] and "shoe" in bj["suspended"], bj
        for text in client.seen[seen_before:]:
            if attack != "swap":  # the swap's planted card may be a copy dealt fairly
                assert not shows_card(planted, text), text
        status, out = client.call(
            "POST", "/api/operator/tables/bj/void", {"reason": "shoe alarm"}, op
        )
        assert status == 200, out
        status, out = client.call("POST", "/api/operator/tables/bj/resume", {}, op)
        assert status == 200, out
    proc.stop()
    code, text = verify(store, tmp_path)
    assert code == 1 and "bj-" in text, text

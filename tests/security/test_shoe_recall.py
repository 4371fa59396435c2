"""Issue 12 C16: a player's recall shows what the table showed them, nothing more.

Two players at one three card poker table through the real server: one folds. The
other's recall never holds the folded hand (it was only ever shown to its own seat),
and the folding player's own recall does. On the old code recall printed every card
of the log to whoever asked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core.cards import Card
from tests.security.conftest import demo_settings, write_config
from tests.security.test_shoe_commitment import Client, Start

CARD_LINE = re.compile(r"^\s+(\S+): (\S+)$")


def shown(text: str) -> list[tuple[str, str]]:
    """(hand, card) of every card line of a recall."""
    out = []
    for line in text.splitlines():
        m = CARD_LINE.match(line)
        if m:
            try:
                Card.parse(m.group(2))
            except ValueError:
                continue
            out.append((m.group(1), m.group(2)))
    return out


@pytest.mark.slow
def test_the_other_players_recall_never_shows_a_folded_hand(
    tmp_path: Path, serve_process: Start
) -> None:
    data = demo_settings(tmp_path / "store")
    data.pop("devices")
    data["tables"] = [{"id": "tcp", "variant": "three-card-poker"}]
    proc = serve_process(write_config(tmp_path, data))
    client = Client(proc.url)
    ann, bob = client.player("Ann"), client.player("Bob")
    for who, seat in ((ann, 0), (bob, 1)):
        status, out = client.call("POST", f"/api/tables/tcp/sit?seat={seat}", {}, who)
        assert status == 200, out
    status, out = client.call(
        "POST", "/api/tables/tcp/round", {"seat": 0, "bets": {"ante": 500}, "deal": False}, ann
    )
    assert status == 200, out
    status, out = client.call(
        "POST", "/api/tables/tcp/round", {"seat": 1, "bets": {"ante": 500}, "deal": True}, bob
    )
    assert status == 200, out
    game = out["game"]
    status, view = client.call("GET", "/api/tables/tcp?seat=0", headers=ann)
    assert status == 200
    ann_cards = view["state"]["hand"]
    assert len(ann_cards) == 3, view
    status, out = client.call(
        "POST", "/api/tables/tcp/actions", {"seat": 0, "kind": "decide", "decision": "fold"}, ann
    )
    assert status == 200, out
    status, out = client.call(
        "POST", "/api/tables/tcp/actions", {"seat": 1, "kind": "decide", "decision": "play"}, bob
    )
    assert status == 200 and out["over"], out

    status, bob_recall = client.call("GET", f"/api/history/{game}", headers=bob)
    assert status == 200, bob_recall
    bob_sees = shown(bob_recall["text"])
    assert not [hc for hc in bob_sees if hc[0].startswith("seat0")], bob_recall["text"]
    assert not {c for _, c in bob_sees} & set(ann_cards), bob_recall["text"]
    assert [h for h, _ in bob_sees if h.startswith("seat1")], "Bob sees his own hand"
    assert [h for h, _ in bob_sees if h == "dealer"], "and the dealer's"

    status, ann_recall = client.call("GET", f"/api/history/{game}", headers=ann)
    assert status == 200, ann_recall
    ann_sees = shown(ann_recall["text"])
    assert sorted(c for h, c in ann_sees if h.startswith("seat0")) == sorted(ann_cards)
    assert not [h for h, _ in ann_sees if h.startswith("seat1")], ann_recall["text"]
    assert "seat 0 folds" in ann_recall["text"] and "seat 0 folds" in bob_recall["text"]
    assert ann_recall["commitment"]["holds"] is True

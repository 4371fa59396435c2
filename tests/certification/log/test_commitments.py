"""Shoe commitments checked from the log alone (certification.log.commitments).

Every family is played through the real runtime on a real store; each game's
cards (face up, face down, burns) must check against its commitment. Then single
records are changed to see each finding named with its game and position.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from certification.log.commitments import StoredShoe, check_game, check_records
from games import catalog
from games.core.cards import Card
from kiosk_ui.store import log_records
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
from rng.sample import Rng, SeededBytes

# a poker room (player against player) deals through the room: tests/kiosk_ui/test_poker_room.py
CARD_VARIANTS = sorted(
    v
    for v in catalog.variants()
    if catalog.get_variant(v).decks and catalog.get_variant(v).family != "poker_room"
)


def played(tmp_path: Path, variant: str, rounds: int = 4) -> list[dict[str, Any]]:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        player = rt.create_player("lab")
        rt.cash_in(player, 10_000_000, operator="lab")
        table = rt.open_table("t", variant, RngOutcomes(Rng(SeededBytes(len(variant)))))
        for seat in range(max(table.variant.seats, 1)):
            table.sit(seat, player)
        for _ in range(rounds):
            play_round(table, 0)
        return [json.loads(x) for x in log_records.lines(rt.db.conn)]
    finally:
        rt.close()


@pytest.mark.parametrize("variant", CARD_VARIANTS)
def test_every_family_deals_exactly_its_committed_shoe(tmp_path: Path, variant: str) -> None:
    records = played(tmp_path, variant)
    report = check_records(records)
    assert report.findings == ()
    assert report.games == report.checked == 4
    hidden = [
        r for r in records if r["type"] == "action" and r["body"].get("_draw", {}).get("hidden")
    ]
    if variant.startswith(("blackjack", "three-card", "ultimate", "caribbean")):
        assert hidden  # face-down cards are checked like the others


def game_of(records: list[dict[str, Any]], n: int = 0) -> tuple[str, list[dict[str, Any]]]:
    games = sorted({r["game"] for r in records if r["type"] == "game-start"})
    game = games[n]
    return game, [copy.deepcopy(r) for r in records if r["game"] == game]


def test_war_burn_cards_are_drawn_from_the_shoe(tmp_path: Path) -> None:
    records = played(tmp_path, "war-standard", rounds=60)
    burns = [
        r for r in records if r["type"] == "action" and r["body"].get("_draw", {}).get("hidden")
    ]
    assert burns, "no war in 60 rounds"
    assert check_records(records).findings == ()


def test_a_dealt_card_that_is_not_the_next_one_is_named(tmp_path: Path) -> None:
    game, recs = game_of(played(tmp_path, "baccarat-pinnacle"))
    deals = [r for r in recs if r["type"] == "action" and r["body"]["kind"] == "deal-card"]
    card = Card.parse(deals[2]["body"]["card"])
    deals[2]["body"]["card"] = str(Card.from_index((card.index + 1) % 52))
    shoe = check_game(game, recs)
    assert shoe.holds is False
    assert [f.position for f in shoe.findings] == [3]
    assert f"game {game}" in str(shoe.findings[0]) and "shoe position 3" in str(shoe.findings[0])


def test_a_reveal_that_does_not_hash_is_named(tmp_path: Path) -> None:
    game, recs = game_of(played(tmp_path, "blackjack-pinnacle"))
    end = next(r for r in recs if r["type"] == "game-end")
    order = end["body"]["shoe_reveal"]["cards"].split(",")
    order[-1], order[-2] = order[-2], order[-1]  # undealt cards: only the hash tells
    end["body"]["shoe_reveal"]["cards"] = ",".join(order)
    shoe = check_game(game, recs)
    assert shoe.holds is False
    assert "does not hash" in shoe.findings[0].message
    dealt = shoe.dealt
    assert shoe.findings[0].position == dealt + 1


def test_skipped_cards_and_counts_are_named(tmp_path: Path) -> None:
    game, recs = game_of(played(tmp_path, "baccarat-pinnacle"))
    end = next(r for r in recs if r["type"] == "game-end")
    end["body"]["shoe_reveal"]["dealt"] += 1
    assert "counts" in check_game(game, recs).findings[0].message
    game, recs = game_of(played(tmp_path / "2", "baccarat-pinnacle"))
    deal = next(r for r in recs if r["type"] == "action" and r["body"]["kind"] == "deal-card")
    deal["body"]["_draw"]["draw"] = 2
    assert check_game(game, recs).findings[0].position == 1


def test_a_stored_shoe_of_an_open_game_is_checked(tmp_path: Path) -> None:
    game, recs = game_of(played(tmp_path, "baccarat-pinnacle"))
    end = next(r for r in recs if r["type"] == "game-end")
    reveal = end["body"]["shoe_reveal"]
    open_recs = [r for r in recs if r["type"] != "game-end"]
    good = StoredShoe(reveal["salt"], reveal["cards"], reveal["dealt"])
    assert check_game(game, open_recs).holds is None  # nothing revealed, nothing stored
    assert check_game(game, open_recs, good).holds is True
    order = reveal["cards"].split(",")
    order[-1], order[-2] = order[-2], order[-1]
    bad = StoredShoe(reveal["salt"], ",".join(order), reveal["dealt"])
    found = check_game(game, open_recs, bad).findings
    assert found and "stored shoe" in found[0].message


def test_device_games_have_no_commitment_and_rng_games_need_one() -> None:
    start = {"seq": 1, "type": "game-start", "game": "g", "body": {"source": "device:sim://shoe"}}
    deal = {
        "seq": 2,
        "type": "action",
        "game": "g",
        "body": {"kind": "deal-card", "card": "Ah", "seat": None},
    }
    report = check_records([start, deal])
    assert report.device == 1 and report.findings == ()
    assert check_game("g", [start, deal]).holds is None
    rng_start = {**start, "body": {"source": "rng"}}
    found = check_records([rng_start, deal]).findings
    assert found and "without a shoe commitment" in found[0].message

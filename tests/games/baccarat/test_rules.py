"""Card points, the page's score examples, and the banker's drawing chart (exhaustive)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.baccarat.rules import (
    BANKER_DRAWS_AFTER_PLAYER_THIRD,
    Winner,
    banker_draws,
    next_target,
    play_out,
    point,
    score,
)
from games.core.cards import JOKER, deck, parse_cards

DATA = Path(__file__).resolve().parents[2] / "data" / "baccarat"
EXAMPLES = tomllib.loads((DATA / "score_examples.toml").read_text())["example"]


def _tableau() -> dict[tuple[int, int | None], bool]:
    chart: dict[tuple[int, int | None], bool] = {}
    for line in (DATA / "banker_tableau.txt").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        banker, *cells = line.split()
        assert len(cells) == 11
        for col, cell in enumerate(cells):
            chart[(int(banker), col if col < 10 else None)] = cell == "H"
    assert len(chart) == 8 * 11
    return chart


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["cards"] for e in EXAMPLES])
def test_page_score_examples(example: dict[str, object]) -> None:
    cards = parse_cards(str(example["cards"]))
    assert sum(point(c) for c in cards) == example["total"]
    assert score(cards) == example["score"]


def test_card_points_over_a_deck() -> None:
    points = [point(c) for c in deck()]
    assert points.count(0) == 16 and all(points.count(v) == 4 for v in range(1, 10))
    with pytest.raises(ValueError, match="joker"):
        point(JOKER)


def test_banker_chart_is_exactly_gap_one_tableau() -> None:
    chart = _tableau()
    for (banker, third), draws in chart.items():
        assert banker_draws(banker, third) is draws, (banker, third)
    # banker 8 and 9 are naturals and never draw; the tableau table has no other rows
    assert set(BANKER_DRAWS_AFTER_PLAYER_THIRD) == set(range(8))
    assert not banker_draws(8, None) and not banker_draws(9, 5)


def test_every_two_card_start_follows_the_rules_exhaustively() -> None:
    """All 10^4 point starts x third cards: who draws matches the page and the chart."""
    chart = _tableau()
    by_value = {point(c): c for c in deck()}
    for p1 in range(10):
        for p2 in range(10):
            for b1 in range(10):
                for b2 in range(10):
                    player = [by_value[p1], by_value[p2]]
                    banker = [by_value[b1], by_value[b2]]
                    ps, bs = (p1 + p2) % 10, (b1 + b2) % 10
                    natural = ps >= 8 or bs >= 8
                    want = None if natural else ("player" if ps <= 5 else None)
                    if want is None and not natural and chart[(bs, None)]:
                        want = "banker"
                    assert next_target(player, banker) == want
                    if want == "player" and bs <= 7:
                        for third in range(10):
                            p3 = [*player, by_value[third]]
                            got = next_target(p3, banker)
                            assert got == ("banker" if chart[(bs, third)] else None)


def test_dealing_order_player_banker_alternate() -> None:
    cards = parse_cards("2c 3d 4h 5s")
    seen = []
    player: list = []
    banker: list = []
    for c in cards:
        target = next_target(player, banker)
        seen.append(target)
        (player if target == "player" else banker).append(c)
    assert seen == ["player", "banker", "player", "banker"]


@pytest.mark.parametrize(
    ("cards", "player", "banker", "used", "winner"),
    [
        ("9c 8d Kh Ks 2c 2d", 9, 8, 4, Winner.PLAYER),  # naturals stop everything
        ("7c 3d Kh 3s 2c 2d", 7, 6, 4, Winner.PLAYER),  # player 7 stands, banker 6 stands
        ("6c 3d Kh 2s 4c 2d", 6, 9, 5, Winner.BANKER),  # player stands, banker 5 draws
        ("2c 3d 3h Ks 8c 2d", 3, 3, 5, Winner.TIE),  # player draws 8, banker 3 stands
        ("2c 3d 3h Ks 9c 4d", 4, 7, 6, Winner.BANKER),  # banker three-card 7
        ("Ac 2d 2h 4s 5c 9d", 8, 6, 5, Winner.PLAYER),  # player three-card 8, banker 6 stands on 5
    ],
)
def test_play_out(cards: str, player: int, banker: int, used: int, winner: Winner) -> None:
    outcome, n = play_out(parse_cards(cards))
    assert (outcome.player_score, outcome.banker_score, n, outcome.winner) == (
        player,
        banker,
        used,
        winner,
    )


def test_play_out_needs_enough_cards() -> None:
    with pytest.raises(ValueError, match="not enough cards"):
        play_out(parse_cards("2c 3d 3h"))

"""``certify games`` on video poker (issue 16): the machines' deals against their exact laws."""

from __future__ import annotations

from math import comb

import pytest

from certification.video_poker_deals import DEAL_COUNTS, fruit_law, video_poker_checks
from games.video_poker.rules import load_packaged
from rng import Rng, SeededBytes


def test_the_exact_laws_add_up() -> None:
    assert sum(DEAL_COUNTS) == comb(52, 5)
    law = fruit_law(load_packaged("european_slot_poker").rules.fruit.counts())  # type: ignore[union-attr]
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-12)


def test_a_good_rng_passes() -> None:
    checks = video_poker_checks(Rng(SeededBytes(21)), 2000)
    assert [c.name for c in checks] == ["video-poker-deals", "fruit-deals", "mystery-reel"]
    assert all(c.passed for c in checks), [(c.name, c.p_value) for c in checks]


class LowPositions:
    """A source whose positions lean low (the least of two draws): the fruit deck's first
    symbols and the reel's first stops come too often (its shuffles are fair)."""

    def __init__(self) -> None:
        self._rng = Rng(SeededBytes(22))

    def randbelow(self, n: int) -> int:
        return min(self._rng.randbelow(n), self._rng.randbelow(n))

    def shoe(self, decks: int, jokers: int = 0) -> list[int]:
        return self._rng.shoe(decks, jokers)

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        return self._rng.roll(dice, sides)


def test_a_leaning_source_is_caught() -> None:
    checks = {c.name: c for c in video_poker_checks(LowPositions(), 2000)}
    assert not checks["fruit-deals"].passed
    assert not checks["mystery-reel"].passed

"""Game-outcome tests on the appliance's rng, and the RTP check against exact edges."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from certification.errors import ParameterError
from certification.outcomes import (
    RtpCheck,
    card_checks,
    dice_checks,
    roulette_checks,
    rtp_checks,
    shuffles,
    source_rng,
    z_for,
)
from rng import Rng, SeededBytes


def test_good_rng_passes_every_distribution_test() -> None:
    rng = Rng(SeededBytes(11))
    checks = card_checks(shuffles(rng, 2000)) + dice_checks(rng, 5000) + roulette_checks(rng, 5000)
    assert [c.name for c in checks] == [
        "shuffle-position", "card-frequency", "pair-correlation", "dice-faces", "dice-sums",
        "dice-serial", "sicbo-sums", "roulette-single", "roulette-single-serial",
        "roulette-double", "roulette-double-serial",
    ]  # fmt: skip
    assert all(c.passed for c in checks), [(c.name, c.p_value) for c in checks if not c.passed]
    position = checks[0]
    assert position.dof == 51 * 51 and position.samples == 2000 * 52


def test_pair_correlation_catches_dependent_deals() -> None:
    rng = Rng(SeededBytes(12))
    decks = shuffles(rng, 3000)
    decks[:, 1] = np.where(decks[:, 0] % 4 == 3, decks[:, 0] - 1, decks[:, 0] + 1)  # same rank
    checks = {c.name: c for c in card_checks(decks)}
    assert not checks["pair-correlation"].passed


class StuckWheel:
    """A wheel that repeats its last number one spin in four: serially correlated."""

    def __init__(self) -> None:
        self._rng = Rng(SeededBytes(13))
        self._last = 0

    def randbelow(self, n: int) -> int:
        if self._rng.randbelow(4) == 0:
            return self._last % n
        self._last = self._rng.randbelow(n)
        return self._last

    def shoe(self, decks: int, jokers: int = 0) -> list[int]:
        return self._rng.shoe(decks, jokers)

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        return self._rng.roll(dice, sides)


def test_serial_correlation_of_a_sticky_wheel_is_caught() -> None:
    checks = {c.name: c for c in roulette_checks(StuckWheel(), 5000)}
    assert not checks["roulette-single-serial"].passed
    assert checks["roulette-single"].passed  # the frequencies alone look fine


def test_rtp_check_flags_a_return_far_from_the_exact_edge() -> None:
    ok = RtpCheck(variant="v", bet="b", rounds=10_000, edge=Fraction(1, 100), exact=True,
                  simulated_mean=-0.012, std_error=0.01, z=z_for(0.999))  # fmt: skip
    assert ok.passed and ok.expected_rtp == pytest.approx(0.99)
    bad = RtpCheck(variant="v", bet="b", rounds=10_000, edge=Fraction(1, 100), exact=True,
                   simulated_mean=0.03, std_error=0.01, z=z_for(0.999))  # fmt: skip
    assert not bad.passed and bad.deviation == pytest.approx(4.0)


def test_rtp_checks_every_bet_of_a_family() -> None:
    checks, _skipped = rtp_checks("war", rounds=3000, seed=2)
    assert checks and all(c.variant.startswith("war") for c in checks)
    assert all(c.passed for c in checks)
    assert {c.bet for c in checks} >= {"main", "tie"}


def test_unknown_game_and_bad_confidence_are_refused() -> None:
    with pytest.raises(ParameterError, match="no game"):
        rtp_checks("no-such-game", rounds=10, seed=1)
    with pytest.raises(ParameterError, match="confidence"):
        z_for(1.5)


def test_sim_source_is_deterministic() -> None:
    a = source_rng("sim", seed=5).shoe(1)
    b = source_rng("sim", seed=5).shoe(1)
    assert a == b and sorted(a) == list(range(52))

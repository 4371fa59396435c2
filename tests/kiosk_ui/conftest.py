from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
from rng.sample import Rng, SeededBytes


def seeded_outcomes(seed: int) -> RngOutcomes:
    """A reproducible, not-for-play outcome source (the CTR_DRBG seeded from a number)."""
    return RngOutcomes(Rng(SeededBytes(seed)), name=f"rng:seeded:{seed}")


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", checkpoint_every=50, create=True)
    yield rt
    rt.close()

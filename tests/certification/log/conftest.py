from __future__ import annotations

import itertools

import pytest

from certification.log.chain import JournalWriter
from certification.log.keys import SigningKey


def build_log(n_events: int, *, checkpoint_every: int = 10, key: SigningKey | None = None):
    """A log written by the real writer: start record, events, checkpoints, a final checkpoint."""
    key = key or SigningKey.generate()
    writer = JournalWriter(key, checkpoint_every=checkpoint_every)
    clock = itertools.count(1_700_000_000_000_000, 1000)
    lines = [r.data for r in writer.start(next(clock))]
    for i in range(n_events):
        body = {"kind": "bet-placed", "seat": 1 + i % 3, "bet": "banker", "amount": 100 * (i + 1)}
        lines += [
            r.data for r in writer.append(next(clock), "engine", "event", body, f"g-{i // 5}")
        ]
    lines.append(writer.checkpoint(next(clock)).data)
    return key, writer, lines


@pytest.fixture
def signed_log():
    return build_log(57)

"""What one stud game hands to the table's next: the always-contribute buttons, the chip queue.

Two standing orders for the $1 jackpot bet outlive a round:

* the "always contribute" button (Oasis page 000, and README gap 4 for Pinnacle Stud): the
  seats whose button is on get the jackpot bet with every ante;
* the jackpot chip queue (Caribbean Stud page 001: "To queue chips, click on the coin slit
  several times. Each click stores one $1 chip. Every time you start a new game round, one
  $1 chip is taken from the queue for the progressive jackpot side bet. You can queue up to
  ten chips."): seat -> chips still queued, 1..:data:`QUEUE_MOST`.

:class:`ContributeCarry` is logged in the next game's start record (``encode``) and read
back by the replayer (``decode``); a carry with no chips queued encodes as before the queue
existed, so older logs replay unchanged.

>>> c = ContributeCarry(frozenset({2}), {0: 9})
>>> c.encode()
{'always_contribute': [2], 'jackpot_queue': {'0': 9}}
>>> ContributeCarry.decode(c.encode(), seats=3) == c
True
>>> ContributeCarry(frozenset()).encode()
{'always_contribute': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

#: the most chips a seat may hold in the jackpot queue (page 001: "up to ten chips")
QUEUE_MOST = 10

_SHAPE = "stud carry: expected {'always_contribute': [seats], 'jackpot_queue': {seat: chips}}"


@dataclass(frozen=True, slots=True)
class ContributeCarry:
    """The seats whose always-contribute button is on, and each seat's queued chips."""

    always_contribute: frozenset[int]
    jackpot_queue: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        queued = {s: n for s, n in sorted(self.jackpot_queue.items()) if n}
        object.__setattr__(self, "jackpot_queue", MappingProxyType(queued))

    def encode(self) -> dict[str, Any]:
        out: dict[str, Any] = {"always_contribute": sorted(self.always_contribute)}
        if self.jackpot_queue:
            out["jackpot_queue"] = {str(s): n for s, n in self.jackpot_queue.items()}
        return out

    @classmethod
    def decode(cls, data: Mapping[str, Any], seats: int) -> ContributeCarry:
        """Rebuild from :meth:`encode` output; ValueError naming what is wrong."""
        if not isinstance(data, Mapping) or not {"always_contribute"} <= set(data) <= {
            "always_contribute",
            "jackpot_queue",
        }:
            raise ValueError(_SHAPE)
        raw = data["always_contribute"]
        ok = isinstance(raw, list | tuple) and all(_seat(s, seats) for s in raw)
        if not ok:
            raise ValueError(f"stud carry: always_contribute must list seats 0..{seats - 1}")
        return cls(frozenset(raw), _queue(data.get("jackpot_queue", {}), seats))


def _seat(s: object, seats: int) -> bool:
    return isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats


def _queue(raw: object, seats: int) -> dict[int, int]:
    """``{"0": 9}`` -> ``{0: 9}``; ValueError unless each key is a seat and each count 1..10."""
    if not isinstance(raw, Mapping):
        raise ValueError(_SHAPE)
    out: dict[int, int] = {}
    for key, n in raw.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else -1
        if not _seat(seat, seats) or not _seat(n, QUEUE_MOST + 1) or not n:
            raise ValueError(
                f"stud carry: jackpot_queue maps seats 0..{seats - 1} to 1..{QUEUE_MOST} chips"
            )
        out[seat] = n
    return out


__all__ = ["QUEUE_MOST", "ContributeCarry"]

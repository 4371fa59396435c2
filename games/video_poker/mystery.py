"""Mystery Bonus Poker's exact return: the reel's stops, each with re-optimised holds.

Page 001: at each deal a reel is spun and "one of the pay lines will be increased (and
the others may be adjusted)". The reel is data (the machine's TOML,
``paytables/mystery_bonus.toml``): a list of stops, each a label, a weight (its share of
the strip), the raised line and the pays of the lines it changes (the raised one and any
adjusted), per coin count. :class:`Stop` is that shape; the rules' ``MysteryStop`` is one.

A stop's line need not be a line of the base table (a reel may raise ``four_aces`` on
Jacks or Better): it is then put first, so the hands it names take its pay.

The reel stop is shown before the cards, so the player holds for that stop's table:
the return averaged over the reel is the weighted mean of each stop's own return under
its own best holds (:func:`mystery_return`). All stops share the base table's subset
counts when they keep its lines, so each costs only the deals x holds pass (~1 s).

>>> from games.video_poker.pays import JACKS_OR_BETTER_9_6
>>> stop = ReelStop("Four aces 400", 1, "four_aces", {"four_aces": (400, 800, 1200, 1600, 2000)})
>>> t = stop_table(JACKS_OR_BETTER_9_6, stop)
>>> t.keys[0], t.pays(5)[0]
('four_aces', 2000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from games.video_poker.analyser import table_return
from games.video_poker.pays import PayLine, PayTable


class Stop(Protocol):
    """One reel stop as the analysis reads it."""

    @property
    def weight(self) -> int: ...
    @property
    def raised(self) -> str: ...
    @property
    def lines(self) -> Mapping[str, tuple[int, ...]]: ...


@dataclass(frozen=True, slots=True)
class ReelStop:
    """A stop written out (tests, docs): label, weight, raised line, changed lines' pays."""

    label: str
    weight: int
    raised: str
    lines: Mapping[str, tuple[int, ...]]


def stop_table(table: PayTable, stop: Stop) -> PayTable:
    """``table`` as it pays while ``stop`` shows."""
    if stop.raised not in stop.lines:
        raise ValueError(f"reel stop raising {stop.raised!r} gives no pays for it")
    base = table
    if stop.raised not in table.keys:
        lines = (PayLine(stop.raised, stop.lines[stop.raised]), *table.lines)
        base = replace(table, lines=lines)
    return base.with_pays(dict(stop.lines))


@dataclass(frozen=True, slots=True)
class MysteryReturn:
    """The return averaged over the reel, and each stop's own return."""

    expected_return: Fraction
    per_stop: tuple[Fraction, ...]


def mystery_return(table: PayTable, reel: Sequence[Stop], coins: int) -> MysteryReturn:
    """Exact return at ``coins``: each stop analysed with its own best holds, weighted."""
    if not reel or any(s.weight <= 0 for s in reel):
        raise ValueError("the Mystery reel needs stops of positive weight")
    per = tuple(table_return(stop_table(table, s), coins) for s in reel)
    total = sum(s.weight for s in reel)
    mean = sum((Fraction(s.weight) * r for s, r in zip(reel, per, strict=True)), Fraction(0))
    return MysteryReturn(mean / total, per)

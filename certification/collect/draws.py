"""``certify collect outcomes``: final outcomes drawn by the calls the tables make.

The table runtime's RNG outcomes (``kiosk_ui.table.outcomes.RngOutcomes``) come from
three calls of ``rng.Rng``, and only these: ``shoe(decks)`` for a shuffled shoe,
``roll(n)`` for dice, ``randbelow(pockets)`` for a wheel number (index 37 is ``00``).
Video poker deals from a fresh one-deck shoe per hand. This module makes the same
calls on the same stack (``rng.open_rng`` on the chosen source) and writes what they
return, so the files are the outcomes a table would have dealt, not a model of them.
(The certification package never imports the kiosk: the calls are named here and
the runtime's test pins them.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from certification.collect.files import write_lines, write_manifest
from certification.errors import SourceError


class Draws(Protocol):
    def shoe(self, decks: int, jokers: int = 0) -> list[int]: ...

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]: ...

    def randbelow(self, n: int) -> int: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class OutcomeCounts:
    """How many of each outcome to collect (0 leaves a kind out)."""

    shoes: int = 1_000
    decks: int = 8
    rolls: int = 10_000
    dice: int = 2
    spins: int = 10_000
    pockets: int = 38
    deals: int = 10_000


def wheel_text(pockets: int, index: int) -> str:
    return f"{pockets}:{'00' if index == 37 else index}"


def collect_draws(
    out: Path, rng: Draws, counts: OutcomeCounts, what: dict[str, object]
) -> dict[str, object]:
    """Write the outcome files drawn from ``rng`` and their manifest."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}
    if counts.shoes:
        lines = (f"{counts.decks}:" + ",".join(map(str, rng.shoe(counts.decks)))
                 for _ in range(counts.shoes))  # fmt: skip
        written["shoes.txt"] = write_lines(out / "shoes.txt", lines)
    if counts.rolls:
        lines = (",".join(map(str, rng.roll(counts.dice))) for _ in range(counts.rolls))
        written["dice.txt"] = write_lines(out / "dice.txt", lines)
    if counts.spins:
        lines = (wheel_text(counts.pockets, rng.randbelow(counts.pockets))
                 for _ in range(counts.spins))  # fmt: skip
        written["wheel.txt"] = write_lines(out / "wheel.txt", lines)
    if counts.deals:
        lines = (",".join(map(str, rng.shoe(1)[:10])) for _ in range(counts.deals))
        written["video_poker.txt"] = write_lines(out / "video_poker.txt", lines)
    return write_manifest(out, {**what, "counts": _counts(counts)}, written)


def _counts(counts: OutcomeCounts) -> dict[str, int]:
    return {k: getattr(counts, k) for k in counts.__dataclass_fields__}


def collect_outcomes(
    out: Path, *, source: str, url: str = "", seed: int = 1, counts: OutcomeCounts
) -> dict[str, object]:
    """Open the appliance's rng stack on ``source`` and collect through it."""
    from firmware_bridge import ENTROPY_OPENER
    from rng import RngConfig, RngError, open_rng

    config = RngConfig(source=source, url=url, test_mode=source == "sim", sim_seed=seed)
    try:
        stack = open_rng(config, real_money=False, opener=ENTROPY_OPENER)
        what: dict[str, object] = {"collection": "outcomes", "source": source, "url": url}
        if source == "sim":
            what["seed"] = seed
        return collect_draws(out, stack.rng, counts, what)
    except RngError as exc:
        raise SourceError(f"the {source} source failed during the collection: {exc}") from exc

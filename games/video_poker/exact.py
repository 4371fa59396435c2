"""Video poker's exact figures: returns under best holds, the best hold of a deal.

The pieces, one job each:

* :mod:`~games.video_poker.classes` - the classes of a final hand (natural, deuces wild);
* :mod:`~games.video_poker.pays` - :class:`PayTable` (lines, pays per coins bet);
* :mod:`~games.video_poker.analyser` - every deal x every hold of a 52-card table,
  by subset counts and inclusion-exclusion over the 134,459 suit classes;
* :mod:`~games.video_poker.holds` - :func:`best_hold` / :func:`hold_values` of one deal;
* :mod:`~games.video_poker.mystery` - Mystery Bonus averaged over its reel;
* :mod:`~games.video_poker.slot_exact`, :mod:`~games.video_poker.slot_bonus`,
  :mod:`~games.video_poker.double_up_exact` - European Slot Poker's first hand from a
  fresh deck, its bonuses' shares, the High-Low double-up;
* :mod:`~games.video_poker.brute` - the plain enumeration the tests check against.

:func:`table_return` is the draw machines' figure (coins back per coin bet with the best
hold on every deal); :func:`slot_figures` European Slot Poker's, as the house edges
``croupier games house-edge`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from games.core.figures import HouseEdge
from games.video_poker.analyser import Analysis, analyse, table_return
from games.video_poker.double_up_exact import best_value, step
from games.video_poker.holds import best_hold, hold_values, warm
from games.video_poker.pays import PayLine, PayTable
from games.video_poker.slot_bonus import cherry_share, fruit_share
from games.video_poker.slot_exact import FirstHand, first_hand

__all__ = [
    "Analysis",
    "PayLine",
    "PayTable",
    "SlotFigures",
    "analyse",
    "best_hold",
    "hold_values",
    "slot_figures",
    "slot_house_edges",
    "step",
    "table_return",
    "warm",
]


class FruitData(Protocol):
    """What the analysis reads of European Slot Poker's rules (the rules' FruitRules)."""

    @property
    def deck(self) -> Mapping[str, int]: ...
    @property
    def high(self) -> Collection[str]: ...
    @property
    def low(self) -> Collection[str]: ...
    @property
    def fruit_collect(self) -> Mapping[str, int]: ...
    @property
    def fruit_bonus(self) -> tuple[int, ...]: ...
    @property
    def cherry_hits(self) -> int: ...
    @property
    def cherry_bonus(self) -> tuple[int, ...]: ...
    @property
    def double_up_wins(self) -> int: ...


@dataclass(frozen=True, slots=True)
class SlotFigures:
    """European Slot Poker at one coin count, per coin bet (exact, fresh-deck reading)."""

    coins: int
    first: FirstHand
    hand_return: Fraction  # the pay table alone, best holds
    cherry: Fraction  # the Cherry Bonus's share
    fruit: Fraction  # the Fruit Bonus's share
    double_up: Fraction  # per unit risked, played best from a fresh deck

    @property
    def with_bonuses(self) -> Fraction:
        """The hand and both bonuses, every win collected."""
        return self.hand_return + self.cherry + self.fruit

    @property
    def with_double_up(self) -> Fraction:
        """Every win and bonus taken into the double-up, played best (it starts fresh)."""
        return self.with_bonuses * max(self.double_up, Fraction(1))


def slot_figures(
    fruit: FruitData,
    pays: Mapping[str, Sequence[int]],
    coins: int,
    line_of: Callable[[int, tuple[int, ...]], str | None],
) -> SlotFigures:
    """The exact figures at ``coins`` (``pays``: line -> pay per coin count)."""
    if (
        any(n < 4 for n in fruit.fruit_collect.values())
        or len(set(fruit.fruit_collect.values())) > 1
    ):
        raise ValueError(
            "the Fruit Bonus analysis reads one collect count, 4 or more, for every fruit"
        )
    fruits = tuple(fruit.fruit_collect)
    at = next(iter(fruit.fruit_collect.values()), 4)
    table = {line: p[coins - 1] for line, p in pays.items()}
    first = first_hand(fruit.deck, table, line_of, fruits, at)
    return SlotFigures(
        coins=coins,
        first=first,
        hand_return=first.expected_pay / coins,
        cherry=cherry_share(
            first.cherry_hit, fruit.cherry_hits, fruit.cherry_bonus[coins - 1], coins
        ),
        fruit=fruit_share(first.collect_sets, fruits, fruit.fruit_bonus[coins - 1], coins),
        double_up=best_value(fruit.deck, fruit.high, fruit.low, fruit.double_up_wins),
    )


def slot_house_edges(figures: SlotFigures) -> dict[str, HouseEdge]:
    """The house edges ``house-edge`` prints for European Slot Poker's exact figures."""
    fresh = (
        "a hand dealt from a fresh 141-card deck (the machine keeps its deck between hands: "
        "the long run is the simulation's)"
    )
    hold = "the machine's auto-hold: the exact best hold for the pay table (bonuses not counted)"
    every = "all 141-card deals as symbol multisets x every hold x every draw, exact fractions"
    return {
        "first-hand": HouseEdge(
            edge=1 - figures.hand_return,
            exact=True,
            method=every,
            note=f"{figures.coins} coins; the pay table alone; {fresh}",
            strategy=hold,
        ),
        "first-hand-with-bonuses": HouseEdge(
            edge=1 - figures.with_bonuses,
            exact=True,
            method=every + "; the bonuses as renewals of the fresh-deck chances",
            note=(
                f"{figures.coins} coins; Cherry Bonus {float(figures.cherry):.4%}, "
                f"Fruit Bonus {float(figures.fruit):.4%} of the bet; {fresh}"
            ),
            strategy=hold + "; every win collected",
        ),
        "double-up": HouseEdge(
            edge=1 - figures.double_up,
            exact=True,
            method="exact recursion over the cards each call takes, from a fresh deck",
            note="per unit risked; the joker wins both calls, so each call is worth at least even",
            strategy="collect or call the larger group, looking ahead, up to the wins allowed",
        ),
    }

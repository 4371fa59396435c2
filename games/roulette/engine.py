"""The roulette engine: one round of bets settled by one winning number from the wheel.

Actions: ``PlaceBet`` / ``RemoveBet`` while betting (bet names per
:mod:`games.roulette.layout`, any number order accepted and stored in layout order),
``Decide(seat, "spin")`` once bets are down, then ``SpinResult(number=...)`` from the
wheel (``needs()`` is ``Need(kind=SPIN)``), which settles every bet and ends the round.
With la partage an even-money bet on a zero gets half its stake back (the half is exact:
stakes are whole dollars; an odd cent, if limits ever allowed one, stays with the house).
"""

from __future__ import annotations

from enum import StrEnum

from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Ratio, Rounding, pay, split
from games.core.one_outcome import OneOutcomeRound, SpotView
from games.core.records import Event, SpinResult
from games.roulette.layout import Layout, layout_for
from games.roulette.rules import RouletteRules, outcome


class Phase(StrEnum):
    BETTING = "betting"
    SPINNING = "spinning"
    OVER = "over"


class RouletteView(SpotView):
    """What a seat sees of a round: the wheel, the number once it is in."""

    wheel: list[str]
    la_partage: bool
    number: str | None


class RouletteRound(OneOutcomeRound[RouletteRules]):
    """One roulette round at a table of ``seats`` seats."""

    GAME, TRIGGER, TRIGGER_TEXT = "roulette", "spin", "spins the wheel"
    WAITING_TEXT = "the wheel is spinning; wait for the number"
    NEED, OUTCOME = Need(kind=NeedKind.SPIN), SpinResult
    BETTING, WAITING, OVER = Phase.BETTING, Phase.SPINNING, Phase.OVER

    def __init__(self, variant: Variant[RouletteRules], seats: int = 1) -> None:
        super().__init__(variant, seats)
        self.layout = layout_for(self.rules.wheel.zeros)
        self.number: str | None = None

    def bet_name(self, name: str) -> str:
        return self.layout.canonical(name)

    def verify_spin_result(self, action: SpinResult) -> None:
        if action.seat is not None:
            raise IllegalAction("the number comes from the wheel, not a seat")
        if action.number not in self.layout.pockets:
            raise IllegalAction(
                f"{action.number!r} is not a pocket of this wheel "
                f"({', '.join(self.layout.zeros)}, 1-36)"
            )

    def apply_spin_result(self, action: SpinResult) -> tuple[Event, ...]:
        number = self.number = action.number
        return self.settle_all(f"the ball lands on {number}", f"winning number {number}")

    def returned(self, bet: str, stake: int) -> tuple[int, str]:
        assert self.number is not None
        result, net = outcome(self.layout, self.rules, bet, self.number)
        if result == "win":
            win = pay(Cents(stake), Ratio(net.numerator, net.denominator), Rounding.DOWN)
            return stake + win, f"pays {self.rules.pays[Layout.kind(bet)]}"
        if net == -1:
            return 0, ""
        half, _odd_cent = split(Cents(stake), 2)
        return half, "la partage: half the stake returned on zero"

    def view(self, seat: int | None) -> RouletteView:
        return RouletteView(
            game="roulette",
            variant=self.variant.id,
            wheel=list(self.layout.pockets),
            la_partage=self.rules.wheel.la_partage,
            phase=self.phase.value,
            number=self.number,
            **self.spot_view(seat),
        )


__all__ = ["Phase", "RouletteRound", "RouletteView"]

"""The sic bo engine: one round of bets settled by one roll of three dice.

Actions: ``PlaceBet`` / ``RemoveBet`` while betting (limits per bet spot, cumulative),
``Decide(seat, "roll")`` once bets are down, then ``RollDice(faces=(a, b, c))`` from the
dice source (``needs()`` is ``Need(kind=DICE, count=3)``), which settles every bet and
ends the round. Wins are ``stake * num / den`` exactly (every Macau pay is whole-number
to one, so no rounding arises).
"""

from __future__ import annotations

from enum import StrEnum

from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Rounding, pay
from games.core.one_outcome import OneOutcomeRound, SpotView
from games.core.records import Event, RollDice
from games.sicbo.bets import all_bet_names, check_name, payout
from games.sicbo.rules import SicBoRules


class Phase(StrEnum):
    BETTING = "betting"
    ROLLING = "rolling"
    OVER = "over"


class SicBoView(SpotView):
    """What a seat sees of a round: the dice once they are in."""

    dice: list[int] | None


class SicBoRound(OneOutcomeRound[SicBoRules]):
    """One sic bo round at a table of ``seats`` seats."""

    GAME, TRIGGER, TRIGGER_TEXT = "sic bo", "roll", "rolls the dice"
    WAITING_TEXT = "the dice are rolling; wait for the result"
    NEED, OUTCOME = Need(kind=NeedKind.DICE, count=3), RollDice
    BETTING, WAITING, OVER = Phase.BETTING, Phase.ROLLING, Phase.OVER

    def __init__(self, variant: Variant[SicBoRules], seats: int = 1) -> None:
        super().__init__(variant, seats)
        self.dice: tuple[int, int, int] | None = None

    def bet_name(self, name: str) -> str:
        return check_name(name)

    def verify_roll_dice(self, action: RollDice) -> None:
        if action.seat is not None:
            raise IllegalAction("dice come from the dice source, not a seat")
        f = action.faces
        if len(f) != 3 or any(
            isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in f
        ):
            raise IllegalAction(f"sic bo needs three dice showing 1-6, got {list(f)!r}")

    def apply_roll_dice(self, action: RollDice) -> tuple[Event, ...]:
        a, b, c = action.faces
        self.dice = (a, b, c)
        return self.settle_all(f"dice {a}-{b}-{c} = {a + b + c}", f"dice {a}-{b}-{c}")

    def returned(self, bet: str, stake: int) -> tuple[int, str]:
        assert self.dice is not None
        ratio = payout(bet, self.dice, self.rules)
        if ratio is None:
            return 0, ""
        return stake + pay(Cents(stake), ratio, Rounding.DOWN), f"pays {ratio}"

    def view(self, seat: int | None) -> SicBoView:
        return SicBoView(
            game="sicbo",
            variant=self.variant.id,
            phase=self.phase.value,
            dice=None if self.dice is None else list(self.dice),
            **self.spot_view(seat),
        )


__all__ = ["Phase", "SicBoRound", "SicBoView", "all_bet_names"]

"""The sic bo engine: one round of bets settled by one roll of three dice.

Actions: ``PlaceBet`` / ``RemoveBet`` while betting (limits per bet spot, cumulative),
``Decide(seat, "roll")`` once bets are down, then ``RollDice(faces=(a, b, c))`` from the
dice source (``needs()`` is ``Need(kind=DICE, count=3)``), which settles every bet and
ends the round. Wins are ``stake * num / den`` exactly (every Macau pay is whole-number
to one, so no rounding arises).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Rounding, pay
from games.core.one_outcome import OneOutcomeRound
from games.core.records import (
    Action,
    BetSettled,
    Event,
    Message,
    RollDice,
    RoundOver,
)
from games.sicbo.bets import all_bet_names, check_name, payout
from games.sicbo.paytable import SicBoPaytable


class Phase(StrEnum):
    BETTING = "betting"
    ROLLING = "rolling"
    OVER = "over"


class SicBoRound(OneOutcomeRound):
    """One sic bo round at a table of ``seats`` seats."""

    GAME, TRIGGER, TRIGGER_TEXT = "sic bo", "roll", "rolls the dice"
    WAITING_TEXT = "the dice are rolling; wait for the result"
    NEED, OUTCOME = Need(kind=NeedKind.DICE, count=3), RollDice
    BETTING, WAITING, OVER = Phase.BETTING, Phase.ROLLING, Phase.OVER

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, SicBoPaytable):
            raise TypeError(f"{variant.id} is not a sic bo variant")
        super().__init__(variant, seats)
        self._t: SicBoPaytable = variant.rules
        self._dice: tuple[int, int, int] | None = None

    @property
    def dice(self) -> tuple[int, int, int] | None:
        return self._dice

    def _bet_name(self, name: str) -> str:
        return check_name(name)

    def _check_outcome(self, action: Action) -> None:
        assert isinstance(action, RollDice)
        if action.seat is not None:
            raise IllegalAction("dice come from the dice source, not a seat")
        f = action.faces
        if len(f) != 3 or any(
            isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in f
        ):
            raise IllegalAction(f"sic bo needs three dice showing 1-6, got {list(f)!r}")

    def _settle(self, action: Action) -> tuple[Event, ...]:
        assert isinstance(action, RollDice)
        a, b, c = action.faces
        dice = self._dice = (a, b, c)
        events: list[Event] = [Message(text=f"dice {dice[0]}-{dice[1]}-{dice[2]} = {sum(dice)}")]
        for seat, name, stake in self._book.items():
            ratio = payout(name, dice, self._t)
            if ratio is None:
                s = BetSettled(seat=seat, bet=name, stake=stake, returned=0, result="lose")
            else:
                win = pay(Cents(stake), ratio, Rounding.DOWN)
                s = BetSettled(
                    seat=seat,
                    bet=name,
                    stake=stake,
                    returned=stake + win,
                    result="win",
                    note=f"pays {ratio}",
                )
            self._results.append(s)
            events.append(s)
        self._book.clear()
        self._phase = Phase.OVER
        events.append(RoundOver(summary=f"dice {dice[0]}-{dice[1]}-{dice[2]}"))
        return tuple(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "sicbo",
            "variant": self.variant.id,
            "phase": self._phase.value,
            "dice": None if self._dice is None else list(self._dice),
        }
        return self._view_of(out, seat)


__all__ = ["Phase", "SicBoRound", "all_bet_names"]

"""Dragon hands on the land table (page 001, "Pai Gow Poker Differences - Physical vs. Online").

The page: "Physical: Players may play more than one hand when sitting at a Pai Gow table
with fewer players than hands. The extra hands are called "dragon" hands." and "Online:
The player may play only one hand; dragon hands are not supported." So the land table
(``dragon = true``, which deals every position: :mod:`games.pai_gow.land_deal`) offers
one, the online tables none.

The reading, as a card room runs the dragon (written into ``paytables/land.toml``'s notes):

* The dragon hand is the first hand dealt to a position nobody plays (the deal goes
  clockwise from the RNG's start position); the other unplayed hands are discarded
  unseen. With every seat playing there is none.
* Once the cards are dealt it is offered in turn to the players dealt in, in dealing
  order from the start position (so the first offer moves with the RNG's start), never
  to a player who banks. A player takes it with ``Decide(decision="dragon",
  arg="<cents>")`` (no argument: a wager equal to its own main bet) or passes with
  ``Decide(decision="decline-dragon")``; the first to take it ends the offer. Its wager
  is at least the table minimum and at most the player's own main wager, in the table's
  steps, and against a player-banker no more than the bank can still pay. If nobody
  takes it, it is discarded unseen.
* The taker sees its seven cards and sets it as any hand, itself or by the house way
  (page 002 lets a player ask), with ``hand=1`` on the decision (``hand=0``: its own);
  where the table allows surrender the dragon's wager may be surrendered alone.
* It is revealed and settled as a main bet against the banker's hands (bet ``dragon``),
  a foul losing as the table's fouls do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from games.core.betting import BetBook
from games.core.cards import Card
from games.core.engine import Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.records import BetSettled, CardShown, Decide, Event, Message
from games.pai_gow.hands import Setting
from games.pai_gow.land_deal import DealPlan, clockwise, seat_position
from games.pai_gow.rules import MAIN_BET, PaiGowRules
from games.pai_gow.showdown import Keys, foul_loses, main_bet
from games.pai_gow.view import DragonView

DRAGON_BET = "dragon"
DRAGON_HAND = 1  # Decide.hand of the dragon; 0 is the player's own hand
DRAGON_DECISIONS = ("dragon", "decline-dragon")
PHASE = "dragon"  # the round's phase while the dragon hand is offered


@dataclass(slots=True)
class DragonHand:
    """This game's dragon hand: its cards (as dealt), its offer, who took it, its setting."""

    cards: list[Card]
    offers: list[int] = field(default_factory=list)
    taker: int | None = None
    setting: Setting | None = None
    foul: str | None = None
    surrendered: bool = False

    def view(self, seat: int | None, *, revealed: bool, wager: int) -> DragonView:
        mine = seat is not None and seat == self.taker
        shown = self.setting is not None and (mine or (revealed and not self.surrendered))
        return DragonView(
            offered_to=self.offers[0] if self.offers else None,
            offers=list(self.offers),
            taker=self.taker,
            wager=wager,
            cards=[str(c) for c in self.cards] if mine else [],
            setting=str(self.setting) if shown else None,
        )


def offer_order(order: Sequence[int], start: int, banker: int | None) -> list[int]:
    """The players the dragon is offered to: the seats dealt in, but the banker, in
    dealing order from ``start``.

    >>> offer_order([0, 2, 5], start=5, banker=None)
    [5, 0, 2]
    >>> offer_order([0, 2, 5], start=1, banker=2)
    [0, 5]
    """
    by_position = {seat_position(s): s for s in order if s != banker}
    return [by_position[p] for p in clockwise(start) if p in by_position]


def dragon_wager(arg: str, own: int, variant: Variant[PaiGowRules], free: int | None) -> int:
    """The wager of a ``dragon`` decision (cents; empty: ``own``, the player's main bet).

    At least the table minimum, at most ``own``, in the table's steps, and at most
    ``free`` (what a player-banker's bank can still pay; None when the dealer banks).

    >>> import games.pai_gow as pg
    >>> land = {v.id: v for v in pg.VARIANTS}["pai-gow-land"]
    >>> dragon_wager("", 2500, land, None), dragon_wager("1000", 2500, land, None)
    (2500, 1000)
    >>> dragon_wager("3000", 2500, land, None)
    Traceback (most recent call last):
    ...
    games.core.errors.BetRefused: the dragon wager is at most your own wager of $25.00
    """
    if arg and not arg.isdigit():
        raise BetRefused(f"dragon takes the wager in cents, like '500', got {arg!r}")
    amount = int(arg) if arg else own
    limit = variant.limits[MAIN_BET]
    if amount < limit.minimum:
        raise BetRefused(f"the dragon wager is at least the {format_cents(limit.minimum)} minimum")
    if amount > own:
        raise BetRefused(f"the dragon wager is at most your own wager of {format_cents(own)}")
    if amount % limit.increment:
        raise BetRefused(f"bets are in steps of {format_cents(limit.increment)}")
    if free is not None and amount > free:
        raise BetRefused(
            f"the bank can pay only {format_cents(max(free, 0))} more in wagers; "
            "the dragon wager must fit in it"
        )
    return amount


class DragonHands:
    """The dragon's offer, its setting and its settlement, mixed into the round."""

    # the round's state these read and write (set by PaiGowRound.__init__)
    variant: Variant[PaiGowRules]
    rules: PaiGowRules
    phase: StrEnum
    book: BetBook
    banker: int | None
    bank: int
    start_position: int | None
    _order: list[int]
    _plan: DealPlan | None
    dragon: DragonHand | None

    if TYPE_CHECKING:  # the round's own, further along the MRO

        def _wagered_against_bank(self) -> int: ...

        def _setting_for(
            self, cards: Sequence[Card], action: Decide
        ) -> tuple[Setting, str | None]: ...

        def settle(
            self,
            seat: int,
            bet: str,
            returned: int,
            note: str = "",
            *,
            commission: int = 0,
            result: str | None = None,
        ) -> BetSettled: ...

    # --- the offer -----------------------------------------------------------------------

    def _offer_dragon(self) -> list[Event]:
        """After the deal: open the offer if the deal has a dragon hand and a player to
        take it (the round's phase becomes ``dragon``); else nothing."""
        if self._plan is None or "dragon" not in self._plan.cards or self.start_position is None:
            return []
        offers = offer_order(self._order, self.start_position, self.banker)
        if not offers:
            return []
        self.dragon = DragonHand(cards=self._plan.cards["dragon"], offers=offers)
        self.phase = type(self.phase)(PHASE)
        return [Message(text=f"the dragon hand is offered to seat {offers[0]}")]

    def dragon_offered(self) -> int | None:
        """The seat the dragon hand is offered to now (None when no offer is open)."""
        if self.phase != PHASE or self.dragon is None or not self.dragon.offers:
            return None
        return self.dragon.offers[0]

    def _verify_dragon(self, seat: int, action: Decide) -> None:
        offered = self.dragon_offered()
        if offered is None:
            why = "this table has no dragon hands" if not self.rules.dragon else "no offer is open"
            raise IllegalAction(f"{action.decision} is not allowed now: {why}")
        if seat != offered:
            raise IllegalAction(
                f"the dragon hand is offered to seat {offered} now, not seat {seat}"
            )
        if action.decision == "decline-dragon":
            if action.arg:
                raise IllegalAction("decline-dragon takes no argument")
            return
        self._dragon_wager(seat, action.arg)

    def _dragon_wager(self, seat: int, arg: str) -> int:
        own = self.book.stake(seat, MAIN_BET)
        free = None if self.banker is None else self.bank - self._wagered_against_bank()
        return dragon_wager(arg, own, self.variant, free)

    def _apply_dragon(self, seat: int, action: Decide) -> tuple[Event, ...]:
        dragon = self.dragon
        assert dragon is not None
        dragon.offers.pop(0)
        if action.decision == "dragon":
            wager = self._dragon_wager(seat, action.arg)
            dragon.taker, dragon.offers = seat, []
            self.phase = type(self.phase)("setting")
            return (
                self.book.add_by_rule(seat, DRAGON_BET, wager),
                *(CardShown(card=c, hand="dragon", to=str(seat)) for c in dragon.cards),
                Message(text=f"seat {seat} plays the dragon hand for {format_cents(wager)}"),
            )
        events: list[Event] = [Message(text=f"seat {seat} declines the dragon hand")]
        if dragon.offers:
            events.append(Message(text=f"the dragon hand is offered to seat {dragon.offers[0]}"))
        else:
            self.phase = type(self.phase)("setting")
            events.append(Message(text="nobody plays the dragon hand: it is discarded unseen"))
        return tuple(events)

    # --- setting it ------------------------------------------------------------------------

    def _dragon_open(self, seat: int) -> bool:
        """True if ``seat`` took the dragon hand and has not set it yet."""
        d = self.dragon
        return d is not None and d.taker == seat and d.setting is None

    def _verify_dragon_setting(self, seat: int, action: Decide) -> tuple[Setting, str | None]:
        if self.phase != "setting":
            raise IllegalAction(f"hands are set after the deal; the round is {self.phase}")
        if action.hand != DRAGON_HAND:
            raise IllegalAction(f"hand {action.hand}: a seat's hands are 0 (its own) and 1")
        d = self.dragon
        if d is None or d.taker != seat:
            raise IllegalAction(f"seat {seat} has no dragon hand this game")
        if d.setting is not None:
            raise IllegalAction(f"seat {seat} has already set the dragon hand")
        if action.decision == "surrender" and not self.rules.surrender:
            raise IllegalAction(f"{self.variant.title} has no surrender")
        return self._setting_for(d.cards, action)

    def _apply_dragon_setting(self, seat: int, action: Decide) -> list[Event]:
        d = self.dragon
        assert d is not None
        d.setting, d.foul = self._verify_dragon_setting(seat, action)
        if action.decision == "surrender":
            d.surrendered = True
            return [Message(text=f"seat {seat} surrenders the dragon hand's wager")]
        how = "by the house way" if action.decision == "house-way" else "their own way"
        return [Message(text=f"seat {seat} has set the dragon hand {how}")]

    def _dragon_default(self, seat: int, own_set: bool) -> Decide | None:
        """An absent taker's dragon: the house way, once its own hand is set."""
        if own_set and self.phase == "setting" and self._dragon_open(seat):
            return Decide(seat=seat, decision="house-way", hand=DRAGON_HAND)
        return None

    # --- the reveal ---------------------------------------------------------------------------

    def _settle_dragon(self, banker: Keys) -> tuple[list[Event], int]:
        """The dragon hand shown and its wager settled against the banker's ``banker``
        keys; (events, what the player-banker wins (+) or pays (-) on it)."""
        d = self.dragon
        if d is None or d.taker is None or d.setting is None:
            return [], 0
        seat, stake = d.taker, self.book.stake(d.taker, DRAGON_BET)
        if d.surrendered:  # not exposed, as a surrendered own hand
            return [self._settle(seat, 0, "surrendered before the reveal", "lose")], stake
        events: list[Event] = [CardShown(card=c, hand="dragon.low") for c in d.setting.low]
        events += [CardShown(card=c, hand="dragon.high") for c in d.setting.high]
        out = (
            main_bet(self.rules, stake, d.setting, banker)
            if d.foul is None
            else foul_loses(stake, d.foul)  # the table's fouls lose (page 002)
        )
        settled = self._settle(seat, out.returned, out.note, out.result, out.commission)
        events.append(settled)
        return events, stake - out.returned

    def _settle(
        self, seat: int, returned: int, note: str, result: str, commission: int = 0
    ) -> BetSettled:
        return self.settle(
            seat, DRAGON_BET, returned, f"dragon hand: {note}", commission=commission, result=result
        )

    def _dragon_view(self, seat: int | None) -> DragonView | None:
        d = self.dragon
        if d is None:
            return None
        wager = self.book.stake(d.taker, DRAGON_BET) if d.taker is not None else 0
        return d.view(seat, revealed=self.phase == "over", wager=wager)


__all__ = [
    "DRAGON_BET",
    "DRAGON_DECISIONS",
    "DRAGON_HAND",
    "DragonHand",
    "DragonHands",
    "dragon_wager",
    "offer_order",
]

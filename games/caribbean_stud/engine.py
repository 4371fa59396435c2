"""The Caribbean Stud family round (Caribbean Stud, Pinnacle Stud Poker, Oasis Poker).

Order of play: seats place an ``ante`` and, where the table has one, the fixed
``jackpot`` bet (it needs an ante). After :class:`~games.core.records.Deal` the
engine asks for five rounds of cards, each seat then the dealer: a seat's cards
are shown to that seat only, the dealer's first card to everyone when the table
shows one, the others to nobody. When the deal is complete every jackpot bet is
settled on the five cards dealt (lost to the house, its contribution to the
meter, any award as :class:`~games.core.records.JackpotWin`). Then each seat
decides (``Decide(seat=s, decision=...)``):

``call``  place the call bet (``call_multiple`` x the ante) and wait for the showdown;
``fold``  lose the ante at once;
``draw``  (Oasis only, once per game, before calling) ``arg`` = the positions to
          discard, 0-based and space separated (``"0 3"``). The price (antes, by
          the number of cards) is a ``draw`` bet lost when paid; the replacements
          are dealt face up to the seat and go to the end of the hand. Replacing
          all five calls automatically; after drawing 1-4 the seat calls or folds.

When every seat has called or folded the dealer's cards are turned up and the
called hands settle: dealer below ace/king: ante wins (1:1), call pushes;
otherwise the better hand wins ante (1:1) and call (by the call table, on the
player's category: the ace/king pays as ``high_card``); equal hands push both.

On tables with a jackpot each seat has an "always contribute" button (Oasis page:
the jackpot bet is placed for every ante without asking): ``Decide(seat=s,
decision="always-contribute", arg="on"|"off")`` while bets are open. Where the table
keeps a jackpot chip queue (page 001: "Each click stores one $1 chip. Every time you
start a new game round, one $1 chip is taken from the queue for the progressive
jackpot side bet. You can queue up to ten chips.") ``Decide(seat=s,
decision="jackpot-chip")`` is one click on the coin slit (one chip queued, up to
``rules.queue_most``) and ``Decide(seat=s, decision="clear-jackpot-chips")`` takes the
queued chips back. At the deal a seat with an ante and no jackpot bet takes one chip
from its queue as the round's jackpot bet (placed then, from the wallet: a queued chip
is not on the layout), else gets the bet from its button. The buttons and the queue
carry to the table's next game: :meth:`StudRound.carry`
(:class:`~games.caribbean_stud.carry.ContributeCarry`), and ``new_game(context=...)``
(its ``previous``, or its ``carry``, the same data as logged).

Cards arrive only as :class:`~games.core.records.DealCard`; the engine draws nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from games.caribbean_stud.carry import ContributeCarry
from games.caribbean_stud.rules import StudRules
from games.core.cards import Card
from games.core.engine import Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, pay
from games.core.poker_table import (
    BetRules,
    PokerTableRound,
    PokerTableView,
    Slot,
    round_the_table,
)
from games.core.progressive import describe_award
from games.core.records import Decide, Event, Message
from games.core.round import Phase
from games.poker.rank5 import category, rank5

CONTRIBUTE = "always-contribute"
CHIP = "jackpot-chip"  # page 001: one click on the coin slit, one $1 chip queued
CLEAR_CHIPS = "clear-jackpot-chips"  # the queued chips taken back
STANDING = (CONTRIBUTE, CHIP, CLEAR_CHIPS)


class StudView(PokerTableView, total=False):
    """What a seat sees of a Caribbean Stud family table; ``always_contribute`` (the
    seats whose button is on) only at tables with a jackpot, ``jackpot_queue`` (seat ->
    chips queued) only at tables with a chip queue; ``draw_prices`` (cards replaced ->
    price in cents for this seat's ante) while the seat may still buy its draw (Oasis),
    so the page can show the cost before the player pays it."""

    always_contribute: list[int]
    jackpot_queue: dict[str, int]
    draw_prices: dict[str, int]


class StudRound(PokerTableRound[StudRules]):
    """One round of a Caribbean Stud family table for ``seats`` seats (numbered from 0).

    ``always_contribute`` names seats whose "always contribute" button is on: at
    the deal they get the jackpot bet if they have an ante and no jackpot bet yet
    (the table's own default comes from its pay table). ``jackpot_queue`` gives each
    seat's queued chips (seat -> 1..``rules.queue_most``), one taken at each deal the
    seat plays before the button is looked at.
    """

    GAME = "Caribbean Stud"
    PASSIVE: ClassVar[tuple[str, ...]] = ("fold",)

    def __init__(
        self,
        variant: Variant[StudRules],
        seats: int = 1,
        *,
        always_contribute: Iterable[int] | None = None,
        jackpot_queue: Mapping[int, int] | None = None,
    ) -> None:
        super().__init__(variant, seats)
        jp = self.rules.jackpot
        default = range(seats) if jp and jp.always_contribute else ()
        self.always_contribute = frozenset(
            default if always_contribute is None else always_contribute
        )
        most = self.rules.queue_most
        self.jackpot_queue: dict[int, int] = {
            s: min(n, most) for s, n in sorted((jackpot_queue or {}).items()) if n and most
        }
        self._decided: dict[int, str] = {}
        self._drawn: dict[int, int] = {}
        self._original: dict[int, tuple[Card, ...]] = {}
        self._jackpot_done = False

    def bet_rules(self) -> BetRules:
        return BetRules.with_jackpot(self.rules.bets, "jackpot", self.rules.jackpot)

    @classmethod
    def following(
        cls,
        variant: Variant[StudRules],
        seats: int = 1,
        *,
        always_contribute: Iterable[int] | None = None,
        previous: object = None,
        carry: object = None,
        new_players: frozenset[int] = frozenset(),
    ) -> StudRound:
        """A new game of a table: the buttons from ``always_contribute``, else from
        ``previous`` (the table's finished last game), else from ``carry`` (its
        :meth:`carry` as logged), else the pay table's default; the chip queue from
        ``previous`` or ``carry`` (empty otherwise). ValueError if ``previous`` is not a
        finished game of this variant or ``carry`` is malformed. A seat in ``new_players``
        (its player is not the last game's) inherits neither: both are its player's orders.
        """
        given = [x for x in (always_contribute, previous, carry) if x is not None]
        if len(given) > 1:
            raise ValueError("give one of always_contribute, previous and carry")
        handed: ContributeCarry | None = None
        if previous is not None:
            if not isinstance(previous, StudRound) or previous.variant.id != variant.id:
                raise ValueError(f"previous is not a game of {variant.id}")
            handed = previous.carry()
        elif carry is not None:
            if not isinstance(carry, Mapping):
                raise ValueError("stud carry: expected {'always_contribute': [seats]}")
            handed = ContributeCarry.decode(carry, seats)
        queue: dict[int, int] = {}
        if handed is not None:
            always_contribute = handed.always_contribute - new_players
            queue = {
                s: n for s, n in handed.jackpot_queue.items() if s < seats and s not in new_players
            }
        if always_contribute is not None:
            always_contribute = [s for s in always_contribute if s < seats]
        return cls(variant, seats, always_contribute=always_contribute, jackpot_queue=queue)

    def carry(self) -> ContributeCarry:
        """The buttons and the chip queue as they stand when this game is over, for the
        table's next game."""
        if not self.is_over:
            raise IllegalAction("this game is not over: nothing carries to the next one yet")
        return ContributeCarry(self.always_contribute, dict(self.jackpot_queue))

    # --- the standing orders: the always-contribute button, the chip queue ----------

    def legal_actions(self, seat: int) -> frozenset[str]:
        names = super().legal_actions(seat)
        if self.phase is not Phase.BETTING or not self.rules.jackpot or not 0 <= seat < self.seats:
            return names
        names |= {CONTRIBUTE}
        queued = self.jackpot_queue.get(seat, 0)
        if queued < self.rules.queue_most:
            names |= {CHIP}
        return names | {CLEAR_CHIPS} if queued else names

    def verify_decide(self, action: Decide) -> None:
        if action.decision in STANDING:
            self._verify_standing(action)
        else:
            super().verify_decide(action)

    def apply_decide(self, action: Decide) -> list[Event]:
        if action.decision not in STANDING:
            return super().apply_decide(action)
        seat = self.seat_of(action)
        if action.decision == CHIP:
            self.jackpot_queue[seat] = self.jackpot_queue.get(seat, 0) + 1
            return [Message(text=f"seat {seat}: {self._queued(seat)}")]
        if action.decision == CLEAR_CHIPS:
            n = self.jackpot_queue.pop(seat)
            return [Message(text=f"seat {seat}: {_chips(n)} taken back from the jackpot queue")]
        on = action.arg == "on"
        mine = {seat}
        self.always_contribute = (
            self.always_contribute | mine if on else self.always_contribute - mine
        )
        return [Message(text=f"seat {seat}: always contribute {'on' if on else 'off'}")]

    def withdraw_orders(self, seat: int) -> tuple[Decide, ...]:
        """The decisions that take back ``seat``'s standing orders (its player left
        before the deal): its queued chips, then its always-contribute button; none once
        bets are closed (the next game drops them: ``new_players``) or when it has none.
        No money moves: a queued chip is no stake until a round takes it.

        >>> from games import catalog
        >>> game = StudRound(catalog.get_variant("caribbean-stud"), 1, jackpot_queue={0: 3})
        >>> [a.decision for a in game.withdraw_orders(0)]
        ['clear-jackpot-chips']
        """
        if self.phase is not Phase.BETTING or not self.rules.jackpot or not 0 <= seat < self.seats:
            return ()
        out: list[Decide] = []
        if self.jackpot_queue.get(seat):
            out.append(Decide(seat=seat, decision=CLEAR_CHIPS))
        if seat in self.always_contribute:
            out.append(Decide(seat=seat, decision=CONTRIBUTE, arg="off"))
        return tuple(out)

    def _verify_standing(self, action: Decide) -> None:
        seat = action.seat
        if seat is None or not 0 <= seat < self.seats:
            raise IllegalAction(f"no seat {seat!r} at this table ({self.seats} seats)")
        if self.rules.jackpot is None:
            raise IllegalAction(f"{self.variant.title} has no jackpot bet to contribute to")
        what = "always contribute is set" if action.decision == CONTRIBUTE else "chips are queued"
        if self.phase is not Phase.BETTING:
            raise IllegalAction(f"{what} while bets are open; the round is {self.phase}")
        if action.decision == CONTRIBUTE:
            if action.arg not in ("on", "off"):
                raise IllegalAction(f"always contribute is 'on' or 'off', not {action.arg!r}")
            return
        most, queued = self.rules.queue_most, self.jackpot_queue.get(seat, 0)
        if action.arg:
            raise IllegalAction(f"{action.decision} takes no argument")
        if not most:
            raise IllegalAction(f"{self.variant.title} keeps no queue of jackpot chips")
        if action.decision == CHIP and queued >= most:
            raise IllegalAction(f"the jackpot queue holds up to {most} chips: it is full")
        if action.decision == CLEAR_CHIPS and not queued:
            raise IllegalAction(f"seat {seat} has no jackpot chips queued")

    def _queued(self, seat: int) -> str:
        return f"{_chips(self.jackpot_queue.get(seat, 0))} in the jackpot queue"

    def view(self, seat: int | None) -> StudView:
        offered = seat is not None and "draw" in self.decisions(seat)
        ante = self.book.of(seat).get("ante", 0) if offered and seat is not None else 0
        out: StudView = {
            **self.table_view(seat),
            "draw_prices": {str(n): k * ante for n, k in sorted(self.rules.draw_costs.items())},
            "always_contribute": sorted(self.always_contribute),
            "jackpot_queue": {str(s): n for s, n in sorted(self.jackpot_queue.items())},
        }
        if self.rules.jackpot is None:
            del out["always_contribute"]  # no jackpot, no button
        if not self.rules.queue_most:
            del out["jackpot_queue"]  # no coin slit queue at this table
        if not offered:
            del out["draw_prices"]  # no draw to buy (not Oasis, or bought already)
        return out

    # --- decisions ------------------------------------------------------------------

    def _pending(self) -> list[int]:
        return [s for s in self.active() if "ante" in self.book.of(s) and s not in self._decided]

    def decisions(self, seat: int) -> frozenset[str]:
        if seat not in self._pending():
            return frozenset()
        names = {"call", "fold"}
        if self.rules.draw_costs and seat not in self._drawn:
            names.add("draw")
        return frozenset(names)

    def check_decision(self, seat: int, action: Decide) -> None:
        if action.decision != "draw":
            if action.arg:
                raise IllegalAction(f"{action.decision} takes no argument")
            return
        positions = parse_positions(action.arg)
        if len(positions) not in self.rules.draw_costs:
            raise IllegalAction(f"this table does not sell a draw of {_cards(len(positions))}")

    def decide(self, seat: int, action: Decide) -> list[Event]:
        ante = self.book.of(seat)["ante"]
        events: list[Event] = []
        if action.decision == "fold":
            self._decided[seat] = "fold"
            self._folded.add(seat)
            events.append(Message(text=f"seat {seat} folds"))
            events.append(self.settle(seat, "ante", 0, "folded"))
        elif action.decision == "call":
            self._decided[seat] = "call"
            events.append(self.place_by_rule(seat, "call", self.rules.call_multiple * ante))
        else:
            positions = parse_positions(action.arg)
            n = len(positions)
            self._drawn[seat] = n
            price = self.rules.draw_costs[n] * ante
            note = f"draw {n} card{'s' if n > 1 else ''}: {self.rules.draw_costs[n]}x the ante"
            if price:
                events.append(self.place_by_rule(seat, "draw", price))
                events.append(self.settle(seat, "draw", 0, note))
            else:
                events.append(Message(text=note))
            hand = self._hands[seat]
            self._hands[seat] = [c for i, c in enumerate(hand) if i not in positions]
            self._queue = [Slot(f"seat{seat}", "seat")] * n
            if n in self.rules.auto_call_draws:
                self._decided[seat] = "call"
                events.append(Message(text=f"seat {seat} replaces all {n}: automatic call"))
                events.append(self.place_by_rule(seat, "call", self.rules.call_multiple * ante))
            self.phase = Phase.DEALING
            return events
        if not self._pending():
            events.extend(self._finish())
        return events

    # --- dealing ---------------------------------------------------------------------

    def deal_plan(self, active: list[int]) -> list[Slot]:
        return round_the_table(active, 5, dealer_shows_first=self.rules.dealer_shows_card)

    def on_deal(self, active: list[int]) -> list[Event]:
        jp = self.rules.jackpot
        events: list[Event] = []
        if jp is None:
            return events
        for s in active:
            mine = self.book.of(s)
            if "ante" not in mine or "jackpot" in mine:
                continue
            if self.jackpot_queue.get(s):
                self.jackpot_queue[s] -= 1
                if not self.jackpot_queue[s]:
                    del self.jackpot_queue[s]
                text = f"seat {s}: one chip from the jackpot queue, {self._queued(s)}"
            elif s in self.always_contribute:
                text = f"seat {s}: always contribute"
            else:
                continue
            events.append(Message(text=text))
            events.append(self.place_by_rule(s, "jackpot", jp.stake))
        return events

    def after_cards(self) -> list[Event]:
        events: list[Event] = []
        if not self._jackpot_done:
            self._jackpot_done = True
            self._original = {s: tuple(h) for s, h in self._hands.items()}
            events.extend(self._settle_jackpots())
        if self._pending():
            self.phase = Phase.DECIDING
            events.append(Message(text="call or fold"))
        else:
            events.extend(self._finish())
        return events

    def _settle_jackpots(self) -> list[Event]:
        jp = self.rules.jackpot
        events: list[Event] = []
        if jp is None:
            return events
        for s in self.active():
            if "jackpot" not in self.book.of(s):
                continue
            cat = category(rank5(self._hands[s]))
            award = jp.award(cat)
            note = f"{cat.label}: " + (describe_award(award) if award else "no award")
            events.extend(self.settle_jackpot(s, "jackpot", jp, cat, note))
        return events

    def _finish(self) -> list[Event]:
        events = self.reveal("dealer")
        r = self.rules
        d = rank5(self._dealer)
        d_name = category(d).label
        qualifies = d >= r.qualifier
        for seat, decision in sorted(self._decided.items()):
            if decision != "call":
                continue
            ante, call = self.book.of(seat)["ante"], self.book.of(seat)["call"]
            p = rank5(self._hands[seat])
            p_cat = category(p)
            won_ante = pay(Cents(ante), r.ante_pays)
            if not qualifies:
                note = f"dealer does not qualify ({d_name})"
                events.append(self.settle(seat, "ante", ante + won_ante, note))
                events.append(self.settle(seat, "call", call, note))
                continue
            vs = f"{p_cat.label} vs dealer {d_name}"
            if p > d:
                ratio = r.call_pays[p_cat]
                events.append(self.settle(seat, "ante", ante + won_ante, f"{vs}: win"))
                events.append(
                    self.settle(
                        seat, "call", call + pay(Cents(call), ratio), f"{vs}: call pays {ratio}"
                    )
                )
            elif p < d:
                events.append(self.settle(seat, "ante", 0, f"{vs}: lose"))
                events.append(self.settle(seat, "call", 0, f"{vs}: lose"))
            else:
                events.append(self.settle(seat, "ante", ante, f"{vs}: push"))
                events.append(self.settle(seat, "call", call, f"{vs}: push"))
        events.extend(self.close())
        return events

    def original_hand(self, seat: int) -> tuple[Card, ...]:
        """The five cards first dealt to ``seat`` (the jackpot hand), once dealt."""
        return self._original.get(seat, ())


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def _chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def parse_positions(arg: str) -> tuple[int, ...]:
    """``"0 3"`` -> ``(0, 3)``: distinct card positions 0..4; IllegalAction otherwise."""
    parts = arg.replace(",", " ").split()
    if not parts or not all(p.isdigit() for p in parts):
        raise IllegalAction("to draw, select the cards to replace first")
    positions = tuple(sorted(int(p) for p in parts))
    if len(set(positions)) != len(positions) or positions[-1] > 4:
        raise IllegalAction("to draw, select each card to replace once, among your five")
    return positions

"""The hold'em round (Pinnacle Hold'em, Ultimate Texas Hold'em): a pure state machine.

Pinnacle Hold'em (``casino``): seats place an ``ante`` and optionally a ``bonus``
(needs the ante). The source deals two cards to each seat (shown to that seat),
two to the dealer (face down), then the flop (three community cards, face up).
Each seat decides ``call`` (a ``call`` bet of ``call_multiple`` x the ante) or
``fold`` (ante and bonus lost at once). If anyone called the source deals the
turn and river face up; the dealer's cards are turned up and the called hands
settle (dealer qualifies with a pair of 4s): see :meth:`HoldemRound._finish_casino`.

Ultimate Texas Hold'em (``ultimate``): ``ante`` and ``blind`` (equal; checked at
the deal) and optionally ``trips``. The source deals the five community cards
face down, two cards to each seat, then two to the dealer. Decisions by street
(a seat that has bet decides no more):

* preflop: ``bet-4x``, ``bet-3x`` (a ``play`` bet of that many antes) or ``check``;
* flop (the first three community cards turned up): ``bet-2x`` or ``check``;
* river (the last two turned up): ``bet-1x`` or ``fold`` (ante and blind lost).

The page's progressive ("Royal Flush wins the progressive. Coming Soon!") is in the
rules, configured off: a ``progressive`` bet is refused with the page's word for it.

Then the dealer's cards are turned up and everything settles (dealer qualifies
with a pair; a non-qualifying dealer pushes the ante); trips is scored on the
seat's best five of seven, or for a folded seat on the five community cards alone
(page 004 game rule 6: :mod:`games.holdem.trips`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from games.core.engine import Variant
from games.core.errors import BetRefused
from games.core.money import Cents, Ratio, pay
from games.core.player_dealer import PlayerDealerCarry, PlayerDealerView, Wager
from games.core.player_dealer_table import PlayerDealerTable
from games.core.poker_table import BetRules, PokerTableView, Slot
from games.core.records import Decide, Event, Message, PlaceBet
from games.core.round import Phase
from games.holdem.rules import PLAY_MULTIPLES, HoldemRules
from games.holdem.trips import trips_hand
from games.poker.category import Category
from games.poker.rank5 import category, fields, rank5
from games.poker.rank7 import rank7

STREETS = ("preflop", "flop", "river")


class HoldemView(PokerTableView):
    """What a seat sees of a hold'em table (the poker table's view: hole cards, board;
    the Player/Dealer position on page 004's table)."""

    player_dealer: PlayerDealerView | None


class HoldemRound(PlayerDealerTable[HoldemRules]):
    """One round of a hold'em table for ``seats`` seats (numbered from 0)."""

    GAME = "hold'em"
    #: an absent seat checks before the river and folds on it (or at casino hold'em)
    PASSIVE: ClassVar[tuple[str, ...]] = ("check", "fold", "decline-bank")
    #: a covered ante brings the play that may follow (its loss is in the ante's)
    COMES_WITH: ClassVar[Mapping[str, tuple[str, ...]]] = {"ante": ("play",)}

    def __init__(
        self,
        variant: Variant[HoldemRules],
        seats: int = 1,
        *,
        carry: PlayerDealerCarry | None = None,
    ) -> None:
        super().__init__(variant, seats, variant.rules.player_dealer, carry)
        self.street = 0  # index into STREETS (casino: 0 = the flop decision)
        self._acted: dict[int, int] = {}  # seat -> streets decided
        self._played: set[int] = set()

    def bet_rules(self) -> BetRules:
        return BetRules(
            names=self.rules.bets, riders={"bonus": "ante", "trips": "ante", "blind": "ante"}
        )

    def verify_place_bet(self, action: PlaceBet) -> None:
        progressive = self.rules.progressive
        if action.bet == "progressive" and progressive is not None and not progressive.offered:
            raise BetRefused(progressive.refusal(self.variant.title))
        super().verify_place_bet(action)

    def view(self, seat: int | None) -> HoldemView:
        out: HoldemView = {**self.table_view(seat), "player_dealer": self.player_dealer_view()}
        return out

    def banked_wagers(self, order: list[int]) -> list[Wager[tuple[int, str]]]:
        """Each seat's wagers from the player/dealer's left with the most each can take off
        the bank: the ante 1:1 with the largest play (4x) and the blind at its best pay
        (the blind goes with its ante), trips at its best pay (it needs the ante)."""
        r, out = self.rules, []
        most_play = max(max(m) for m in PLAY_MULTIPLES.values())
        for seat in order:
            bets = self.book.of(seat)
            ante = bets.get("ante", 0)
            if not ante:
                continue
            blind = bets.get("blind", 0)
            best_blind = max((pay(Cents(blind), x) for x in r.blind.values()), default=0)
            out.append(Wager((seat, "ante"), ante + most_play * ante + best_blind))
            for bet, table in (("blind", None), ("trips", r.trips), ("bonus", r.bonus)):
                if bet in bets:
                    most = max(
                        (pay(Cents(bets[bet]), x) for x in (table or {}).values()), default=0
                    )
                    out.append(Wager((seat, bet), most, (seat, "ante")))
        return out

    @property
    def casino(self) -> bool:
        return self.rules.style == "casino"

    # --- decisions ------------------------------------------------------------------

    def _pending(self) -> list[int]:
        return [
            s
            for s in self.active()
            if s not in self._folded
            and s not in self._played
            and self._acted.get(s, 0) == self.street
        ]

    def decisions(self, seat: int) -> frozenset[str]:
        if seat not in self._pending():
            return frozenset()
        if self.casino:
            return frozenset({"call", "fold"})
        street = STREETS[self.street]
        names = {f"bet-{m}x" for m in PLAY_MULTIPLES[street]}
        names.add("fold" if street == "river" else "check")
        return frozenset(names)

    def check_deal(self) -> None:
        if self.casino:
            return
        for s in self.active():
            ante, blind = self.book.of(s).get("ante"), self.book.of(s).get("blind")
            if ante != blind:
                raise BetRefused(f"seat {s}: the blind must equal the ante")

    def decide(self, seat: int, action: Decide) -> list[Event]:
        ante = self.book.of(seat)["ante"]
        self._acted[seat] = self.street + 1
        events: list[Event] = []
        d = action.decision
        if d == "fold":
            self._folded.add(seat)
            events.append(Message(text=f"seat {seat} folds"))
            lost = ("ante", "bonus") if self.casino else ("ante", "blind")
            for bet in lost:
                if bet in self.book.of(seat):
                    note = "forfeited on a fold" if bet == "bonus" else "folded"
                    events.append(self.settle(seat, bet, 0, note))
        elif d == "call":
            self._played.add(seat)
            events.append(self.place_by_rule(seat, "call", self.rules.call_multiple * ante))
        elif d.startswith("bet-"):
            self._played.add(seat)
            events.append(self.place_by_rule(seat, "play", int(d[4:-1]) * ante))
        if self._pending():
            return events
        return events + self._advance()

    def _advance(self) -> list[Event]:
        """Every seat has acted on this street: move on."""
        if self.casino:
            if self._played:
                self._queue = [Slot("board", "all"), Slot("board", "all")]
                self.phase = Phase.DEALING
                return []
            return self._finish()
        events: list[Event] = []
        while True:
            self.street += 1
            if self.street == 3:
                return events + self.reveal("board") + self._finish()
            events += self.reveal("board", 3 if self.street == 1 else 5)
            if self._pending():
                return events

    # --- dealing ---------------------------------------------------------------------

    def deal_plan(self, active: list[int]) -> list[Slot]:
        seats = [Slot(f"seat{s}", "seat") for _ in range(2) for s in active]
        if self.casino:
            return [
                *seats,
                Slot("dealer", "none"),
                Slot("dealer", "none"),
                *[Slot("board", "all")] * 3,
            ]
        return [
            *[Slot("board", "none")] * 5,
            *seats,
            Slot("dealer", "none"),
            Slot("dealer", "none"),
        ]

    def after_cards(self) -> list[Event]:
        if self.casino and len(self._board) == 5:
            return self._finish()
        if self._pending():
            self.phase = Phase.DECIDING
            return [Message(text="call or fold" if self.casino else "bet or check")]
        return self._advance()

    # --- settlement ------------------------------------------------------------------

    def _finish(self) -> list[Event]:
        events = self.reveal("dealer") + self.reveal("board")
        events += self._finish_casino() if self.casino else self._finish_ultimate()
        return events + self.close()

    def _finish_casino(self) -> list[Event]:
        r = self.rules
        events: list[Event] = []
        if not self._played:
            return events
        d = rank7([*self._dealer, *self._board])
        d_name = category(d).label
        for seat in sorted(self._played):
            bets = self.book.of(seat)
            ante, call = bets["ante"], bets["call"]
            p = rank7([*self._hands[seat], *self._board])
            p_cat = category(p)
            ratio = r.ante_pays[p_cat]
            ante_won = ante + pay(Cents(ante), ratio)
            if d < r.qualifier:
                note = f"dealer does not qualify ({d_name}); ante pays {ratio}"
                events.append(self.settle(seat, "ante", ante_won, note))
                events.append(self.settle(seat, "call", call, note))
            elif p > d:
                note = f"{p_cat.label} vs dealer {d_name}: win"
                events.append(self.settle(seat, "ante", ante_won, f"{note}, ante pays {ratio}"))
                events.append(self.settle(seat, "call", call * 2, note))
            elif p < d:
                note = f"{p_cat.label} vs dealer {d_name}: lose"
                events.append(self.settle(seat, "ante", 0, note))
                events.append(self.settle(seat, "call", 0, note))
            else:
                note = f"{p_cat.label} vs dealer {d_name}: push"
                events.append(self.settle(seat, "ante", ante, note))
                events.append(self.settle(seat, "call", call, note))
            if "bonus" in bets:
                events.append(self._settle_bonus(seat))
        return events

    def _settle_bonus(self, seat: int) -> Event:
        stake = self.book.of(seat)["bonus"]
        first5 = rank5([*self._hands[seat], *self._board[:3]])
        cat = category(first5)
        ratio: Ratio | None = self.rules.bonus.get(cat)
        label = cat.label
        if ratio is None and cat is Category.PAIR and fields(first5)[0] == 14:
            ratio, label = self.rules.bonus_pair_of_aces, "pair of aces"
        if ratio is None:
            return self.settle(seat, "bonus", 0, f"first five: {label}")
        return self.settle(
            seat, "bonus", stake + pay(Cents(stake), ratio), f"first five: {label} pays {ratio}"
        )

    def _finish_ultimate(self) -> list[Event]:
        r = self.rules
        events: list[Event] = []
        d = rank7([*self._dealer, *self._board])
        d_name = category(d).label
        qualifies = d >= r.qualifier
        for seat in self.active():
            bets = self.book.of(seat)
            p = rank7([*self._hands[seat], *self._board])
            p_cat = category(p)
            if seat in self._played:
                ante, blind, play = bets["ante"], bets["blind"], bets["play"]
                vs = f"{p_cat.label} vs dealer {d_name}"
                if p > d:
                    ratio = r.blind.get(p_cat)
                    blind_back = blind + pay(Cents(blind), ratio) if ratio else blind
                    a_note = f"{vs}: win" if qualifies else f"dealer does not open ({d_name})"
                    events.append(
                        self.settle(seat, "ante", 2 * ante if qualifies else ante, a_note)
                    )
                    b_note = (
                        f"{vs}: blind pays {ratio}"
                        if ratio
                        else f"{vs}: blind pushes below a straight"
                    )
                    events.append(self.settle(seat, "blind", blind_back, b_note))
                    events.append(self.settle(seat, "play", 2 * play, f"{vs}: win"))
                elif p < d:
                    a_note = f"{vs}: lose" if qualifies else f"dealer does not open ({d_name})"
                    events.append(self.settle(seat, "ante", 0 if qualifies else ante, a_note))
                    events.append(self.settle(seat, "blind", 0, f"{vs}: lose"))
                    events.append(self.settle(seat, "play", 0, f"{vs}: lose"))
                else:
                    for bet in ("ante", "blind", "play"):
                        events.append(self.settle(seat, bet, bets[bet], f"{vs}: push"))
            if "trips" in bets:
                events.append(self._settle_trips(seat))
        return events

    def _settle_trips(self, seat: int) -> Event:
        """Trips on the best five of seven, or on a fold on the board alone (page 004 rule 6)."""
        stake, folded = self.book.of(seat)["trips"], seat in self._folded
        cat = trips_hand(self._hands[seat], self._board, folded=folded)
        tr = self.rules.trips.get(cat) if cat is not None else None
        if tr is None or cat is None:
            shown = category(rank7([*self._hands[seat], *self._board]))
            note = "folded; the board alone has no three of a kind" if folded else shown.label
            return self.settle(seat, "trips", 0, note)
        note = f"{'folded; the board has ' if folded else ''}{cat.label} pays {tr}"
        return self.settle(seat, "trips", stake + pay(Cents(stake), tr), note)

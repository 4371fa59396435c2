"""One blackjack round as a pure state machine: bets, the deal, insurance, peek, play, dealer.

The engine never draws a card itself: :meth:`BlackjackRound.needs` says a card is due and for
whom, and the source (rng shoe, physical shoe, a test, the log replayer) answers with
:class:`~games.core.records.DealCard`. The dealer's second card is asked for with
``Need(hidden=True)``: it lives only in the engine's private state and in that ``DealCard``
action (which the runtime keeps server-side in its journal); no event and no view shows it
until the rules turn it over, when a :class:`~games.core.records.CardShown` for it is emitted.

Seats are numbered from 0. Bet spots: ``main`` (hand 0; split hands are ``main.1`` ...
``main.3``, doubles add to their hand's spot), ``insurance`` and ``buster`` (21st Century).
Every spot placed is settled exactly once: ``BetSettled.stake`` is the spot's whole amount.

Flow (both pages): bets, ``Deal``; player, dealer up, player, dealer hole (face down). With an
ace up each seat answers insurance / no-insurance (even money instead for a blackjack where
the table offers it). The dealer then peeks when showing an ace or a ten: with a natural it
turns the hole card over and the round ends (the player's natural pushes, insurance pays 2 to
1, only the original bet is lost). Otherwise lost insurance is taken, player naturals are paid
(3:2 or 6:5), and hands are played in order. The dealer draws only if a hand (or a Buster Bet)
is still live, under ``dealer_hits_soft_through``; then every hand is settled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.blackjack.hand import (
    Outcome,
    can_split_cards,
    dealer_hits,
    hand_total,
    is_natural,
    points,
    showdown,
)
from games.blackjack.rules import Rules
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, pay
from games.core.records import (
    Action,
    BetPlaced,
    BetReturned,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
)

DECISIONS = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "even-money",
    "no-insurance",
)


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    INSURANCE = "insurance"
    PLAYING = "playing"
    DEALER = "dealer"
    OVER = "over"


@dataclass(slots=True)
class PlayerHand:
    cards: list[Card]
    stake: int
    from_split: bool = False
    split_aces: bool = False  # a split-aces hand that takes one card only
    doubled: bool = False
    done: bool = False  # no more decisions
    settled: bool = False
    result: str = ""  # "win", "lose", "push", "surrender", "blackjack", "even-money"

    @property
    def total(self) -> tuple[int, bool]:
        return hand_total(self.cards)


@dataclass(slots=True)
class SeatState:
    main: int = 0
    buster: int = 0
    insurance: int = 0
    insurance_decided: bool = False
    hands: list[PlayerHand] = field(default_factory=list)


def spot(hand: int) -> str:
    """Bet-spot name of a hand: ``main`` for the first, ``main.N`` for split hands."""
    return "main" if hand == 0 else f"main.{hand}"


def _amount(arg: str, what: str) -> int:
    try:
        value = int(arg)
    except ValueError:
        raise IllegalAction(f"{what} amount must be whole cents, got {arg!r}") from None
    if value <= 0:
        raise IllegalAction(f"{what} amount must be positive, got {value}")
    return value


class BlackjackRound:
    """A round of blackjack at one table (see the module docstring for the flow)."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, Rules):
            raise TypeError(f"{variant.id} is not a blackjack variant")
        if not 1 <= seats <= max(variant.seats, 7):
            raise ValueError(f"seats must be 1..{max(variant.seats, 7)}")
        self.variant = variant
        self.rules: Rules = variant.rules
        self._seats = [SeatState() for _ in range(seats)]
        self._phase = Phase.BETTING
        self._dealer: list[Card] = []
        self._hole_shown = False
        self._queue: list[tuple[int, int]] = []  # initial deal targets: (seat, 0) or (-1, 0)
        self._draw_to: tuple[int, int] | None = None  # a hand owed a card after hit/double
        self._turn: tuple[int, int] | None = None
        self._seen: dict[int, int] = {}  # card index -> copies dealt (shoe sanity)

    # --- read-only state ----------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def seats(self) -> int:
        return len(self._seats)

    def seat_state(self, seat: int) -> SeatState:
        """The live state of a seat (read it; mutate only through :meth:`apply`)."""
        return self._seats[seat]

    @property
    def dealer_up(self) -> Card | None:
        return self._dealer[0] if self._dealer else None

    @property
    def turn(self) -> tuple[int, int] | None:
        """``(seat, hand)`` whose decision is awaited, if any."""
        return self._turn if self.needs() is None else None

    def needs(self) -> Need | None:
        if self._phase is Phase.DEALING:
            seat, _ = self._queue[0]
            if seat < 0:
                hidden = len(self._dealer) == 1
                return Need(kind=NeedKind.CARD, target="dealer", hidden=hidden)
            return Need(kind=NeedKind.CARD, target=f"seat{seat}.0")
        if self._phase is Phase.PLAYING:
            target = self._card_owed()
            if target is not None:
                return Need(kind=NeedKind.CARD, target=f"seat{target[0]}.{target[1]}")
            return None
        if self._phase is Phase.DEALER and self._dealer_must_draw():
            return Need(kind=NeedKind.CARD, target="dealer")
        return None

    def _card_owed(self) -> tuple[int, int] | None:
        if self._draw_to is not None:
            return self._draw_to
        if self._turn is not None:
            s, h = self._turn
            if len(self._seats[s].hands[h].cards) < 2:
                return self._turn
        return None

    # --- legality -----------------------------------------------------------

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < len(self._seats):
            return frozenset()
        st = self._seats[seat]
        if self._phase is Phase.BETTING:
            out = {"place-bet"}
            if st.main or st.buster:
                out.add("remove-bet")
            if any(s.main for s in self._seats):
                out.add("deal")
            return frozenset(out)
        if self._phase is Phase.INSURANCE:
            if not st.main or st.insurance_decided:
                return frozenset()
            if self.rules.even_money and self._natural(st.hands[0]):
                return frozenset({"even-money", "no-insurance"})
            return frozenset({"insurance", "no-insurance"})
        if self._phase is Phase.PLAYING and self.needs() is None and self._turn is not None:
            s, h = self._turn
            if s != seat:
                return frozenset()
            return frozenset(
                d
                for d in ("hit", "stand", "double", "split", "surrender")
                if self._decision_refusal(s, h, d, "") is None
            )
        return frozenset()

    def _natural(self, hand: PlayerHand) -> bool:
        return is_natural(hand.cards, from_split=hand.from_split)

    def _decision_refusal(self, s: int, h: int, decision: str, arg: str) -> str | None:
        """Why ``decision`` on hand ``h`` of seat ``s`` is refused now, or None if allowed."""
        st = self._seats[s]
        hand = st.hands[h]
        total, _ = hand.total
        r = self.rules
        if decision in ("hit", "stand"):
            return None
        if decision == "double":
            if len(hand.cards) != 2:
                return "double is allowed only on the first two cards of a hand"
            if hand.from_split and not r.double_after_split:
                return "double after split is not allowed at this table"
            amount = hand.stake
            if arg:
                try:
                    amount = _amount(arg, "double")
                except IllegalAction as exc:
                    return str(exc)
                if not r.double_for_less and amount != hand.stake:
                    return f"double must equal the bet ({hand.stake} cents); no double for less"
                if amount > hand.stake:
                    return f"double may not exceed the bet ({hand.stake} cents)"
            return None
        if decision == "split":
            if len(hand.cards) != 2:
                return "split is allowed only on the first two cards of a hand"
            if not can_split_cards(hand.cards[0], hand.cards[1], r.split):
                what = "cards of equal value" if r.split == "same-value" else "a pair or two faces"
                return f"split needs {what}"
            if len(st.hands) >= r.max_hands:
                return f"no more splits: at most {r.max_hands} hands"
            return None
        if decision == "surrender":
            if r.surrender_min_total is None:
                return "no surrender at this table"
            if hand.from_split or len(st.hands) > 1:
                return "a split hand may not surrender"
            if hand.doubled:
                return "a doubled hand may not surrender"
            if total < r.surrender_min_total:
                return f"surrender needs a total of {r.surrender_min_total} or more"
            return None
        return f"{decision!r} is not a decision now"

    def verify(self, action: Action) -> None:
        reason = self._refusal(action)
        if reason is not None:
            exc = BetRefused if isinstance(action, PlaceBet | RemoveBet) else IllegalAction
            raise exc(reason)

    def can(self, action: Action) -> bool:
        return self._refusal(action) is None

    def _seat_ok(self, seat: int | None) -> str | None:
        if seat is None or not 0 <= seat < len(self._seats):
            return f"no seat {seat!r} at this table (seats 0..{len(self._seats) - 1})"
        return None

    def _refusal(self, action: Action) -> str | None:
        if self._phase is Phase.OVER:
            return "the round is over"
        if isinstance(action, DealCard):
            need = self.needs()
            if need is None:
                return "no card is due now"
            if action.card.is_joker:
                return "blackjack is dealt without jokers"
            if self._seen.get(action.card.index, 0) >= self.rules.decks:
                decks = self.rules.decks
                return f"more than {decks} copies of {action.card} in a {decks}-deck shoe"
            return None
        need = self.needs()
        if need is not None:
            return f"waiting for a card for {need.target}"
        if isinstance(action, PlaceBet | RemoveBet):
            bad = self._seat_ok(action.seat)
            if bad:
                return bad
            if self._phase is not Phase.BETTING:
                return "bets are closed: the cards are dealt"
            if action.bet not in self.variant.limits:
                return f"no bet {action.bet!r} here; bets: {', '.join(self.variant.limits)}"
            st = self._seats[action.seat or 0]
            current = st.main if action.bet == "main" else st.buster
            if isinstance(action, PlaceBet):
                if action.amount <= 0:
                    return "bet amount must be positive"
                return self.variant.limits[action.bet].check(current + action.amount)
            if current == 0:
                return f"no {action.bet} bet to remove"
            take = action.amount or current
            if not 0 < take <= current:
                return f"can remove at most {current} cents"
            left = current - take
            return None if left == 0 else self.variant.limits[action.bet].check(left)
        if isinstance(action, Deal):
            if self._phase is not Phase.BETTING:
                return "the cards are already dealt"
            if not any(s.main for s in self._seats):
                return "place a bet before the deal"
            for i, seat_st in enumerate(self._seats):
                if seat_st.buster and not seat_st.main:
                    return f"seat {i}: a Buster Bet needs a bet on the hand"
            return None
        if isinstance(action, Decide):
            bad = self._seat_ok(action.seat)
            if bad:
                return bad
            seat = action.seat
            assert seat is not None
            if action.decision not in DECISIONS:
                return f"unknown decision {action.decision!r}; decisions: {', '.join(DECISIONS)}"
            st = self._seats[seat]
            if self._phase is Phase.INSURANCE:
                legal = self.legal_actions(seat)
                if action.decision not in legal:
                    if not legal:
                        return f"seat {seat} has no insurance decision to make"
                    return (
                        f"{action.decision} is not offered now; choose {' or '.join(sorted(legal))}"
                    )
                if action.decision == "insurance" and action.arg:
                    try:
                        amount = _amount(action.arg, "insurance")
                    except IllegalAction as exc:
                        return str(exc)
                    half = st.main // 2
                    if self.rules.insurance == "half" and amount != half:
                        return f"insurance is exactly half the bet ({half} cents)"
                    if amount > half:
                        return f"insurance may be at most half the bet ({half} cents)"
                return None
            if self._phase is not Phase.PLAYING or self._turn is None:
                return f"no decision is due now (phase {self._phase})"
            s, h = self._turn
            if seat != s:
                return f"it is seat {s}'s turn"
            if action.hand != h:
                return f"hand {h} of seat {s} is in play, not hand {action.hand}"
            if action.decision in ("insurance", "even-money", "no-insurance"):
                return "insurance is offered only before play, when the dealer shows an ace"
            return self._decision_refusal(s, h, action.decision, action.arg)
        return f"{action.kind} is not an action in blackjack"

    # --- the mutator ----------------------------------------------------------

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        ev: list[Event] = []
        if isinstance(action, PlaceBet):
            seat = action.seat or 0
            st = self._seats[seat]
            if action.bet == "main":
                st.main += action.amount
            else:
                st.buster += action.amount
            ev.append(BetPlaced(seat=seat, bet=action.bet, amount=action.amount))
        elif isinstance(action, RemoveBet):
            seat = action.seat or 0
            st = self._seats[seat]
            current = st.main if action.bet == "main" else st.buster
            take = action.amount or current
            if action.bet == "main":
                st.main -= take
            else:
                st.buster -= take
            ev.append(BetReturned(seat=seat, bet=action.bet, amount=take))
        elif isinstance(action, Deal):
            self._start_deal(ev)
        elif isinstance(action, DealCard):
            self._seen[action.card.index] = self._seen.get(action.card.index, 0) + 1
            self._take_card(action.card, ev)
        elif isinstance(action, Decide):
            assert action.seat is not None
            if self._phase is Phase.INSURANCE:
                self._insurance_decision(action.seat, action.decision, action.arg, ev)
            else:
                self._play_decision(action.seat, action.hand, action.decision, action.arg, ev)
        return tuple(ev)

    # --- steps ----------------------------------------------------------------

    def _start_deal(self, ev: list[Event]) -> None:
        playing = [i for i, s in enumerate(self._seats) if s.main]
        for i in playing:
            self._seats[i].hands = [PlayerHand(cards=[], stake=self._seats[i].main)]
        self._queue = [(i, 0) for i in playing] + [(-1, 0)] + [(i, 0) for i in playing] + [(-1, 0)]
        self._phase = Phase.DEALING
        ev.append(Message(text=f"dealing to seats {', '.join(map(str, playing))}"))

    def _take_card(self, card: Card, ev: list[Event]) -> None:
        if self._phase is Phase.DEALING:
            seat, _ = self._queue.pop(0)
            if seat < 0:
                self._dealer.append(card)
                if len(self._dealer) == 1:
                    ev.append(CardShown(card=card, hand="dealer"))
            else:
                self._seats[seat].hands[0].cards.append(card)
                ev.append(CardShown(card=card, hand=f"seat{seat}.0"))
            if not self._queue:
                self._after_deal(ev)
            return
        if self._phase is Phase.DEALER:
            self._dealer.append(card)
            ev.append(CardShown(card=card, hand="dealer"))
            if not self._dealer_must_draw():
                self._settle_all(ev)
            return
        target = self._card_owed()
        assert target is not None
        s, h = target
        hand = self._seats[s].hands[h]
        hand.cards.append(card)
        ev.append(CardShown(card=card, hand=f"seat{s}.{h}"))
        self._draw_to = None
        total, _ = hand.total
        if hand.doubled or (hand.split_aces and len(hand.cards) == 2) or total >= 21:
            hand.done = True
        if total > 21:
            self._settle_bust(s, h, ev)
        self._advance(ev)

    def _peekable(self) -> bool:
        return self.rules.dealer_peeks and points(self._dealer[0]) in (1, 10)

    def _after_deal(self, ev: list[Event]) -> None:
        if points(self._dealer[0]) == 1:
            self._phase = Phase.INSURANCE
            offer = "even money or insurance" if self.rules.even_money else "insurance"
            ev.append(Message(text=f"dealer shows an ace: {offer}?"))
            return
        self._peek(ev)

    def _insurance_decision(self, seat: int, decision: str, arg: str, ev: list[Event]) -> None:
        st = self._seats[seat]
        st.insurance_decided = True
        if decision == "insurance":
            amount = int(arg) if arg else st.main // 2
            st.insurance = amount
            ev.append(BetPlaced(seat=seat, bet="insurance", amount=amount))
        elif decision == "even-money":
            hand = st.hands[0]
            hand.done = hand.settled = True
            hand.result = "even-money"
            ev.append(
                BetSettled(
                    seat=seat,
                    bet="main",
                    stake=hand.stake,
                    returned=2 * hand.stake,
                    result="win",
                    note="even money on a blackjack: pays 1 to 1",
                )
            )
        if all(s.insurance_decided for s in self._seats if s.main):
            self._peek(ev)

    def _peek(self, ev: list[Event]) -> None:
        r = self.rules
        dealer_natural = self._peekable() and is_natural(self._dealer, from_split=False)
        if dealer_natural:
            self._reveal_hole(ev)
            ev.append(Message(text=f"dealer has a {r.natural_name}"))
        for i, st in enumerate(self._seats):
            if not st.main:
                continue
            if st.insurance:
                won = dealer_natural
                returned = st.insurance + pay(Cents(st.insurance), r.insurance_pays) if won else 0
                ev.append(
                    BetSettled(
                        seat=i,
                        bet="insurance",
                        stake=st.insurance,
                        returned=returned,
                        result="win" if won else "lose",
                        note=f"insurance pays {r.insurance_pays}"
                        if won
                        else "dealer has no " + r.natural_name,
                    )
                )
            hand = st.hands[0]
            if hand.settled:
                continue
            natural = self._natural(hand)
            if dealer_natural:
                result = "push" if natural else "lose"
                returned = hand.stake if natural else 0
                note = f"both have a {r.natural_name}" if natural else f"dealer {r.natural_name}"
                self._settle(i, 0, returned, result, note, ev)
            elif natural:
                win = pay(Cents(hand.stake), r.natural_pays)
                self._settle(
                    i, 0, hand.stake + win, "win", f"{r.natural_name} pays {r.natural_pays}", ev
                )
                hand.result = "blackjack"
        if dealer_natural:
            for i, st in enumerate(self._seats):
                if st.buster:
                    ev.append(
                        BetSettled(
                            seat=i,
                            bet="buster",
                            stake=st.buster,
                            returned=0,
                            result="lose",
                            note="dealer did not bust",
                        )
                    )
            self._finish(ev)
            return
        self._phase = Phase.PLAYING
        self._advance(ev)

    def _advance(self, ev: list[Event]) -> None:
        """Move the turn to the next hand that needs a card or a decision, or to the dealer."""
        for s, st in enumerate(self._seats):
            for h, hand in enumerate(st.hands):
                if hand.done:
                    continue
                if len(hand.cards) < 2:
                    self._turn = (s, h)
                    return
                total, _ = hand.total
                if total >= 21 or (hand.split_aces and len(hand.cards) == 2):
                    hand.done = True
                    continue
                self._turn = (s, h)
                return
        self._turn = None
        self._phase = Phase.DEALER
        self._reveal_hole(ev)
        if not self._dealer_must_draw():
            self._settle_all(ev)

    def _play_decision(self, seat: int, h: int, decision: str, arg: str, ev: list[Event]) -> None:
        st = self._seats[seat]
        hand = st.hands[h]
        if decision == "hit":
            self._draw_to = (seat, h)
            return
        if decision == "stand":
            hand.done = True
            self._advance(ev)
            return
        if decision == "double":
            extra = int(arg) if arg else hand.stake
            hand.stake += extra
            hand.doubled = True
            ev.append(BetPlaced(seat=seat, bet=spot(h), amount=extra))
            self._draw_to = (seat, h)
            return
        if decision == "split":
            second = hand.cards.pop()
            aces = points(second) == 1 and self.rules.split_aces_one_card
            hand.from_split = True
            hand.split_aces = aces
            new = PlayerHand(cards=[second], stake=st.main, from_split=True, split_aces=aces)
            st.hands.append(new)
            ev.append(BetPlaced(seat=seat, bet=spot(len(st.hands) - 1), amount=st.main))
            ev.append(Message(text=f"seat {seat} splits hand {h}"))
            self._turn = (seat, h)
            return
        # surrender
        hand.done = True
        self._settle(seat, h, hand.stake // 2, "lose", "surrendered: half the bet returned", ev)
        hand.result = "surrender"
        self._advance(ev)

    # --- dealer and settlement -------------------------------------------------

    def _reveal_hole(self, ev: list[Event]) -> None:
        if not self._hole_shown and len(self._dealer) >= 2:
            self._hole_shown = True
            ev.append(CardShown(card=self._dealer[1], hand="dealer"))

    def _live(self, hand: PlayerHand) -> bool:
        return not hand.settled

    def _dealer_must_draw(self) -> bool:
        if self._phase is not Phase.DEALER:
            return False
        live = any(self._live(h) for st in self._seats for h in st.hands)
        buster = any(st.buster for st in self._seats)
        if not (live or buster):
            return False
        total, soft = hand_total(self._dealer)
        return dealer_hits(total, soft, self.rules.dealer_hits_soft_through)

    def _settle(
        self, s: int, h: int, returned: int, result: str, note: str, ev: list[Event]
    ) -> None:
        hand = self._seats[s].hands[h]
        hand.settled = hand.done = True
        hand.result = result
        ev.append(
            BetSettled(
                seat=s, bet=spot(h), stake=hand.stake, returned=returned, result=result, note=note
            )
        )

    def _settle_bust(self, s: int, h: int, ev: list[Event]) -> None:
        hand = self._seats[s].hands[h]
        total, _ = hand.total
        if len(hand.cards) == 3 and total in self.rules.bust_push_totals:
            return  # may still push if the dealer busts higher: settled after the dealer
        self._settle(s, h, 0, "lose", f"bust with {total}", ev)

    def _settle_all(self, ev: list[Event]) -> None:
        d_total, _ = hand_total(self._dealer)
        d_cards = len(self._dealer)
        for s, st in enumerate(self._seats):
            for h, hand in enumerate(st.hands):
                if hand.settled:
                    continue
                total, _ = hand.total
                outcome = showdown(total, len(hand.cards), d_total, self.rules.bust_push_totals)
                note = f"{total} against dealer {d_total}"
                if outcome is Outcome.WIN:
                    self._settle(s, h, 2 * hand.stake, "win", note, ev)
                elif outcome is Outcome.PUSH:
                    self._settle(s, h, hand.stake, "push", note, ev)
                else:
                    self._settle(s, h, 0, "lose", note, ev)
            if st.buster:
                odds = self.rules.buster_pay(d_cards) if d_total > 21 else None
                if odds is None:
                    ev.append(
                        BetSettled(
                            seat=s,
                            bet="buster",
                            stake=st.buster,
                            returned=0,
                            result="lose",
                            note=f"dealer {d_total} with {d_cards} cards",
                        )
                    )
                else:
                    win = pay(Cents(st.buster), odds)
                    ev.append(
                        BetSettled(
                            seat=s,
                            bet="buster",
                            stake=st.buster,
                            returned=st.buster + win,
                            result="win",
                            note=f"dealer busts with {d_cards} cards: pays {odds}",
                        )
                    )
        self._finish(ev)

    def _finish(self, ev: list[Event]) -> None:
        self._reveal_hole(ev)
        self._phase = Phase.OVER
        self._turn = None
        d_total, _ = hand_total(self._dealer)
        ev.append(RoundOver(summary=f"dealer {' '.join(map(str, self._dealer))} ({d_total})"))

    # --- views ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: never the hole card before it is shown."""
        dealer_cards: list[str | None] = [str(c) for c in self._dealer]
        if len(self._dealer) >= 2 and not self._hole_shown:
            dealer_cards[1] = None
        shown = [c for i, c in enumerate(self._dealer) if i != 1 or self._hole_shown]
        d_total, d_soft = hand_total(shown) if shown else (0, False)
        need = self.needs()
        seats = []
        for i, st in enumerate(self._seats):
            hands = []
            for h, hand in enumerate(st.hands):
                total, soft = hand.total if hand.cards else (0, False)
                hands.append(
                    {
                        "hand": h,
                        "cards": [str(c) for c in hand.cards],
                        "total": total,
                        "soft": soft,
                        "stake": hand.stake,
                        "doubled": hand.doubled,
                        "done": hand.done,
                        "result": hand.result,
                    }
                )
            seats.append(
                {
                    "seat": i,
                    "bets": {"main": st.main, "buster": st.buster, "insurance": st.insurance},
                    "hands": hands,
                }
            )
        turn = self.turn
        return {
            "game": "blackjack",
            "variant": self.variant.id,
            "phase": str(self._phase),
            "dealer": {"cards": dealer_cards, "total": d_total, "soft": d_soft},
            "seats": seats,
            "turn": None if turn is None else {"seat": turn[0], "hand": turn[1]},
            "waiting_for_card": None if need is None else need.target,
            "legal": sorted(self.legal_actions(seat)) if seat is not None else [],
        }

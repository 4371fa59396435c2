"""One blackjack round as a pure state machine: bets, the deal, insurance, peek, play, dealer.

The engine never draws a card itself: :meth:`BlackjackRound.needs` says a card is due and for
whom, and the source (rng shoe, physical shoe, a test, the log replayer) answers with
:class:`~games.core.records.DealCard`. The dealer's second card is asked for with
``Need(hidden=True)``: it lives only in the engine's private state and in that ``DealCard``
action (which the runtime keeps server-side in its journal); no event and no view shows it
until the rules turn it over, when a :class:`~games.core.records.CardShown` for it is emitted.

Seats are numbered from 0. Bet spots (on the round's bet book): ``main`` (hand 0; split hands
are ``main.1`` ... ``main.3``, doubles add to their hand's spot), ``insurance`` and ``buster``
(21st Century). Every spot placed is settled exactly once: ``BetSettled.stake`` is the spot's
whole amount.

Flow (both pages): bets, ``Deal``; player, dealer up, player, dealer hole (face down). With an
ace up each seat answers insurance / no-insurance (even money instead for a blackjack where
the table offers it). The dealer then peeks when showing an ace or a ten: with a natural it
turns the hole card over and the round ends (the player's natural pushes, insurance pays 2 to
1, only the original bet is lost). Otherwise lost insurance is taken, player naturals are paid
(3:2 or 6:5), and hands are played in order. The dealer draws only if a hand (or a Buster Bet)
is still live, under ``dealer_hits_soft_through``; then every hand is settled (the dealer's
turn and the settlement: the :class:`~games.blackjack.dealer_turn.DealerTurn` mixin).

>>> from games.blackjack import VARIANTS
>>> from games.core.cards import parse_cards
>>> from games.core.records import BetSettled, Deal, DealCard, Decide, PlaceBet
>>> game = BlackjackRound(VARIANTS[0])
>>> events = game.apply(PlaceBet(seat=0, bet="main", amount=1000)) + game.apply(Deal(seat=0))
>>> for card in parse_cards("Ts 9d 7h 8c"):
...     events += game.apply(DealCard(card=card))
>>> game.legal_actions(0) == {"hit", "stand", "double"}
True
>>> [(e.result, e.returned) for e in game.apply(Decide(seat=0, decision="stand"))
...  if isinstance(e, BetSettled)]
[('push', 1000)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from games.blackjack.backline import Backline
from games.blackjack.dealer_turn import DealerTurn
from games.blackjack.decisions import (
    DECISIONS,
    INSURANCE_DECISIONS,
    PLAY_DECISIONS,
    insurance_offer,
    insurance_refusal,
    play_refusal,
)
from games.blackjack.hand import is_natural, points
from games.blackjack.phases import Phase
from games.blackjack.player_dealer import BlackjackBank
from games.blackjack.rules import BlackjackRules
from games.blackjack.seats import PlayerHand, SeatState, spot
from games.blackjack.settlement import (
    BUSTER_AGAINST_NATURAL,
    bust_payout,
    even_money,
    insurance_payout,
    peek_payout,
    surrender,
)
from games.blackjack.view import BlackjackView, SeatBets, SeatView, dealer_view, hand_view
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.player_dealer import (
    BANK_BET,
    OFFER_DECISIONS,
    PlayerDealerCarry,
    PlayerDealerOffer,
)
from games.core.records import CardShown, Event, Message, RoundOver
from games.core.round import Round

if TYPE_CHECKING:  # the dispatch is by kind: the actions' types are for the signatures only
    from games.core.records import Action, Deal, DealCard, Decide, PlaceBet, RemoveBet

#: the dealer's place in the initial deal's order (seats are 0..)
DEALER = -1
#: actions refused as :class:`BetRefused` whatever the reason (chips moved by the player)
BET_KINDS = frozenset({"place-bet", "remove-bet"})


class BlackjackRound(BlackjackBank, DealerTurn, Round[BlackjackRules]):
    """A round of blackjack at one table (see the module docstring for the flow)."""

    GAME: ClassVar[str] = "blackjack"
    #: an absent seat declines insurance and even money, and its hand stands
    PASSIVE: ClassVar[tuple[str, ...]] = ("no-insurance", "stand", "decline-bank")
    phase: Phase

    def __init__(
        self,
        variant: Variant[BlackjackRules],
        seats: int = 1,
        *,
        carry: PlayerDealerCarry | None = None,
    ) -> None:
        if not isinstance(variant.rules, BlackjackRules):
            raise TypeError(f"{variant.id} is not a blackjack variant")
        if not 1 <= seats <= max(variant.seats, 7):
            raise ValueError(f"seats must be 1..{max(variant.seats, 7)}")
        super().__init__(variant, seats, phase=Phase.BETTING)
        self._players = [SeatState() for _ in range(seats)]
        self._dealer: list[Card] = []
        self._hole_shown = False
        self._queue: list[int] = []  # initial deal targets: a seat, or DEALER
        self._draw_to: tuple[int, int] | None = None  # a hand owed a card after hit/double
        self._turn: tuple[int, int] | None = None
        self._seen: dict[int, int] = {}  # card index -> copies dealt (shoe sanity)
        #: the backline positions (games.blackjack.backline): seats past ``seats``
        self.backline = Backline(seats, self.rules.backline_per_seat)
        pd = self.rules.player_dealer  # page 004's Player/Dealer (games.blackjack.player_dealer)
        self.offer = PlayerDealerOffer(pd, seats, carry or PlayerDealerCarry()) if pd else None

    # --- read-only state ----------------------------------------------------

    def seat_state(self, seat: int) -> SeatState:
        """The live state of a seat (read it; mutate only through :meth:`apply`)."""
        return self._players[seat]

    @property
    def dealer_up(self) -> Card | None:
        return self._dealer[0] if self._dealer else None

    @property
    def turn(self) -> tuple[int, int] | None:
        """``(seat, hand)`` whose decision is awaited, if any."""
        return self._turn if self.needs() is None else None

    def main_bet(self, seat: int) -> int:
        """The seat's bet on the hand: the ``main`` spot until the deal, then what each of
        its hands started with (a double adds to its hand's stake, not to this)."""
        if self.phase is Phase.BETTING:
            return self.book.stake(seat, "main")
        return self._players[seat].main

    def needs(self) -> Need | None:
        if self.phase is Phase.DEALING:
            if self._queue[0] == DEALER:
                hidden = len(self._dealer) == 1
                return Need(kind=NeedKind.CARD, target="dealer", hidden=hidden)
            return Need(kind=NeedKind.CARD, target=f"seat{self._queue[0]}.0")
        if self.phase is Phase.PLAYING:
            target = self._card_owed()
            if target is not None:
                return Need(kind=NeedKind.CARD, target=f"seat{target[0]}.{target[1]}")
            return None
        if self.phase is Phase.DEALER and self._dealer_must_draw():
            return Need(kind=NeedKind.CARD, target="dealer")
        return None

    def _card_owed(self) -> tuple[int, int] | None:
        if self._draw_to is not None:
            return self._draw_to
        if self._turn is not None:
            s, h = self._turn
            if len(self._players[s].hands[h].cards) < 2:
                return self._turn
        return None

    def _any_main(self) -> bool:
        return any(self.book.stake(s, "main") for s in range(self.seats))

    # --- legality -----------------------------------------------------------

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self.backline.seat(seat) is not None:  # a backline bet: its own chips, no decision
            return self.backline.legal(self.book, seat, betting=self.phase is Phase.BETTING)
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            out = {"place-bet"} if seat != self.banker else set()
            if self.book.has(seat) and seat != self.banker:
                out.add("remove-bet")
            if self._any_main():
                out.add("deal")
            return frozenset(out) | (self.offer.open_to(seat) if self.offer else frozenset())
        if self.phase is Phase.INSURANCE:
            return insurance_offer(self.rules, self._players[seat])
        if self.phase is Phase.PLAYING and self.needs() is None and self._turn is not None:
            s, h = self._turn
            if s != seat:
                return frozenset()
            st = self._players[s]
            return frozenset(
                d for d in PLAY_DECISIONS if play_refusal(self.rules, st, h, d, "") is None
            )
        return frozenset()

    def _seat(self, action: Action) -> int:
        """The action's seat, refused in blackjack's words if there is no such seat."""
        seat = action.seat
        if seat is not None and self.backline.seat(seat) is not None:
            return seat  # a backline position: verify_any let only its own bets through
        if seat is None or not 0 <= seat < self.seats:
            raise _refusal(action, f"no seat {seat!r} at this table (seats 0..{self.seats - 1})")
        return seat

    def unknown_action_text(self, action: Action) -> str:
        return f"{action.kind} is not an action in blackjack"

    def verify_any(self, action: Action) -> None:
        """A round that is over takes nothing; a card that is due comes before anything else."""
        if self.phase is Phase.OVER:
            raise _refusal(action, "the round is over")
        if action.kind != "deal-card":
            need = self.needs()
            if need is not None:
                raise _refusal(action, f"waiting for a card for {need.target}")
        backline = self.backline.refusal(action)
        if backline is not None:
            raise _refusal(action, backline)

    def seat_of(self, action: Action) -> int:
        """The action's seat, a backline position included (``verify_any`` checked it)."""
        return self._seat(action)

    def backline_positions(self, seat: int, bet: str) -> range:
        """The positions that may back ``seat``'s ``bet`` (:mod:`games.core.backline`)."""
        self.backline.check_refusal(seat, bet)
        return self.backline.positions(seat)

    def backed_seat(self, position: int) -> int | None:
        return self.backline.seat(position)

    def verify_deal_card(self, action: DealCard) -> None:
        if self.needs() is None:
            raise IllegalAction("no card is due now")
        if action.card.is_joker:
            raise IllegalAction("blackjack is dealt without jokers")
        decks = self.rules.decks
        if self._seen.get(action.card.index, 0) >= decks:
            raise IllegalAction(f"more than {decks} copies of {action.card} in a {decks}-deck shoe")

    def _betting_seat(self, action: PlaceBet | RemoveBet) -> int:
        seat = self._seat(action)
        if self.phase is not Phase.BETTING:
            raise BetRefused("bets are closed: the cards are dealt")
        if action.bet not in self.variant.limits:
            raise BetRefused(f"no bet {action.bet!r} here; bets: {', '.join(self.variant.limits)}")
        return seat

    def verify_place_bet(self, action: PlaceBet) -> None:
        seat = self._betting_seat(action)
        if seat == self.banker:
            raise BetRefused("the player/dealer plays no hand this round")
        if action.amount <= 0:
            raise BetRefused("bet amount must be positive")
        total = self.book.stake(seat, action.bet) + action.amount
        reason = self.variant.limits[action.bet].check(total)
        if reason is not None:
            raise BetRefused(reason)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        seat = self._betting_seat(action)
        current = self.book.stake(seat, action.bet)
        if current == 0:
            raise BetRefused(f"no {action.bet} bet to remove")
        take = action.amount or current
        if not 0 < take <= current:
            raise BetRefused(f"can remove at most {current} cents")
        left = current - take
        reason = None if left == 0 else self.variant.limits[action.bet].check(left)
        if reason is not None:
            raise BetRefused(reason)

    def verify_deal(self, action: Deal) -> None:
        if self.phase is not Phase.BETTING:
            raise IllegalAction("the cards are already dealt")
        if not self._any_main():
            raise IllegalAction("place a bet before the deal")
        for i in range(self.seats):
            if self.book.stake(i, "buster") and not self.book.stake(i, "main"):
                raise IllegalAction(f"seat {i}: a Buster Bet needs a bet on the hand")

    def verify_decide(self, action: Decide) -> None:
        seat = self._seat(action)
        decision = action.decision
        if decision in OFFER_DECISIONS and self.offer is not None and self.phase is Phase.BETTING:
            self.offer.verify(seat, action, has_wagers=self.book.has(seat))
            return
        if decision not in DECISIONS:
            raise IllegalAction(f"unknown decision {decision!r}; decisions: {', '.join(DECISIONS)}")
        st = self._players[seat]
        if self.phase is Phase.INSURANCE:
            reason = insurance_refusal(self.rules, st, seat, decision, action.arg)
        elif self.phase is not Phase.PLAYING or self._turn is None:
            reason = f"no decision is due now (phase {self.phase})"
        elif seat != self._turn[0]:
            reason = f"it is seat {self._turn[0]}'s turn"
        elif action.hand != self._turn[1]:
            reason = f"hand {self._turn[1]} of seat {seat} is in play, not hand {action.hand}"
        elif decision in INSURANCE_DECISIONS:
            reason = "insurance is offered only before play, when the dealer shows an ace"
        else:
            reason = play_refusal(self.rules, st, action.hand, decision, action.arg)
        if reason is not None:
            raise IllegalAction(reason)

    # --- applying (after the verify_ of the same kind) --------------------------

    def apply_place_bet(self, action: PlaceBet) -> list[Event]:
        return [self.book.place(self.seat_of(action), action.bet, action.amount)]

    def apply_remove_bet(self, action: RemoveBet) -> list[Event]:
        return [self.book.remove(self.seat_of(action), action.bet, action.amount)]

    def apply_deal(self, action: Deal) -> list[Event]:
        banked = self.cover_at_deal()
        playing = [i for i in range(self.seats) if self.book.stake(i, "main")]
        for i in playing:
            st = self._players[i]
            st.main = self.book.stake(i, "main")
            st.hands = [PlayerHand(cards=[], stake=st.main)]
        self._queue = [*playing, DEALER, *playing, DEALER]
        self.phase = Phase.DEALING
        returned = self.backline.at_deal(self.book, playing)
        if not playing:  # the player/dealer's bank covered no hand: all went back
            self.phase, bank = Phase.OVER, self.bank_settlement()
            closed = [self.settle(bank[0], BANK_BET, bank[1], bank[2])] if bank else []
            return [*banked, *returned, *closed, RoundOver(summary="no hand covered: no deal")]
        dealing = Message(text=f"dealing to seats {', '.join(map(str, playing))}")
        return [*banked, *returned, dealing, *self.variant.charge_collection(self.bets)]

    def apply_deal_card(self, action: DealCard) -> list[Event]:
        card = action.card
        self._seen[card.index] = self._seen.get(card.index, 0) + 1
        ev: list[Event] = []
        if self.phase is Phase.DEALING:
            self._deal_initial(card, ev)
        elif self.phase is Phase.DEALER:
            self._dealer.append(card)
            ev.append(CardShown(card=card, hand="dealer"))
            if not self._dealer_must_draw():
                self._settle_all(ev)
        else:
            self._deal_to_hand(card, ev)
        return ev

    def apply_decide(self, action: Decide) -> list[Event]:
        seat = self.seat_of(action)
        if action.decision in OFFER_DECISIONS and self.offer is not None:
            return self.offer.apply(seat, action, self.book)
        ev: list[Event] = []
        if self.phase is Phase.INSURANCE:
            self._insurance_decision(seat, action.decision, action.arg, ev)
        else:
            self._play_decision(seat, action.hand, action.decision, action.arg, ev)
        return ev

    # --- steps ----------------------------------------------------------------

    def _deal_initial(self, card: Card, ev: list[Event]) -> None:
        seat = self._queue.pop(0)
        if seat == DEALER:
            self._dealer.append(card)
            if len(self._dealer) == 1:
                ev.append(CardShown(card=card, hand="dealer"))
        else:
            self._players[seat].hands[0].cards.append(card)
            ev.append(CardShown(card=card, hand=f"seat{seat}.0"))
        if not self._queue:
            self._after_deal(ev)

    def _deal_to_hand(self, card: Card, ev: list[Event]) -> None:
        target = self._card_owed()
        assert target is not None
        s, h = target
        hand = self._players[s].hands[h]
        hand.cards.append(card)
        ev.append(CardShown(card=card, hand=f"seat{s}.{h}"))
        self._draw_to = None
        total, _ = hand.total
        if hand.doubled or (hand.split_aces and len(hand.cards) == 2) or total >= 21:
            hand.done = True
        lost = bust_payout(self.rules, hand) if total > 21 else None
        if lost is not None:
            self._settle_hand(s, h, lost, ev)
        self._advance(ev)

    def _after_deal(self, ev: list[Event]) -> None:
        if points(self._dealer[0]) == 1:
            self.phase = Phase.INSURANCE
            offer = "even money or insurance" if self.rules.even_money else "insurance"
            ev.append(Message(text=f"dealer shows an ace: {offer}?"))
            return
        self._peek(ev)

    def _insurance_decision(self, seat: int, decision: str, arg: str, ev: list[Event]) -> None:
        st = self._players[seat]
        st.insurance_decided = True
        if decision == "insurance":
            amount = int(arg) if arg else st.main // 2
            ev.append(self.book.add_by_rule(seat, "insurance", amount))
        elif decision == "even-money":
            self._settle_hand(seat, 0, even_money(st.hands[0].stake), ev, shown="even-money")
        if all(s.insurance_decided for s in self._players if s.main):
            self._peek(ev)

    def _peek(self, ev: list[Event]) -> None:
        """The dealer looks under an ace or a ten: a natural ends the round at once; otherwise
        insurance is taken, player naturals are paid and play starts."""
        r = self.rules
        peekable = r.dealer_peeks and points(self._dealer[0]) in (1, 10)
        dealer_natural = peekable and is_natural(self._dealer, from_split=False)
        if dealer_natural:
            self._reveal_hole(ev)
            ev.append(Message(text=f"dealer has a {r.natural_name}"))
        for i, st in enumerate(self._players):
            if not st.main:
                continue
            insured = self.book.stake(i, "insurance")
            if insured:
                payout = insurance_payout(r, insured, dealer_natural)
                ev.append(self._settle_spot(i, "insurance", payout))
            hand = st.hands[0]
            payout_or_play = None if hand.settled else peek_payout(r, hand, dealer_natural)
            if payout_or_play is not None:
                shown = "blackjack" if payout_or_play.result == "win" else ""
                self._settle_hand(i, 0, payout_or_play, ev, shown=shown)
        if dealer_natural:
            for i in range(self.seats):
                if self.book.stake(i, "buster"):
                    ev.append(self._settle_spot(i, "buster", BUSTER_AGAINST_NATURAL))
            self._finish(ev)
            return
        self.phase = Phase.PLAYING
        self._advance(ev)

    def _advance(self, ev: list[Event]) -> None:
        """Move the turn to the next hand that needs a card or a decision, or to the dealer."""
        for s, st in enumerate(self._players):
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
        self.phase = Phase.DEALER
        self._reveal_hole(ev)
        if not self._dealer_must_draw():
            self._settle_all(ev)

    def _play_decision(self, seat: int, h: int, decision: str, arg: str, ev: list[Event]) -> None:
        st = self._players[seat]
        hand = st.hands[h]
        if decision == "hit":
            self._draw_to = (seat, h)
        elif decision == "stand":
            hand.done = True
            self._advance(ev)
        elif decision == "double":
            extra = int(arg) if arg else hand.stake
            hand.stake += extra
            hand.doubled = True
            ev.append(self.book.add_by_rule(seat, spot(h), extra))
            self._draw_to = (seat, h)
        elif decision == "split":
            self._split(seat, h, ev)
        else:
            self._settle_hand(seat, h, surrender(hand.stake), ev, shown="surrender")
            self._advance(ev)

    def _split(self, seat: int, h: int, ev: list[Event]) -> None:
        """Hand ``h``'s second card opens the seat's next hand, staking the bet again."""
        st = self._players[seat]
        hand = st.hands[h]
        second = hand.cards.pop()
        aces = points(second) == 1 and self.rules.split_aces_one_card
        hand.from_split = True
        hand.split_aces = aces
        st.hands.append(PlayerHand(cards=[second], stake=st.main, from_split=True, split_aces=aces))
        ev.append(self.book.add_by_rule(seat, spot(len(st.hands) - 1), st.main))
        ev.append(Message(text=f"seat {seat} splits hand {h}"))
        self._turn = (seat, h)

    # --- views ------------------------------------------------------------------

    def view(self, seat: int | None) -> BlackjackView:
        """What ``seat`` (None: a spectator) may see: never the hole card before it is shown."""
        need = self.needs()
        turn = self.turn
        out: BlackjackView = {
            "game": "blackjack",
            "variant": self.variant.id,
            "phase": str(self.phase),
            "dealer": dealer_view(self._dealer, self._hole_shown),
            "seats": [self._seat_view(i) for i in range(self.seats)],
            "turn": None if turn is None else {"seat": turn[0], "hand": turn[1]},
            "waiting_for_card": None if need is None else need.target,
            "legal": sorted(self.legal_actions(seat)) if seat is not None else [],
        }
        if self.backline.per_seat:
            results = {s.seat: s.result for s in self.settlements}
            out["backline"] = self.backline.view(self.book, results)
        if self.offer is not None:
            out["player_dealer"] = self.offer.view()
        return out

    def _seat_view(self, seat: int) -> SeatView:
        bets: SeatBets = {
            "main": self.main_bet(seat),
            "buster": self.book.stake(seat, "buster"),
            "insurance": self.book.stake(seat, "insurance"),
        }
        hands = [hand_view(h, hand) for h, hand in enumerate(self._players[seat].hands)]
        return {"seat": seat, "bets": bets, "hands": hands}


def _refusal(action: Action, reason: str) -> IllegalAction:
    """The refusal of ``action``: a :class:`BetRefused` for chips a player moves."""
    return BetRefused(reason) if action.kind in BET_KINDS else IllegalAction(reason)


__all__ = ["BlackjackRound", "Phase"]

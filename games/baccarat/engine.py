"""The baccarat round: a pure state machine from first bet to settled coup.

One :class:`BaccaratRound` is one coup (one "game" on the Pinnacle page). It
never draws a card itself: after :class:`~games.core.records.Deal` it asks, via
:meth:`BaccaratRound.needs`, for each card in dealing order (player, banker,
player, banker, then any third cards) and takes it as a
:class:`~games.core.records.DealCard` action. An rng shoe, a physical shoe, a
test or the log replayer feeds it the same way.

Dealer modes (page 000, "Banker as Dealer / Player as Dealer"): in ``banker``
mode the runtime feeds cards as fast as it likes; in ``player`` mode the seat
that chose it is prompted for each card (``"deal-card"`` is then that seat's
legal action, and it may send the DealCard itself). The engine is the same in
both: it waits for each card.

Seat positions (page 000: "Your choice of seat does not affect anything other
than your view of the table") are kept for the view only.

Player-banked tables (page 004): the bank passes to the next seat every
``bank_rotation_hands`` hands (``hand`` counts from 0). The banking seat may post
a ``bank`` and then may not bet otherwise that hand, or decline the bank by
betting like any other seat (the house then banks everything). At the deal the bank covers whole
wagers in seat order from its left while each wager's greatest possible win fits
in what remains; the house covers the rest. The bank's own settlement is the sum
of what the covered wagers lose, minus what they win. The coverage and the bank's
settlement are the California player/dealer's (:mod:`games.core.player_dealer`:
:func:`~games.core.player_dealer.cover`, :func:`~games.core.player_dealer.bank_returned`);
this table keeps its own rotation (every ``bank_rotation_hands`` hands by ``hand``) and
its own rule for what the bank does not cover (the house covers it, not returned).
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import TypedDict

from games.baccarat.rules import BANK_BET, BaccaratRules, Outcome, Winner, next_target, score
from games.core import collection
from games.core.betting import BookBets
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, commission, pay
from games.core.player_dealer import Wager, bank_returned, cover, left_of, settle_covered
from games.core.records import (
    JSON,
    Action,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RoundOver,
)
from games.core.round import Round


def percent(basis_points: int) -> str:
    """``500`` -> ``'5%'``, ``125`` -> ``'1.25%'`` (integers only)."""
    whole, frac = divmod(basis_points, 100)
    return f"{whole}%" if not frac else f"{whole}.{frac:02d}".rstrip("0") + "%"


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    OVER = "over"


class DealerMode(StrEnum):
    BANKER = "banker"  # the banker (the game) deals: the default
    PLAYER = "player"  # the player deals each card


class BaccaratView(TypedDict):
    """What a seat sees of a coup (JSON-able; every seat sees the same cards)."""

    game: str
    hand: int
    phase: str
    seat: int | None
    position: int | None
    dealer: str
    dealing_seat: int | None
    bank_seat: int | None
    player: list[str]
    banker: list[str]
    player_score: int | None
    banker_score: int | None
    next_card_to: str | None
    bets: dict[str, dict[str, int]]
    result: str | None
    settlements: list[JSON]


class BaccaratRound(BookBets, Round[BaccaratRules]):
    """One baccarat coup for ``seats`` seats (numbered from 0)."""

    GAME = "baccarat"

    def __init__(
        self,
        variant: Variant[BaccaratRules],
        seats: int = 1,
        *,
        hand: int = 0,
        dealer: DealerMode = DealerMode.BANKER,
        dealing_seat: int = 0,
        positions: dict[int, int] | None = None,
    ) -> None:
        super().__init__(variant, seats, phase=Phase.BETTING)
        if not 1 <= seats <= self.rules.positions:
            raise ValueError(f"{variant.id}: seats must be 1..{self.rules.positions}")
        if self.rules.player_banked and seats < 2:
            raise ValueError(f"{variant.id}: a player-banked table needs at least 2 seats")
        if hand < 0:
            raise ValueError("hand must not be negative")
        self.hand = hand
        self.dealer = DealerMode(dealer)
        self.dealing_seat = dealing_seat
        self.positions: dict[int, int] = dict(positions or {s: s + 1 for s in range(seats)})
        self.bank_seat: int | None = (
            (hand // self.rules.bank_rotation_hands) % seats if self.rules.player_banked else None
        )
        self._player: list[Card] = []
        self._banker: list[Card] = []
        self._covered: list[tuple[int, str]] = []

    # --- what is wanted -----------------------------------------------------

    def needs(self) -> Need | None:
        if self.phase is not Phase.DEALING:
            return None
        target = next_target(self._player, self._banker)
        if target is None:  # pragma: no cover - settled as soon as the last card lands
            return None
        return Need(kind=NeedKind.CARD, target=target)

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            names = {"place-bet", "dealer", "position"}
            if self.book.has(seat):
                names.add("remove-bet")
            if self._has_wagers():
                names.add("deal")
            return frozenset(names)
        if (
            self.phase is Phase.DEALING
            and self.dealer is DealerMode.PLAYER
            and seat == self.dealing_seat
        ):
            return frozenset({"deal-card"})
        return frozenset()

    def withdraw_orders(self, seat: int) -> tuple[Decide, ...]:
        """The :class:`~games.core.capabilities.StandingOrders` capability: ``seat``'s
        choices in a coup not dealt yet, taken back when its player leaves (no stake):
        "Player as Dealer" goes back to the banker dealing, its position back to its own
        number, so whoever sits there next is not handed the shoe nor another view. A seat
        dealing the cards now (its player has no stake, or it could not leave) hands the
        shoe back to the banker, who deals the rest: the coup waits on nobody.

        >>> from games import baccarat
        >>> coup = baccarat.new_game(baccarat.VARIANTS[0], 2)
        >>> _ = coup.apply(Decide(seat=1, decision="dealer", arg="player"))
        >>> [(a.decision, a.arg) for a in coup.withdraw_orders(1)], coup.withdraw_orders(0)
        ([('dealer', 'banker')], ())
        """
        if not 0 <= seat < self.seats:
            return ()
        shoe = Decide(seat=seat, decision="dealer", arg=DealerMode.BANKER.value)
        if self.phase is Phase.DEALING:
            return (shoe,) if self._hands_back(shoe) else ()
        if self.phase is not Phase.BETTING:
            return ()
        out: list[Decide] = []
        if self.dealer is DealerMode.PLAYER and self.dealing_seat == seat:
            out.append(Decide(seat=seat, decision="dealer", arg=DealerMode.BANKER.value))
        if self.positions.get(seat, seat + 1) != seat + 1:
            out.append(Decide(seat=seat, decision="position", arg=str(seat + 1)))
        return tuple(out)

    def outcome(self) -> Outcome | None:
        """The finished coup, or None while it is in play."""
        if self.phase is not Phase.OVER:
            return None
        return Outcome(player=tuple(self._player), banker=tuple(self._banker))

    # --- verify / apply, by action kind ----------------------------------------------

    def seat_of(self, action: Action) -> int:
        seat = action.seat
        if seat is None or not 0 <= seat < self.seats:
            raise IllegalAction(
                f"{action.kind}: no seat {seat!r} at this table (0..{self.seats - 1})"
            )
        return seat

    def verify_any(self, action: Action) -> None:
        """Every seat's action needs a seat here and an open betting phase, but the
        dealing seat's handing the shoe back to the banker mid-deal (:meth:`_hands_back`)."""
        if isinstance(action, DealCard):
            return
        self.seat_of(action)
        if self.phase is not Phase.BETTING and not self._hands_back(action):
            raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")

    def _hands_back(self, action: Action) -> bool:
        """``Decide(decision="dealer", arg="banker")`` from the seat dealing the cards while
        it deals: the banker deals the rest of the coup (its player left the seat)."""
        return (
            isinstance(action, Decide)
            and action.decision == "dealer"
            and action.arg == DealerMode.BANKER.value
            and self.phase is Phase.DEALING
            and self.dealer is DealerMode.PLAYER
            and action.seat == self.dealing_seat
        )

    def verify_place_bet(self, action: PlaceBet) -> None:
        seat = self.seat_of(action)
        if action.bet not in self.rules.pays:
            raise BetRefused(f"no {action.bet!r} bet at {self.variant.title}")
        self.book.check_amount(action.amount)
        if action.bet == BANK_BET and seat != self.bank_seat:
            raise BetRefused(f"only the banking seat ({self.bank_seat}) may post the bank")
        if action.bet == BANK_BET and any(b != BANK_BET for b in self.book.of(seat)):
            raise BetRefused("this seat has wagers, so it declined the bank this hand")
        if action.bet != BANK_BET and (seat, BANK_BET) in self.book:
            raise BetRefused("the banking seat covers the table this hand and may not bet")
        self.book.check_place(seat, action.bet, action.amount)

    def verify_deal(self, action: Deal) -> None:
        if not self._has_wagers():
            raise IllegalAction("place a bet before dealing")

    def apply_deal(self, action: Deal) -> tuple[Event, ...]:
        self.phase = Phase.DEALING
        covered = self._cover_wagers()  # uncovered wagers go back before the collection
        return (*covered, *collection.charges(self.variant.collection, self.bets))

    def verify_decide(self, action: Decide) -> None:
        if action.decision == "dealer":
            if action.arg not in {m.value for m in DealerMode}:
                raise IllegalAction(f"dealer must be 'banker' or 'player', not {action.arg!r}")
        elif action.decision == "position":
            if not action.arg.isdigit() or not 1 <= int(action.arg) <= self.rules.positions:
                raise IllegalAction(f"position must be 1..{self.rules.positions}")
        else:
            raise IllegalAction(f"baccarat has no decision {action.decision!r}")

    def apply_decide(self, action: Decide) -> tuple[Event, ...]:
        seat = self.seat_of(action)
        if action.decision == "dealer":
            self.dealer = DealerMode(action.arg)
            self.dealing_seat = seat
            who = "you deal" if self.dealer is DealerMode.PLAYER else "the banker deals"
            return (Message(text=f"seat {seat}: {who} the cards"),)
        self.positions[seat] = int(action.arg)
        return (Message(text=f"seat {seat} sits at position {action.arg}"),)

    def verify_deal_card(self, action: DealCard) -> None:
        need = self.needs()
        if need is None:
            raise IllegalAction("no card is wanted now")
        if action.seat is not None and not (
            self.dealer is DealerMode.PLAYER and action.seat == self.dealing_seat
        ):
            raise IllegalAction(f"seat {action.seat} is not dealing the cards")
        if action.card.is_joker:
            raise IllegalAction("there is no joker in a baccarat shoe")
        seen = Counter(self._player + self._banker)
        if seen[action.card] >= self.rules.decks:
            raise IllegalAction(
                f"a {self.rules.decks}-deck shoe holds only {self.rules.decks} of {action.card}"
            )

    def apply_deal_card(self, action: DealCard) -> tuple[Event, ...]:
        need = self.needs()
        assert need is not None
        (self._player if need.target == "player" else self._banker).append(action.card)
        events: list[Event] = [CardShown(card=action.card, hand=need.target)]
        if next_target(self._player, self._banker) is None:
            events.extend(self._settle())
        return tuple(events)

    # --- view -------------------------------------------------------------------

    def view(self, seat: int | None) -> BaccaratView:
        """What ``seat`` sees (the same for every seat: baccarat has no hidden cards).

        Only cards already dealt appear; the shoe and the cards to come never do.
        """
        need = self.needs()
        done = self.outcome()
        return BaccaratView(
            game=self.variant.id,
            hand=self.hand,
            phase=str(self.phase),
            seat=seat,
            position=self.positions.get(seat) if seat is not None else None,
            dealer=str(self.dealer),
            dealing_seat=self.dealing_seat if self.dealer is DealerMode.PLAYER else None,
            bank_seat=self.bank_seat,
            player=[str(c) for c in self._player],
            banker=[str(c) for c in self._banker],
            player_score=score(self._player) if self._player else None,
            banker_score=score(self._banker) if self._banker else None,
            next_card_to=need.target if need else None,
            bets={str(s): b for s, b in self.bets.items() if b},
            result=done.describe() if done is not None else None,
            settlements=[s.encode() for s in self._settlements],
        )

    def next_round(self) -> BaccaratRound:
        """A fresh round for the next hand: same seats, dealer mode and positions."""
        if not self.is_over:
            raise IllegalAction("the current round is not over")
        return BaccaratRound(
            self.variant,
            self.seats,
            hand=self.hand + 1,
            dealer=self.dealer,
            dealing_seat=self.dealing_seat,
            positions=self.positions,
        )

    # --- internals ----------------------------------------------------------------

    def _has_wagers(self) -> bool:
        return any(bet != BANK_BET for _seat, bet, _stake in self.book.items())

    def _cover_wagers(self) -> tuple[Event, ...]:
        events: list[Event] = [Message(text="no more bets")]
        if self.bank_seat is None:
            return tuple(events)
        order = left_of(self.bank_seat, self.seats)
        wagers = [
            Wager((seat, bet), pay(Cents(stake), self.rules.pays[bet]))
            for seat in order
            for bet, stake in self.book.of(seat).items()
        ]
        # wagers the bank does not cover stay in action: the house covers them
        self._covered = list(cover(self.book.stake(self.bank_seat, BANK_BET), wagers).covered)
        covered = ", ".join(f"seat {s} {b}" for s, b in self._covered) or "nothing"
        events.append(
            Message(
                text=f"seat {self.bank_seat} banks: covers {covered}; the house covers the rest"
            )
        )
        return tuple(events)

    def _settle(self) -> list[Event]:
        self.phase = Phase.OVER
        outcome = self.outcome()
        assert outcome is not None
        for seat in range(self.seats):
            for bet in self.book.of(seat):
                if bet != BANK_BET:
                    self._settle_bet(seat, bet, outcome)
        if self.bank_seat is not None and (self.bank_seat, BANK_BET) in self.book:
            covered = settle_covered(self._settlements, self._covered)
            returned, note = bank_returned(self.book.stake(self.bank_seat, BANK_BET), covered)
            self.settle(self.bank_seat, BANK_BET, returned, note)
        events: list[Event] = list(self._settlements)
        events.append(Message(text=outcome.describe()))
        events.append(RoundOver(summary=outcome.describe()))
        return events

    def _settle_bet(self, seat: int, bet: str, o: Outcome) -> BetSettled:
        stake = self.book.stake(seat, bet)
        ratio = self.rules.pays[bet]
        winner = o.winner
        scores = f"player {o.player_score} vs banker {o.banker_score}"

        def settled(result: str, returned: int, fee: int = 0, why: str = "") -> BetSettled:
            note = f"{scores}; {why}" if why else scores
            return self.settle(seat, bet, returned, note, commission=fee, result=result)

        def win(why: str) -> BetSettled:
            return settled("win", stake + pay(Cents(stake), ratio), why=f"{why}, pays {ratio}")

        if bet in ("player", "banker"):
            if winner is Winner.TIE:
                return settled("push", stake, why="tie: player and banker bets push")
            if winner.value != bet:
                return settled("lose", 0)
            if bet == "banker" and o.dragon_seven and self.rules.banker_three_card_seven_pushes:
                return settled("push", stake, why="banker wins with a three-card 7: push")
            if bet == "banker" and self.rules.banker_commission_bp:
                won = pay(Cents(stake), ratio)
                fee = commission(
                    won, self.rules.banker_commission_bp, self.rules.commission_rounding
                )
                pct = percent(self.rules.banker_commission_bp)
                return settled("win", stake + won, fee, f"pays {ratio} less {pct} commission")
            return win(f"{bet} wins")
        if bet == "tie":
            return win("tie") if winner is Winner.TIE else settled("lose", 0)
        if bet == "dragon7":
            return win("Dragon 7") if o.dragon_seven else settled("lose", 0)
        if bet == "panda8":
            return win("Panda 8") if o.panda_eight else settled("lose", 0)
        raise AssertionError(bet)  # pragma: no cover - bets are validated when placed

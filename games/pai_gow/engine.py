"""The pai gow round: a pure state machine from the first bet to the settled hands.

One :class:`PaiGowRound` is one game: bets, seven cards to each seat with a main
bet and seven to the dealer (asked for one at a time through :meth:`needs`
and taken as :class:`~games.core.records.DealCard`), then each seat sets its
hands (``Decide(decision="set", arg="As Kd|Qh Qc 7s 7d 2c")``) or asks for the
house way (``Decide(decision="house-way")``) where the table has that button
(page 001 online has none). A foul setting is refused with
:class:`~games.core.errors.FoulHand` and its reason, and the seat sets again
(the Pinnacle page: "the game will prompt the Player to re-build their hands"), or,
on the land and California tables (``foul = "loses"``), is played and loses its
wager at the reveal. A player's second and later seats on Fortune are set by the
house way (:mod:`games.pai_gow.setting`). When every seat has set, the dealer's
cards are revealed and set by the house way, every hand is shown, and the bets settle.

What each seat sees: its own cards as they are dealt (``CardShown(to="<seat>")``);
the dealer's cards (dealt face down, ``Need(hidden=True)``) and the other seats'
cards only at the reveal. Copies go to the banker on every table.

Player banking (tables with ``player_bank``, page 002; the rotation is
:mod:`games.pai_gow.bank`, the offer :mod:`games.pai_gow.bank_offer`): a game whose
rotation has a seat to offer opens in ``Phase.BANK``; the seat offered takes the
bank or declines it. While a player banks, the other seats' main bets have
no maximum but together with the house's wager may not exceed the bank; the banker
sets its own seven cards as the Banker's hands; the house's hand (the dealer's
position, house way) plays the house's wager against it. Every wager settles
against the banker's hands (copies to the banker); the ``bank`` bet settles for
the sum, less commission on a net win. The banker may take the bank down while no
wager is against it, and the dealer then banks. :meth:`PaiGowRound.carry` is what the
next game starts from (``games.pai_gow.new_game(context=GameContext(previous=...))``).

The round is a :class:`games.core.round.Round`: one ``verify_<kind>`` /
``apply_<kind>`` pair per action, the bet book and the settlements from the base; the
reveal and the settlement are :mod:`games.pai_gow.reveal`'s, the sums of the showdown
:mod:`games.pai_gow.showdown`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.core.cards import Card
from games.core.engine import Need, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.player_dealer import PlayerDealerCarry, PlayerDealerOffer
from games.core.records import (
    Action,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
    StartPosition,
)
from games.core.round import Round
from games.pai_gow.bank import BANK_BET, BankCarry
from games.pai_gow.bank_offer import BANK_DECISIONS, LEAVE_ROTATION, BankOffer
from games.pai_gow.dragon import DRAGON_BET, DRAGON_DECISIONS, DragonHand, DragonHands
from games.pai_gow.hands import Setting
from games.pai_gow.land_deal import DEALER, START_NEED, DealPlan, LandDeal, seat_order
from games.pai_gow.player_dealer import FortuneBank
from games.pai_gow.reveal import Reveal
from games.pai_gow.rules import MAIN_BET, ExtraHands, PaiGowRules
from games.pai_gow.setting import (
    EXTRA_HAND_TEXT,
    SAME_PLAYER,
    decided_setting,
    default_setting,
    extra_house_way,
    parse_seats,
    players_records,
)
from games.pai_gow.view import PaiGowView, Phase


class PaiGowRound(BankOffer, FortuneBank, LandDeal, DragonHands, Reveal, Round[PaiGowRules]):
    """One pai gow game for ``seats`` player seats (numbered from 0) against the banker.

    ``carry`` is what the previous game of the same table handed on
    (:meth:`carry`); None for a new table, where the dealer banks the first hand.
    An absent seat's hand is set by the house way, and a bank offered to it passes on
    (:attr:`PASSIVE`); while the bank is offered, the round awaits that seat.
    """

    GAME = "pai gow"
    PASSIVE = ("house-way", "decline-bank", "decline-dragon")

    def __init__(
        self,
        variant: Variant[PaiGowRules],
        seats: int = 1,
        *,
        carry: BankCarry | PlayerDealerCarry | None = None,
    ) -> None:
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        player_bank = variant.rules.player_bank
        self.carried_in = carry if isinstance(carry, BankCarry) and player_bank else BankCarry()
        pd, turn = (
            variant.rules.player_dealer,
            carry if isinstance(carry, PlayerDealerCarry) else None,
        )
        self.pdealer = PlayerDealerOffer(pd, seats, turn or PlayerDealerCarry()) if pd else None
        # page 002: never the seat that banked the last hand, nor a seat not at this table
        last = self.carried_in.last_banker
        self._offers = [s for s in self.carried_in.queue if s < seats and s != last]
        super().__init__(variant, seats, phase=Phase.BANK if self._offers else Phase.BETTING)
        self.banker: int | None = None  # the player-banker's seat; None: the dealer banks
        self.bank = 0  # the player-banker's bank, cents
        self.house_wager = 0  # the house's wager against the player-banker, cents
        self.house_result = 0  # what the house won (+) or lost (-) on that wager
        self._order: list[int] = []  # seats dealt in, in seat order
        self._plan: DealPlan | None = None  # the hands dealt, in dealing order
        self.start_position: int | None = None  # land table: where the deal started
        self._hands: dict[int, list[Card]] = {}
        self._dealer: list[Card] = []
        self._settings: dict[int, Setting] = {}
        self._dealer_setting: Setting | None = None
        self._surrendered: set[int] = set()
        self._fouls: dict[int, str] = {}  # seat -> why its setting is foul (Foul.LOSES)
        self._players: list[tuple[int, ...]] = []  # seats one player holds (same-player)
        self.dragon: DragonHand | None = None  # the land table's dragon hand, once dealt

    # --- what is wanted -----------------------------------------------------

    def needs(self) -> Need | None:
        if self.phase is not Phase.DEALING:
            return None
        return START_NEED if self._plan is None else self._plan.need()

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BANK:
            return frozenset(BANK_DECISIONS) if seat == self.offered else frozenset()
        if self.phase is Phase.DRAGON:
            return frozenset(DRAGON_DECISIONS if seat == self.dragon_offered() else ())
        if self.phase is Phase.BETTING:
            names = set() if seat in (self.banker, self.pd_seat()) else {"place-bet"}
            mine = self.book.has(seat) and seat != self.pd_seat()  # a player/dealer's bank stays
            if mine and (seat != self.banker or not self._has_main()):
                names.add("remove-bet")
            if self._has_main() or self.house_wager:
                names.add("deal")
            return frozenset(names) | self.pd_open(seat)
        unset = seat not in self._settings or self._dragon_open(seat)
        if self.phase is Phase.SETTING and seat in self._order and unset:
            names = {"set", "house-way"} if self.rules.house_way_button else {"set"}
            if self.rules.surrender and seat not in self._surrendered and seat != self.banker:
                names.add("surrender")
            return frozenset(names)
        return frozenset()

    def default_action(self, seat: int) -> Action | None:
        """The house way for a seat that does not set its hands (:attr:`PASSIVE`); on a
        table without the house-way button (page 001 online) it is a plain ``set`` of the
        house-way setting, so the rules' default is no decision a player is refused. A
        dragon hand its taker leaves is set by the house way too."""
        dragon = self._dragon_default(seat, seat in self._settings)
        if dragon is not None:
            return dragon
        if not self.rules.house_way_button and "set" in self.legal_actions(seat):
            arg = default_setting(self.rules, self.hand(seat))
            return Decide(seat=seat, decision="set", arg=arg)
        return super().default_action(seat)

    def awaiting(self) -> frozenset[int]:
        """The seat the bank (or the dragon hand) is offered to, while the offer is open
        (page 002: the game cannot go on until it takes the bank or declines; an empty
        seat declines)."""
        offered = self.offered if self.offered is not None else self.dragon_offered()
        if offered is None and self.pdealer is not None and self.phase is Phase.BETTING:
            offered = self.pdealer.offered
        return frozenset() if offered is None else frozenset({offered})

    def carry(self) -> BankCarry | PlayerDealerCarry:
        """What the next game of this table starts from (the game must be over).

        After a game the dealer banked: every seat dealt in, in seat order, is queued
        for the bank and each one's main bet becomes its last wager against the house.
        After a player banked: the seats still queued, and the banker is remembered so
        it is not offered the next bank.
        """
        if not self.is_over:
            raise IllegalAction("this game is not over: nothing carries to the next one yet")
        if self.pdealer is not None:  # page 004: the Player/Dealer's rotation
            return self.pdealer.next_carry()
        if not self.rules.player_bank:
            return BankCarry()
        if self.banker is not None:
            return BankCarry(
                queue=tuple(self._offers),
                last_banker=self.banker,
                house_wagers=self.carried_in.house_wagers,
            )
        wagers = dict(self.carried_in.house_wagers)
        for seat in self._order:
            wagers[seat] = self.book.stake(seat, MAIN_BET)
        return BankCarry(queue=tuple(sorted(self._order)), house_wagers=wagers)

    def withdraw_orders(self, seat: int) -> tuple[Decide, ...]:
        """The :class:`~games.core.capabilities.StandingOrders` capability: a leaving
        seat's place in the page 002 bank rotation (:meth:`BankOffer.bank_orders`; none
        on a table without player banking, nor for the Fortune Player/Dealer turn, which
        is the table's)."""
        return self.bank_orders(seat) if 0 <= seat < self.seats else ()

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat`` so far (for the seat itself and for tests)."""
        return tuple(self._hands.get(seat, ()))

    def setting(self, seat: int) -> Setting | None:
        return self._settings.get(seat)

    @property
    def dealer_setting(self) -> Setting | None:
        return self._dealer_setting

    # --- verify / apply, by action kind ------------------------------------------------

    def verify_any(self, action: Action) -> None:
        """Every action but the source's (a card, the start position) and the runtime's
        same-player names a seat here."""
        if not isinstance(action, DealCard | StartPosition) and not _same_player(action):
            self.seat_of(action)

    def verify_deal_card(self, action: DealCard) -> None:
        if self.phase is not Phase.DEALING:
            raise IllegalAction(f"no card is wanted now: the round is {self.phase}")
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        if self._plan is None:
            raise IllegalAction("no card is wanted now: the deal waits for its start position")
        if action.card in self._plan.dealt():
            raise IllegalAction(f"{action.card} was already dealt this game (one 53-card deck)")

    def apply_deal_card(self, action: DealCard) -> tuple[Event, ...]:
        assert self._plan is not None
        target, complete = self._plan.add(action.card)
        events: list[Event] = []
        if target.startswith("seat"):  # face down to every other position
            seat = target[len("seat") :]
            events.append(CardShown(card=action.card, hand=target, to=seat))
        if complete:
            self.phase = Phase.SETTING
            events.append(Message(text="cards are dealt: set your hands"))
            events += self._extra_hands()
            events += self._offer_dragon()
        return tuple(events)

    def verify_place_bet(self, action: PlaceBet) -> None:
        self._check_betting(action)
        self.pd_check_bet(self.seat_of(action))
        self._verify_place(self.seat_of(action), action)

    def apply_place_bet(self, action: PlaceBet) -> tuple[Event, ...]:
        return (self.book.add_by_rule(self.seat_of(action), action.bet, action.amount),)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        self._check_betting(action)
        self._verify_remove(self.seat_of(action), action)

    def apply_remove_bet(self, action: RemoveBet) -> tuple[Event, ...]:
        seat = self.seat_of(action)
        returned = self.book.remove(seat, action.bet, action.amount)
        if action.bet != BANK_BET:
            return (returned,)
        self.banker, self.bank, self.house_wager = None, 0, 0
        return (returned, Message(text=f"seat {seat} takes the bank down: the dealer banks"))

    def verify_deal(self, action: Deal) -> None:
        self._check_betting(action)
        if not self._has_main() and not self.house_wager:
            raise IllegalAction("place a main bet before dealing")

    def apply_deal(self, action: Deal) -> tuple[Event, ...]:
        banked = self.pd_cover()
        if self.pd_seat() is not None and not self._has_main():  # nothing covered: no deal
            return (*banked, *self._close_banked(), RoundOver(summary="no hand covered"))
        self.phase = Phase.DEALING
        self._order = [
            s for s in range(self.seats) if (s, MAIN_BET) in self.book or s == self.banker
        ]
        self._hands = {s: [] for s in self._order}
        if not self.rules.land_deal:  # the land table's deal waits for its start position
            self._start_deal(DealPlan(seat_order(self._order)))
        dealt = ", ".join(f"seat {s}" for s in self._order) or "nobody"
        dealing = Message(text=f"dealing seven cards to {dealt} and to the dealer")
        return (*banked, dealing, *self.variant.charge_collection(self.bets))

    def verify_decide(self, action: Decide) -> None:
        if _same_player(action):
            self._verify_same_player(action)
            return
        seat = self.seat_of(action)
        if action.decision == LEAVE_ROTATION:
            self._verify_leave(seat, action)
        elif action.decision in BANK_DECISIONS and self.pdealer is not None:
            self.pd_verify(seat, action)
        elif action.decision in BANK_DECISIONS:
            self._verify_bank(seat, action)
        elif action.decision in DRAGON_DECISIONS:
            self._verify_dragon(seat, action)
        elif action.hand:
            self._verify_dragon_setting(seat, action)
        else:
            self._decided(seat, action)

    def apply_decide(self, action: Decide) -> tuple[Event, ...]:
        if _same_player(action):
            group = parse_seats(action.arg, self.seats)
            self._players.append(group)
            return (Message(text=f"seats {', '.join(map(str, group))} are one player's"),)
        seat = self.seat_of(action)
        if action.decision == LEAVE_ROTATION:
            return self._apply_leave(seat)
        if action.decision in BANK_DECISIONS and self.pdealer is not None:
            return tuple(self.pdealer.apply(seat, action, self.book))
        if action.decision in BANK_DECISIONS:
            return self._apply_bank(seat, action)
        if action.decision in DRAGON_DECISIONS:
            return self._apply_dragon(seat, action)
        if action.hand:
            return self._then_reveal(self._apply_dragon_setting(seat, action))
        self._settings[seat], foul = self._decided(seat, action)
        if foul is not None:
            self._fouls[seat] = foul
        if action.decision == "surrender":
            self._surrendered.add(seat)
            events: list[Event] = [Message(text=f"seat {seat} surrenders its wager")]
        else:
            how = " by the house way" if action.decision == "house-way" else " their own way"
            if not self.rules.house_way_button:  # a set may be the rules' default here
                how = ""
            events = [Message(text=f"seat {seat} has set their hands{how}")]
        return self._then_reveal(events)

    def _then_reveal(self, events: list[Event]) -> tuple[Event, ...]:
        """``events``, and the reveal once every hand is set (the dragon's included)."""
        if len(self._settings) == len(self._order) and not any(map(self._dragon_open, self._order)):
            events.extend(self._reveal_and_settle())
        return tuple(events)

    def _start_deal(self, plan: DealPlan) -> None:
        """Deal the game's hands in ``plan``'s order (:mod:`games.pai_gow.land_deal`)."""
        self._plan = plan
        self._hands = {s: plan.cards[f"seat{s}"] for s in self._order}
        self._dealer = plan.cards[DEALER]

    # --- view -------------------------------------------------------------------------

    def view(self, seat: int | None) -> PaiGowView:
        """What ``seat`` sees (None: the public view): its own cards and setting; the
        dealer's cards and the other seats' hands only once revealed; never the deck."""
        mine = seat is not None and seat in self._hands
        need = self.needs()
        out = PaiGowView(
            game=self.variant.id,
            phase=str(self.phase),
            seat=seat,
            seats=self.seats,
            bets={str(s): b for s, b in self.bets.items() if b},
            dealt_in=list(self._order),
            next_card_to=need.target if need else None,
            cards=[str(c) for c in self._hands[seat]] if mine and seat is not None else [],
            setting=None,
            set=sorted(self._settings),
            dealer_cards=len(self._dealer),
            dealer=None,
            hands={},
            legal=sorted(self.legal_actions(seat)) if seat is not None else [],
            settlements=[s.encode() for s in self._settlements],
        )
        if self.rules.land_deal:
            out["start_position"] = self.start_position
        if self.rules.dragon:
            out["dragon"] = self._dragon_view(seat)
        if self.pdealer is not None:
            out["player_dealer"] = self.pdealer.view()
        if self.rules.player_bank:
            out["banker"] = "dealer" if self.banker is None else str(self.banker)
            out["bank"] = self.bank
            out["house_wager"] = self.house_wager
            out["bank_offered_to"] = self.offered
            out["bank_queue"] = list(self._offers) if self.phase is Phase.BANK else []
            if seat is not None and self.offered == seat:
                out["house_wager_offer"] = self._last_wager(seat)
        if seat is not None and seat in self._settings:
            out["setting"] = str(self._settings[seat])
        if self.phase is Phase.OVER and self._dealer_setting is not None:
            out["dealer"] = str(self._dealer_setting)
            out["hands"] = {
                str(s): str(st) for s, st in self._settings.items() if s not in self._surrendered
            }
        return out

    # --- betting ----------------------------------------------------------------------

    def _has_main(self) -> bool:
        return any(bet == MAIN_BET for _seat, bet, _stake in self.book.items())

    def _check_betting(self, action: Action) -> None:
        """Bets and the deal wait for the bank offer, and close with the deal."""
        if self.phase is Phase.BANK:
            raise IllegalAction(
                f"{action.kind} waits for the bank: seat {self.offered} may take it or decline"
            )
        if self.phase is not Phase.BETTING:
            raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")

    def _verify_place(self, seat: int, action: PlaceBet) -> None:
        if action.bet not in self.rules.bets:
            raise BetRefused(f"no {action.bet!r} bet at {self.variant.title}")
        self.book.check_amount(action.amount)
        if action.bet != MAIN_BET and (seat, MAIN_BET) not in self.book:
            raise BetRefused(f"the {action.bet} bet needs a main bet first")
        if self.banker is None:
            self.book.check_place(seat, action.bet, action.amount)
            return
        if seat == self.banker:
            raise BetRefused(f"seat {seat} is the Banker and covers the table: it places no wager")
        # page 002: no maximum against a player-banker, but the bank must pay every wager
        limit = self.variant.limits[action.bet]
        total = self.book.stake(seat, action.bet) + action.amount
        refused = f"{action.bet} bet of {format_cents(total)} refused"
        if total < limit.minimum or action.amount % limit.increment:
            why = limit.too_small() if total < limit.minimum else limit.off_step()
            raise BetRefused(f"{refused}: {why}")
        free = self.bank - self._wagered_against_bank()
        if free <= 0:
            raise BetRefused(
                f"seat {self.banker}'s bank of {format_cents(self.bank)} is fully wagered "
                "against: it can pay no more wagers"
            )
        if action.amount > free:
            raise BetRefused(
                f"seat {self.banker}'s bank of {format_cents(self.bank)} can pay only "
                f"{format_cents(free)} more in wagers; bet {format_cents(free)} or less"
            )

    def _wagered_against_bank(self) -> int:
        """The wagers a player-banker must be able to pay: main bets and the house's wager."""
        return self.house_wager + sum(
            stake for _s, bet, stake in self.book.items() if bet in (MAIN_BET, DRAGON_BET)
        )

    def _verify_remove(self, seat: int, action: RemoveBet) -> None:
        if action.bet == BANK_BET:
            if seat != self.banker:
                raise BetRefused(f"seat {seat} has no bank to take down")
            if action.amount not in (0, self.bank):
                raise BetRefused("the bank comes down whole or not at all")
            if self._has_main():
                raise BetRefused("wagers are against the bank: it stays up for this game")
        self.book.check_remove(seat, action.bet, action.amount)
        takes_all = action.amount in (0, self.book.stake(seat, action.bet))
        if takes_all and action.bet == MAIN_BET and len(self.book.of(seat)) > 1:
            raise BetRefused("take the side bet down before the main bet")

    # --- setting the hands -----------------------------------------------------------------

    def _decided(self, seat: int, action: Decide) -> tuple[Setting, str | None]:
        """Check a decision: the setting it makes and its foul reason (None if not foul;
        FoulHand if foul on a table where a foul is set again)."""
        if self.phase is not Phase.SETTING:
            raise IllegalAction(f"hands are set after the deal; the round is {self.phase}")
        if seat not in self._order:
            raise IllegalAction(f"seat {seat} has no hand this game")
        if seat in self._settings:
            raise IllegalAction(f"seat {seat} has already set its hands")
        if action.decision == "surrender":
            if not self.rules.surrender:
                raise IllegalAction(f"{self.variant.title} has no surrender")
            if seat == self.banker:
                raise IllegalAction("the Banker's hands are played: the Banker cannot surrender")
        return self._setting_for(self._hands[seat], action)

    def _setting_for(self, cards: Sequence[Card], action: Decide) -> tuple[Setting, str | None]:
        """The setting a decision makes of ``cards`` and its foul reason (any hand's)."""
        return decided_setting(self.rules, cards, action.decision, action.arg, self.variant.title)

    # --- one player's several seats (page 004, Fortune) ---------------------------------

    def _verify_same_player(self, action: Decide) -> None:
        """The runtime's word that some seats are one player's: before the deal only."""
        if self.phase not in (Phase.BANK, Phase.BETTING):
            raise IllegalAction(f"{SAME_PLAYER} comes before the deal; the round is {self.phase}")
        group = parse_seats(action.arg, self.seats)
        taken = {s for g in self._players for s in g} & set(group)
        if taken:
            raise IllegalAction(f"{SAME_PLAYER}: seat {min(taken)} is already a player's")

    def _extra_hands(self) -> list[Event]:
        """Page 004: a player's seats after the first are set by the house way."""
        if self.rules.extra_hands is not ExtraHands.HOUSE_WAY:
            return []
        extra = extra_house_way(self.rules, self._order, self._players, self._hands)
        self._settings.update(extra)
        return [Message(text=EXTRA_HAND_TEXT.format(seat=seat)) for seat in extra]

    def players_actions(self, groups: Iterable[tuple[int, ...]]) -> tuple[Decide, ...]:
        """KnowsPlayers: the ``same-player`` records, before the deal, on Fortune tables."""
        if self.rules.extra_hands is not ExtraHands.HOUSE_WAY or self._players:
            return ()
        records = players_records(groups)
        return records if all(self.can(r) for r in records) else ()


def _same_player(action: Action) -> bool:
    """The runtime's ``Decide(seat=None, decision="same-player")`` (no player's action:
    a player's always names its seat)."""
    return isinstance(action, Decide) and action.seat is None and action.decision == SAME_PLAYER


__all__ = ["DEALER", "PaiGowRound", "PaiGowView", "Phase"]

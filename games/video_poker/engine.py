"""One hand of video poker: bet, (Mystery reel), deal five, hold, draw, pay, (double-up).

The round is a pure state machine on :class:`~games.core.round.Round`; nothing random
happens inside it. A hand goes:

* betting: ``PlaceBet`` of 1..max coins on the credit value's spot (``coin-25`` takes
  coins of 25 cents, :func:`~games.video_poker.rules.bet_name`), then ``Deal``;
* Mystery Bonus Poker: the reel first (001: "Once the reel completes its spin, then 5
  cards are dealt"): ``Need(POSITION, count=total weight)``, answered by a
  ``StartPosition`` the runtime draws with ``rng.randbelow``; the stop it lands on
  (:meth:`VideoPokerRules.stop_at`) raises one line (others adjusted) for this hand;
* the deal: five cards, each a ``DealCard`` from the runtime's shuffled 52-card shoe
  (draw poker), or a ``StartPosition`` over the fruit cards left (European Slot Poker:
  :mod:`games.video_poker.fruit`); the machine then proposes its hold (``auto_hold``);
* ``Decide("draw", arg="1 3 4")``: the player's holds (1-based positions, "" for none;
  the absent player's default is the auto-hold), then the replacements as above;
* the final hand is paid by the table (credits x the credit value, stake included), and
  on European Slot Poker the bonuses are counted and a win may go to the double-up
  (:mod:`games.video_poker.double_up`), before one ``BetSettled`` pays the seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.betting import BookBets
from games.core.cards import Card
from games.core.engine import GameContext, Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.records import (
    Action,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RoundOver,
    StartPosition,
)
from games.core.round import Round
from games.video_poker import fruit
from games.video_poker.autohold import draw_hold
from games.video_poker.carry import FruitCarry, Machine, machine_key
from games.video_poker.double_up import DoubleUp
from games.video_poker.hands import draw_hand, fruit_hand, fruit_line
from games.video_poker.phases import Phase
from games.video_poker.rules import SYMBOLS, MysteryStop, VideoPokerRules, denomination_of
from games.video_poker.slot_exact import best_symbol_hold
from games.video_poker.view import VideoPokerView, build_view


def parse_holds(arg: str) -> tuple[int, ...]:
    """``"1 3 5"`` (1-based card positions) -> ``(0, 2, 4)``; IllegalAction if malformed.

    >>> parse_holds("1 3 5"), parse_holds("")
    ((0, 2, 4), ())
    """
    words = arg.replace(",", " ").split()
    if not all(w.isdigit() and 1 <= int(w) <= 5 for w in words) or len(set(words)) != len(words):
        raise IllegalAction(f"hold names card positions 1 to 5, each once, like '1 3 5': {arg!r}")
    return tuple(sorted(int(w) - 1 for w in words))


class VideoPokerRound(DoubleUp, BookBets, Round[VideoPokerRules]):
    """One hand at a one-seat video poker machine."""

    GAME = "video poker"
    PASSIVE = ("collect",)

    def __init__(self, variant: Variant[VideoPokerRules], carry: FruitCarry | None = None) -> None:
        super().__init__(variant, 1, phase=Phase.BETTING)
        self.fruit_rules = variant.rules.fruit
        self.machines: dict[str, Machine] = dict(carry.machines) if carry else {}
        self.cards: list[str] = []  # the hand as shown ("Ah" or a symbol)
        self.dealt: tuple[str, ...] = ()  # the five cards of the deal
        self.auto: tuple[int, ...] = ()  # the machine's hold (0-based)
        self.held: tuple[int, ...] | None = None  # the player's hold, once drawn
        self.stop: MysteryStop | None = None
        self.line: str | None = None
        self.win = 0  # cents won by the hand and its bonuses
        self.bonuses: dict[str, int] = {}  # bonus name -> cents
        self._draws: list[int] = []  # positions still to be replaced
        self._discards: list[str] = []  # cards drawn over (no card comes twice)
        self._key = ""  # the fruit machine's state key for this hand
        self._deck: fruit.Deck = ()
        self.shuffled: list[str] = []  # why the deck was shuffled this hand
        self.init_double_up()

    # --- state ---------------------------------------------------------------------

    @property
    def is_fruit(self) -> bool:
        return self.fruit_rules is not None

    @property
    def stake(self) -> int:
        return self.book.total()

    @property
    def denomination(self) -> int:
        bets = self.book.of(0)
        return denomination_of(next(iter(bets))) if bets else 0

    @property
    def coins(self) -> int:
        d = self.denomination
        return self.stake // d if d else 0

    def pays(self) -> dict[str, int]:
        """Credits per line for this hand's coins (a Mystery stop's lines applied)."""
        coins = max(self.coins, 1)
        return {h: p[coins - 1] for h, p in self.rules.table(self.stop).items()}

    def deck_left(self) -> int | None:
        """Cards left in the fruit deck of this hand's machine (None: draw poker)."""
        if not self.is_fruit:
            return None
        return sum(self._deck) if self._deck else sum(self._machine_now().deck)

    def _machine_now(self) -> Machine:
        assert self.fruit_rules is not None
        key = self._key or (machine_key(self.denomination, self.coins) if self.coins else "")
        return self.machines.get(key) or Machine(deck=self.fruit_rules.counts())

    def needs(self) -> Need | None:
        if self.phase is Phase.REEL:
            return Need(kind=NeedKind.POSITION, count=self.rules.reel_weight, target="mystery")
        if self.phase in (Phase.DEALING, Phase.DRAWING):
            if self.is_fruit:
                return Need(kind=NeedKind.POSITION, count=sum(self._deck), target="hand")
            return Need(kind=NeedKind.CARD, target="hand")
        if self.phase is Phase.DOUBLE_UP_CARD:
            return Need(kind=NeedKind.POSITION, count=self.double_up_left(), target="double-up")
        return None

    def legal_actions(self, seat: int) -> frozenset[str]:
        if seat != 0:
            return frozenset()
        if self.phase is Phase.BETTING:
            return self.book.betting_actions(seat, "deal")
        if self.phase is Phase.HOLDING:
            return frozenset({"draw"})
        if self.phase is Phase.DOUBLE_UP:
            return self.double_up_actions()
        return frozenset()

    def default_action(self, seat: int) -> Action | None:
        """An absent player draws on the machine's hold and collects a win."""
        if seat == 0 and self.phase is Phase.HOLDING:
            return Decide(seat=0, decision="draw", arg=" ".join(str(i + 1) for i in self.auto))
        return super().default_action(seat)

    def carry(self) -> FruitCarry | None:
        """Every machine state of the player (European Slot Poker); None for draw poker."""
        return FruitCarry(dict(self.machines)) if self.is_fruit else None

    # --- betting and the deal ------------------------------------------------------

    def verify_any(self, action: Action) -> None:
        if self.phase is Phase.OVER:
            raise IllegalAction("this hand is over")
        if isinstance(action, (DealCard, StartPosition)):
            if action.seat is not None:
                raise IllegalAction("cards and the reel come from the machine's source")
            if self.needs() is None:
                raise IllegalAction("nothing is drawn now")
            return
        self.seat_of(action)

    def verify_place_bet(self, action: PlaceBet) -> None:
        if self.phase is not Phase.BETTING:
            raise BetRefused("bets are taken before the deal")
        if action.bet not in self.variant.limits:
            values = ", ".join(format_cents(d) for d in self.rules.denominations)
            raise BetRefused(f"no credit value {action.bet!r} on this machine (values: {values})")
        other = [b for b in self.book.of(0) if b != action.bet]
        if other:
            raise BetRefused("one credit value a hand: take the bet down to change it")
        limit = self.variant.limits[action.bet]
        total = self.book.stake(0, action.bet) + action.amount
        if action.amount <= 0 or action.amount % limit.increment:
            raise BetRefused(f"bet whole coins of {format_cents(limit.increment)}")
        if total > limit.maximum:
            raise BetRefused(f"at most {self.rules.max_coins} coins a hand")

    def verify_deal(self, action: Deal) -> None:
        if self.phase is not Phase.BETTING:
            raise IllegalAction("the hand is already dealt")
        if not self.book:
            raise IllegalAction("bet at least one coin before the deal")

    def apply_deal(self, action: Deal) -> list[Event]:
        events: list[Event] = [
            Message(text=f"{self.coins} coin(s) of {format_cents(self.denomination)}")
        ]
        if self.is_fruit:
            events += self._open_machine()
        self.phase = Phase.REEL if self.rules.mystery else Phase.DEALING
        return events

    def _open_machine(self) -> list[Event]:
        assert self.fruit_rules is not None
        self._key = machine_key(self.denomination, self.coins)
        machine = self.machines.get(self._key)
        if machine is None:
            self.shuffled.append("entry")
            machine = Machine(deck=self.fruit_rules.counts())
            self.machines[self._key] = machine
            note = "deck shuffled: first hand at this credit value and bet"
        elif sum(machine.deck) <= self.fruit_rules.shuffle_at:
            self.shuffled.append("low")
            machine = Machine(self.fruit_rules.counts(), machine.collected, machine.cherry)
            self.machines[self._key] = machine
            note = f"deck shuffled: {self.fruit_rules.shuffle_at} cards or fewer were left"
        else:
            note = f"{sum(machine.deck)} cards left in the deck"
        self._deck = machine.deck
        return [Message(text=note)]

    # --- cards from the source -------------------------------------------------------

    def verify_deal_card(self, action: DealCard) -> None:
        if self.is_fruit:
            raise IllegalAction("the fruit deck is drawn by position, not dealt as cards")
        if action.card.is_joker:
            raise IllegalAction("there is no joker in a draw poker deck")
        if str(action.card) in self.cards or str(action.card) in self._discards:
            raise IllegalAction(f"{action.card} is already dealt this hand")

    def apply_deal_card(self, action: DealCard) -> list[Event]:
        return self._take(str(action.card))

    def verify_start_position(self, action: StartPosition) -> None:
        need = self.needs()
        assert need is not None
        if need.kind is not NeedKind.POSITION:
            raise IllegalAction("a card is wanted now, not a position")
        if not 1 <= action.position <= need.count:
            raise IllegalAction(f"position must be 1..{need.count}, got {action.position}")

    def apply_start_position(self, action: StartPosition) -> list[Event]:
        if self.phase is Phase.REEL:
            self.stop = self.rules.stop_at(action.position)
            self.phase = Phase.DEALING
            return [Message(text=f"Mystery Bonus: {self.stop.label}")]
        if self.phase is Phase.DOUBLE_UP_CARD:
            return self.draw_double_up(action.position)
        symbol = fruit.symbol_at(self._deck, action.position)
        self._deck = fruit.without(self._deck, symbol)
        return self._take(symbol)

    def _take(self, card: str) -> list[Event]:
        """A card arrives: into the deal, or in place of the next discarded card."""
        events: list[Event] = (
            [CardShown(card=_shown(card), hand="hand")]
            if not self.is_fruit
            else [Message(text=f"card: {card}")]
        )
        if self.phase is Phase.DEALING:
            self.cards.append(card)
            if len(self.cards) == 5:
                self.dealt = tuple(self.cards)
                self.auto = self._auto_hold()
                self.phase = Phase.HOLDING
                held = " ".join(str(i + 1) for i in self.auto) or "nothing"
                events.append(Message(text=f"the machine holds {held}"))
            return events
        position = self._draws.pop(0)
        self._discards.append(self.cards[position])
        self.cards[position] = card
        if not self._draws:
            events += self._finish_draw()
        return events

    def _auto_hold(self) -> tuple[int, ...]:
        if self.is_fruit:
            return best_symbol_hold(self.cards, self._deck, self.pays(), SYMBOLS, fruit_line)[0]
        cards = [Card.parse(c) for c in self.cards]
        return draw_hold(cards, self.rules, self.stop, self.coins)

    # --- the draw ---------------------------------------------------------------------

    def verify_decide(self, action: Decide) -> None:
        if self.phase is Phase.HOLDING:
            if action.decision != "draw":
                raise IllegalAction(f"hold your cards and draw, not {action.decision!r}")
            parse_holds(action.arg)
            return
        if self.phase is Phase.DOUBLE_UP:
            self.verify_double_up(action)
            return
        raise IllegalAction(f"no decision now: the hand is {self.phase}")

    def apply_decide(self, action: Decide) -> list[Event]:
        if self.phase is Phase.DOUBLE_UP:
            return self.apply_double_up(action)
        self.held = parse_holds(action.arg)
        self._draws = [i for i in range(5) if i not in self.held]
        kept = " ".join(str(i + 1) for i in self.held) or "nothing"
        events: list[Event] = [Message(text=f"held {kept}")]
        if self._draws:
            self.phase = Phase.DRAWING
        else:
            events += self._finish_draw()
        return events

    def _finish_draw(self) -> list[Event]:
        """Pay the final hand, count the bonuses, offer a win to the double-up."""
        coins, denom = self.coins, self.denomination
        self.line = (
            fruit_hand(self.cards)
            if self.is_fruit
            else draw_hand([Card.parse(c) for c in self.cards])
        )
        if self.line not in self.pays():
            self.line = None  # a hand the table does not pay (the fruit machine's two pair)
        credits = self.pays()[self.line] if self.line else 0
        self.win = credits * denom
        events: list[Event] = []
        if self.line and credits:
            events.append(
                Message(
                    text=f"{self._title(self.line)} pays {credits} credits "
                    f"({format_cents(self.win)})"
                )
            )
        if self.is_fruit:
            events += self._fruit_bonuses(coins, denom)
        if self.is_fruit and self.win:
            return events + self.offer_double_up(self.win)
        return events + self.close(self.win)

    def _title(self, hand: str) -> str:
        return next(line.title for line in self.rules.lines if line.hand == hand)

    def _fruit_bonuses(self, coins: int, denom: int) -> list[Event]:
        """The Fruit and Cherry Bonuses on the final hand, and the deck's shuffle rules."""
        rules = self.fruit_rules
        assert rules is not None
        old = self.machines[self._key]
        events: list[Event] = []
        collected = set(old.collected)
        jokers = self.cards.count("joker")
        for symbol, need in rules.fruit_collect.items():
            if symbol not in collected and self.cards.count(symbol) + jokers >= need:
                collected.add(symbol)
                events.append(Message(text=f"Fruit Bonus: {symbol} collected"))
        if collected >= set(rules.fruit_collect):
            self.bonuses["fruit"] = rules.fruit_bonus[coins - 1] * denom
            events.append(Message(text=f"Fruit Bonus pays {format_cents(self.bonuses['fruit'])}"))
            collected = set()
        cherry = old.cherry
        if self.cards.count("cherry") >= 2:
            cherry += 1
            if cherry >= rules.cherry_hits:
                self.bonuses["cherry"] = rules.cherry_bonus[coins - 1] * denom
                events.append(
                    Message(text=f"Cherry Bonus pays {format_cents(self.bonuses['cherry'])}")
                )
                cherry = 0
        self.win += sum(self.bonuses.values())
        deck = self._deck
        if self.line and self.pays().get(self.line, 0):
            self.shuffled.append("win")
        if "cherry" in self.bonuses:
            self.shuffled.append("cherry-bonus")
        if {"win", "cherry-bonus"} & set(self.shuffled) or sum(deck) <= rules.shuffle_at:
            if sum(deck) <= rules.shuffle_at and not {"win", "cherry-bonus"} & set(self.shuffled):
                self.shuffled.append("low")
            deck = rules.counts()
            events.append(Message(text="deck shuffled"))
        order = [s for s in rules.fruit_collect if s in collected]
        self.machines[self._key] = Machine(deck=deck, collected=tuple(order), cherry=cherry)
        self._deck = deck  # the counter shows the machine's deck for the next hand
        return events

    def close(self, returned: int) -> list[Event]:
        """Settle the hand's bet for ``returned`` cents and end the round."""
        note = f"{self._title(self.line)}" if self.line and returned else "no win"
        if self.bonuses:
            note += " + " + " + ".join(f"{k} bonus" for k in sorted(self.bonuses))
        self.phase = Phase.OVER
        settled = self.settle(0, next(iter(self.book.of(0))), returned, note)
        return [settled, RoundOver(summary=f"hand over: {note}, paid {format_cents(returned)}")]

    # --- view -------------------------------------------------------------------------

    def view(self, seat: int | None) -> VideoPokerView:
        return build_view(self)


def _shown(card: str) -> Card:
    return Card.parse(card)


def new_round(variant: Variant[VideoPokerRules], context: GameContext) -> VideoPokerRound:
    """A hand carrying the player's fruit machine states from their last one (a player
    new to the seat starts with fresh decks: "shuffled when the player first enters")."""
    carry: FruitCarry | None = None
    if 0 not in context.new_players:
        if isinstance(context.previous, VideoPokerRound):
            carry = context.previous.carry()
        elif context.carry is not None:
            carry = FruitCarry.decode(context.carry)
    return VideoPokerRound(variant, carry if variant.rules.fruit is not None else None)


def decode_carry(data: Mapping[str, Any]) -> FruitCarry:
    return FruitCarry.decode(data)

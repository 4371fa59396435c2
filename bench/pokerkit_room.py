"""pokerkit (PyPI, a test-only peer) set up as page 001's fixed-limit games, hand by hand.

The differential test (tests/games/poker_room/test_pokerkit.py) and the bench
(bench/bench_poker_room.py) both drive it through :class:`PeerHand`; the product never
imports it. pokerkit is configured to the page where it can be:

* hold'em and Omaha: fixed limit, small blind = half the lower limit rounded down to the
  dollar, big blind = the lower limit, a burn before the flop, turn and river; the cap
  of four bets a round, before the flop the big blind being the first (pokerkit counts
  raises only: three there); pokerkit's heads-up blinds are the standard the engine plays.
* stud: the ante, a bring-in of half the lower limit (pokerkit's bring-in is a
  parameter), the bring-in may complete, the low door card by suit, then the high board,
  burns before 4th to 7th street (pokerkit's), the cap of four.
* a pot split pays equal shares to the cent (pokerkit's default ``divmod``); pokerkit gives
  all odd cents to the first winner in its seat order (ours: one each, in the room's order).

What pokerkit cannot be set to, the test names and checks apart: no cap once a hand is
heads-up (pokerkit caps every round), stud's open pair on 4th street (pokerkit bets the
lower limit only), the odd cents when more than one is left or in stud, and stud's
common card when the deck runs short.

Seats map to pokerkit's player indices in pokerkit's order: hold'em and Omaha clockwise
from left of the button (so the button is last; heads-up the big blind is 0), stud in
seat order from the dealer's left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerkit import (
    Automation,
    BettingStructure,
    ChipsPushing,
    Deck,
    OmahaHoldemHand,
    Opening,
    StandardHighHand,
    State,
    Street,
)
from pokerkit import (
    Card as PKCard,
)

from games.core.cards import Card
from games.core.engine import NeedKind, Variant
from games.core.records import Action, DealCard, Decide, StartPosition
from games.poker_room.engine import PokerRoomRound
from games.poker_room.events import HandStart, PotAwarded, PotFormed
from games.poker_room.flow import after, from_seat
from games.poker_room.rules import RoomRules

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

_PK: dict[Card, PKCard] = {}


def pk_card(card: Card) -> PKCard:
    """The pokerkit card of one of ours."""
    got = _PK.get(card)
    if got is None:
        got = _PK[card] = next(iter(PKCard.parse(str(card))))
    return got


def streets(rules: RoomRules, heads_up: bool) -> tuple[Street, ...]:
    """pokerkit's streets for the table (``heads_up``: no cap at all)."""
    cap = None if heads_up else rules.cap
    lo, hi = rules.lower_limit, rules.higher_limit
    if rules.is_stud:
        first = Street(False, (False, False, True), 0, False, Opening.LOW_CARD, lo, cap)
        later = [
            Street(True, (up,), 0, False, Opening.HIGH_HAND, bet, cap)
            for up, bet in ((True, lo), (True, hi), (True, hi), (False, hi))
        ]
        return (first, *later)
    pre_cap = None if cap is None else cap - 1  # the big blind is the first bet
    hole = (False,) * rules.hole_cards
    return (
        Street(False, hole, 0, False, Opening.POSITION, lo, pre_cap),
        Street(True, (), 3, False, Opening.POSITION, lo, cap),
        Street(True, (), 1, False, Opening.POSITION, hi, cap),
        Street(True, (), 1, False, Opening.POSITION, hi, cap),
    )


def new_state(rules: RoomRules, stacks: Sequence[int]) -> State:
    """A pokerkit hand of ``stacks`` (in pokerkit's player order)."""
    n = len(stacks)
    hand = OmahaHoldemHand if rules.game == "omaha" else StandardHighHand
    blinds = (0,) * n if rules.is_stud else (rules.small_blind, rules.big_blind) + (0,) * (n - 2)
    return State(
        AUTOMATIONS,
        Deck.STANDARD,
        (hand,),
        streets(rules, n == 2),
        BettingStructure.FIXED_LIMIT,
        False,
        (rules.ante,) * n,
        blinds,
        rules.bring_in if rules.is_stud else 0,
        tuple(stacks),
        n,
    )


class PeerHand:
    """One pokerkit hand played alongside ours: ``seats`` in pokerkit's order, cards
    fed from what our engine dealt (``dealt``: seat -> its cards so far; ``board``,
    ``burns`` likewise)."""

    def __init__(self, rules: RoomRules, seats: Sequence[int], stacks: Mapping[int, int]) -> None:
        self.seats = tuple(seats)
        self.index = {s: i for i, s in enumerate(self.seats)}
        self.state = new_state(rules, [stacks[s] for s in self.seats])
        self.fed: dict[int, int] = dict.fromkeys(self.seats, 0)
        self.board_fed = 0
        self.burns_fed = 0
        self.showdown_pots: list[tuple[int, tuple[int, ...]]] = []
        self.ops: list[tuple[str, Any]] = []  # every call made, to replay it alone

    def feed(
        self, dealt: Mapping[int, Sequence[Card]], board: Sequence[Card], burns: Sequence[Card]
    ) -> None:
        """Deal pokerkit every card it asks for that our engine has dealt."""
        st = self.state
        while True:
            if st.can_show_or_muck_hole_cards():  # every live hand shows (page 001)
                if not self.showdown_pots:
                    self.showdown_pots = [
                        (p.amount, tuple(sorted(self.seats[i] for i in p.player_indices)))
                        for p in st.pots
                    ]
                st.show_or_muck_hole_cards(True)
                self.ops.append(("show", None))
            elif st.can_burn_card():
                if self.burns_fed >= len(burns):
                    return
                st.burn_card(pk_card(burns[self.burns_fed]))
                self.ops.append(("burn", pk_card(burns[self.burns_fed])))
                self.burns_fed += 1
            elif st.can_deal_hole():
                seat = self.seats[st.hole_dealee_index]  # type: ignore[index]
                have = dealt.get(seat, ())
                if self.fed[seat] >= len(have):
                    return
                st.deal_hole(pk_card(have[self.fed[seat]]))
                self.ops.append(("hole", pk_card(have[self.fed[seat]])))
                self.fed[seat] += 1
            elif st.can_deal_board():
                count = st.board_dealing_count or 0
                if self.board_fed + count > len(board):
                    return
                cards = board[self.board_fed : self.board_fed + count]
                st.deal_board([pk_card(c) for c in cards])
                self.ops.append(("board", [pk_card(c) for c in cards]))
                self.board_fed += count
            else:
                return

    @property
    def to_act(self) -> int | None:
        i = self.state.actor_index
        return None if i is None else self.seats[i]

    def options(self) -> set[tuple[str, int]]:
        """pokerkit's legal actions now, as (name, the actor's bet after it)."""
        st = self.state
        i = st.actor_index
        if i is None:
            return set()
        bet = st.bets[i]
        out: set[tuple[str, int]] = set()
        if st.can_post_bring_in():
            amount = st.effective_bring_in_amount or 0
            out.add(("bring-in", bet + amount))
        elif st.can_check_or_call():
            call = st.checking_or_calling_amount or 0
            out.add(("call" if call else "check", bet + call))
        if st.can_fold():
            out.add(("fold", bet))
        if st.can_complete_bet_or_raise_to():
            to = st.min_completion_betting_or_raising_to_amount
            assert to is not None
            name = "complete" if st.completion_status else "raise" if max(st.bets) else "bet"
            out.add((name, to))
        return out

    def act(self, name: str, to: int) -> None:
        """Play one of :meth:`options`."""
        st = self.state
        self.ops.append((name, to))
        if name == "fold":
            st.fold()
        elif name in ("check", "call"):
            st.check_or_call()
        elif name == "bring-in":
            st.post_bring_in()
        else:
            st.complete_bet_or_raise_to(to)

    @property
    def over(self) -> bool:
        return not self.state.status

    def stacks(self) -> dict[int, int]:
        return {s: self.state.stacks[i] for s, i in self.index.items()}

    def awards(self) -> list[dict[int, int]]:
        """What each pot paid to whom (pokerkit's chip pushes)."""
        awards: list[dict[int, int]] = [{} for _ in self.showdown_pots] or [{}]
        for op in self.state.operations:
            if isinstance(op, ChipsPushing):
                for i, amount in enumerate(op.amounts):
                    if amount:
                        won = awards[op.pot_index]
                        won[self.seats[i]] = won.get(self.seats[i], 0) + amount
        return awards


# --- both engines in lockstep ----------------------------------------------------------------

Choice = Callable[[Sequence[tuple[str, int]]], int]


@dataclass
class Script:
    """One hand as both engines played it: enough to replay it on either alone."""

    variant: Variant[RoomRules]
    stacks: dict[int, int]
    button_position: int
    deck: list[Card]
    actions: list[tuple[int, str, int]] = field(default_factory=list)  # seat, name, to
    dealt: dict[int, list[Card]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    order: tuple[int, ...] = ()  # pokerkit's player order
    log: list[Action] = field(default_factory=list)  # every action our engine took
    peer_ops: list[tuple[str, Any]] = field(default_factory=list)  # pokerkit's calls


@dataclass
class Outcome:
    """What each engine ended with, and the named differences met on the way."""

    compared: bool  # False: the stud deck ran short (a common card), pokerkit stopped
    mine_stacks: dict[int, int] = field(default_factory=dict)
    peer_stacks: dict[int, int] = field(default_factory=dict)
    mine_pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    peer_pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    mine_awards: list[dict[int, int]] = field(default_factory=list)
    peer_awards: list[dict[int, int]] = field(default_factory=list)
    differences: set[str] = field(default_factory=set)
    showdown: bool = False  # pokerkit's awards are compared only after a showdown


def peer_order(r: PokerRoomRound) -> tuple[int, ...]:
    """Our seats in pokerkit's player order (see the module docstring)."""
    if r.rules.is_stud:
        return r.seats_in
    assert r.button is not None
    return from_seat(r.seats_in, after(r.seats_in, r.button))


def named_difference(r: PokerRoomRound, extra: set[tuple[str, int]]) -> str:
    """The page rule that explains our options pokerkit lacks, or "" if none does."""
    street = r.street
    assert street is not None
    if not extra or not all(name in ("bet", "raise") for name, _ in extra):
        return ""
    if len(r.chips.live) == 2 and street.cap is not None and street.count >= street.cap:
        return "heads-up-uncapped"
    if street.either or (
        r.rules.is_stud and r.street_no == 1 and street.increment > r.rules.lower_limit
    ):
        return "open-pair"
    return ""


def lockstep(
    variant: Variant[RoomRules],
    stacks: Mapping[int, int],
    deck: Sequence[Card],
    choose: Choice,
    button_position: int = 1,
) -> tuple[Script, Outcome]:
    """Play one hand on both engines from ``deck``, each decision ``choose``n among the
    options both offer; raises AssertionError where they differ beyond a named rule."""
    script = Script(variant, dict(stacks), button_position, list(deck))
    r = PokerRoomRound(variant, variant.seats, button=None)
    start = HandStart(stacks=tuple(sorted(stacks.items())))
    script.log.append(start)
    events: list[Any] = list(r.apply(start))
    cards = iter(deck)
    peer: PeerHand | None = None
    outcome = Outcome(compared=True)
    while True:
        while (need := r.needs()) is not None:
            if need.kind is NeedKind.POSITION:
                script.log.append(StartPosition(position=button_position))
                events += r.apply(script.log[-1])
                continue
            card = next(cards)
            script.log.append(DealCard(card=card))
            events += r.apply(script.log[-1])
            if need.target == "burn":
                script.burns.append(card)
            elif need.target == "board":
                script.board.append(card)
            else:
                script.dealt.setdefault(int(need.target[4:]), []).append(card)
        if peer is None:
            script.order = peer_order(r)
            peer = PeerHand(variant.rules, script.order, stacks)
        if r.rules.is_stud and script.board:
            outcome.compared = False  # the common card: pokerkit has no such rule
        if outcome.compared:
            peer.feed(script.dealt, script.board, script.burns)
        if r.is_over:
            break
        seat = r.to_act
        assert seat is not None
        mine = {(o.name, o.to) for o in r.options(seat)}
        if outcome.compared:
            assert peer.to_act == seat, (seat, peer.to_act, script)
            theirs = peer.options()
            extra = mine - theirs
            why = named_difference(r, extra)
            assert not (theirs - mine) and (not extra or why), (seat, mine, theirs, script)
            if why:
                outcome.differences.add(why)
            both = sorted(mine & theirs)
        else:
            both = sorted(mine)
        name, to = both[choose(both)]
        script.actions.append((seat, name, to))
        script.log.append(Decide(seat=seat, decision=name, arg=str(to)))
        events += r.apply(script.log[-1])
        if outcome.compared:
            peer.act(name, to)
    assert peer is not None
    script.peer_ops = peer.ops
    outcome.mine_stacks = dict(r.chips.stack)
    outcome.mine_pots = [(e.amount, e.eligible) for e in events if isinstance(e, PotFormed)]
    outcome.mine_awards = [{} for _ in outcome.mine_pots]
    for e in events:
        if isinstance(e, PotAwarded):
            outcome.mine_awards[e.pot][e.seat] = (
                outcome.mine_awards[e.pot].get(e.seat, 0) + e.amount
            )
    if outcome.compared:
        assert peer.over, script
        outcome.peer_stacks = peer.stacks()
        outcome.peer_pots, outcome.peer_awards = peer.showdown_pots, peer.awards()
        outcome.showdown = bool(peer.showdown_pots)
        if not peer.showdown_pots:  # won without a showdown: one pot, as ours
            outcome.peer_pots = [(sum(a for a, _ in outcome.mine_pots), tuple(r.chips.live))]
    return script, outcome


def replay_peer(rules: RoomRules, stacks: Sequence[int], ops: Sequence[tuple[str, Any]]) -> State:
    """pokerkit alone through a hand's recorded calls (the bench's peer run)."""
    st = new_state(rules, stacks)
    for op, arg in ops:
        if op == "hole":
            st.deal_hole(arg)
        elif op == "burn":
            st.burn_card(arg)
        elif op == "board":
            st.deal_board(arg)
        elif op == "show":
            st.show_or_muck_hole_cards(True)
        elif op == "fold":
            st.fold()
        elif op in ("check", "call"):
            st.check_or_call()
        elif op == "bring-in":
            st.post_bring_in()
        else:
            st.complete_bet_or_raise_to(arg)
    return st


__all__ = [
    "Outcome",
    "PeerHand",
    "Script",
    "lockstep",
    "new_state",
    "pk_card",
    "replay_peer",
    "streets",
]

"""The course of a poker room hand: who posts, what is dealt, who acts first, what comes next.

The functions here read and advance a :class:`~games.poker_room.engine.PokerRoomRound`
(kept beside the engine so each module stays one job): the posts (antes, blinds, a new
player's big blind, a returning player's missed blinds), the deal plan of each street,
the opening of each betting round, closing it (uncalled bets back, the next street or
the showdown) and the misdeal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from games.core.cards import Card
from games.core.errors import IllegalAction
from games.core.records import Event, Message
from games.poker_room import showdown
from games.poker_room.betting import Street
from games.poker_room.events import (
    CollectionReturned,
    HandStart,
    HandVoid,
    Misdeal,
    Uncalled,
)
from games.poker_room.stud import bring_in_seat, high_board, open_pair

if TYPE_CHECKING:
    from games.poker_room.engine import PokerRoomRound, Slot

DECK_SIZE = 52
#: hold'em / Omaha: board cards dealt before rounds 1, 2, 3 (flop, turn, river)
BOARD = (0, 3, 1, 1)
#: rounds of betting
ROUNDS = {"holdem": 4, "omaha": 4, "stud": 5}
POSTS = ("bb", "bb+sb")


class RoomPhase(StrEnum):
    START = "start"  # waiting for HandStart
    BUTTON = "button"  # the first button is drawn
    DEALING = "dealing"
    BETTING = "betting"
    OVER = "over"


# --- seats around the table ---------------------------------------------------------------


def after(seats: Sequence[int], seat: int) -> int:
    """The next seat of ``seats`` clockwise after ``seat`` (which need not be among them)."""
    later = [s for s in seats if s > seat]
    return later[0] if later else seats[0]


def before(seats: Sequence[int], seat: int) -> int:
    """The seat of ``seats`` just before ``seat`` clockwise."""
    earlier = [s for s in seats if s < seat]
    return earlier[-1] if earlier else seats[-1]


def from_seat(seats: Sequence[int], first: int) -> tuple[int, ...]:
    """``seats`` in clockwise order starting at ``first``."""
    at = seats.index(first)
    return tuple(seats[at:]) + tuple(seats[:at])


def amount_arg(arg: str) -> int | None:
    """A decision's amount (cents, as text), or None when it names none."""
    if arg == "":
        return None
    if not arg.isdigit():
        raise IllegalAction(f"the amount must be whole cents, got {arg!r}")
    return int(arg)


# --- the start ------------------------------------------------------------------------------


def check_start(r: PokerRoomRound, action: HandStart) -> None:
    """The room's HandStart is sound: 2+ seats of this table, each with a stack that
    covers the seat fee, no seat twice, posts only by seats dealt in that are not the
    blinds."""
    seats = [s for s, _ in action.stacks]
    if len(seats) < 2:
        raise IllegalAction("a hand needs at least two players")
    if len(set(seats)) != len(seats) or any(not 0 <= s < r.seats for s in seats):
        raise IllegalAction(f"stacks must name distinct seats 0..{r.seats - 1}")
    if r.rules.is_stud and len(seats) > r.variant.seats:
        raise IllegalAction(f"stud deals to at most {r.variant.seats} players")
    fee = r.rules.collection.seat_fee + r.rules.ante
    for s, stack in action.stacks:
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= fee:
            raise IllegalAction(f"seat {s}: a stack must be whole cents above {fee}")
    for s, what in action.posts:
        if s not in seats or what not in POSTS or r.rules.is_stud:
            raise IllegalAction(f"seat {s}: post {what!r} is not one of {POSTS} by a seat dealt in")


def antes(r: PokerRoomRound) -> list[tuple[int, int, str]]:
    """Stud: every seat antes (dead money)."""
    return [(s, r.rules.ante, "ante") for s in r.seats_in if r.rules.ante]


def blind_seats(r: PokerRoomRound) -> tuple[int, int]:
    """(small blind, big blind): left of the button and next; heads-up the button posts
    the small blind (the standard)."""
    assert r.button is not None
    seats = r.seats_in
    if len(seats) == 2:
        return r.button, after(seats, r.button)
    sb = after(seats, r.button)
    return sb, after(seats, sb)


def blinds(r: PokerRoomRound, posts: Mapping[int, str]) -> list[tuple[int, int, str]]:
    """The blinds, then each entering player's post (a post by a blind is its blind)."""
    sb, bb = blind_seats(r)
    rules = r.rules
    out = [(sb, rules.small_blind, "small-blind"), (bb, rules.big_blind, "big-blind")]
    for seat in from_seat(r.seats_in, after(r.seats_in, bb)):
        what = posts.get(seat)
        if what is None or seat in (sb, bb):
            continue
        out.append((seat, rules.big_blind, "big-blind"))
        if what == "bb+sb":
            out.append((seat, rules.small_blind, "dead-blind"))
    return out


# --- dealing ----------------------------------------------------------------------------------


def _slot(target: str, up: bool) -> Slot:
    from games.poker_room.engine import Slot

    return Slot(target, up, int(target[4:]) if target.startswith("seat") else -1)


def hole_slots(r: PokerRoomRound) -> list[Slot]:
    """Hold'em / Omaha: one card at a time clockwise from left of the button, face down."""
    assert r.button is not None
    order = from_seat(r.seats_in, after(r.seats_in, r.button))
    return [_slot(f"seat{s}", False) for _ in range(r.rules.hole_cards) for s in order]


def stud_slots(r: PokerRoomRound, street: int) -> list[Slot]:
    """Stud: two down and one up from the dealer's left; one up each on 4th to 6th street
    after a burn; the last down, or one common card up when too few cards remain."""
    live = r.chips.live
    if street == 0:
        return [_slot(f"seat{s}", up) for up in (False, False, True) for s in live]
    left = DECK_SIZE - r.dealt
    if street < 4 or left >= len(live) + 1:
        return [_slot("burn", False)] + [_slot(f"seat{s}", street < 4) for s in live]
    return ([_slot("burn", False)] if left >= 2 else []) + [_slot("board", True)]


def street_slots(r: PokerRoomRound) -> list[Slot]:
    """The cards dealt before betting round ``r.street_no`` (> 0)."""
    if r.rules.is_stud:
        return stud_slots(r, r.street_no)
    return [_slot("burn", False)] + [_slot("board", True)] * BOARD[r.street_no]


def up_cards(r: PokerRoomRound) -> dict[int, list[Card]]:
    """Each live seat's face-up cards (stud)."""
    return {s: [c for c, up in r.cards.get(s, []) if up] for s in r.chips.live}


def open_round(r: PokerRoomRound) -> None:
    """Start betting round ``r.street_no``: who acts first, the limit, the cap."""
    rules, n = r.rules, r.street_no
    seats = r.seats_in
    kwargs: dict[str, int] = {}
    if rules.is_stud:
        if n == 0:
            first = bring_in_seat({s: [c for c, up in r.cards[s] if up] for s in seats})
            kwargs["bring_in"] = rules.bring_in
        else:
            up = up_cards(r)
            first = high_board(up)
            if n == 1 and open_pair(up):
                kwargs["either"] = rules.higher_limit
    else:
        assert r.button is not None
        if n == 0:
            _, bb = blind_seats(r)
            first, kwargs["count"] = after(seats, bb), 1
        else:
            first = after(seats, r.button)
    live_first = first if first in r.chips.live else after(r.chips.live, first)
    r.openers.append(live_first)
    r.street = Street(
        r.chips,
        order=from_seat(seats, first),
        increment=rules.limit_of(n),
        cap=rules.cap,
        **kwargs,
    )
    r.aggressors.append(None)


def advance(r: PokerRoomRound) -> list[Event]:
    """After the street's cards: open its betting, or (nobody can bet) go straight on."""
    open_round(r)
    assert r.street is not None
    if not r.street.over:
        r.phase = RoomPhase.BETTING
        return []
    return close_round(r)


def close_round(r: PokerRoomRound) -> list[Event]:
    """The betting round is over: an uncalled bet back, then the next street or the end."""
    assert r.street is not None
    events: list[Event] = []
    r.aggressors[-1] = r.street.aggressor
    back = r.chips.uncalled()
    if back is not None:
        events.append(Uncalled(seat=back[0], amount=back[1]))
    r.chips.end_round()
    if len(r.chips.live) <= 1 or r.street_no == ROUNDS[r.rules.game] - 1:
        return events + showdown.finish(r)
    r.street_no += 1
    r.slots = street_slots(r)
    r.phase = RoomPhase.DEALING
    return events


# --- misdeal ------------------------------------------------------------------------------------


def check_misdeal(r: PokerRoomRound, action: Misdeal) -> None:
    """A misdeal is the floor's call during the first round, before any player acts."""
    if action.seat is not None:
        raise IllegalAction("a misdeal is the floor's call, not a seat's")
    if r.phase in (RoomPhase.START, RoomPhase.OVER) or r.street_no > 0 or r.voluntary:
        raise IllegalAction("a misdeal is called only in the first round, before anyone acts")


def misdeal(r: PokerRoomRound, action: Misdeal) -> list[Event]:
    """Void the hand: every chip committed and every seat fee goes back."""
    events: list[Event] = []
    fee = r.rules.collection.seat_fee
    for s in r.seats_in:
        put = r.chips.total[s]
        if put:
            r.chips.stack[s] += put
            r.chips.total[s] = 0
            events.append(Uncalled(seat=s, amount=put))
        if fee:
            r.chips.stack[s] += fee
            events.append(CollectionReturned(seat=s, amount=fee))
    r.collection = 0
    r.void = True
    r.phase = RoomPhase.OVER
    r.slots = []
    r.street = None
    return [*events, HandVoid(reason=action.reason), Message(text=f"misdeal: {action.reason}")]


__all__ = ["RoomPhase", "advance", "after", "before", "close_round", "from_seat"]

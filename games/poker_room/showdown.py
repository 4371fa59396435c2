"""The end of a hand: the pots, the collection, the showdown and every pot's award.

Page 001: "Every remaining player shows hand with bettor showing first". The room's
``showdown`` rule: the last bettor (the last to bet or raise in the last round) shows
first, otherwise the first player left of the button (stud: the round's first to act,
the high board); then clockwise. Each pot goes to the best hand among the seats that
may win it; a tie splits it to the cent, the odd cents by the room's ``odd_chip`` rule (the
first winner clockwise from the button; stud: the winner with the highest card by suit).
The rake (a rake table) comes out of the main pot first, then the side pots in order.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from games.core.cards import Card
from games.core.money import format_cents
from games.core.records import CardShown, Event, RoundOver
from games.poker.omaha import rank_omaha_indices
from games.poker.rank5 import describe, rank_indices
from games.poker_room.events import HandResult, HandShown, PotAwarded, PotFormed, Raked
from games.poker_room.pots import Pot, side_pots, split

if TYPE_CHECKING:
    from games.poker_room.engine import PokerRoomRound


def hand_of(r: PokerRoomRound, seat: int) -> list[Card]:
    """All the seat's cards (stud: its own seven, or six and the common card)."""
    return [c for c, _ in r.cards.get(seat, [])]


def rank_of(r: PokerRoomRound, seat: int) -> int:
    """The seat's best hand: hold'em any five of seven, Omaha exactly two hole and three
    board, stud the best five of its cards (the engine has refused any card twice)."""
    own = [c.index for c, _ in r.cards.get(seat, [])]
    board = [c.index for c in r.board]
    if r.rules.game == "omaha":
        return rank_omaha_indices(own, board)
    return rank_indices([*own, *board])


#: hand names by rank (a few thousand at most)
name_of = functools.cache(describe)


def show_order(r: PokerRoomRound) -> list[int]:
    """The live seats in the order they show (see the module docstring)."""
    from games.poker_room.flow import after, from_seat

    live = r.chips.live
    last = r.aggressors[-1] if r.aggressors else None
    if last is not None and last in live:
        first = last
    elif r.rules.is_stud:
        first = r.openers[-1] if r.openers and r.openers[-1] in live else live[0]
    else:
        assert r.button is not None
        first = after(live, r.button)
    return list(from_seat(live, first))


def odd_chip_order(r: PokerRoomRound, winners: list[int]) -> list[int]:
    """Winners in the order odd cents go to them."""
    from games.poker_room.flow import after, from_seat

    if r.rules.is_stud:
        return sorted(winners, key=lambda s: max(c.index for c in hand_of(r, s)), reverse=True)
    assert r.button is not None
    order = from_seat(r.seats_in, after(r.seats_in, r.button))
    return [s for s in order if s in winners]


def _rake(r: PokerRoomRound, pots: list[Pot]) -> tuple[list[int], list[Event]]:
    """Each pot's amount after the rake, and the Raked events: each pot pays its share,
    the main pot first, until the cap (:meth:`Collection.rake_of`)."""
    c = r.rules.collection
    flop_seen = r.street_no > 0
    left = c.cap if c.kind == "rake" and sum(p.amount for p in pots) >= c.min_pot else 0
    if c.no_flop_no_drop and not flop_seen:
        left = 0
    amounts: list[int] = []
    events: list[Event] = []
    for n, pot in enumerate(pots):
        take = min(left, c.rake_of(pot.amount, r.rules.chip))
        left -= take
        amounts.append(pot.amount - take)
        if take:
            r.collection += take
            events.append(Raked(pot=n, amount=take))
    return amounts, events


def finish(r: PokerRoomRound) -> list[Event]:
    """Form the pots, take the rake, show down (if two or more are left) and award."""
    from games.poker_room.flow import RoomPhase

    chips = r.chips
    pots = side_pots(chips.total, chips.folded)
    events: list[Event] = [
        PotFormed(pot=n, amount=p.amount, shares=p.shares, eligible=p.eligible)
        for n, p in enumerate(pots)
    ]
    amounts, raked = _rake(r, pots)
    events += raked
    live = chips.live
    ranks: dict[int, int] = {}
    if len(live) > 1:
        for seat in show_order(r):
            ranks[seat] = rank_of(r, seat)
            r.shown.add(seat)
            own = [c for c, up in r.cards.get(seat, []) if not up]
            events += [CardShown(card=c, hand=f"seat{seat}", to="all") for c in own]
            text = " ".join(str(c) for c in hand_of(r, seat))
            events.append(HandShown(seat=seat, cards=text, hand=name_of(ranks[seat])))
            r.result.append(f"seat {seat} shows {text}: {name_of(ranks[seat])}")
    won = dict.fromkeys(r.seats_in, 0)
    for n, (pot, amount) in enumerate(zip(pots, amounts, strict=True)):
        if len(pot.eligible) == 1 or not ranks:
            winners = [pot.eligible[0]] if pot.eligible else [live[0]]
        else:
            best = max(ranks[s] for s in pot.eligible)
            winners = [s for s in pot.eligible if ranks[s] == best]
        shares = split(amount, odd_chip_order(r, winners))
        for seat, got in shares.items():
            chips.stack[seat] += got
            won[seat] += got
            name = name_of(ranks[seat]) if ranks else "uncontested"
            events.append(PotAwarded(pot=n, seat=seat, amount=got, hand=name))
            r.result.append(f"seat {seat} wins {format_cents(got)} from pot {n} ({name})")
    r.phase = RoomPhase.OVER
    r.street = None
    seats = r.seats_in
    events.append(
        HandResult(
            before=tuple((s, r.before[s]) for s in seats),
            committed=tuple((s, chips.total[s]) for s in seats),
            won=tuple((s, won[s]) for s in seats),
            after=tuple((s, chips.stack[s]) for s in seats),
            collection=r.collection,
        )
    )
    events.append(RoundOver(summary=_summary(won)))
    return events


def _summary(won: dict[int, int]) -> str:
    parts = [f"seat {s} wins {format_cents(c)}" for s, c in won.items() if c]
    return "; ".join(parts)


__all__ = ["finish", "hand_of", "odd_chip_order", "rank_of", "show_order"]

"""What each seat sees of a poker room hand: its own hole cards, everyone's up cards.

A seat sees its own cards; another seat's face-down cards only once they are shown at
the showdown (a count stands in for them before); an observer (``seat`` None) sees no
hole card until the showdown. The shoe, the burns and cards not yet dealt are never in
a view. The legal actions, with their amounts, are in the acting seat's own view only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from games.poker_room.engine import PokerRoomRound


class OptionView(TypedDict):
    """One legal action: its name, the cents it puts in now, the seat's bet after it."""

    name: str
    add: int
    to: int


class SeatView(TypedDict):
    """One seat dealt in, as the viewer sees it."""

    seat: int
    stack: int
    bet: int  # this round
    committed: int  # this hand
    folded: bool
    all_in: bool
    cards: list[str]  # the cards the viewer may see, in the order dealt
    hidden: int  # face-down cards the viewer may not see


class PotView(TypedDict):
    amount: int
    eligible: list[int]


class RoomView(TypedDict):
    """The whole table as ``seat`` (None: an observer) sees it, JSON-able."""

    game: str
    variant: str
    phase: str
    seat: int | None
    button: int | None
    street: int
    board: list[str]
    seats: list[SeatView]
    pots: list[PotView]
    to_act: int | None
    options: list[OptionView]
    stakes: list[int]  # lower, higher limit (cents)
    result: list[str]  # after the hand: what each seat showed and won


def _seat_view(r: PokerRoomRound, seat: int, viewer: int | None) -> SeatView:
    chips = r.chips
    cards = r.cards.get(seat, [])
    mine = viewer == seat or seat in r.shown
    visible = [str(c) for c, up in cards if up or mine]
    return SeatView(
        seat=seat,
        stack=chips.stack[seat],
        bet=chips.bet[seat],
        committed=chips.total[seat],
        folded=seat in chips.folded,
        all_in=chips.stack[seat] == 0 and seat not in chips.folded,
        cards=visible,
        hidden=len(cards) - len(visible),
    )


def room_view(r: PokerRoomRound, viewer: int | None) -> RoomView:
    """The view of ``r`` for ``viewer``."""
    from games.poker_room.pots import side_pots

    options: list[OptionView] = []
    if viewer is not None:
        options = [OptionView(name=o.name, add=o.add, to=o.to) for o in r.options(viewer)]
    pots = side_pots(r.chips.total, r.chips.folded) if r.seats_in else []
    return RoomView(
        game=r.rules.game,
        variant=r.variant.id,
        phase=str(r.phase),
        seat=viewer,
        button=r.button,
        street=r.street_no,
        board=[str(c) for c in r.board],
        seats=[_seat_view(r, s, viewer) for s in r.seats_in],
        pots=[PotView(amount=p.amount, eligible=list(p.eligible)) for p in pots],
        to_act=r.to_act,
        options=options,
        stakes=[r.rules.lower_limit, r.rules.higher_limit],
        result=list(r.result),
    )


__all__ = ["OptionView", "PotView", "RoomView", "SeatView", "room_view"]

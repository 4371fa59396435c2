"""Hand arithmetic: card points, totals, soft hands, naturals and the showdown rule.

Ranks are reduced to *points* 1..10 (ace = 1, ten and faces = 10). A hand's total counts
one ace as 11 when that does not bust it (a *soft* total). A *natural* is an ace and a
ten-value card as the first two cards of a hand that was not split: Pinnacle's blackjack,
or 21st Century's Natural (the ace counting 11.5, a total of 21.5). Either way it beats
every other hand but another natural, which is the only place the half point matters,
so totals stay integers and :func:`showdown` ranks a natural above 21.

>>> from games.core.cards import parse_cards
>>> hand_total(parse_cards("As 6d"))
(17, True)
>>> hand_total(parse_cards("As 6d Tc"))
(17, False)
>>> is_natural(parse_cards("Ah Kd"), from_split=False)
True
>>> is_natural(parse_cards("Ah Kd"), from_split=True)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from games.core.cards import Card, Rank


def points(card: Card) -> int:
    """Blackjack points of a card: ace 1, two..nine face value, ten and faces 10."""
    if card.rank is Rank.ACE:
        return 1
    if card.rank is Rank.JOKER:
        raise ValueError("blackjack is dealt without jokers")
    return min(int(card.rank), 10)


def total_of_points(pts: Sequence[int]) -> tuple[int, bool]:
    """``(total, soft)`` for card points: one ace counts 11 when that stays at 21 or under."""
    hard = sum(pts)
    if 1 in pts and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """``(total, soft)`` of a hand."""
    return total_of_points([points(c) for c in cards])


def is_natural(cards: Sequence[Card], *, from_split: bool) -> bool:
    """An ace and a ten-value card as the first two cards of an unsplit hand."""
    return not from_split and len(cards) == 2 and sorted(points(c) for c in cards) == [1, 10]


def dealer_hits(total: int, soft: bool, hits_soft_through: int) -> bool:
    """The dealer's drawing rule: hit below 17, and on a soft total up to the table's limit."""
    return total < 17 or (soft and total <= hits_soft_through)


class Outcome(StrEnum):
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


def showdown(
    player_total: int,
    player_cards: int,
    dealer_total: int,
    bust_push_totals: Sequence[int] = (),
) -> Outcome:
    """Settle a non-natural player hand against a non-natural dealer hand.

    Both totals are final. A bust player loses, except that a busted *three-card* total in
    ``bust_push_totals`` pushes when the dealer busts higher (21st Century's rule 7).

    >>> showdown(23, 3, 24, (23, 24, 25))
    <Outcome.PUSH: 'push'>
    >>> showdown(23, 3, 23, (23, 24, 25))
    <Outcome.LOSE: 'lose'>
    >>> showdown(20, 2, 22)
    <Outcome.WIN: 'win'>
    """
    if player_total > 21:
        if (
            dealer_total > 21
            and player_cards == 3
            and player_total in bust_push_totals
            and dealer_total > player_total
        ):
            return Outcome.PUSH
        return Outcome.LOSE
    if dealer_total > 21 or player_total > dealer_total:
        return Outcome.WIN
    if player_total == dealer_total:
        return Outcome.PUSH
    return Outcome.LOSE


def can_split_cards(a: Card, b: Card, mode: str) -> bool:
    """Whether two cards form a splittable pair under the table's ``split`` mode."""
    if mode == "same-value":
        return points(a) == points(b)
    faces = (Rank.JACK, Rank.QUEEN, Rank.KING)
    return a.rank == b.rank or (a.rank in faces and b.rank in faces)

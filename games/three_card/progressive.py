"""The Three Card Poker progressive (page 004): the hands it pays on, and how many there are.

Page 004 says only "There is also a progressive jackpot for 3-card poker"; the table is
the published Shuffle Master "3 Card Poker Progressive Jackpot" (an optional $1 bet
scored on the player's own three cards, whatever the dealer holds and whether the
player plays or folds): the mini royal (A-K-Q suited) in spades takes the meter, a
mini royal in another suit, a straight flush and three of a kind fixed amounts. The
amounts are data (``[progressive]`` in ``paytables/three-card-poker.toml``, read by
:func:`~games.core.progressive.parse_jackpot_of`); this module gives the hands the
table is keyed by and their exact counts among the C(52, 3) = 22,100 three-card hands,
so :class:`~games.core.progressive.JackpotTable` computes the bet's return exactly.

>>> from games.core.cards import parse_cards
>>> hand_of(parse_cards("As Ks Qs")), hand_of(parse_cards("Ah Kh Qh"))
(<ProgressiveHand.MINI_ROYAL_SPADES: 7>, <ProgressiveHand.MINI_ROYAL: 6>)
>>> sum(COUNTS.values())
22100
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum
from types import MappingProxyType

from games.core.cards import Card, Suit
from games.core.errors import PaytableError
from games.poker.three_card import Category3, category3, rank3


class ProgressiveHand(IntEnum):
    """The three-card hands the progressive tells apart, worst to best: the
    :class:`~games.poker.three_card.Category3` categories with the spade mini royal apart."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    MINI_ROYAL = 6  # A-K-Q suited in hearts, diamonds or clubs
    MINI_ROYAL_SPADES = 7  # A-K-Q of spades: the meter

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


#: how many of the 22,100 three-card hands are each kind (the standard counts: 48
#: straight flushes of which 4 mini royals, 52 trips, 720 straights, 1,096 flushes,
#: 3,744 pairs; pinned against the evaluator's exhaustive count in the tests)
COUNTS: Mapping[ProgressiveHand, int] = MappingProxyType(
    {
        ProgressiveHand.HIGH_CARD: 16_440,
        ProgressiveHand.PAIR: 3_744,
        ProgressiveHand.FLUSH: 1_096,
        ProgressiveHand.STRAIGHT: 720,
        ProgressiveHand.THREE_OF_A_KIND: 52,
        ProgressiveHand.STRAIGHT_FLUSH: 44,
        ProgressiveHand.MINI_ROYAL: 3,
        ProgressiveHand.MINI_ROYAL_SPADES: 1,
    }
)


def hand_of(cards: Sequence[Card]) -> ProgressiveHand:
    """The progressive's hand for three cards."""
    cat = category3(rank3(cards))
    if cat is Category3.MINI_ROYAL and cards[0].suit is Suit.SPADES:
        return ProgressiveHand.MINI_ROYAL_SPADES
    return ProgressiveHand(int(cat))


def hand_named(name: str, where: str) -> ProgressiveHand:
    """A :class:`ProgressiveHand` from its lower-case TOML name; PaytableError naming the key."""
    try:
        return ProgressiveHand[name.upper()]
    except KeyError:
        known = ", ".join(h.name.lower() for h in ProgressiveHand)
        raise PaytableError(f"{where}: unknown hand {name!r} (hands: {known})") from None


__all__ = ["COUNTS", "ProgressiveHand", "hand_named", "hand_of"]

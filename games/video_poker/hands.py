"""What a final hand is on each machine: the best pay line it makes.

Draw poker (52 cards, no wild card) and the fruit machine's symbol hands (jokers wild)
each have one function from five cards to the name of the best line they make (or None),
which the engine, the auto-hold, the simulator and the exact math all call.

>>> from games.core.cards import parse_cards
>>> draw_hand(parse_cards("Ah Kh Qh Jh Th")), draw_hand(parse_cards("Jc Jd 4s 7h 9c"))
('royal-flush', 'jacks-or-better')
>>> draw_hand(parse_cards("Tc Td 4s 7h 9c")) is None
True
>>> fruit_hand(("joker", "plum", "plum", "bell", "bell")), fruit_hand(("joker",) * 5)
('full-house', 'five-of-a-kind')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from games.core.cards import Card


def draw_hand(cards: Sequence[Card]) -> str | None:
    """The best draw poker line five cards make (jacks or better the lowest), or None."""
    if len(cards) != 5:
        raise ValueError(f"a hand is five cards, not {len(cards)}")
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    return _draw_line(tuple(ranks), flush)


@cache
def _draw_line(ranks: tuple[int, ...], flush: bool) -> str | None:
    counts = sorted(Counter(ranks).values(), reverse=True)
    distinct = len(counts) == 5
    wheel = ranks == (14, 5, 4, 3, 2)
    straight = distinct and (ranks[0] - ranks[4] == 4 or wheel)
    if straight and flush:
        return "royal-flush" if ranks[0] == 14 and ranks[4] == 10 else "straight-flush"
    if counts[0] == 4:
        return "four-of-a-kind"
    if counts[:2] == [3, 2]:
        return "full-house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three-of-a-kind"
    if counts[:2] == [2, 2]:
        return "two-pair"
    if counts[0] == 2:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return "jacks-or-better" if pair >= 11 else None
    return None


def fruit_hand(symbols: Sequence[str]) -> str | None:
    """The best fruit line five symbols make, jokers wild (two pair the lowest), or None."""
    if len(symbols) != 5:
        raise ValueError(f"a hand is five cards, not {len(symbols)}")
    jokers = sum(1 for s in symbols if s == "joker")
    groups = sorted(Counter(s for s in symbols if s != "joker").values(), reverse=True)
    return fruit_line(jokers, tuple(groups))


@cache
def fruit_line(jokers: int, groups: tuple[int, ...]) -> str | None:
    """The line of a hand holding ``jokers`` jokers and natural groups of these sizes."""
    first = (groups[0] if groups else 0) + jokers
    second = groups[1] if len(groups) > 1 else 0
    if first >= 5:
        return "five-of-a-kind"
    if first == 4:
        return "four-of-a-kind"
    if first == 3 and second == 2:
        return "full-house"
    if first == 3:
        return "three-of-a-kind"
    if first == 2 and second == 2:
        return "two-pair"
    return None


__all__ = ["draw_hand", "fruit_hand", "fruit_line"]

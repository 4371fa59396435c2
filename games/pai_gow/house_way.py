"""The house way: how the dealer (and a player who asks) sets seven cards.

The Pinnacle page's own house way is missing (rules README gap 5). This is the
published "standard house way" taught at the Gold Star School of Gaming, Las
Vegas (goldstarschool.com/house-ways/), with the two-pair rule it says casinos
vary taken from the common casino rule published at
paigowonline.com.au ("Pai Gow Poker: splitting the two pairs"). Each rule below
is numbered as in ``docs/house-way.md``, which quotes the source and says where
a sentence of it needed a reading; :func:`house_way_rule` returns the rule used.

For choosing the rule the joker is an ace unless it completes a straight, flush
or straight flush (the published way is written for that joker). On the
Fortune table, whose joker is fully wild, the result is scored with the wild
joker; if that ever makes it foul, the legal setting with the best high hand
(then the best low hand) is used instead (rule ``W``).

>>> from games.core.cards import parse_cards
>>> str(house_way(parse_cards("Kd Th 4c 5s X 7d 8h")))
'Kd Th | X 8h 7d 5s 4c'
>>> str(house_way(parse_cards("X Jd 8c 8h 6s 3d 2c")))
'X Jd | 8c 8h 6s 3d 2c'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

from games.core.cards import JOKER, Card
from games.pai_gow.hands import Setting, high_key, low_key
from games.poker.category import Category
from games.poker.keys import ACE, category_of_key
from games.poker.pai_gow_joker import JokerRule

KING = 13
STRAIGHTS = (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)

#: rule id -> one-line statement (the full text and source are in docs/house-way.md)
RULES: dict[str, str] = {
    "1a": "five aces with a pair of kings: five aces behind, kings in front",
    "1b": "five aces: three aces behind, two aces in front",
    "2a": "four of a kind and three of a kind: a pair from the three of a kind in front",
    "2b": "four of a kind and a pair: the pair in front",
    "2c": "four of a kind 2-6: keep together, the two highest other cards in front",
    "2d": "four of a kind 7-10 with an ace to play in front: keep together, ace in front",
    "2e": "four of a kind 7-10 without an ace, or J-A: split, a pair in front",
    "3a": "two three of a kinds: the lower behind, a pair of the higher in front",
    "3b": "three of a kind and two pairs: the higher pair in front",
    "3c": "full house with twos and an ace and a king: keep together, A-K in front",
    "3d": "full house: the three of a kind behind, the pair in front",
    "4a": "straight or flush with two pairs: the two-pair rule (rule 6)",
    "4b": "straight or flush with three of a kind: a pair of it in front, if the straight stays",
    "4c": "straight or flush with one pair: the pair in front, if the straight or flush stays",
    "4d": "straight or flush with a pair of 10s or better and an ace: pair behind, ace in front",
    "4e": "straight or flush: the setting that leaves the highest two cards in front",
    "5": "three pair: the highest pair in front",
    "6a": "two pair with aces, two high pairs or a high and a middle pair: split",
    "6b": "two middle pairs, or a low and a high pair: split unless an ace is held",
    "6c": "a low and a middle pair, or two low pairs: split unless a king or ace is held",
    "6d": "two pair not split: both pairs behind, the ace (or king) and next card in front",
    "7a": "three aces: a pair of aces behind, an ace and the next card in front",
    "7b": "three of a kind: behind, the two highest other cards in front",
    "8": "one pair: behind, the next two highest cards in front",
    "9": "no pair: the highest card behind, the next two in front",
    "W": "wild joker: the chosen setting scored foul, so the best legal setting",
}


def house_way(
    cards: Sequence[Card],
    joker: JokerRule = JokerRule.ACE_OR_FILLER,
    wheel_second: bool = True,
) -> Setting:
    """The house-way setting of seven cards."""
    return house_way_rule(cards, joker, wheel_second)[0]


def _eff(card: Card) -> int:
    return ACE if card.is_joker else int(card.rank)


def _order(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Highest first (the joker counts as an ace, after the real aces)."""
    return tuple(sorted(cards, key=lambda c: (_eff(c), -c.index), reverse=True))


def _set(cards: Sequence[Card], front: Sequence[Card]) -> Setting:
    rest = list(cards)
    for c in front:
        rest.remove(c)
    return Setting(low=_order(front), high=_order(rest))


def may_straight_or_flush(cards: Sequence[Card]) -> bool:
    """True if some five of the seven make a straight or flush (joker as filler)."""
    jokers = sum(1 for c in cards if c.is_joker)
    suits = [0, 0, 0, 0]
    mask = 0
    for c in cards:
        if not c.is_joker:
            suits[c.suit] += 1
            mask |= 1 << int(c.rank)
    if max(suits) + jokers >= 5:
        return True
    if mask & (1 << ACE):
        mask |= 1 << 1
    need = 5 - jokers
    return any(bin(mask & (0b11111 << low)).count("1") >= need for low in range(1, 11))


def straight_settings(
    cards: Sequence[Card], wheel_second: bool = True
) -> list[tuple[int, int, tuple[Card, Card]]]:
    """Every legal setting whose high hand is a straight, flush or straight flush:
    ``(low key, high key, the two low cards)`` (the joker as ace or filler)."""
    out = []
    for i, j in combinations(range(len(cards)), 2):
        back = [c for k, c in enumerate(cards) if k != i and k != j]
        hk = high_key(back, JokerRule.ACE_OR_FILLER, wheel_second)
        if category_of_key(hk) in STRAIGHTS:
            lk = low_key((cards[i], cards[j]), JokerRule.ACE_OR_FILLER)
            if lk < hk:
                out.append((lk, hk, (cards[i], cards[j])))
    return out


def house_way_rule(
    cards: Sequence[Card],
    joker: JokerRule = JokerRule.ACE_OR_FILLER,
    wheel_second: bool = True,
) -> tuple[Setting, str]:
    """The house-way setting of seven cards and the id of the rule that chose it."""
    if len(cards) != 7 or len(set(cards)) != 7:
        raise ValueError("the house way sets seven distinct cards")
    setting, rule = _choose(_order(cards), wheel_second)  # ties resolve the same for any order
    if joker is JokerRule.WILD:
        lk, hk = low_key(setting.low, joker), high_key(setting.high, joker, wheel_second)
        if lk >= hk:
            return best_legal(cards, joker, wheel_second), "W"
    return setting, rule


def best_legal(cards: Sequence[Card], joker: JokerRule, wheel_second: bool = True) -> Setting:
    """The legal setting with the best high hand, then the best low hand."""
    best: tuple[int, int] | None = None
    pick: Setting | None = None
    for front in combinations(_order(cards), 2):
        s = _set(cards, front)
        lk, hk = low_key(s.low, joker), high_key(s.high, joker, wheel_second)
        if lk < hk and (best is None or (hk, lk) > best):
            best, pick = (hk, lk), s
    assert pick is not None  # the highest card behind and the next two in front is legal
    return pick


def _choose(cards: tuple[Card, ...], wheel_second: bool) -> tuple[Setting, str]:
    groups: dict[int, list[Card]] = {}
    for c in _order(cards):
        groups.setdefault(_eff(c), []).append(c)
    by_size: dict[int, list[int]] = {}
    for r in sorted(groups, reverse=True):
        by_size.setdefault(len(groups[r]), []).append(r)
    fives, quads = by_size.get(5, []), by_size.get(4, [])
    trips, pairs = by_size.get(3, []), by_size.get(2, [])
    singles = [groups[r][0] for r in by_size.get(1, [])]  # highest first

    def front(*ranks_or_cards: int | Card, n: int = 2) -> list[Card]:
        picked: list[Card] = []
        for x in ranks_or_cards:
            picked += groups[x][: n - len(picked)] if isinstance(x, int) else [x]
            if len(picked) >= n:
                break
        return picked[:n]

    # 1. five aces
    if fives:
        if KING in pairs:
            return _set(cards, groups[KING]), "1a"
        return _set(cards, front(ACE)), "1b"
    # 2. four of a kind
    if quads:
        q = quads[0]
        if trips:
            return _set(cards, front(trips[0])), "2a"
        if pairs:
            return _set(cards, groups[pairs[0]]), "2b"
        if q <= 6:
            return _set(cards, singles[:2]), "2c"
        if q <= 10 and _eff(singles[0]) == ACE:
            return _set(cards, singles[:2]), "2d"
        return _set(cards, front(q)), "2e"
    # 3. full houses
    if len(trips) >= 2:
        return _set(cards, front(trips[0])), "3a"
    if trips and len(pairs) >= 2:
        return _set(cards, groups[pairs[0]]), "3b"
    if trips and pairs:
        if pairs[0] == 2 and [_eff(c) for c in singles] == [ACE, KING]:
            return _set(cards, singles), "3c"
        return _set(cards, groups[pairs[0]]), "3d"
    # 4. straights and flushes
    if may_straight_or_flush(cards):
        options = straight_settings(cards, wheel_second)
        if options:
            return _straight_rule(cards, options, groups, trips, pairs, singles, wheel_second)
    return _pairs_rule(cards, groups, trips, pairs, singles)


def _straight_rule(
    cards: tuple[Card, ...],
    options: list[tuple[int, int, tuple[Card, Card]]],
    groups: dict[int, list[Card]],
    trips: list[int],
    pairs: list[int],
    singles: list[Card],
    wheel_second: bool,
) -> tuple[Setting, str]:
    if len(pairs) >= 2:
        setting, rule = _pairs_rule(cards, groups, trips, pairs, singles)
        return setting, "4a" if rule.startswith("6") else rule
    if trips or pairs:
        r = (trips or pairs)[0]
        keep = [o for o in options if all(_eff(c) == r for c in o[2])]
        if keep:
            return _set(cards, max(keep, key=lambda o: (o[1], o[0]))[2]), "4b" if trips else "4c"
        if pairs and r >= 10 and singles and _eff(singles[0]) == ACE:
            return _set(cards, singles[:2]), "4d"
    return _set(cards, max(options, key=lambda o: (o[0], o[1]))[2]), "4e"


def _pairs_rule(
    cards: tuple[Card, ...],
    groups: dict[int, list[Card]],
    trips: list[int],
    pairs: list[int],
    singles: list[Card],
) -> tuple[Setting, str]:
    if len(pairs) >= 3:
        return _set(cards, groups[pairs[0]]), "5"
    if len(pairs) == 2:
        hi, lo = pairs
        held = _eff(singles[0]) if singles else 0
        split_rule = two_pair_split(hi, lo, held)
        if split_rule is not None:
            return _set(cards, groups[lo]), split_rule
        return _set(cards, singles[:2]), "6d"
    if trips:
        if trips[0] == ACE:
            return _set(cards, [groups[ACE][0], singles[0]]), "7a"
        return _set(cards, singles[:2]), "7b"
    if pairs:
        return _set(cards, singles[:2]), "8"
    return _set(cards, singles[1:3]), "9"


def _size(rank: int) -> str:
    return "low" if rank <= 6 else "middle" if rank <= 10 else "high"


@functools.cache
def two_pair_split(hi: int, lo: int, best_single: int) -> str | None:
    """The two-pair rule: the id of the rule that splits pairs ``hi`` > ``lo``, or None
    to keep them together (``best_single`` is the highest unpaired card, joker = ace).

    >>> two_pair_split(14, 2, 13), two_pair_split(9, 8, 14), two_pair_split(9, 8, 13)
    ('6a', None, '6b')
    >>> two_pair_split(5, 3, 13), two_pair_split(5, 3, 12)
    (None, '6c')
    """
    sizes = {_size(hi), _size(lo)}
    if hi == ACE or sizes in ({"high"}, {"high", "middle"}):
        return "6a"
    if sizes in ({"middle"}, {"low", "high"}):
        return None if best_single == ACE else "6b"
    return None if best_single >= KING else "6c"


def house_way_keys(
    cards: Sequence[Card], joker: JokerRule, wheel_second: bool = True
) -> tuple[int, int]:
    """``(low key, high key)`` of the house-way setting, memoised by rank pattern
    when no straight or flush is possible (then suits cannot matter)."""
    if may_straight_or_flush(cards):
        s = house_way(cards, joker, wheel_second)
        return low_key(s.low, joker), high_key(s.high, joker, wheel_second)
    real = tuple(sorted(int(c.rank) for c in cards if not c.is_joker))
    return pattern_keys(real, len(real) < 7, joker, wheel_second)


#: one card of each rank in four suits, for building a flush-free stand-in hand
_STAND_IN = {r: [Card.from_index((r - 2) * 4 + s) for s in (0, 1, 2, 3)] for r in range(2, 15)}


@functools.cache
def pattern_keys(
    real: tuple[int, ...], has_joker: bool, joker: JokerRule, wheel_second: bool
) -> tuple[int, int]:
    per_suit = [0, 0, 0, 0]
    cards: list[Card] = []
    for r in real:
        # the least-used suit this rank has not taken: at most two of seven per suit
        taken = {c.suit for c in cards if int(c.rank) == r}
        suit = min((s for s in range(4) if s not in taken), key=lambda s: per_suit[s])
        per_suit[suit] += 1
        cards.append(_STAND_IN[r][suit])
    if has_joker:
        cards.append(JOKER)
    s = house_way(cards, joker, wheel_second)
    return low_key(s.low, joker), high_key(s.high, joker, wheel_second)

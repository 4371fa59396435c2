"""A pai gow setting (two-card low hand, five-card high hand), its keys and its legality.

Keys are the sparse keys of :mod:`games.poker.keys` (larger is better, equal is
a copy), computed with the table's joker rule: with the ace-or-filler joker
(pages 000, 001, 003) the joker in the low hand is an ace; with the fully wild
joker (page 004) it pairs the other low card. A setting is legal when the high
hand's key is above the low hand's (the pages: the five-card hand must rank
higher than the two-card hand).

>>> from games.core.cards import parse_cards
>>> s = parse_setting("As Kd|Qh Qc 7s 7d 2c", parse_cards("Qh As Qc 7s Kd 7d 2c"))
>>> str(s)
'As Kd | Qh Qc 7s 7d 2c'
>>> print(foul_reason(parse_setting("Qh Qc|As Kd 7s 7d 2c"), JokerRule.ACE_OR_FILLER))
the low hand (pair of queens) ranks above the high hand (pair of sevens)
>>> foul_reason(parse_setting("7s 7d|As Kd Qh Qc 2c"), JokerRule.ACE_OR_FILLER) is None
True
>>> print(foul_reason(parse_setting("Qh Qc|As Kd 7s 6d 2c"), JokerRule.ACE_OR_FILLER))
the low hand (pair of queens) ranks above the high hand (ace high)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.core.cards import Card, parse_cards
from games.core.errors import FoulHand
from games.poker.category import Category
from games.poker.keys import ACE, category_of_key, key2
from games.poker.pai_gow_joker import JokerRule, class_key

RANK_NAMES = {
    2: "twos",
    3: "threes",
    4: "fours",
    5: "fives",
    6: "sixes",
    7: "sevens",
    8: "eights",
    9: "nines",
    10: "tens",
    11: "jacks",
    12: "queens",
    13: "kings",
    14: "aces",
}
HIGH_NAMES = {r: n[:-1] if not n.endswith("xes") else n[:-2] for r, n in RANK_NAMES.items()}
HIGH_NAMES[6] = "six"


@dataclass(frozen=True, slots=True)
class Setting:
    """Seven cards set as a two-card low hand and a five-card high hand."""

    low: tuple[Card, ...]
    high: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(map(str, self.low)) + " | " + " ".join(map(str, self.high))

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.low + self.high


def high_key(cards: Sequence[Card], joker: JokerRule, wheel_second: bool = True) -> int:
    """The key of a five-card high hand (no validation: callers hold valid hands)."""
    real = [c for c in cards if not c.is_joker]
    ranks = tuple(sorted(int(c.rank) for c in real))
    suited = len({c.suit for c in real}) == 1
    return class_key(ranks, suited, joker, wheel_second)


def low_key(cards: Sequence[Card], joker: JokerRule) -> int:
    """The key of a two-card low hand under the table's joker rule."""
    a, b = cards
    if a.is_joker or b.is_joker:
        other = b if a.is_joker else a
        r = int(other.rank)
        return key2([r, r] if joker is JokerRule.WILD else [ACE, r])
    return key2([int(a.rank), int(b.rank)])


def describe_key(key: int) -> str:
    """A pai gow key as people say it: ``'pair of queens'``, ``'flush'``."""
    cat = category_of_key(key)
    top = (key >> 20) & 31
    if cat is Category.PAIR:
        return f"pair of {RANK_NAMES.get(top, '?')}"
    if cat is Category.HIGH_CARD:
        return f"{HIGH_NAMES.get(top, '?')} high"
    if cat is Category.FIVE_OF_A_KIND and top == ACE:
        return "five aces"
    return cat.label


def parse_setting(arg: str, dealt: Sequence[Card] | None = None) -> Setting:
    """Parse ``"<2 low cards> | <5 high cards>"``; with ``dealt``, the cards must be them.

    Raises :class:`~games.core.errors.FoulHand` (an IllegalAction) with the reason.
    """
    if arg.count("|") != 1:
        raise FoulHand(f"a setting is '<2 low cards> | <5 high cards>', got {arg!r}")
    low_s, high_s = arg.split("|")
    try:
        low, high = parse_cards(low_s), parse_cards(high_s)
    except ValueError as exc:
        raise FoulHand(f"bad setting {arg!r}: {exc}") from None
    if len(low) != 2 or len(high) != 5:
        raise FoulHand(
            f"the low hand takes 2 cards and the high hand 5, got {len(low)} and {len(high)}"
        )
    if dealt is not None and Counter(low + high) != Counter(dealt):
        raise FoulHand("a setting must use exactly the seven cards dealt to the seat")
    if len(set(low + high)) != 7:
        raise FoulHand("a card appears twice in the setting")
    return Setting(low=low, high=high)


def foul_reason(setting: Setting, joker: JokerRule, wheel_second: bool = True) -> str | None:
    """Why the setting is foul (low hand not below the high hand), or None if legal."""
    lo = low_key(setting.low, joker)
    hi = high_key(setting.high, joker, wheel_second)
    if lo < hi:
        return None
    return f"the low hand ({describe_key(lo)}) ranks above the high hand ({describe_key(hi)})"

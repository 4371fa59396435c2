"""A video poker pay table as the exact analysis reads it: lines, pays per coins bet.

The machine's TOML (``paytables/*.toml``, read by the rules module) becomes a
:class:`PayTable`; the analyser (:mod:`games.video_poker.analyser`) and the hold advice
(:mod:`games.video_poker.holds`) take nothing else. A line's ``pays[n - 1]`` is what the
machine pays, in coins, for that hand with ``n`` coins bet ("for one": the bet is not
returned on top), so Jacks or Better's royal reads ``(250, 500, 750, 1000, 4000)``.

>>> JACKS_OR_BETTER_9_6.pays(5)
(4000, 250, 125, 45, 30, 20, 15, 10, 5)
>>> JACKS_OR_BETTER_9_6.with_pays({"flush": 5}).pays(1)[4]
5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from games.video_poker.classes import LINE_CLASSES, Wild, line_key


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line: the hand key (:data:`games.video_poker.classes.LINE_CLASSES`) and its pays."""

    hand: str
    pays: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PayTable:
    """Lines best first; a hand is paid by the first line that covers it.

    ``wild`` is the deck rule (``"none"``: 52 cards, nothing wild; ``"deuces"``: the four
    twos wild). Every line has one pay per coin count, 1..``max_coins``.
    """

    name: str
    wild: Wild
    lines: tuple[PayLine, ...]

    def __post_init__(self) -> None:
        known = LINE_CLASSES.get(self.wild)
        if known is None:
            raise ValueError(f"pay table {self.name!r}: unknown wild rule {self.wild!r}")
        if not self.lines:
            raise ValueError(f"pay table {self.name!r}: no lines")
        seen: set[str] = set()
        width = len(self.lines[0].pays)
        for line in self.lines:
            if line_key(line.hand) not in known:
                raise ValueError(f"pay table {self.name!r}: unknown line {line.hand!r}")
            if line_key(line.hand) in seen:
                raise ValueError(f"pay table {self.name!r}: line {line.hand!r} twice")
            seen.add(line_key(line.hand))
            if len(line.pays) != width or width == 0:
                raise ValueError(f"pay table {self.name!r}: line {line.hand!r} needs {width} pays")
            if any(type(p) is not int or p < 0 for p in line.pays):
                raise ValueError(
                    f"pay table {self.name!r}: line {line.hand!r} pays must be ints >= 0"
                )

    @property
    def max_coins(self) -> int:
        """The most coins a hand may bet on this table."""
        return len(self.lines[0].pays)

    @property
    def keys(self) -> tuple[str, ...]:
        """The line keys, in table order (what the subset counts are grouped by)."""
        return tuple(line.hand for line in self.lines)

    def pays(self, coins: int) -> tuple[int, ...]:
        """Each line's pay, in coins, with ``coins`` bet."""
        if not 1 <= coins <= self.max_coins:
            raise ValueError(
                f"pay table {self.name!r}: bet 1 to {self.max_coins} coins, not {coins}"
            )
        return tuple(line.pays[coins - 1] for line in self.lines)

    def with_pays(self, raised: Mapping[str, int | tuple[int, ...]]) -> PayTable:
        """This table with some lines' pays replaced (a Mystery Bonus reel stop).

        An ``int`` is a pay per coin (multiplied by the coins bet); a tuple gives each
        coin count's pay.
        """
        unknown = set(raised) - set(self.keys)
        if unknown:
            raise ValueError(f"pay table {self.name!r}: no line {sorted(unknown)}")
        lines = []
        for line in self.lines:
            new = raised.get(line.hand)
            if new is None:
                lines.append(line)
            elif isinstance(new, int):
                lines.append(
                    replace(line, pays=tuple(new * n for n in range(1, self.max_coins + 1)))
                )
            else:
                lines.append(replace(line, pays=tuple(new)))
        return replace(self, lines=tuple(lines))


def per_coin(
    name: str, wild: Wild, rows: Mapping[str, int], coins: int = 5, top: int = 0
) -> PayTable:
    """A table paying ``rows[hand]`` per coin; ``top`` (if set) is the first line's max-coin pay."""
    lines = []
    for i, (hand, pay) in enumerate(rows.items()):
        pays = [pay * n for n in range(1, coins + 1)]
        if i == 0 and top:
            pays[-1] = top
        lines.append(PayLine(hand, tuple(pays)))
    return PayTable(name, wild, tuple(lines))


_JOB = {
    "royal_flush": 250,
    "straight_flush": 50,
    "four_of_a_kind": 25,
    "full_house": 9,
    "flush": 6,
    "straight": 4,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "jacks_or_better": 1,
}
#: Jacks or Better 9/6 (shared/rules/README.md, "Video poker base table")
JACKS_OR_BETTER_9_6 = per_coin("Jacks or Better 9/6", "none", _JOB, top=4000)
#: Jacks or Better 8/5 (Wizard of Odds' published check, 97.2984%)
JACKS_OR_BETTER_8_5 = per_coin(
    "Jacks or Better 8/5", "none", {**_JOB, "full_house": 8, "flush": 5}, top=4000
)
#: Full Pay Deuces Wild (Wizard of Odds' published check, 100.7620%)
DEUCES_WILD_FULL_PAY = per_coin(
    "Deuces Wild full pay",
    "deuces",
    {
        "natural_royal_flush": 800,
        "four_deuces": 200,
        "wild_royal_flush": 25,
        "five_of_a_kind": 15,
        "straight_flush": 9,
        "four_of_a_kind": 5,
        "full_house": 3,
        "flush": 2,
        "straight": 2,
        "three_of_a_kind": 1,
    },
)

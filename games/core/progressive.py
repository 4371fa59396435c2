"""Progressive jackpot side bets on a dealt hand: the table as data, its exact return.

Caribbean Stud (page 001), the Pinnacle Stud and Oasis jackpots (page 000) and the
Let'Em Ride progressive (page 001, amounts configurable: README gap 7) all pay a
fixed bet on the category of a five-card hand; the Three Card Poker progressive
(page 004) pays on the player's three cards, with the spade mini royal apart. Each
pays a fixed amount for the lower hands, a share of the meter for the top ones. A
table is keyed by its own kind of hand (:class:`JackpotTable` is generic over it:
:class:`~games.poker.category.Category` for five cards, the family's own enum for
three) and knows how many of each there are among all deals (``counts``). The
engine states each award as :class:`~games.core.records.JackpotWin` (``fixed``
cents or ``share_bp``) and each bet's contribution as
:class:`~games.core.records.JackpotContribution`; the runtime's ledger holds the meter.

The return is exact: over all C(52, 5) = 2,598,960 five-card hands (the counts
below, pinned against the shared evaluator's exhaustive count in the tests), or
the C(52, 3) = 22,100 three-card hands, the expected award is
``(sum(count * fixed) + meter * sum(count * share) / 10,000) / hands``, linear in
the meter.

>>> from types import MappingProxyType as M
>>> t = JackpotTable(meter="m", stake=100, contribution=75, reset=2_500_000,
...     fixed=M({Category.FLUSH: 5000}), share_bp=M({Category.ROYAL_FLUSH: 10_000}),
...     counts=FIVE_CARD_COUNTS)
>>> t.award(Category.FLUSH), t.award(Category.PAIR)
((5000, 0), None)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from games.core.errors import PaytableError
from games.core.figures import HouseEdge
from games.core.money import format_cents
from games.core.tomlread import TomlTable
from games.poker.category import Category

#: the number of five-card hands of each category among C(52, 5) (standard counts)
FIVE_CARD_COUNTS: Mapping[Category, int] = MappingProxyType(
    {
        Category.HIGH_CARD: 1_302_540,
        Category.PAIR: 1_098_240,
        Category.TWO_PAIR: 123_552,
        Category.THREE_OF_A_KIND: 54_912,
        Category.STRAIGHT: 10_200,
        Category.FLUSH: 5_108,
        Category.FULL_HOUSE: 3_744,
        Category.FOUR_OF_A_KIND: 624,
        Category.STRAIGHT_FLUSH: 36,
        Category.ROYAL_FLUSH: 4,
    }
)
FIVE_CARD_HANDS = 2_598_960


class Hand(Hashable, Protocol):
    """What a jackpot table is keyed by: a kind of hand with a name for the notes."""

    @property
    def label(self) -> str: ...

    @property
    def name(self) -> str: ...


H = TypeVar("H", bound=Hand, default=Category)


@dataclass(frozen=True, slots=True, kw_only=True)
class JackpotTable(Generic[H]):
    """A progressive side bet: its meter, stake, contribution and awards.

    ``counts`` is how many hands of each kind there are among all deals (every kind
    the bet can be dealt, paying or not: they sum to the number of hands).
    """

    meter: str  # ledger meter name, shared by tables naming the same meter
    stake: int  # the bet's one allowed amount, cents
    contribution: int  # cents of every bet that go to the meter
    reset: int  # the meter's seed value after a top award, cents
    fixed: Mapping[H, int]  # hand -> fixed award, cents
    share_bp: Mapping[H, int]  # hand -> share of the meter, basis points
    counts: Mapping[H, int]  # hand -> how many of all deals are that hand
    always_contribute: bool = False  # the table places the bet for every ante by default

    @property
    def hands(self) -> int:
        """How many deals the bet is scored over (2,598,960 five-card hands, say)."""
        return sum(self.counts.values())

    def award(self, cat: H) -> tuple[int, int] | None:
        """``(fixed cents, share in basis points)`` for a hand, or None if it pays nothing."""
        fixed, share = self.fixed.get(cat, 0), self.share_bp.get(cat, 0)
        return (fixed, share) if fixed or share else None

    def expected_award(self, meter: int) -> Fraction:
        """Expected award in cents per bet when the meter holds ``meter`` cents."""
        total = Fraction(0)
        for cat, n in self.counts.items():
            award = self.award(cat)
            if award is not None:
                total += n * (award[0] + Fraction(meter * award[1], 10_000))
        return total / self.hands

    def return_at(self, meter: int) -> Fraction:
        """Expected net per unit staked (negative: the house's edge) at a meter level."""
        return (self.expected_award(meter) - self.stake) / self.stake

    def awards_per_stake(self: JackpotTable[Category], meter: int) -> list[float]:
        """The award per unit of stake by category value (0..10) at ``meter``, for the
        simulators of five-card tables."""
        out = [0.0] * len(Category)
        for cat in Category:
            a = self.award(cat)
            if a:
                out[cat] = (a[0] + meter * a[1] / 10_000) / self.stake
        return out

    def edge_formula(self) -> str:
        """The edge per unit staked as a function of the meter, in words and exact cents:
        ``"1 - (850,000 + meter) / 2,210,000 (meter in cents)"`` for a bet of 100 cents."""
        fixed = sum(n * self.fixed.get(c, 0) for c, n in self.counts.items())
        share = sum(n * self.share_bp.get(c, 0) for c, n in self.counts.items())
        denominator = self.hands * self.stake
        if not share:
            return f"1 - {fixed:,} / {denominator:,}, whatever the meter"
        slope = Fraction(share, 10_000)
        per = "meter" if slope == 1 else f"{slope} x meter"
        return f"1 - ({fixed:,} + {per}) / {denominator:,} (meter in cents)"

    def house_edge(self) -> HouseEdge:
        """The exact edge at the meter's reset value (the figure a family publishes), and
        as a function of the meter in the note."""
        even = self.break_even_meter()
        at = f"; break-even meter {format_cents(int(even))}" if even is not None else ""
        return HouseEdge(
            edge=-self.return_at(self.reset),
            exact=True,
            method=f"enumeration over all {self.hands:,} hands of the jackpot's cards",
            note=f"at the reset meter ({format_cents(self.reset)}); edge = "
            f"{self.edge_formula()}{at}; JackpotTable.return_at for any meter",
        )

    def break_even_meter(self) -> Fraction | None:
        """The meter (cents) at which the bet returns exactly its stake, if the meter matters."""
        slope = self.expected_award(1) - self.expected_award(0)
        if slope == 0:
            return None
        return (self.stake - self.expected_award(0)) / slope


def parse_jackpot(data: object, where: str) -> JackpotTable[Category]:
    """Build a five-card :class:`JackpotTable` from its ``[jackpot]`` TOML table."""
    return parse_jackpot_of(data, where, category_named, FIVE_CARD_COUNTS)


def parse_jackpot_of(
    data: object, where: str, named: Callable[[str, str], H], counts: Mapping[H, int]
) -> JackpotTable[H]:
    """Build a :class:`JackpotTable` keyed by the hands ``named`` reads (a lower-case TOML
    name, the place for the error -> the hand), ``counts`` of each among all deals."""
    if not isinstance(data, dict):
        raise PaytableError(f"{where} must be a table")
    t = TomlTable(
        data,
        where,
        {"meter", "stake", "contribution", "reset", "always_contribute", "fixed", "share_bp"},
    )
    stake, contribution, reset = (
        t.get("stake", int),
        t.get("contribution", int),
        t.get("reset", int),
    )
    if stake <= 0 or not 0 <= contribution <= stake or reset < 0:
        raise PaytableError(f"{where}: need stake > 0, 0 <= contribution <= stake, reset >= 0")
    fixed = _amounts(t.get("fixed", dict), f"{where}.fixed", 10**9, named)
    share = _amounts(
        t.get("share_bp", dict, default={}, required=False), f"{where}.share_bp", 10_000, named
    )
    if not fixed and not share:
        raise PaytableError(f"{where}: the jackpot pays nothing")
    meter = t.get("meter", str)
    if not meter:
        raise PaytableError(f"{where}: meter needs a name")
    return JackpotTable(
        meter=meter,
        stake=stake,
        contribution=contribution,
        reset=reset,
        fixed=MappingProxyType(fixed),
        share_bp=MappingProxyType(share),
        counts=counts,
        always_contribute=t.get("always_contribute", bool, default=False, required=False),
    )


def _amounts(data: Any, where: str, most: int, named: Callable[[str, str], H]) -> dict[H, int]:
    if not isinstance(data, dict):
        raise PaytableError(f"{where} must be a table")
    out: dict[H, int] = {}
    for name, value in data.items():
        cat = named(name, where)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= most:
            raise PaytableError(f"{where} {name}: must be a whole number in 1..{most}")
        out[cat] = value
    return out


def category_named(name: str, where: str) -> Category:
    """A :class:`Category` from its lower-case TOML name; PaytableError naming the key."""
    try:
        cat = Category[name.upper()]
    except KeyError:
        known = ", ".join(m.name.lower() for m in Category if m is not Category.FIVE_OF_A_KIND)
        raise PaytableError(f"{where}: unknown hand {name!r} (hands: {known})") from None
    if cat is Category.FIVE_OF_A_KIND:
        raise PaytableError(f"{where}: no five of a kind without a joker")
    return cat


def describe_award(award: tuple[int, int]) -> str:
    """``(fixed cents, share in basis points)`` in words: ``"$50.00 + 10% of the meter"``.

    >>> describe_award((5000, 1000)), describe_award((0, 250))
    ('$50.00 + 10% of the meter', '2.5% of the meter')
    """
    fixed, share = award
    parts = [format_cents(fixed)] if fixed else []
    if share:
        whole, frac = divmod(share, 100)
        pct = f"{whole}.{frac:02d}".rstrip("0").rstrip(".")
        parts.append(f"{pct}% of the meter")
    return " + ".join(parts)

"""Money: integer cents end to end, and the one place amounts are divided.

No float ever holds money. A pay of ``num:den`` on a stake is computed in
integers, and every rounding rule is named (:class:`Rounding`).

>>> pay(Cents(1000), Ratio(3, 2))
1500
>>> pay(Cents(1050), Ratio(19, 20), Rounding.DOWN)
997
>>> pay(Cents(1050), Ratio(19, 20), Rounding.NEAREST)
998
>>> commission(Cents(2000), 500, Rounding.UP_TO_QUARTER)
100
>>> commission(Cents(1010), 500, Rounding.UP_TO_QUARTER)
75
>>> commission(Cents(600), 500, Rounding.UP_TO_QUARTER)  # 30 cents, up to the next quarter
50
>>> split(Cents(1000), 3)
(333, 1)
>>> format_cents(Cents(-123456))
'-$1,234.56'
>>> parse_amount("12.5")
1250
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import NewType

Cents = NewType("Cents", int)


class Rounding(StrEnum):
    """How a fractional cent is resolved. Each variant names the rule it uses."""

    DOWN = "down"  # toward zero: the house keeps the fraction (common for pays)
    UP = "up"  # away from zero
    NEAREST = "nearest"  # half a cent or more rounds up ("rounded to the nearest cent")
    UP_TO_QUARTER = "up-to-quarter"  # up to the next 25 cents (online pai gow commission)


@dataclass(frozen=True, slots=True)
class Ratio:
    """A pay of ``num`` for every ``den`` wagered (``8:1`` is ``Ratio(8, 1)``)."""

    num: int
    den: int = 1

    def __post_init__(self) -> None:
        if self.den <= 0 or self.num < 0:
            raise ValueError(f"invalid pay ratio {self.num}:{self.den}")

    def __str__(self) -> str:
        return f"{self.num}:{self.den}" if self.den != 1 else f"{self.num}:1"


def _divide(numerator: int, denominator: int, rounding: Rounding) -> int:
    if denominator <= 0:
        raise ValueError("denominator must be positive")
    if numerator < 0:
        return -_divide(-numerator, denominator, rounding)
    if rounding is Rounding.UP_TO_QUARTER:
        # the exact value rounded up to a multiple of 25 cents, even when it is whole cents
        return -(-numerator // (denominator * 25)) * 25
    q, r = divmod(numerator, denominator)
    if rounding is Rounding.DOWN or r == 0:
        return q
    if rounding is Rounding.UP:
        return q + 1
    return q + (1 if 2 * r >= denominator else 0)  # NEAREST


def pay(stake: Cents, ratio: Ratio, rounding: Rounding = Rounding.DOWN) -> Cents:
    """The win (not including the returned stake) on ``stake`` at ``ratio``."""
    if stake < 0:
        raise ValueError("stake must not be negative")
    return Cents(_divide(stake * ratio.num, ratio.den, rounding))


def commission(win: Cents, basis_points: int, rounding: Rounding = Rounding.DOWN) -> Cents:
    """Commission of ``basis_points`` (500 = 5%) on a win, rounded as named."""
    if win < 0 or basis_points < 0:
        raise ValueError("win and rate must not be negative")
    return Cents(_divide(win * basis_points, 10_000, rounding))


def split(amount: Cents, parts: int) -> tuple[Cents, Cents]:
    """Divide ``amount`` into ``parts`` equal shares: ``(share, remainder)``.

    The caller states what happens to the remainder (it is never dropped silently).
    """
    if parts <= 0:
        raise ValueError("parts must be positive")
    share, rem = divmod(amount, parts)
    return Cents(share), Cents(rem)


def format_cents(amount: int) -> str:
    """``123456`` -> ``'$1,234.56'`` (for people, never for storage)."""
    sign = "-" if amount < 0 else ""
    dollars, cents_part = divmod(abs(amount), 100)
    return f"{sign}${dollars:,}.{cents_part:02d}"


def parse_amount(text: str) -> Cents:
    """Parse a dollar amount (``"12.50"``) into cents; refuse fractions of a cent."""
    try:
        value = Decimal(text.strip().replace(",", "").lstrip("$"))
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    scaled = value * 100
    if scaled != scaled.to_integral_value() or not value.is_finite():
        raise ValueError(f"amount has fractions of a cent: {text!r}")
    return Cents(int(scaled))

"""The roulette layout: pockets, colours, and every legal bet with the numbers it covers.

Inside bets are named by their kind and numbers in layout order (0, 00, 1..36):
``straight-17``, ``split-17-20``, ``street-13-14-15``, ``trio-0-1-2``,
``corner-1-2-4-5``, ``line-1-2-3-4-5-6``, ``first-four`` (0-1-2-3, single zero),
``top-line`` (0-00-1-2-3, double zero). Outside: ``dozen-1``..``dozen-3``,
``column-1``..``column-3``, ``red``, ``black``, ``odd``, ``even``, ``low``, ``high``.
Numbers may be given in any order; :func:`canonical` puts them in layout order.

>>> layout = Layout(("0",))
>>> layout.canonical("split-20-17")
'split-17-20'
>>> sorted(layout.covers("first-four"))
['0', '1', '2', '3']
>>> len(layout.bets)
157
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from games.core.errors import BetRefused

RED = frozenset(str(n) for n in (1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36))
EVEN_MONEY = ("red", "black", "odd", "even", "low", "high")


def _order(pocket: str) -> int:
    return -2 if pocket == "0" else -1 if pocket == "00" else int(pocket)


def _name(kind: str, numbers: tuple[int | str, ...]) -> str:
    cells = sorted((str(n) for n in numbers), key=_order)
    return f"{kind}-{'-'.join(cells)}"


class Layout:
    """The bets of one wheel (``zeros`` is ``("0",)`` or ``("0", "00")``)."""

    def __init__(self, zeros: tuple[str, ...]) -> None:
        if zeros not in (("0",), ("0", "00")):
            raise ValueError(f"unknown wheel zeros {zeros!r}")
        self.zeros = zeros
        self.pockets: tuple[str, ...] = (*zeros, *(str(n) for n in range(1, 37)))
        bets: dict[str, frozenset[str]] = {}

        def add(kind: str, numbers: tuple[int | str, ...]) -> None:
            bets[_name(kind, numbers)] = frozenset(str(n) for n in numbers)

        for p in self.pockets:
            bets[f"straight-{p}"] = frozenset({p})
        for n in range(1, 37):
            if n % 3:
                add("split", (n, n + 1))
            if n <= 33:
                add("split", (n, n + 3))
            if n % 3 and n <= 32:
                add("corner", (n, n + 1, n + 3, n + 4))
        for k in range(12):
            add("street", (3 * k + 1, 3 * k + 2, 3 * k + 3))
        for k in range(11):
            add("line", tuple(range(3 * k + 1, 3 * k + 7)))
        if zeros == ("0",):
            single_zero_splits: tuple[tuple[int | str, ...], ...] = (("0", 1), ("0", 2), ("0", 3))
            for pair in single_zero_splits:
                add("split", pair)
            add("trio", ("0", 1, 2))
            add("trio", ("0", 2, 3))
            bets["first-four"] = frozenset({"0", "1", "2", "3"})
        else:
            double_zero_splits: tuple[tuple[int | str, ...], ...] = (
                ("0", "00"), ("0", 1), ("0", 2), ("00", 2), ("00", 3),
            )  # fmt: skip
            for pair in double_zero_splits:
                add("split", pair)
            add("trio", ("0", 1, 2))
            add("trio", ("0", "00", 2))
            add("trio", ("00", 2, 3))
            bets["top-line"] = frozenset({"0", "00", "1", "2", "3"})
        numbers = range(1, 37)
        for i in range(3):
            bets[f"dozen-{i + 1}"] = frozenset(str(n) for n in range(12 * i + 1, 12 * i + 13))
            bets[f"column-{i + 1}"] = frozenset(str(n) for n in numbers if n % 3 == (i + 1) % 3)
        bets["red"] = RED
        bets["black"] = frozenset(str(n) for n in numbers) - RED
        bets["odd"] = frozenset(str(n) for n in numbers if n % 2)
        bets["even"] = frozenset(str(n) for n in numbers if not n % 2)
        bets["low"] = frozenset(str(n) for n in range(1, 19))
        bets["high"] = frozenset(str(n) for n in range(19, 37))
        self.bets: Mapping[str, frozenset[str]] = MappingProxyType(bets)

    def canonical(self, name: str) -> str:
        """The layout's name for bet ``name``; :class:`BetRefused` if there is no such bet."""
        if name in self.bets:
            return name
        kind, _, rest = name.partition("-")
        cells = tuple(rest.split("-")) if rest else ()
        if cells and all(c in self.pockets for c in cells) and len(set(cells)) == len(cells):
            alt = _name(kind, cells)
            if alt in self.bets:
                return alt
        raise BetRefused(f"no such roulette bet on this wheel: {name!r}")

    def covers(self, name: str) -> frozenset[str]:
        return self.bets[self.canonical(name)]

    @staticmethod
    def kind(name: str) -> str:
        """The pay-table kind of a canonical bet name."""
        if name in ("first-four", "top-line", *EVEN_MONEY):
            return name
        return name.partition("-")[0]


@cache
def layout_for(zeros: tuple[str, ...]) -> Layout:
    """The (read-only, shared) layout of a wheel: built once per kind of wheel."""
    return Layout(zeros)

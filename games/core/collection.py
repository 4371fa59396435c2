"""The California collection: a fixed fee per seat per hand, charged at the deal.

Page 004 opens each California game with "paying the appropriate collection" (UTH, EZ
Baccarat, Fortune Pai Gow, Three Card Poker, 21st Century Blackjack, the player-banked
baccarat). The rules README reads it as a card room does: a fixed fee per hand from each
seat that plays, win or lose, in place of any commission on wins. How much is the
table's data (a ``[collection]`` table in the variant's TOML, read by :func:`read`); the
default there, the project's own and stated as such, is $1.00 per seat per hand when the
seat's wagers total $100 or less, $2.00 up to $300 and $3.00 above.

Every California engine calls :func:`charges` once, when its hand is dealt, with the
wagers then on the layout (after any the player/dealer's bank did not cover went back),
and emits the :class:`~games.core.records.CollectionCharged` events it returns; the
runtime posts each from the seat's wallet to the ledger's ``collection`` account. The
table page shows :func:`due` (the same schedule, the wagers now placed) before the deal.

>>> s = CollectionSchedule(tiers=((10_000, 100), (30_000, 200)), above=300)
>>> [s.fee(w) for w in (0, 500, 10_000, 10_001, 30_000, 30_001)]
[0, 100, 100, 200, 200, 300]
>>> charges(s, {0: {"ante": 500, "blind": 500}, 1: {}, 2: {"main": 40_000}})
[CollectionCharged(seat=0, amount=100), CollectionCharged(seat=2, amount=300)]
>>> due(s, {0: {"ante": 500}, 1: {}})
{'0': 100}
>>> due(None, {0: {"ante": 500}})
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.core.errors import PaytableError
from games.core.records import CollectionCharged


@dataclass(frozen=True, slots=True)
class CollectionSchedule:
    """Fee per seat per hand by the seat's total wagers (cents).

    ``tiers`` are ``(up_to, fee)`` pairs in rising order: the first ``up_to`` at or
    above the wagers names the fee; wagers above every tier pay ``above``. ``source``
    says where the figures come from (the variant's notes repeat it).
    """

    tiers: tuple[tuple[int, int], ...]
    above: int
    source: str = ""

    def fee(self, wagers: int) -> int:
        """The fee a seat pays for ``wagers`` cents on the layout (0 for a seat not playing)."""
        if wagers <= 0:
            return 0
        for up_to, fee in self.tiers:
            if wagers <= up_to:
                return fee
        return self.above


def seat_wagers(bets: Mapping[str, int]) -> int:
    """A seat's wagers on the layout, in cents (every bet it has placed)."""
    return sum(bets.values())


#: the bet a player/dealer (or player-banker) posts its bank as, in every family
BANK = "bank"


def charges(
    schedule: CollectionSchedule | None, bets: Mapping[int, Mapping[str, int]]
) -> list[CollectionCharged]:
    """The collection each playing seat pays now (none for a table that takes none).

    A player/dealer's bank plays only when it covers a wager: a bank left alone on the
    layout (every other wager went back, or none was made) pays nothing.

    >>> charges(README_DEFAULT, {0: {BANK: 20_000}, 1: {}})
    []
    >>> charges(README_DEFAULT, {0: {BANK: 20_000}, 1: {"ante": 500}})
    [CollectionCharged(seat=0, amount=200), CollectionCharged(seat=1, amount=100)]
    """
    if schedule is None:
        return []
    action = any(set(b) - {BANK} for b in bets.values())
    out = []
    for seat in sorted(bets):
        if not action:
            break
        fee = schedule.fee(seat_wagers(bets[seat]))
        if fee:
            out.append(CollectionCharged(seat=seat, amount=fee))
    return out


def due(
    schedule: CollectionSchedule | None, bets: Mapping[int, Mapping[str, int]]
) -> dict[str, int]:
    """What each seat would pay if the hand were dealt now, by seat as text (for the page)."""
    return {str(c.seat): c.amount for c in charges(schedule, bets)}


def cost_per_hand(schedule: CollectionSchedule | None, edge: Fraction, wager: int) -> Fraction:
    """The player's expected cost of one hand, in cents: the game's edge on ``wager``
    plus the collection the seat pays for it (issue 14 point 12).

    >>> cost_per_hand(README_DEFAULT, Fraction(1, 50), 500)  # 2% of $5 plus the $1 fee
    Fraction(110, 1)
    >>> cost_per_hand(None, Fraction(1, 50), 500)
    Fraction(10, 1)
    """
    fee = schedule.fee(wager) if schedule is not None else 0
    return edge * wager + fee


#: The README's default, used where a California table's TOML says ``default = true``.
README_DEFAULT = CollectionSchedule(
    tiers=((10_000, 100), (30_000, 200)),
    above=300,
    source=(
        "shared/rules/README.md (Collection, not commission, in the California games): the "
        "project's own default, $1.00 per seat per hand for wagers of $100 or less, $2.00 up "
        "to $300, $3.00 above"
    ),
)


def read(data: Mapping[str, Any], where: str) -> CollectionSchedule | None:
    """The variant's optional ``[collection]`` table.

    Either ``default = true`` (the README's schedule) or ``tiers = [[up_to, fee], ...]``
    with ``above = fee`` and ``source = "..."``, all in cents. None without the table.

    >>> read({"collection": {"default": True}}, "t") == README_DEFAULT
    True
    >>> read({"collection": {"tiers": [[5000, 50]], "above": 75, "source": "s"}}, "t")
    CollectionSchedule(tiers=((5000, 50),), above=75, source='s')
    >>> read({}, "t") is None
    True
    """
    table = data.get("collection")
    if table is None:
        return None
    where = f"{where}: [collection]"
    if not isinstance(table, Mapping) or set(table) - {"default", "tiers", "above", "source"}:
        raise PaytableError(f"{where} takes default, or tiers, above and source")
    if table.get("default") is True and set(table) == {"default"}:
        return README_DEFAULT
    tiers, above, source = table.get("tiers"), table.get("above"), table.get("source")
    if not isinstance(tiers, list) or not isinstance(source, str) or not _cents(above):
        raise PaytableError(f"{where} needs tiers (a list), above (cents) and source")
    pairs: list[tuple[int, int]] = []
    for tier in tiers:
        if not (isinstance(tier, list) and len(tier) == 2 and all(_cents(x) for x in tier)):
            raise PaytableError(f"{where} each tier is [up_to, fee] in cents, not {tier!r}")
        if pairs and tier[0] <= pairs[-1][0]:
            raise PaytableError(f"{where} tiers must rise")
        pairs.append((tier[0], tier[1]))
    assert isinstance(above, int)  # checked above
    return CollectionSchedule(tiers=tuple(pairs), above=above, source=source)


def _cents(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


__all__ = [
    "README_DEFAULT",
    "CollectionSchedule",
    "charges",
    "cost_per_hand",
    "due",
    "read",
    "seat_wagers",
]

"""What may be placed or taken down when: the page's rules and the table's limits, in craps words.

The stakes live in the round's :class:`~games.core.betting.BetBook` (by spot name); these
checks are the thin craps layer over it. The book's own limit wordings cannot say what a
craps player reads: spots named as people say them ("place to win 6 must be in
increments of $1.00"), the table-point rules checked before the limits, and odds capped at
a multiple of their flat bet instead of the table maximum. Each check returns the reason
a bet is refused, or None; nothing here changes the book.

>>> from games.core.betting import BetBook
>>> from games.craps.bets import key_of
>>> from games.craps.rules import pinnacle_variant
>>> v = pinnacle_variant()
>>> book = BetBook(v.limits)
>>> rules = PlacingRules(book, v.limits, v.rules.paytable)
>>> rules.place_reason(0, key_of("come"), 1000, point=None)
'come bets are available only when there is a table point'
>>> rules.place_reason(0, key_of("pass"), 1000, point=None) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core.betting import BetBook
from games.core.engine import BetLimit
from games.core.money import format_cents
from games.craps.bets import LAY_ODDS, ODDS_OF, BetKey, Kind, title
from games.craps.paytable import CrapsPaytable

__all__ = ["ODDS_OF_FLAT", "PlacingRules"]

#: a flat bet's odds kind (pass -> pass odds, come -> come odds, ...)
ODDS_OF_FLAT: dict[Kind, Kind] = {flat: odds for odds, flat in ODDS_OF.items()}
_NEEDS_TABLE_POINT_TO_START = frozenset({Kind.PLACE_WIN, Kind.BUY, Kind.HARD})
_LINE = (Kind.PASS, Kind.DONT_PASS)
_COME = (Kind.COME, Kind.DONT_COME)


class PlacingRules:
    """The place/remove checks of one craps table, reading the stakes in ``book``."""

    def __init__(
        self, book: BetBook, limits: Mapping[str, BetLimit], paytable: CrapsPaytable
    ) -> None:
        self.book = book
        self.limits = limits
        self.paytable = paytable

    def place_reason(self, seat: int, key: BetKey, amount: int, *, point: int | None) -> str | None:
        """Why adding ``amount`` to the seat's ``key`` is refused now (None: it is allowed)."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            return "a bet must be a positive whole number of cents"
        current = self.book.stake(seat, str(key))
        reason = self._when_reason(seat, key, current, point)
        if reason is not None:
            return reason
        return self._limit_reason(seat, key, current, amount, point)

    def _when_reason(self, seat: int, key: BetKey, current: int, point: int | None) -> str | None:
        """The page's rule of when the spot takes chips (the table point, the flat bet)."""
        kind, n = key.kind, key.number
        if kind in _LINE:
            if point is not None:
                return f"{title(key)} bets are available only when there is no table point"
        elif kind in _COME:
            if n is not None:
                return (
                    f"{title(key)} bets go in the {kind.value} box; "
                    "they travel to a number on a roll"
                )
            if point is None:
                return f"{title(key)} bets are available only when there is a table point"
        elif kind in ODDS_OF:
            flat = BetKey(ODDS_OF[kind], n)
            if not self.book.stake(seat, str(flat)):
                return f"{title(key)} needs a {title(flat)} bet on the table"
            if kind in (Kind.PASS_ODDS, Kind.DONT_PASS_ODDS) and point is None:
                return f"{title(key)} is available only when there is a table point"
        elif kind in _NEEDS_TABLE_POINT_TO_START and current == 0:
            if point is None:
                return f"new {title(key)} bets are available only when there is a table point"
            if kind is not Kind.HARD and n == point:
                return f"new {title(key)} bets cannot be placed on the table point {point}"
        return None

    def _limit_reason(
        self, seat: int, key: BetKey, current: int, amount: int, point: int | None
    ) -> str | None:
        """The table's chip size, minimum and maximum (odds: a multiple of the flat bet)."""
        limit = self.limits[str(key)]
        total = current + amount
        refused = f"{title(key)} bet of {format_cents(total)} refused"
        if amount % limit.increment:
            return f"{refused}: {limit.off_step()}"
        if total < limit.minimum:
            return f"{refused}: {limit.too_small()}"
        if key.kind in ODDS_OF:
            flat = self.book.stake(seat, str(BetKey(ODDS_OF[key.kind], key.number)))
            on = key.number if key.number is not None else point
            assert on is not None
            mult = self.paytable.max_odds_multiple(lay=key.kind in LAY_ODDS, point=on)
            top = mult * flat
            if total > top:
                return f"{title(key)} may be at most {mult}x the flat bet ({format_cents(top)})"
        elif total > limit.maximum:
            return f"{refused}: {limit.too_large()} (now {format_cents(current)})"
        return None

    def remove_reason(
        self, seat: int, key: BetKey, amount: int, *, point: int | None
    ) -> str | None:
        """Why taking ``amount`` (0: all) off the seat's ``key`` is refused now (None: allowed)."""
        current = self.book.stake(seat, str(key))
        name = title(key)
        if not current:
            return f"no {name} bet to remove"
        if key.kind is Kind.PASS and point is not None:
            return (
                "a pass line bet cannot be removed once the table point is set; "
                "it is resolved by the point or a 7"
            )
        if key.kind is Kind.COME and key.number is not None:
            return f"a come bet on {key.number} is resolved only by its come point or a 7"
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            return "the amount to remove must be 0 (all) or a positive number of cents"
        if amount > current:
            return (
                f"cannot remove {format_cents(amount)}: the {name} bet is {format_cents(current)}"
            )
        if 0 < amount < current:
            return self._reduce_reason(seat, key, current - amount, amount, point)
        return None

    def _reduce_reason(
        self, seat: int, key: BetKey, rest: int, amount: int, point: int | None
    ) -> str | None:
        """Why a bet may not come down by ``amount`` to ``rest``: steps, minimum, its odds."""
        name = title(key)
        limit = self.limits[str(key)]
        if amount % limit.increment:
            return f"{name} must be reduced in steps of {format_cents(limit.increment)}"
        if rest < limit.minimum:
            return f"{name} would fall below the {format_cents(limit.minimum)} minimum"
        odds_kind = ODDS_OF_FLAT.get(key.kind)
        if odds_kind is not None:
            odds = self.book.stake(seat, str(BetKey(odds_kind, key.number)))
            on = key.number if key.number is not None else point
            if odds and on is not None:
                mult = self.paytable.max_odds_multiple(lay=odds_kind in LAY_ODDS, point=on)
                if odds > mult * rest:
                    return f"reduce the odds first: they may be at most {mult}x the {name} bet"
        return None

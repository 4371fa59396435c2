"""What one roll does to one bet: the page's rules, bet by bet, as a pure function.

:func:`resolve` knows nothing of money or seats: given the bet spot, the dice, and
the table's situation before the roll, it returns an :class:`Outcome` (win at a
ratio, lose, push, stay, returned to the player, or move to a come point). The engine
turns outcomes into cents; the exact-odds module walks the same function over the 36
dice pairs, so play and math cannot drift apart.

>>> from games.craps.paytable import load_paytable
>>> t = load_paytable()
>>> ctx = RollContext(table_point=None, new_point=False, working=True)
>>> out = resolve(BetKey(Kind.HORN), (6, 6), ctx, t)
>>> out.result, out.ratio, out.why
(<Result.WIN: 'win'>, Ratio(num=30, den=4), 'horn: 30:1 on 12 on a quarter of the bet')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from games.core.money import Ratio
from games.craps.bets import ONE_ROLL, POINTS, BetKey, Kind
from games.craps.paytable import CrapsPaytable


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"  # settled: the stake comes back, the bet leaves the table
    STAY = "stay"  # nothing happens; the bet remains
    RETURN = "returned"  # an "Off" bet handed back by the come-out rules
    MOVE = "moved"  # a come / don't come bet travels to its come point


@dataclass(frozen=True, slots=True)
class Outcome:
    result: Result
    ratio: Ratio | None = None  # the win ratio on the stake, for WIN
    to: int | None = None  # the come point, for MOVE
    why: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RollContext:
    """The table before the roll, as one bet sees it."""

    table_point: int | None  # None: this is a table point come-out roll
    new_point: bool  # this roll assigns a table point (a new line bet is on the table)
    working: bool  # the bet's come-out option (ignored off the come-out)


_STAY = Outcome(Result.STAY)


def _win(ratio: Ratio, why: str) -> Outcome:
    return Outcome(Result.WIN, ratio, None, why)


def _lose(why: str) -> Outcome:
    return Outcome(Result.LOSE, None, None, why)


def resolve(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """The outcome of one roll for one bet spot (see the module docstring)."""
    return _BY_KIND[bet.kind](bet, dice, ctx, t)


def _off(ctx: RollContext) -> bool:
    """The bet is "Off" on this roll: a come-out roll, and its come-out option is off."""
    return ctx.table_point is None and not ctx.working


def _do(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Pass line and come: a new bet (in the box, or on the come-out), or one on its number."""
    total = dice[0] + dice[1]
    kind, n = bet.kind, bet.number
    if kind is Kind.COME and n is not None:  # standing on its come point: always working
        if total == n:
            return _win(t.pay("come"), f"come bet on {n} wins")
        return _lose(f"come bet on {n} loses on 7") if total == 7 else _STAY
    name = "pass line" if kind is Kind.PASS else "come"
    point = ctx.table_point if kind is Kind.PASS else None
    if point is None:
        if total in (7, 11):
            return _win(t.pay(kind.value), f"{name} wins on {total}")
        if total in (2, 3, 12):
            return _lose(f"{name} loses on craps {total}")
        if kind is Kind.COME:
            return Outcome(Result.MOVE, None, total, f"come bet moves to the {total}")
        return _STAY
    if total == point:
        return _win(t.pay(kind.value), f"pass line wins: the point {point} was made")
    return _lose("pass line loses on 7") if total == 7 else _STAY


def _dont(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Don't pass and don't come: a new bet, or one on its number (12 a push when new)."""
    total = dice[0] + dice[1]
    kind, n = bet.kind, bet.number
    if kind is Kind.DONT_COME and n is not None:
        if total == 7:
            return _win(t.pay("dont-come"), f"don't come bet on {n} wins on 7")
        return _lose(f"don't come bet on {n} loses") if total == n else _STAY
    name = "don't pass" if kind is Kind.DONT_PASS else "don't come"
    point = ctx.table_point if kind is Kind.DONT_PASS else None
    if point is None:
        if total in (2, 3):
            return _win(t.pay(kind.value), f"{name} wins on craps {total}")
        if total in (7, 11):
            return _lose(f"{name} loses on {total}")
        if total == 12:
            return Outcome(Result.PUSH, None, None, f"{name}: 12 is a push")
        if kind is Kind.DONT_COME:
            return Outcome(Result.MOVE, None, total, f"don't come bet moves to the {total}")
        return _STAY
    if total == 7:
        return _win(t.pay(kind.value), "don't pass wins on 7")
    return _lose(f"don't pass loses: the point {point} was made") if total == point else _STAY


def _line_odds(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Pass / don't pass odds, on the table point."""
    total = dice[0] + dice[1]
    point = ctx.table_point
    if point is None:  # cannot stand without a table point; stay untouched
        return _STAY
    if bet.kind is Kind.PASS_ODDS:
        if total == point:
            return _win(t.pay("take-odds", point), f"pass odds win on {point}")
        return _lose("pass odds lose on 7") if total == 7 else _STAY
    if total == 7:
        return _win(t.pay("lay-odds", point), "don't pass odds win on 7")
    return _lose(f"don't pass odds lose on {point}") if total == point else _STAY


def _come_odds(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Come / don't come odds, on the come point; handed back when Off on the come-out."""
    total = dice[0] + dice[1]
    n = bet.number
    assert n is not None
    if _off(ctx):
        if total in (7, n):
            return Outcome(Result.RETURN, None, None, f"odds on {n} off on the come-out")
        return _STAY
    if bet.kind is Kind.COME_ODDS:
        if total == n:
            return _win(t.pay("take-odds", n), f"come odds win on {n}")
        return _lose("come odds lose on 7") if total == 7 else _STAY
    if total == 7:
        return _win(t.pay("lay-odds", n), "don't come odds win on 7")
    return _lose(f"don't come odds lose on {n}") if total == n else _STAY


def _to_win(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Place to win and buy: win on the number, lose on 7."""
    total = dice[0] + dice[1]
    kind, n = bet.kind, bet.number
    assert n is not None
    name = "place to win" if kind is Kind.PLACE_WIN else "buy"
    if _off(ctx):
        if total == n and ctx.new_point:
            return Outcome(Result.RETURN, None, None, f"{name} {n}: {n} became the table point")
        return _STAY
    if total == n:
        return _win(t.pay(kind.value, n), f"{name} {n} wins")
    return _lose(f"{name} {n} loses on 7") if total == 7 else _STAY


def _to_lose(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Place to lose and lay: win on 7, lose on the number."""
    total = dice[0] + dice[1]
    kind, n = bet.kind, bet.number
    assert n is not None
    name = "place to lose" if kind is Kind.PLACE_LOSE else "lay"
    if _off(ctx):
        return _STAY
    if total == 7:
        return _win(t.pay(kind.value, n), f"{name} {n} wins on 7")
    return _lose(f"{name} {n} loses on {n}") if total == n else _STAY


def _hard(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """A hardway: the number as a pair wins; the easy way or a 7 loses."""
    total = dice[0] + dice[1]
    n = bet.number
    assert n is not None
    if _off(ctx):
        return _STAY
    if total == n:
        if dice[0] == dice[1]:
            return _win(t.pay("hard", n), f"hard {n} wins")
        return _lose(f"hard {n} loses: {n} rolled the easy way")
    return _lose(f"hard {n} loses on 7") if total == 7 else _STAY


def _big(bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable) -> Outcome:
    """Big 6 / big 8: the number before a 7."""
    total = dice[0] + dice[1]
    n = bet.number
    if _off(ctx):
        return _STAY
    if total == n:
        return _win(t.pay("big"), f"big {n} wins")
    return _lose(f"big {n} loses on 7") if total == 7 else _STAY


def _one_roll_bet(
    bet: BetKey, dice: tuple[int, int], ctx: RollContext, t: CrapsPaytable
) -> Outcome:
    """Field, horn, world and the propositions: settled by this very roll."""
    return _one_roll(bet.kind, dice[0] + dice[1], t)


def _one_roll(kind: Kind, total: int, t: CrapsPaytable) -> Outcome:
    if kind is Kind.FIELD:
        field = t.by_number["field"]
        if total in field:
            return _win(field[total], f"field wins on {total}")
        return _lose(f"field loses on {total}")
    if kind in (Kind.HORN, Kind.WORLD):
        table = kind.value
        units = t.horn_units if kind is Kind.HORN else t.world_units
        pays = t.by_number[table]
        share = "a quarter" if units == 4 else "a fifth" if units == 5 else f"1/{units}"
        if total in pays:
            unit = pays[total]
            if unit.num == 0:
                return Outcome(Result.PUSH, None, None, f"{table}: {total} is a push")
            return _win(
                Ratio(unit.num, unit.den * units),
                f"{table}: {unit} on {total} on {share} of the bet",
            )
        return _lose(f"{table} loses on {total}")
    wins = {
        Kind.ANY_7: (7,),
        Kind.ANY_CRAPS: (2, 3, 12),
        Kind.CRAP_2: (2,),
        Kind.CRAP_3: (3,),
        Kind.ANY_11: (11,),
        Kind.CRAP_12: (12,),
    }[kind]
    if total in wins:
        return _win(t.pay(kind.value), f"{kind.value} wins on {total}")
    return _lose(f"{kind.value} loses on {total}")


_Resolver = Callable[[BetKey, tuple[int, int], RollContext, CrapsPaytable], Outcome]
_BY_KIND: dict[Kind, _Resolver] = {
    Kind.PASS: _do,
    Kind.COME: _do,
    Kind.DONT_PASS: _dont,
    Kind.DONT_COME: _dont,
    Kind.PASS_ODDS: _line_odds,
    Kind.DONT_PASS_ODDS: _line_odds,
    Kind.COME_ODDS: _come_odds,
    Kind.DONT_COME_ODDS: _come_odds,
    Kind.PLACE_WIN: _to_win,
    Kind.BUY: _to_win,
    Kind.PLACE_LOSE: _to_lose,
    Kind.LAY: _to_lose,
    Kind.HARD: _hard,
    Kind.BIG: _big,
    **{kind: _one_roll_bet for kind in ONE_ROLL},
}
assert set(_BY_KIND) == set(Kind), "every bet kind has its rule"


def assigns_point(total: int, table_point: int | None, line_bet_on_table: bool) -> bool:
    """A come-out roll of a point number with a new line bet on the table sets the point."""
    return table_point is None and line_bet_on_table and total in POINTS

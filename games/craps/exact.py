"""Exact craps math: every bet's edge by enumeration over the 36 dice pairs, in Fractions.

Each bet is a small absorbing chain: from its state (a pass bet on the come-out, or
on a point of 6, ...) each of the 36 equally likely pairs settles it, leaves it
standing, or moves it (a come bet to its come point). :func:`bet_chain` builds the
chain from :func:`games.craps.resolve.resolve`, the very rules the engine plays, and
:func:`solve` finds, exactly:

* the expected net per unit of the initial wager (the house edge is its negative),
  with pushes counted as decisions (the usual "per bet made" convention);
* the expected number of rolls until the bet is settled, giving the edge per roll
  (edge / expected rolls, the convention used for comparing multi-roll bets).

Bets are analysed as working on every roll: a come-out "Off" changes neither win nor
loss chances, it only postpones the decision (or hands the stake back, a zero).
Win amounts are exact fractions here; the table rounds each win to the cent.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from games.craps.bets import LAY_ODDS, POINTS, BetKey, Kind, all_bet_names, parse_bet
from games.craps.paytable import CrapsPaytable
from games.craps.resolve import Outcome, Result, RollContext, resolve

PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
P_PAIR = Fraction(1, 36)

#: a chain state: the bet spot and the table point it sees
State = tuple[BetKey, int | None]


@dataclass(frozen=True, slots=True)
class BetMath:
    """Exact figures for one bet (per unit of the initial wager)."""

    expected: Fraction  # expected net per unit wagered (negative: the house's edge)
    rolls: Fraction  # expected rolls until settled
    p_win: Fraction
    p_lose: Fraction
    p_push: Fraction

    @property
    def edge(self) -> Fraction:
        return -self.expected

    @property
    def edge_per_roll(self) -> Fraction:
        return self.edge / self.rolls

    @property
    def edge_per_resolved(self) -> Fraction:
        """Edge per bet won or lost (pushes left out)."""
        return self.edge / (1 - self.p_push)


def unit_value(key: BetKey, out: Outcome, t: CrapsPaytable) -> Fraction:
    """Net per unit staked for a settling outcome, commissions included, unrounded."""
    if out.result is Result.LOSE:
        return Fraction(-1)
    if out.result is not Result.WIN:
        return Fraction(0)
    assert out.ratio is not None
    win = Fraction(out.ratio.num, out.ratio.den)
    if key.kind is Kind.BUY:
        return win - Fraction(t.buy_bp_of_stake, 10_000)
    if key.kind is Kind.LAY:
        return win - win * Fraction(t.lay_bp_of_win, 10_000)
    return win


def step(state: State, pair: tuple[int, int], t: CrapsPaytable) -> tuple[Outcome, State | None]:
    """One roll for a chain state: the outcome and the next state (None once settled)."""
    key, point = state
    total = pair[0] + pair[1]
    new_point = point is None and key.kind in (Kind.PASS, Kind.DONT_PASS) and total in POINTS
    out = resolve(key, pair, RollContext(table_point=point, new_point=new_point, working=True), t)
    if out.result is Result.STAY:
        return out, (key, total) if new_point else state
    if out.result is Result.MOVE:
        return out, (BetKey(key.kind, out.to), None)
    return out, None


def solve(start: State, t: CrapsPaytable) -> BetMath:
    """Exact expectation, rolls and win/lose/push chances of the chain from ``start``."""
    memo: dict[State, tuple[Fraction, Fraction, Fraction, Fraction, Fraction]] = {}

    def go(state: State) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
        if state in memo:
            return memo[state]
        p_stay = Fraction(0)
        ev = rolls = win = lose = push = Fraction(0)
        for pair in PAIRS:
            out, nxt = step(state, pair, t)
            if nxt == state:
                p_stay += P_PAIR
                continue
            if nxt is not None:
                e2, r2, w2, l2, p2 = go(nxt)
                ev += P_PAIR * e2
                rolls += P_PAIR * r2
                win, lose, push = win + P_PAIR * w2, lose + P_PAIR * l2, push + P_PAIR * p2
                continue
            ev += P_PAIR * unit_value(state[0], out, t)
            if out.result is Result.WIN:
                win += P_PAIR
            elif out.result is Result.LOSE:
                lose += P_PAIR
            else:
                push += P_PAIR
        if p_stay == 1:
            raise ValueError(f"{state} never settles")
        scale = 1 / (1 - p_stay)
        result = (ev * scale, (1 + rolls) * scale, win * scale, lose * scale, push * scale)
        memo[state] = result
        return result

    ev, rolls, win, lose, push = go(start)
    return BetMath(expected=ev, rolls=rolls, p_win=win, p_lose=lose, p_push=push)


def point_probability(point: int) -> Fraction:
    """Chance a come-out roll establishes ``point``."""
    return Fraction(sum(1 for a, b in PAIRS if a + b == point), 36)


def odds_math(kind: Kind, point: int, t: CrapsPaytable) -> BetMath:
    """An odds bet standing on ``point`` (pass/don't pass odds see it as the table point)."""
    if kind in (Kind.PASS_ODDS, Kind.DONT_PASS_ODDS):
        return solve((BetKey(kind), point), t)
    return solve((BetKey(kind, point), None), t)


def with_max_odds(flat: Kind, t: CrapsPaytable) -> tuple[Fraction, Fraction]:
    """A line bet backed by the maximum odds on every point.

    Returns (edge per unit of the flat bet, edge per unit of the total expected wager).
    """
    odds = {Kind.PASS: Kind.PASS_ODDS, Kind.DONT_PASS: Kind.DONT_PASS_ODDS}[flat]
    base = solve((BetKey(flat), None), t)
    extra_ev = Fraction(0)
    extra_wager = Fraction(0)
    for p in POINTS:
        mult = t.max_odds_multiple(lay=odds in LAY_ODDS, point=p)
        extra_ev += point_probability(p) * mult * odds_math(odds, p, t).expected
        extra_wager += point_probability(p) * mult
    total_ev = base.expected + extra_ev
    return -total_ev, -total_ev / (1 + extra_wager)


def starts() -> dict[str, State]:
    """The starting chain state of every distinct bet a player can make, by name.

    A come bet that travelled (``come-4``) is the ``come`` bet; pass/don't pass odds
    are listed per point as ``pass-odds-4`` etc. (they see that point as the table's).
    """
    out: dict[str, State] = {}
    for name in all_bet_names():
        key = parse_bet(name)
        if key.kind in (Kind.COME, Kind.DONT_COME) and key.number is not None:
            continue
        if key.kind in (Kind.PASS_ODDS, Kind.DONT_PASS_ODDS):
            for p in POINTS:
                out[f"{name}-{p}"] = (key, p)
            continue
        out[name] = (key, None)
    return out


def all_bets(t: CrapsPaytable) -> dict[str, BetMath]:
    """Exact figures for every bet of :func:`starts`."""
    return {name: solve(state, t) for name, state in starts().items()}


def percent(x: Fraction, places: int = 3) -> str:
    """``Fraction(7, 495)`` -> ``'1.414%'`` (for reports; exact values stay Fractions)."""
    scaled = x * 100 * 10**places
    q = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    sign = "-" if q < 0 else ""
    q = abs(q)
    return f"{sign}{q // 10**places}.{q % 10**places:0{places}d}%"

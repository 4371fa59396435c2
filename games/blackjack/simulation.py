"""Vectorised NumPy simulation of a blackjack table played by its strategy chart.

Simulation only: a seeded ``numpy.random.Generator`` stands in for the shoe and the
results are statistics (floats), never money or outcomes of play.

Every round gets a fresh shoe (the pages' "new shoe for each game"). Cards are drawn without
replacement by points (ace 1 .. ten 10), row by row for a whole batch of rounds at once. The
first four cards of a round are player, dealer up, player, dealer hole; later cards go to
whoever needs one. Which later card lands on which hand does not change the law of the
game (the cards are exchangeable and every decision depends on seen cards only). Hands are
played slot by slot (a split opens the next slot), each step vectorised over all rounds that
still act in that slot. The dealer plays out every round (a Buster Bet is assumed on every
round so its return is measured too; this does not change the main bet's result).

Reported bets: ``main`` (net per initial unit), ``insurance`` (net per unit of insurance over
the rounds where it is offered: dealer ace, and no even-money hand), and ``buster`` where the
table has one (net per unit). Intervals are 99.9% (z = 3.2905) normal intervals.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from games.blackjack.rules import BlackjackRules
from games.blackjack.strategy import CODES, load_chart
from games.catalog import BetSimulation, SimulationResult
from games.core.engine import Variant

Z999 = 3.2905267314919255
IntArr = npt.NDArray[np.int64]
FloatArr = npt.NDArray[np.float64]
BoolArr = npt.NDArray[np.bool_]

_H, _S, _D, _DS, _P, _R, _RS, _RP = (CODES.index(c) for c in CODES)


class _Cards:
    """A batch of shoes drawn on demand: ``take(rows)`` deals each row its next card."""

    def __init__(self, rng: np.random.Generator, n: int, decks: int, first: int) -> None:
        self.rng = rng
        self.counts = np.tile(np.array([4 * decks] * 9 + [16 * decks], dtype=np.int64), (n, 1))
        self.left = np.full(n, 52 * decks, dtype=np.int64)
        self.dealt = [self._draw_all() for _ in range(first)]

    def _draw_all(self) -> IntArr:
        r = (self.rng.random(self.counts.shape[0]) * self.left).astype(np.int64)
        cum = np.cumsum(self.counts, axis=1)
        idx = (cum <= r[:, None]).sum(axis=1)
        self.counts[np.arange(idx.size), idx] -= 1
        self.left -= 1
        out: IntArr = idx + 1
        return out

    def take(self, rows: IntArr) -> IntArr:
        counts = self.counts[rows]
        r = (self.rng.random(rows.size) * self.left[rows]).astype(np.int64)
        idx = (np.cumsum(counts, axis=1) <= r[:, None]).sum(axis=1)
        self.counts[rows, idx] -= 1
        self.left[rows] -= 1
        out: IntArr = idx + 1
        return out


def _totals(hard: IntArr, aces: IntArr) -> tuple[IntArr, BoolArr]:
    soft = (aces > 0) & (hard + 10 <= 21)
    return np.where(soft, hard + 10, hard), soft


def _batch(
    rules: BlackjackRules, n: int, rng: np.random.Generator
) -> tuple[FloatArr, FloatArr, FloatArr]:
    chart = load_chart(rules.strategy)
    hard_t, soft_t, pair_t = (np.array(t, dtype=np.int64) for t in chart.code_tables())
    cards = _Cards(rng, n, rules.decks, 4)
    p1, up, p2, hole = cards.dealt
    col = np.where(up == 1, 9, up - 2)
    hmax = rules.max_hands
    first = np.zeros((n, hmax), dtype=np.int64)
    hard = np.zeros((n, hmax), dtype=np.int64)
    aces = np.zeros((n, hmax), dtype=np.int64)
    ncards = np.zeros((n, hmax), dtype=np.int64)
    stake = np.zeros((n, hmax), dtype=np.float64)
    done = np.ones((n, hmax), dtype=bool)
    surrendered = np.zeros((n, hmax), dtype=bool)
    split_aces = np.zeros((n, hmax), dtype=bool)
    nhands = np.ones(n, dtype=np.int64)
    first[:, 0] = p1
    hard[:, 0] = p1 + p2
    aces[:, 0] = (p1 == 1).astype(np.int64) + (p2 == 1)
    ncards[:, 0] = 2
    stake[:, 0] = 1.0

    p_nat = ((p1 == 1) & (p2 == 10)) | ((p1 == 10) & (p2 == 1))
    d_nat = ((up == 1) & (hole == 10)) | ((up == 10) & (hole == 1))
    nat_pay = rules.natural_pays.num / rules.natural_pays.den
    main = np.where(d_nat, np.where(p_nat, 0.0, -1.0), np.where(p_nat, nat_pay, 0.0))
    done[:, 0] = d_nat | p_nat
    ins_ratio = rules.insurance_pays.num / rules.insurance_pays.den
    offered = up == 1
    if rules.even_money:
        offered &= ~p_nat
    insurance = np.where(d_nat, ins_ratio, -1.0)[offered]

    for k in range(hmax):
        while True:
            act = np.nonzero(~done[:, k] & (nhands > k))[0]
            if act.size == 0:
                break
            one = act[ncards[act, k] == 1]  # a split hand owed its second card
            if one.size:
                c = cards.take(one)
                hard[one, k] += c
                aces[one, k] += c == 1
                ncards[one, k] = 2
                done[one, k] |= split_aces[one, k]
                continue
            tot, soft = _totals(hard[act, k], aces[act, k])
            stop = tot >= 21
            done[act[stop], k] = True
            act, tot, soft = act[~stop], tot[~stop], soft[~stop]
            if act.size == 0:
                continue
            c_act = col[act]
            two = ncards[act, k] == 2
            from_split = nhands[act] > 1
            can_double = two & (~from_split | rules.double_after_split)
            pair_pts = first[act, k]
            is_pair = two & (hard[act, k] == 2 * pair_pts)
            can_split = is_pair & (nhands[act] < hmax)
            can_sur = np.zeros(act.size, dtype=bool)
            if rules.surrender_min_total is not None:
                can_sur = (nhands[act] == 1) & (tot >= rules.surrender_min_total)
            code = np.where(soft, soft_t[tot, c_act], hard_t[np.maximum(tot, 4), c_act])
            pcode = pair_t[pair_pts, c_act]
            code = np.where(can_split, pcode, code)
            # resolve codes into: 0 hit, 1 stand, 2 double, 3 split, 4 surrender
            dec = np.full(act.size, 0, dtype=np.int64)
            dec[code == _S] = 1
            dec[(code == _D) & can_double] = 2
            dec[(code == _DS) & can_double] = 2
            dec[(code == _DS) & ~can_double] = 1
            dec[(code == _P) & can_split] = 3
            sur = (code == _R) | (code == _RS) | (code == _RP)
            dec[sur & can_sur] = 4
            dec[(code == _RS) & ~can_sur] = 1
            dec[(code == _RP) & ~can_sur & can_split] = 3
            # stand
            done[act[dec == 1], k] = True
            # surrender
            s_rows = act[dec == 4]
            surrendered[s_rows, k] = True
            done[s_rows, k] = True
            # hit and double
            hd = dec == 0
            db = dec == 2
            draw = act[hd | db]
            if draw.size:
                c = cards.take(draw)
                hard[draw, k] += c
                aces[draw, k] += c == 1
                ncards[draw, k] += 1
            d_rows = act[db]
            stake[d_rows, k] *= 2.0
            done[d_rows, k] = True
            # split: the second card opens the next slot
            sp = act[dec == 3]
            if sp.size:
                j = nhands[sp]
                pts = first[sp, k]
                first[sp, j] = pts
                hard[sp, j] = pts
                aces[sp, j] = pts == 1
                ncards[sp, j] = 1
                stake[sp, j] = 1.0
                done[sp, j] = False
                hard[sp, k] = pts
                aces[sp, k] = pts == 1
                ncards[sp, k] = 1
                is_aces = (pts == 1) & rules.split_aces_one_card
                split_aces[sp, k] = is_aces
                split_aces[sp, j] = is_aces
                nhands[sp] += 1

    # dealer plays out every round without a natural
    d_hard = up + hole
    d_aces = (up == 1).astype(np.int64) + (hole == 1)
    d_cards = np.full(n, 2, dtype=np.int64)
    while True:
        tot, soft = _totals(d_hard, d_aces)
        hit = ~d_nat & ((tot < 17) | (soft & (tot <= rules.dealer_hits_soft_through)))
        rows = np.nonzero(hit)[0]
        if rows.size == 0:
            break
        c = cards.take(rows)
        d_hard[rows] += c
        d_aces[rows] += c == 1
        d_cards[rows] += 1
    d_tot, _ = _totals(d_hard, d_aces)

    live = ~(d_nat | p_nat)
    push_set = np.array(rules.bust_push_totals or (0,), dtype=np.int64)
    for k in range(hmax):
        in_play = live & (nhands > k)
        tot, _ = _totals(hard[:, k], aces[:, k])
        pbust = tot > 21
        dbust = d_tot > 21
        win = ~pbust & (dbust | (tot > d_tot))
        push = ~pbust & ~dbust & (tot == d_tot)
        if rules.bust_push_totals:
            push |= pbust & dbust & (ncards[:, k] == 3) & np.isin(tot, push_set) & (d_tot > tot)
        net = np.where(win, stake[:, k], np.where(push, 0.0, -stake[:, k]))
        net = np.where(surrendered[:, k], -0.5 * stake[:, k], net)
        main = main + np.where(in_play, net, 0.0)

    buster = np.full(n, -1.0)
    if rules.buster:
        odds = np.full(16, -1.0)
        for cnt in range(3, 16):
            ratio = rules.buster_pay(cnt)
            if ratio is not None:
                odds[cnt] = ratio.num / ratio.den
        bust = (d_tot > 21) & ~d_nat
        buster = np.where(bust, odds[np.minimum(d_cards, 15)], -1.0)
    return main, insurance, buster


class _Acc:
    def __init__(self) -> None:
        self.n = 0
        self.s = 0.0
        self.s2 = 0.0

    def add(self, x: FloatArr) -> None:
        self.n += int(x.size)
        self.s += float(x.sum())
        self.s2 += float(np.square(x).sum())

    def result(self) -> BetSimulation:
        n = max(self.n, 1)
        mean = self.s / n
        var = max(self.s2 / n - mean * mean, 0.0)
        se = math.sqrt(var / n)
        return BetSimulation(
            rounds=self.n,
            mean=mean,
            std_error=se,
            ci_low=mean - Z999 * se,
            ci_high=mean + Z999 * se,
        )


def simulate(variant: Variant, rounds: int, seed: int, batch: int = 200_000) -> SimulationResult:
    """Simulate ``rounds`` rounds of one seat playing the table's chart with a flat bet."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rules: BlackjackRules = variant.rules
    rng = np.random.default_rng(seed)
    acc = {"main": _Acc(), "insurance": _Acc(), "buster": _Acc()}
    left = rounds
    while left > 0:
        m = min(batch, left)
        main, ins, bus = _batch(rules, m, rng)
        acc["main"].add(main)
        acc["insurance"].add(ins)
        if rules.buster:
            acc["buster"].add(bus)
        left -= m
    bets = {name: a.result() for name, a in acc.items() if a.n}
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)

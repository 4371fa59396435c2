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

The main bet's figures of :func:`games.blackjack.house_edge` come from runs of 10^7 rounds
shipped in ``data/simulated.json`` (:func:`main_run`; written by :func:`ship_entry` through
``python bench/bench_shipped.py --write-data blackjack``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from games.blackjack.rules import BlackjackRules
from games.blackjack.strategy import CODES, load_chart
from games.core.engine import Variant
from games.core.figures import BetSimulation, SimulationResult, SimulationRun
from games.core.shipped import entry, shipped_run
from games.sim import Z_999

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


class _Hands:
    """Every round's hand slots (``max_hands`` per round; a split opens the next slot)."""

    def __init__(self, n: int, hmax: int, p1: IntArr, p2: IntArr) -> None:
        self.first = np.zeros((n, hmax), dtype=np.int64)  # the slot's first card (its pair)
        self.hard = np.zeros((n, hmax), dtype=np.int64)
        self.aces = np.zeros((n, hmax), dtype=np.int64)
        self.ncards = np.zeros((n, hmax), dtype=np.int64)
        self.stake = np.zeros((n, hmax), dtype=np.float64)
        self.done = np.ones((n, hmax), dtype=bool)
        self.surrendered = np.zeros((n, hmax), dtype=bool)
        self.split_aces = np.zeros((n, hmax), dtype=bool)
        self.nhands = np.ones(n, dtype=np.int64)
        self.first[:, 0] = p1
        self.hard[:, 0] = p1 + p2
        self.aces[:, 0] = (p1 == 1).astype(np.int64) + (p2 == 1)
        self.ncards[:, 0] = 2
        self.stake[:, 0] = 1.0

    def draw(self, rows: IntArr, k: int, cards: _Cards) -> None:
        """Slot ``k`` of ``rows`` takes its next card."""
        c = cards.take(rows)
        self.hard[rows, k] += c
        self.aces[rows, k] += c == 1
        self.ncards[rows, k] += 1

    def split(self, rows: IntArr, k: int, one_card_aces: bool) -> None:
        """Slot ``k`` of ``rows`` splits: its second card opens the next slot."""
        j = self.nhands[rows]
        pts = self.first[rows, k]
        self.first[rows, j] = pts
        self.hard[rows, j] = pts
        self.aces[rows, j] = pts == 1
        self.ncards[rows, j] = 1
        self.stake[rows, j] = 1.0
        self.done[rows, j] = False
        self.hard[rows, k] = pts
        self.aces[rows, k] = pts == 1
        self.ncards[rows, k] = 1
        is_aces = (pts == 1) & one_card_aces
        self.split_aces[rows, k] = is_aces
        self.split_aces[rows, j] = is_aces
        self.nhands[rows] += 1


#: the decisions of :func:`_decide`
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER = range(5)


def _decide(
    rules: BlackjackRules,
    tables: tuple[IntArr, IntArr, IntArr],
    hands: _Hands,
    act: IntArr,
    k: int,
    tot: IntArr,
    soft: BoolArr,
    col: IntArr,
) -> IntArr:
    """The chart's decision for slot ``k`` of the rounds ``act``, resolved into what is
    allowed (hit, stand, double, split or surrender, as :data:`_HIT` ...)."""
    hard_t, soft_t, pair_t = tables
    c_act = col[act]
    two = hands.ncards[act, k] == 2
    from_split = hands.nhands[act] > 1
    can_double = two & (~from_split | rules.double_after_split)
    pair_pts = hands.first[act, k]
    is_pair = two & (hands.hard[act, k] == 2 * pair_pts)
    can_split = is_pair & (hands.nhands[act] < rules.max_hands)
    can_sur = np.zeros(act.size, dtype=bool)
    if rules.surrender_min_total is not None:
        can_sur = (hands.nhands[act] == 1) & (tot >= rules.surrender_min_total)
    code = np.where(soft, soft_t[tot, c_act], hard_t[np.maximum(tot, 4), c_act])
    code = np.where(can_split, pair_t[pair_pts, c_act], code)
    dec = np.full(act.size, _HIT, dtype=np.int64)
    dec[code == _S] = _STAND
    dec[(code == _D) & can_double] = _DOUBLE
    dec[(code == _DS) & can_double] = _DOUBLE
    dec[(code == _DS) & ~can_double] = _STAND
    dec[(code == _P) & can_split] = _SPLIT
    sur = (code == _R) | (code == _RS) | (code == _RP)
    dec[sur & can_sur] = _SURRENDER
    dec[(code == _RS) & ~can_sur] = _STAND
    dec[(code == _RP) & ~can_sur & can_split] = _SPLIT
    return dec


def _play_slot(
    rules: BlackjackRules,
    tables: tuple[IntArr, IntArr, IntArr],
    hands: _Hands,
    cards: _Cards,
    col: IntArr,
    k: int,
) -> None:
    """Play slot ``k`` of every round that still acts in it, step by step, to the end."""
    done = hands.done
    while True:
        act = np.nonzero(~done[:, k] & (hands.nhands > k))[0]
        if act.size == 0:
            return
        one = act[hands.ncards[act, k] == 1]  # a split hand owed its second card
        if one.size:
            c = cards.take(one)
            hands.hard[one, k] += c
            hands.aces[one, k] += c == 1
            hands.ncards[one, k] = 2
            done[one, k] |= hands.split_aces[one, k]
            continue
        tot, soft = _totals(hands.hard[act, k], hands.aces[act, k])
        stop = tot >= 21
        done[act[stop], k] = True
        act, tot, soft = act[~stop], tot[~stop], soft[~stop]
        if act.size == 0:
            continue
        dec = _decide(rules, tables, hands, act, k, tot, soft, col)
        done[act[dec == _STAND], k] = True
        s_rows = act[dec == _SURRENDER]
        hands.surrendered[s_rows, k] = True
        done[s_rows, k] = True
        draw = act[(dec == _HIT) | (dec == _DOUBLE)]
        if draw.size:
            hands.draw(draw, k, cards)
        d_rows = act[dec == _DOUBLE]
        hands.stake[d_rows, k] *= 2.0
        done[d_rows, k] = True
        sp = act[dec == _SPLIT]
        if sp.size:
            hands.split(sp, k, rules.split_aces_one_card)


def _dealer(
    rules: BlackjackRules, cards: _Cards, up: IntArr, hole: IntArr, d_nat: BoolArr
) -> tuple[IntArr, IntArr]:
    """The dealer plays out every round without a natural: final totals and card counts."""
    d_hard = up + hole
    d_aces = (up == 1).astype(np.int64) + (hole == 1)
    d_cards = np.full(up.size, 2, dtype=np.int64)
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
    return d_tot, d_cards


def _showdown(rules: BlackjackRules, hands: _Hands, live: BoolArr, d_tot: IntArr) -> FloatArr:
    """Net of every live round's played slots against the dealer's totals."""
    main = np.zeros(live.size, dtype=np.float64)
    push_set = np.array(rules.bust_push_totals or (0,), dtype=np.int64)
    for k in range(rules.max_hands):
        in_play = live & (hands.nhands > k)
        tot, _ = _totals(hands.hard[:, k], hands.aces[:, k])
        stake = hands.stake[:, k]
        pbust = tot > 21
        dbust = d_tot > 21
        win = ~pbust & (dbust | (tot > d_tot))
        push = ~pbust & ~dbust & (tot == d_tot)
        if rules.bust_push_totals:
            three = hands.ncards[:, k] == 3
            push |= pbust & dbust & three & np.isin(tot, push_set) & (d_tot > tot)
        net = np.where(win, stake, np.where(push, 0.0, -stake))
        net = np.where(hands.surrendered[:, k], -0.5 * stake, net)
        main = main + np.where(in_play, net, 0.0)
    return main


def _buster(rules: BlackjackRules, d_tot: IntArr, d_cards: IntArr, d_nat: BoolArr) -> FloatArr:
    """Net of a unit Buster Bet on every round (-1 where the table has none)."""
    if not rules.buster:
        return np.full(d_tot.size, -1.0)
    odds = np.full(16, -1.0)
    for cnt in range(3, 16):
        ratio = rules.buster_pay(cnt)
        if ratio is not None:
            odds[cnt] = ratio.num / ratio.den
    bust = (d_tot > 21) & ~d_nat
    out: FloatArr = np.where(bust, odds[np.minimum(d_cards, 15)], -1.0)
    return out


def _batch(
    rules: BlackjackRules, n: int, rng: np.random.Generator
) -> tuple[FloatArr, FloatArr, FloatArr]:
    """``n`` rounds at once: the main bet's, insurance's and the Buster Bet's nets."""
    chart = load_chart(rules.strategy)
    hard_t, soft_t, pair_t = (np.array(t, dtype=np.int64) for t in chart.code_tables())
    cards = _Cards(rng, n, rules.decks, 4)
    p1, up, p2, hole = cards.dealt
    col = np.where(up == 1, 9, up - 2)
    hands = _Hands(n, rules.max_hands, p1, p2)

    p_nat = ((p1 == 1) & (p2 == 10)) | ((p1 == 10) & (p2 == 1))
    d_nat = ((up == 1) & (hole == 10)) | ((up == 10) & (hole == 1))
    nat_pay = rules.natural_pays.num / rules.natural_pays.den
    main = np.where(d_nat, np.where(p_nat, 0.0, -1.0), np.where(p_nat, nat_pay, 0.0))
    hands.done[:, 0] = d_nat | p_nat
    ins_ratio = rules.insurance_pays.num / rules.insurance_pays.den
    offered = up == 1
    if rules.even_money:
        offered &= ~p_nat
    insurance = np.where(d_nat, ins_ratio, -1.0)[offered]

    for k in range(rules.max_hands):
        _play_slot(rules, (hard_t, soft_t, pair_t), hands, cards, col, k)
    d_tot, d_cards = _dealer(rules, cards, up, hole, d_nat)
    main = main + _showdown(rules, hands, ~(d_nat | p_nat), d_tot)
    return main, insurance, _buster(rules, d_tot, d_cards, d_nat)


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
            ci_low=mean - Z_999 * se,
            ci_high=mean + Z_999 * se,
        )


def simulate(
    variant: Variant[BlackjackRules], rounds: int, seed: int, batch: int = 200_000
) -> SimulationResult:
    """Simulate ``rounds`` rounds of one seat playing the table's chart with a flat bet."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rules = variant.rules
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


# --- the shipped main-bet runs (games/blackjack/data/simulated.json) ------------------

#: the package holding ``simulated.json``, and the seed and command of its runs
DATA = "games.blackjack.data"
SHIP_SEED = 20261130
BUILT_BY = "python bench/bench_shipped.py --write-data blackjack"
#: not in the main bet's figure: the Buster Bet, the wording, and backline bets (they follow a hand)
#: the rules the main bet's simulated figure depends on (a new rule joins the list only if
#: it changes the main bet, so an unrelated one does not void the shipped runs)
MAIN_RULES = (
    "decks",
    "dealer_peeks",
    "dealer_hits_soft_through",
    "natural_pays",
    "insurance",
    "insurance_pays",
    "even_money",
    "double_after_split",
    "double_for_less",
    "max_hands",
    "split",
    "split_aces_one_card",
    "surrender_min_total",
    "bust_push_totals",
    "strategy",
)


def figure_rules(rules: BlackjackRules) -> dict[str, str]:
    """What the main bet's simulated figure depends on (:data:`MAIN_RULES`), as plain
    data: the key a shipped run is checked against."""
    return {name: str(getattr(rules, name)) for name in MAIN_RULES}


def main_run(variant: Variant[BlackjackRules]) -> SimulationRun | None:
    """The shipped run of ``variant``'s main bet, if it was made under today's rules."""
    return shipped_run(DATA, variant.id, figure_rules(variant.rules))


def ship_entry(variant: Variant[BlackjackRules], rounds: int, seed: int = SHIP_SEED) -> Any:
    """The ``simulated.json`` entry of a ``rounds``-round run of ``variant``'s main bet."""
    sim = simulate(variant, rounds, seed).bets["main"]
    return entry(SimulationRun.of(sim, seed, BUILT_BY), figure_rules(variant.rules))

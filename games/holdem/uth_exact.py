"""Ultimate Texas Hold'em best play, exact: every decision from exact expected values.

The player decides three times: preflop (bet 4x or check) knowing the two hole
cards, on the flop (bet 2x or check) knowing five cards, on the river (bet 1x or
fold) knowing seven. Best play takes at each decision the larger exact expected
value over every equally likely rest of the deal, the later decisions themselves
played best; this module computes that value, hence the best-play house edge,
with no decision approximated and no sampling.

Net of one deal per unit of ante when the player bets ``k`` antes (4, 3, 2 or 1):
player higher: ``k + (1 if the dealer opens with a pair) + blind odds``; dealer
higher: ``-k - (1 if the dealer opens) - 1``; equal: 0; a fold: -2 (ante and
blind). So over the 990 dealer hands of one seven-card player hand, bet ``k`` is
worth ``k * A + B`` with

* ``A = W - L`` (hands the player beats, minus hands that beat him) and
* ``B = W_q + blind * W - 2 * L_q - L_n`` (``_q``: the dealer opens, ``_n``: not),

and everything below is integers in half-antes (the flush blind pays 3:2).

**The enumeration, by flop.** For one flop ``F`` the 49 other cards give
C(49, 4) = 211,876 four-card sets; ``F`` plus a set is a seven-card hand, and
each set splits six ways into (turn and river ``t`` | hole pair ``P``), so one
evaluation per set ranks, for each of the 1,176 boards ``F + t``, all 1,081
pairs of the 47 cards left: the player's hand with hole cards ``P`` and equally
the dealer's with those cards. For a board and a player pair ``P = {a, b}`` the
dealer's pairs are the other pairs of the 47 that miss ``a`` and ``b``, so
``W = less(all) - less(pairs with a) - less(pairs with b)`` (ranks strictly
below the player's; ``P`` itself is never below), and ties the same way with
``<=`` (``P`` counted three times, added back once): one sort of each board's
1,081 ranks and of each card's 46 pairs, no pair of hands compared one by one.
Then ``A``, ``B``, the river's best (``max(A + B, fold)``), and per hole pair the
flop's two sums over its 1,081 turn-and-river pairs: bet 2x (``2A + B``) and
check (the river's best), and the 4x sum (``4A + B``).

**Symmetry.** The 22,100 flops fall into 1,755 classes under the 24
permutations of the suits (:func:`flop_classes`); one flop per class, weighted
by the class size, covers every (hole, flop) pair once, and the preflop sums
are kept per hole class (a pair; two ranks suited or not: 169 classes), the
same for every hole of a class. Preflop best is then ``max(4x, check)`` per
class, and the edge is ``-sum / (2 * 1326 * 19600 * 1081 * 990)`` antes. The 3x
bet never beats both: bet ``k`` is worth ``k * sum(A) + sum(B)``, so 3x beats 4x only
when ``sum(A) < 0``, and then checking is worth at least betting 2x on every flop,
``2 * sum(A) + sum(B)``, which is more than 3x.

The whole run takes about five minutes of CPU (``bench/bench_uth_exact.py
--build``); its sums ship in ``data/uth_best.json`` (:func:`packaged_result`), with
a per-flop-class check sum a test recomputes on a few classes. The result:
50643648973/2317817502000 = 2.18497% of the ante (published best play 2.185%); best
play bets 4x with exactly the documented strategy's 69 hole classes.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from games.holdem.rules import HoldemRules
from games.poker.batch import categories, combinations_array, rank_batch
from games.poker.category import Category

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
#: the equally likely (hole, flop, turn and river, dealer's two) deals of one round
DEALS = 1326 * 19600 * 1081 * 990
#: hole classes: 13 pairs, then (high, low, suited) for 78 rank pairs x 2
HOLE_CLASSES = 169
_SUIT_PERMS = tuple(itertools.permutations(range(4)))


def _colex(cols: I64) -> I64:
    """The colexicographic index of sorted k-subsets given as rows (k columns)."""
    out = np.zeros(len(cols), dtype=np.int64)
    for j in range(cols.shape[1]):
        c = cols[:, j]
        # C(c, j + 1) for j = 0..3
        term = c.copy()
        for i in range(1, j + 1):
            term = term * (c - i) // (i + 1)
        out += term
    return out


@dataclass(frozen=True, slots=True)
class _Layout:
    """Positions among the 49 cards off the flop, the same for every flop."""

    fours_colex: I64  # (211876,) colex id of each lexicographic four-set
    pairs: I64  # (1176, 2) the pairs of 49 positions
    player: I64  # (1176, 1081): per board t, the pair ids of the 1,081 hole pairs
    four_of: I64  # (1176, 1081): colex id of t + that pair
    kpos: I64  # (1176, 1176): per board t, the cell k of each hole pair id (-1: shares a card)
    card_rows: I64  # (1176 * 47, 46): flat (t, k) index of each card's 46 pairs
    row_a: I64  # (1176 * 1081,): flat card_rows position of P in its first card's row
    row_b: I64  # the same in its second card's row


@functools.cache
def _layout() -> _Layout:
    pairs = combinations_array(49, 2).astype(np.int64)
    fours = combinations_array(49, 4).astype(np.int64)
    n = len(pairs)
    disjoint = ~(
        (pairs[:, None, 0, None] == pairs[None, :, :])
        | (pairs[:, None, 1, None] == pairs[None, :, :])
    ).any(axis=2)
    player = np.stack([np.flatnonzero(disjoint[t]) for t in range(n)])
    four = np.sort(np.concatenate([np.repeat(pairs, 1081, axis=0), pairs[player.ravel()]], 1), 1)
    four_of = _colex(four).reshape(n, 1081)
    kpos = np.full((n, n), -1, dtype=np.int64)
    kpos[np.arange(n)[:, None], player] = np.arange(1081)[None, :]
    pair_id = np.full((49, 49), -1, dtype=np.int64)
    pair_id[pairs[:, 0], pairs[:, 1]] = np.arange(n)
    pair_id[pairs[:, 1], pairs[:, 0]] = np.arange(n)
    card_rows = np.empty((n, 47, 46), dtype=np.int64)
    row_a = np.empty(n * 1081, dtype=np.int64)
    row_b = np.empty(n * 1081, dtype=np.int64)
    for t in range(n):
        left = [c for c in range(49) if c not in pairs[t]]
        for j, c in enumerate(left):
            others = [o for o in left if o != c]
            ks = kpos[t, pair_id[c, others]]
            card_rows[t, j] = t * 1081 + ks
            flat = (t * 47 + j) * 46 + np.arange(46)
            first = pairs[player[t, ks], 0] == c
            row_a[t * 1081 + ks[first]] = flat[first]
            row_b[t * 1081 + ks[~first]] = flat[~first]
    return _Layout(
        fours_colex=_colex(fours),
        pairs=pairs,
        player=player,
        four_of=four_of,
        kpos=kpos,
        card_rows=card_rows.reshape(n * 47, 46),
        row_a=row_a,
        row_b=row_b,
    )


def _less_leq(values: I64) -> tuple[I64, I64]:
    """Per element of each row: how many of its row are below it, and at most it."""
    order = np.argsort(values, axis=1, kind="stable")
    s = np.take_along_axis(values, order, axis=1)
    rows, width = s.shape
    idx = np.broadcast_to(np.arange(width), s.shape)
    start = np.ones(s.shape, dtype=bool)
    start[:, 1:] = s[:, 1:] != s[:, :-1]
    first = np.maximum.accumulate(np.where(start, idx, 0), axis=1)
    end = np.ones(s.shape, dtype=bool)
    end[:, :-1] = start[:, 1:]
    last = np.minimum.accumulate(np.where(end, idx, width - 1)[:, ::-1], axis=1)[:, ::-1]
    less = np.empty_like(values)
    leq = np.empty_like(values)
    r = np.arange(rows)[:, None]
    less[r, order] = first
    leq[r, order] = last + 1
    return less, leq


def _blind2(rules: HoldemRules) -> I64:
    """The blind's pay by category in half-antes (0 below a straight)."""
    den = lcm(*(r.den for r in rules.blind.values()))
    if 2 % den:
        raise ValueError("the exact UTH figure needs blind pays in halves")
    out = np.zeros(len(Category), dtype=np.int64)
    for cat, r in rules.blind.items():
        out[cat] = r.num * (2 // r.den)
    return out


def hole_class(cards: I64) -> I64:
    """The hole class (0..168) of rows of two card indices."""
    hi = np.maximum(cards[:, 0] // 4, cards[:, 1] // 4)
    lo = np.minimum(cards[:, 0] // 4, cards[:, 1] // 4)
    suited = cards[:, 0] % 4 == cards[:, 1] % 4
    # pairs 0..12; then hi > lo: index of (hi, lo) among 78, doubled + suited
    off = hi * (hi - 1) // 2 + lo
    out: I64 = np.where(hi == lo, hi, 13 + 2 * off + suited)
    return out


@dataclass(frozen=True, slots=True)
class FlopSums:
    """One flop's sums per hole class, in half-antes over all its deals."""

    bet4: list[int]  # sum of 4A + B over the flop's holes of each class
    best: list[int]  # sum over those holes of the flop's best (bet 2x or check)
    check: int  # a check sum: the sum of ``best`` (what the shipped data records)


def river_terms(rules: HoldemRules, flop: Sequence[int]) -> tuple[I64, I64, I64]:
    """``(rest, A, B)`` of one flop: the 49 other cards, and per (board t, pair k) cell
    (``(1176, 1081)`` arrays; board ``flop + rest[pairs[t]]``, hole cards
    ``rest[pairs[player[t, k]]]``) the terms of bet ``k`` = ``k * A + B``, in half-antes
    over the 990 dealer hands."""
    rest, _, a_k, b_0 = _cells(rules, flop)
    return rest, a_k, b_0


def _cells(rules: HoldemRules, flop: Sequence[int]) -> tuple[I64, I64, I64, I64]:
    """:func:`river_terms` and, second, each cell's seven-card rank (board + pair)."""
    lay = _layout()
    rest = np.array([c for c in range(52) if c not in flop], dtype=np.int64)
    f = np.broadcast_to(np.array(flop, dtype=np.int64), (len(lay.fours_colex), 3))
    lex = combinations_array(49, 4).astype(np.int64)
    ranks = np.empty(len(lex), dtype=np.int64)
    ranks[lay.fours_colex] = rank_batch(np.concatenate([f, rest[lex]], axis=1), validate=False)
    rank = ranks[lay.four_of]  # (1176 boards, 1081 pairs)
    flat = rank.ravel()
    less, leq = _less_leq(rank)
    card = flat[lay.card_rows]
    c_less, c_leq = _less_leq(card)
    c_less, c_leq = c_less.ravel(), c_leq.ravel()
    a, b = lay.row_a, lay.row_b
    win = less.ravel() - c_less[a] - c_less[b]
    tie = leq.ravel() - c_leq[a] - c_leq[b] + 1 - win
    lose = 990 - win - tie
    q = rules.qualifier
    below_all = np.repeat((rank < q).sum(axis=1), 1081)
    below_card = (card < q).sum(axis=1)
    below = below_all - below_card[a // 46] - below_card[b // 46] + (flat < q)
    # the player above the line: every dealer below it is beaten; else none opens
    opens = flat >= q
    win_n = np.where(opens, below, win)
    lose_n = np.where(opens, 0, below - win - tie)
    bl = _blind2(rules)[categories(flat)]
    a_k = 2 * (win - lose)
    b_0 = 2 * (win - win_n) + bl * win - 4 * (lose - lose_n) - 2 * lose_n
    return rest, rank, a_k.reshape(rank.shape), b_0.reshape(rank.shape)


def flop_sums(rules: HoldemRules, flop: Sequence[int]) -> FlopSums:
    """The exact sums of one flop (three distinct card indices), best play after it."""
    lay = _layout()
    rest, a_k, b_0 = river_terms(rules, flop)
    a_k, b_0 = a_k.ravel(), b_0.ravel()
    river = np.maximum(a_k + b_0, -4 * 990)
    ids = lay.player.ravel()
    n = len(lay.pairs)
    bet2 = np.bincount(ids, weights=2 * a_k + b_0, minlength=n)
    check = np.bincount(ids, weights=river, minlength=n)
    bet4 = np.bincount(ids, weights=4 * a_k + b_0, minlength=n)
    best = np.maximum(bet2, check)
    cls = hole_class(rest[lay.pairs])
    out4 = np.bincount(cls, weights=bet4, minlength=HOLE_CLASSES)
    outb = np.bincount(cls, weights=best, minlength=HOLE_CLASSES)
    return FlopSums(
        bet4=[int(x) for x in out4],
        best=[int(x) for x in outb],
        check=int(best.sum()),
    )


def flop_decisions(rules: HoldemRules, flop: Sequence[int]) -> tuple[I64, Bools, Bools]:
    """Best play after one flop: ``(rest, bet2, river)``: the 49 other cards, per hole pair
    id whether best play bets 2x on this flop, and per (board t, cell k) whether it bets
    1x on the river (see :func:`river_terms` for the indices)."""
    lay = _layout()
    rest, a_k, b_0 = river_terms(rules, flop)
    river = a_k + b_0 >= -4 * 990
    ids = lay.player.ravel()
    n = len(lay.pairs)
    bet2 = np.bincount(ids, weights=(2 * a_k + b_0).ravel(), minlength=n)
    check = np.bincount(ids, weights=np.maximum(a_k + b_0, -4 * 990).ravel(), minlength=n)
    return rest, bet2 >= check, river


def trips_fold_changes(rules: HoldemRules, flop: Sequence[int]) -> int:
    """How many (board, hole) cells of one flop best play folds on the river although the
    Trips pay of the player's seven cards differs from the board's own (rule 6 would then
    pay otherwise than a never-fold count; :mod:`games.holdem.trips`)."""
    lay = _layout()
    rest, rank, a_k, b_0 = _cells(rules, flop)
    fold = a_k + b_0 < -4 * 990
    table = np.full(len(Category), -1, dtype=np.int64)
    for cat, r in rules.trips.items():
        table[cat] = r.num * 1000 // r.den
    boards = np.concatenate(
        [np.broadcast_to(np.array(flop, dtype=np.int64), (len(lay.pairs), 3)), rest[lay.pairs]],
        axis=1,
    )
    board_pay = table[categories(rank_batch(boards, validate=False))]
    seven_pay = table[categories(rank)]  # the player's seven: the cell's rank
    return int((fold & (seven_pay != board_pay[:, None])).sum())


def flop_classes() -> list[tuple[tuple[int, int, int], int]]:
    """One flop per class of the 22,100 under suit permutations, with the class size."""
    seen: dict[tuple[int, ...], int] = {}
    for flop in itertools.combinations(range(52), 3):
        key = min(tuple(sorted(c // 4 * 4 + p[c % 4] for c in flop)) for p in _SUIT_PERMS)
        seen[key] = seen.get(key, 0) + 1
    return [((k[0], k[1], k[2]), w) for k, w in sorted(seen.items())]


@dataclass(frozen=True, slots=True)
class BestPlay:
    """The best-play totals per hole class (half-antes over all deals of the class's holes)."""

    bet4: list[int]
    check: list[int]
    checks: list[int]  # per flop class (in :func:`flop_classes` order), FlopSums.check

    @property
    def total(self) -> int:
        """Sum over every deal of the best-play net, in half-antes."""
        return sum(max(x, y) for x, y in zip(self.bet4, self.check, strict=True))

    @property
    def edge(self) -> Fraction:
        """The house edge per unit of ante, exact."""
        return Fraction(-self.total, 2 * DEALS)

    def bet4_classes(self) -> list[int]:
        """The hole classes best play bets 4x before the flop."""
        return [i for i, (x, y) in enumerate(zip(self.bet4, self.check, strict=True)) if x >= y]


def best_play(
    rules: HoldemRules, classes: Iterable[tuple[tuple[int, int, int], int]] | None = None
) -> BestPlay:
    """Run the whole enumeration (minutes): the sums over every flop class."""
    bet4 = [0] * HOLE_CLASSES
    check = [0] * HOLE_CLASSES
    checks: list[int] = []
    for flop, weight in flop_classes() if classes is None else classes:
        s = flop_sums(rules, flop)
        for i in range(HOLE_CLASSES):
            bet4[i] += weight * s.bet4[i]
            check[i] += weight * s.best[i]
        checks.append(s.check)
    return BestPlay(bet4=bet4, check=check, checks=checks)


def to_data(result: BestPlay, rules: HoldemRules, command: str) -> dict[str, Any]:
    """The shipped file's contents."""
    return {
        "spec": 1,
        "command": command,
        "rules": fingerprint(rules),
        "edge": str(result.edge),
        "bet4": result.bet4,
        "check": result.check,
        "flop_checks": result.checks,
    }


def fingerprint(rules: HoldemRules) -> dict[str, Any]:
    """What the figure depends on (the blind table and the dealer's qualifier)."""
    return {
        "blind": {c.name.lower(): str(r) for c, r in sorted(rules.blind.items())},
        "qualifier": rules.qualifier,
    }


@functools.cache
def packaged_result() -> tuple[BestPlay, dict[str, Any]]:
    """``games/holdem/data/uth_best.json``: the shipped sums and the rules they are for."""
    text = resources.files("games.holdem.data").joinpath("uth_best.json").read_text("utf-8")
    data = json.loads(text)
    if data.get("spec") != 1:
        raise ValueError("games/holdem/data/uth_best.json: spec must be 1")
    result = BestPlay(bet4=data["bet4"], check=data["check"], checks=data["flop_checks"])
    if str(result.edge) != data["edge"]:
        raise ValueError("games/holdem/data/uth_best.json: the sums do not give its edge")
    return result, data

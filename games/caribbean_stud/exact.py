"""The exact ante edge of Caribbean Stud with the best call/fold decision, by counting.

What is counted: every deal of a player hand P (five cards), the dealer's exposed
card u (one of the 47 others) and the dealer's four hidden cards (any four of the
46 left): 2,598,960 x 47 x 163,185 = 19,933,230,517,200 deals, the Wizard of
Odds' count. For each (P, u) only four numbers matter: how many of the 163,185
dealer hands do not qualify, and how many qualifying hands rank below, equal to
and above P. From them the call is worth (per unit of ante, ``m`` = call multiple)

    not qualifying x ante pay + below x (ante pay + m x call pay) - above x (1 + m)

against -163,185 for folding. *With the up card* the player takes the better of
the two for every (P, u); *without it* (``dealer_shows_card = false``) the
player decides on P alone, with the values summed over the 47 possible cards.

How the counts are made without visiting the 2 x 10^13 pairs:

* **Suit symmetry.** Renaming suits changes nothing, so only one player hand of
  each of the 134,459 suit classes is examined, weighted by its class size.
* **Inclusion-exclusion.** The dealer hands that contain u and miss P are all the
  hands containing u, less those that also contain a card of P, and so on:
  ``sum over S subset of P of (-1)^|S| N(S + {u})`` where ``N(T)`` counts the
  five-card hands containing the set T (of 1 to 5 cards) with the property.
* **A sweep over ranks.** ``N(T, rank < x)`` for every T of 1..4 cards is kept
  in four count arrays (52, 1,326, 22,100 and 270,725 entries, indexed by the
  combinatorial number of T). Player classes are visited in rank order; the
  2,598,960 hands are added to the arrays rank by rank, so each look-up is one
  array read. Five-card sets T are single hands, compared directly.

Everything is integer arithmetic; the results are exact :class:`~fractions.Fraction`
values. The run takes 15-30 s here (``bench/results/caribbean_exact.md``), so
:func:`games.caribbean_stud.house_edge` reads the figures from
``data/exact.json``, written by ``python bench/bench_caribbean_exact.py
--write-data`` and recomputed by a slow test.

:func:`call_table` returns the best decisions as a small table (the suit-class
keys where they differ from "call with a pair or better") that a simulation can
play from (bench/bench_caribbean_exact.py).

The best play found (standard tables): call every pair or better, fold below
ace/king, and with ace/king call in 140,164 of the 385,400 (ace/king suit class,
up card) pairs. Without the up card it is "A-K-J-8-3 or better" except that
A-K-J-8-2 showing all four suits is also called (240 hands).
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from math import comb, lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from games.caribbean_stud.rules import StudRules
from games.caribbean_stud.simulate import Decide
from games.poker.batch import combinations_array, rank_batch
from games.poker.category import Category
from games.poker.rank5 import DISTINCT_HANDS
from games.poker.tables import tables

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: dealer hands per (player hand, up card): the four hidden cards from the 46 left
HIDDEN = comb(46, 4)
#: all deals: player hand x up card x hidden cards (19,933,230,517,200)
DEALS = comb(52, 5) * 47 * HIDDEN
#: binomial coefficients C(n, k) for n < 53, k < 6: the combinatorial number system
BIN: I64 = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
#: the 24 ways to rename the four suits
SUIT_PERMS: I64 = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def colex(cards: npt.NDArray[np.integer]) -> I64:
    """The combinatorial (colex) number of each row of ascending card indices."""
    out = np.zeros(cards.shape[:-1], dtype=np.int64)
    for i in range(cards.shape[-1]):
        out += BIN[cards[..., i], i + 1]
    return out


def canonical(cards: npt.NDArray[np.integer], marked: npt.NDArray[np.integer] | None = None) -> I64:
    """A key equal for exactly the rows that are the same up to renaming suits.

    The key is the smallest 52-bit card mask over the 24 renamings; with
    ``marked`` (one more card per row, e.g. the dealer's up card) that card's
    renamed index is appended below the mask, so (P, u) pairs are keyed as pairs.
    """
    c = np.asarray(cards, dtype=np.int64)
    best = np.full(c.shape[0], np.iinfo(np.int64).max, dtype=np.int64)
    for perm in SUIT_PERMS:
        mask = (np.int64(1) << ((c & ~3) | perm[c & 3])).sum(axis=1)
        if marked is not None:
            m = np.asarray(marked, dtype=np.int64)
            mask = (mask << 6) | ((m & ~3) | perm[m & 3])
        np.minimum(best, mask, out=best)
    return best


@dataclass(frozen=True, slots=True)
class DealCounts:
    """The dealer-hand counts of every (player class, up card), for one qualifier.

    Row ``i`` is the suit class of player hand ``player[i]`` (``weight[i]`` hands,
    dense rank ``rank[i]``); column ``j`` is the up card ``up[i, j]``. Counts are
    of the 163,185 dealer hands holding ``up[i, j]`` and none of ``player[i]``.
    """

    qualifier: int
    player: npt.NDArray[np.int8]  # (n, 5) ascending card indices
    weight: I64  # (n,)
    rank: I64  # (n,)
    up: npt.NDArray[np.int8]  # (n, 47) the cards not in the player hand, ascending
    below_qualifier: I32  # (n, 47) dealer hands that do not qualify
    below: I32  # (n, 47) dealer hands ranked below the player's
    at_most: I32  # (n, 47) dealer hands ranked below or equal to the player's


def _subset_numbers(hands: npt.NDArray[np.integer], k: int) -> I64:
    """Colex numbers of every k-subset of every (ascending) five-card row."""
    pos = list(itertools.combinations(range(5), k))
    return np.stack([colex(hands[:, list(p)]) for p in pos], axis=1)


def _with_up(player: I64, up: I64, pos: tuple[int, ...]) -> I64:
    """Colex numbers of ``player[:, pos] + {up}`` for every up card: shape (n, 47)."""
    s = player[:, list(pos)][:, :, None]  # (n, j, 1), ascending
    u = up[:, None, :]  # (n, 1, 47)
    above = s > u
    j = len(pos)
    out: I64 = BIN[up, 1 + j - above.sum(axis=1)]
    if j:
        out = out + BIN[s, np.arange(1, j + 1)[None, :, None] + above].sum(axis=1)
    return out


@functools.cache
def _all_hands() -> tuple[I64, I64]:
    """All 2,598,960 five-card hands (ascending rows, lexicographic) and their dense ranks."""
    hands = combinations_array(52, 5).astype(np.int64)
    return hands, rank_batch(hands, validate=False)


def player_classes() -> tuple[I64, I64]:
    """One hand of each of the 134,459 suit classes, and how many hands each stands for."""
    hands, _ = _all_hands()
    _, first, weight = np.unique(canonical(hands), return_index=True, return_counts=True)
    return hands[first], weight.astype(np.int64)


def deal_counts(
    qualifier: int, players: npt.NDArray[np.integer] | None = None, chunk: int = 4096
) -> DealCounts:
    """Count, for every player class and up card, the dealer hands below each threshold.

    ``players`` (rows of five card indices, weight 1 each) replaces the 134,459
    class representatives: the tests count a few hands this way and compare with
    a direct enumeration. Rows come back in rank order.
    """
    hands, ranks = _all_hands()
    if players is None:
        player, weight = player_classes()
    else:
        player = np.sort(np.asarray(players, dtype=np.int64), axis=1)
        weight = np.ones(len(player), dtype=np.int64)
    prank = rank_batch(player)
    order = np.argsort(prank, kind="stable")
    player, weight, prank = player[order], weight[order], prank[order]
    by_colex5 = np.zeros(comb(52, 5), dtype=np.int64)
    by_colex5[colex(hands)] = ranks
    n = len(player)
    avail = np.ones((n, 52), dtype=bool)
    np.put_along_axis(avail, player, False, axis=1)
    up = np.nonzero(avail)[1].reshape(n, 47).astype(np.int64)

    hand_order = np.argsort(ranks, kind="stable")
    subsets = {k: _subset_numbers(hands[hand_order], k) for k in (1, 2, 3, 4)}
    low = ranks[hand_order] < qualifier
    below_q_of = {
        k: np.bincount(subsets[k][low].ravel(), minlength=comb(52, k)) for k in (1, 2, 3, 4)
    }
    # look-up numbers of the sets S + {u}, S a subset of P of 1..3 cards (T of 2..4)
    idx = {k: np.zeros((n, 47, comb(5, k - 1)), dtype=np.int32) for k in (2, 3, 4)}
    below_q = np.zeros((n, 47), dtype=np.int64)
    lt5 = np.zeros((n, 47), dtype=np.int64)
    le5 = np.zeros((n, 47), dtype=np.int64)
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        p, u, r = player[a:b], up[a:b], prank[a:b, None, None]
        acc = below_q_of[1][u]
        for k in (2, 3, 4):
            nums = np.stack(
                [_with_up(p, u, pos) for pos in itertools.combinations(range(5), k - 1)], axis=2
            )
            idx[k][a:b] = nums
            acc = acc + (-1) ** (k - 1) * below_q_of[k][nums].sum(axis=2)
        r5 = by_colex5[
            np.stack([_with_up(p, u, pos) for pos in itertools.combinations(range(5), 4)], axis=2)
        ]
        below_q[a:b] = acc + (r5 < qualifier).sum(axis=2)
        lt5[a:b] = (r5 < r).sum(axis=2)
        le5[a:b] = (r5 <= r).sum(axis=2)

    below, at_most = _sweep(ranks[hand_order], subsets, prank, up, idx, lt5, le5)
    return DealCounts(
        qualifier=qualifier,
        player=player.astype(np.int8),
        weight=weight,
        rank=prank,
        up=up.astype(np.int8),
        below_qualifier=below_q.astype(np.int32),
        below=below.astype(np.int32),
        at_most=at_most.astype(np.int32),
    )


def _sweep(
    sorted_ranks: I64,
    subsets: dict[int, I64],
    prank: I64,
    up: I64,
    idx: dict[int, npt.NDArray[np.int32]],
    lt5: I64,
    le5: I64,
) -> tuple[I64, I64]:
    """The sweep of :func:`deal_counts`: per player class and up card, the dealer hands
    ranked below the player's and at most equal to it.

    Dealer hands (their 1- to 4-card subsets ``subsets``, in rank order) are added to
    ``count[k][T]`` (hands containing ``T`` ranked below the current rank) one rank at a
    time; a class at that rank reads its count by inclusion-exclusion over ``idx``.
    """
    n = len(prank)
    count = {k: np.zeros(comb(52, k), dtype=np.int64) for k in (1, 2, 3, 4)}
    hand_at = np.searchsorted(sorted_ranks, np.arange(DISTINCT_HANDS + 2))
    class_at = np.searchsorted(prank, np.arange(DISTINCT_HANDS + 2))
    below = np.zeros((n, 47), dtype=np.int64)
    at_most = np.zeros((n, 47), dtype=np.int64)

    def look(a: int, b: int) -> I64:
        out = count[1][up[a:b]]
        for k in (2, 3, 4):
            out = out + (-1) ** (k - 1) * count[k][idx[k][a:b]].sum(axis=2)
        return out

    for rank in range(1, DISTINCT_HANDS + 1):
        a, b = int(class_at[rank]), int(class_at[rank + 1])
        if b > a:
            below[a:b] = look(a, b) + lt5[a:b]
        h0, h1 = int(hand_at[rank]), int(hand_at[rank + 1])
        for k in (1, 2, 3, 4):
            np.add.at(count[k], subsets[k][h0:h1].ravel(), 1)
        if b > a:
            at_most[a:b] = look(a, b) + le5[a:b]
    return below, at_most


@functools.cache
def _category_of_rank() -> npt.NDArray[np.int8]:
    starts = tables().category_start
    out = np.zeros(DISTINCT_HANDS + 1, dtype=np.int8)
    for c, s in enumerate(starts):
        if s:
            out[s:] = c
    return out


def call_values(counts: DealCounts, rules: StudRules) -> tuple[I64, int]:
    """Total net of calling over the dealer hands of each (class, up card), times ``scale``.

    Returns ``(values, scale)``: integers, so ``values / scale`` is the exact sum
    in antes over the 163,185 dealer hands (folding is ``-163,185``).
    """
    pays = [rules.ante_pays, *rules.call_pays.values()]
    scale = lcm(*(r.den for r in pays))
    ante = rules.ante_pays.num * scale // rules.ante_pays.den
    pay = np.zeros(len(Category), dtype=np.int64)
    for cat, ratio in rules.call_pays.items():
        pay[cat] = ratio.num * scale // ratio.den
    m = rules.call_multiple
    qual = (counts.rank >= counts.qualifier)[:, None]
    nq = counts.below_qualifier.astype(np.int64)
    win: I64 = np.where(qual, counts.below - nq, 0).astype(np.int64)
    tie: I64 = np.where(qual, counts.at_most - counts.below, 0).astype(np.int64)
    lose = HIDDEN - nq - win - tie
    win_pay = ante + m * pay[_category_of_rank()[counts.rank]][:, None]
    values: I64 = nq * ante + win * win_pay - lose * (1 + m) * scale
    return values, scale


@dataclass(frozen=True, slots=True)
class ExactEdge:
    """An exact ante edge: ``loss`` antes lost in total over ``deals`` equally likely deals."""

    loss: Fraction
    deals: int = DEALS

    @property
    def edge(self) -> Fraction:
        return self.loss / self.deals


def strategy_edge(counts: DealCounts, rules: StudRules, call: BoolArray) -> ExactEdge:
    """The exact edge of calling exactly where ``call`` (shape (n, 47)) is true."""
    values, scale = call_values(counts, rules)
    net = np.where(call, values, -HIDDEN * scale).sum(axis=1)
    total = sum(int(w) * int(v) for w, v in zip(counts.weight, net, strict=True))
    return ExactEdge(loss=Fraction(-total, scale))


def decisions_of(counts: DealCounts, decide: Decide) -> BoolArray:
    """A row rule (:data:`games.caribbean_stud.simulate.Decide`) over every (class, up card)."""
    n = len(counts.weight)
    player = np.repeat(counts.player.astype(np.int64), 47, axis=0)
    up = counts.up.astype(np.int64).ravel()
    out: BoolArray = decide(player, np.repeat(counts.rank, 47), up).reshape(n, 47)
    return out


def optimal_decisions(counts: DealCounts, rules: StudRules, upcard: bool) -> BoolArray:
    """Where calling beats folding: per (class, up card), or per class (no up card)."""
    values, scale = call_values(counts, rules)
    if upcard:
        out: BoolArray = values > -HIDDEN * scale
        return out
    per_hand = values.sum(axis=1) > -47 * HIDDEN * scale
    return np.repeat(per_hand[:, None], 47, axis=1)


def optimal_edge(counts: DealCounts, rules: StudRules, upcard: bool) -> ExactEdge:
    """The exact ante edge of the best call/fold play, with or without the up card."""
    return strategy_edge(counts, rules, optimal_decisions(counts, rules, upcard))


@dataclass(frozen=True, slots=True)
class CallTable:
    """The best decisions, stored as the exceptions to "call with a pair or better".

    ``keys`` are the sorted :func:`canonical` keys of the situations where the
    best play differs from that rule: (P, u) pairs with the up card
    (``canonical(P, marked=u)``), player hands without it (``canonical(P)``).
    ``ranks`` are the player ranks at which exceptions occur, so only those rows
    need a key. For the standard tables every exception is an ace/king the rule
    would fold and the best play calls.
    """

    upcard: bool
    ranks: I64
    keys: I64

    def calls(self, player: npt.NDArray[np.integer], rank: I64, up: I64 | None) -> BoolArray:
        """Whether to call with each row of ``player`` (rank ``rank``, up card ``up``)."""
        out: BoolArray = _category_of_rank()[rank] >= Category.PAIR
        rows = np.flatnonzero(np.isin(rank, self.ranks))
        if rows.size:
            if self.upcard:
                if up is None:
                    raise ValueError("this table decides on the up card: pass it")
                k = canonical(np.asarray(player)[rows], marked=np.asarray(up)[rows])
            else:
                k = canonical(np.asarray(player)[rows])
            pos = np.minimum(np.searchsorted(self.keys, k), len(self.keys) - 1)
            out[rows] ^= self.keys[pos] == k if len(self.keys) else False
        return out


def call_table(counts: DealCounts, rules: StudRules, upcard: bool) -> CallTable:
    """The :class:`CallTable` of the best play (with or without the up card)."""
    call = optimal_decisions(counts, rules, upcard)
    default = (_category_of_rank()[counts.rank] >= Category.PAIR)[:, None]
    odd = call != default
    if not upcard:
        rows = np.flatnonzero(odd[:, 0])
        keys = np.unique(canonical(counts.player[rows]))
    else:
        rows, cols = np.nonzero(odd)
        keys = np.unique(canonical(counts.player[rows], marked=counts.up[rows, cols]))
    return CallTable(upcard=upcard, ranks=np.unique(counts.rank[rows]), keys=keys)


def rules_fingerprint(rules: StudRules) -> dict[str, Any]:
    """What the ante edge depends on, as plain data (the key of the cached figures)."""
    return {
        "ante_pays": str(rules.ante_pays),
        "call_multiple": rules.call_multiple,
        "qualifier": rules.qualifier,
        "call_pays": {c.name.lower(): str(r) for c, r in sorted(rules.call_pays.items())},
    }


def cached_figures() -> list[dict[str, Any]]:
    """The entries of ``data/exact.json`` (see the module docstring)."""
    text = resources.files("games.caribbean_stud.data").joinpath("exact.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("spec") != 1:
        raise ValueError("games/caribbean_stud/data/exact.json: spec must be 1")
    entries: list[dict[str, Any]] = data["entries"]
    return entries


def cached_edge(rules: StudRules) -> ExactEdge | None:
    """The cached exact edge for these rules (up card shown or not), or None.

    None also for tables with bought draws (Oasis): their ante is not counted here.
    """
    if rules.draw_costs:
        return None
    want = rules_fingerprint(rules)
    key = "upcard" if rules.dealer_shows_card else "no_upcard"
    for entry in cached_figures():
        if entry["rules"] == want:
            return ExactEdge(loss=Fraction(entry[key]["loss"]), deals=int(entry[key]["deals"]))
    return None


def percent(x: Fraction, places: int = 6) -> str:
    """``x`` as a percentage rounded half up to ``places`` decimals (no floats)."""
    scaled = x * 100 * 10**places
    q = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    sign = "-" if q < 0 else ""
    whole, frac = divmod(abs(q), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def figures_entry(counts: DealCounts, rules: StudRules) -> dict[str, Any]:
    """One ``data/exact.json`` entry: both variants' exact losses for these rules."""
    out: dict[str, Any] = {"rules": rules_fingerprint(rules)}
    for key, upcard in (("upcard", True), ("no_upcard", False)):
        e = optimal_edge(counts, rules, upcard)
        out[key] = {"loss": str(e.loss), "deals": e.deals, "edge_percent": percent(e.edge)}
    return out

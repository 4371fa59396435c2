"""Exact returns of the three-card bets, by enumerating all 22,100 x 18,424 deals.

The player's three cards ``P`` and the dealer's three ``D`` are a uniform pair
of disjoint hands; on page 004 one of the dealer's cards, ``u``, uniform among
the three, is shown before the player plays or folds. In units of the ante, a
played hand is worth ``v(P, D)``: the ante's even money and the play bet pushed
if the dealer does not qualify (queen high), else +2 / 0 / -2 as the player
wins, ties or loses, plus any ante bonus (Tri-Card). A fold is worth -1.

For each player hand and shown card the sum ``S(P, u)`` of ``v`` over the 1,128
dealer hands holding ``u`` and the count ``N(P, u)`` decide the best play:
play when ``S > -N``. Without a shown card the decision uses the sum over all
18,424 dealer hands. The player hands are reduced to their 1,755 classes under
the 24 suit permutations (values are suit-blind), so the whole enumeration is
about 1,755 NumPy passes over the 22,100 dealer hands. Everything is integer;
the returns are :class:`fractions.Fraction`.

The 6 Card Bonus uses the best five of the six cards, which are a uniform
six-card set: its return comes from the exhaustive six-card category counts.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from games.core.money import Ratio
from games.poker.batch import categories, combinations_array, exhaustive_histogram
from games.poker.category import Category
from games.poker.three_card import Category3, category3_batch, rank3_batch
from games.three_card.rules import ThreeCardRules

HANDS = math.comb(52, 3)  # 22,100
DEALER_HANDS = math.comb(49, 3)  # 18,424
WITH_CARD = math.comb(48, 2)  # 1,128 dealer hands holding a given card
CHUNK = 48  # player-hand classes per NumPy pass


@dataclass(frozen=True, slots=True)
class Hands:
    """Every three-card hand in lexicographic order, with its facts."""

    cards: npt.NDArray[np.int8]  # (22100, 3)
    rank: npt.NDArray[np.int64]
    category: npt.NDArray[np.intp]
    mask: npt.NDArray[np.int64]  # 52-bit card set
    index: npt.NDArray[np.int32]  # (52, 52, 52) sorted cards -> hand number
    klass: npt.NDArray[np.intp]  # hand -> suit class
    perm: npt.NDArray[np.int8]  # hand -> (4,) suit map taking the hand to its class's first
    reps: npt.NDArray[np.intp]  # class -> representative hand
    sizes: npt.NDArray[np.int64]  # class -> number of hands


@functools.cache
def hands() -> Hands:
    cards = combinations_array(52, 3)
    c64 = cards.astype(np.int64)
    rank = rank3_batch(cards).astype(np.int64)
    mask = (np.int64(1) << c64).sum(axis=1)
    index = np.full((52, 52, 52), -1, dtype=np.int32)
    index[c64[:, 0], c64[:, 1], c64[:, 2]] = np.arange(HANDS, dtype=np.int32)
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    codes = np.empty((len(perms), HANDS), dtype=np.int64)
    for i, p in enumerate(perms):
        mapped = np.sort((c64 >> 2) * 4 + p[c64 & 3], axis=1)
        codes[i] = mapped[:, 0] * 2704 + mapped[:, 1] * 52 + mapped[:, 2]
    best = codes.argmin(axis=0)
    canon = codes[best, np.arange(HANDS)]
    uniq, klass, sizes = np.unique(canon, return_inverse=True, return_counts=True)
    reps = index[uniq // 2704, (uniq // 52) % 52, uniq % 52].astype(np.intp)
    return Hands(
        cards=cards,
        rank=rank,
        category=category3_batch(rank),
        mask=mask,
        index=index,
        klass=klass.reshape(-1).astype(np.intp),
        perm=perms[best].astype(np.int8),
        reps=reps,
        sizes=sizes.astype(np.int64),
    )


def _scale(*ratios: Ratio) -> int:
    return math.lcm(*(r.den for r in ratios)) if ratios else 1


class _Key(NamedTuple):
    """What the play/fold sums depend on (hashable, for caching)."""

    qualifier: int
    ante: Ratio
    play: Ratio
    bonus: tuple[tuple[Category3, Ratio], ...]


def _key(rules: ThreeCardRules) -> _Key:
    bonus = tuple(sorted(rules.ante_bonus.items(), key=lambda kv: kv[0]))
    return _Key(rules.qualifier, rules.pays["ante"], rules.pays["play"], bonus)


Sums = tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int64]]


@functools.cache
def _class_sums(key: _Key) -> Sums:
    """``(L, S, N)``: per class and shown card, the sum of ``L * v`` and the deal count."""
    qualifier, ante, play = key.qualifier, key.ante, key.play
    bonus = dict(key.bonus)
    scale = _scale(ante, play, *bonus.values())
    h = hands()
    qualifies = h.rank >= qualifier
    ante_win = scale * ante.num // ante.den
    both_win = ante_win + scale * play.num // play.den
    bonus_of = np.zeros(len(Category3), dtype=np.int64)
    for cat, r in bonus.items():
        bonus_of[cat] = scale * r.num // r.den
    n_cls = len(h.reps)
    sums = np.zeros((n_cls, 52), dtype=np.int64)
    counts = np.zeros((n_cls, 52), dtype=np.int64)
    flat = h.cards.reshape(-1).astype(np.intp)  # each dealer hand's three cards
    for lo in range(0, n_cls, CHUNK):
        reps = h.reps[lo : lo + CHUNK]
        k = len(reps)
        ok = (h.mask[None, :] & h.mask[reps][:, None]) == 0
        p = h.rank[reps][:, None]
        d = h.rank[None, :]
        v = np.where(
            ~qualifies[None, :],
            ante_win,
            np.where(p > d, both_win, np.where(p < d, -2 * scale, 0)),
        )
        v = (v + bonus_of[h.category[reps]][:, None]) * ok
        # bincount per row via offsets; float64 sums of integers below 2**53 are exact
        where = (np.arange(k)[:, None] * 52 + flat.reshape(1, -1)).reshape(-1)
        vf = np.repeat(v.astype(np.float64), 3, axis=1).reshape(-1)
        w = np.repeat(ok.astype(np.float64), 3, axis=1).reshape(-1)
        sums[lo : lo + k] = np.rint(np.bincount(where, vf, k * 52)).reshape(k, 52)
        counts[lo : lo + k] = np.rint(np.bincount(where, w, k * 52)).reshape(k, 52)
    return scale, sums, counts


def class_play(
    rules: ThreeCardRules,
) -> tuple[int, npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(L, play, S, N)`` per class and shown card (without a shown card: one column)."""
    scale, sums, counts = _class_sums(_key(rules))
    if rules.dealer_shows_card:
        play = sums > -scale * counts
        return scale, play, sums, counts
    total, n = sums.sum(axis=1, keepdims=True), counts.sum(axis=1, keepdims=True)
    return scale, total > -scale * n, total, n


@functools.cache
def _play_table(key: _Key, shows: bool) -> npt.NDArray[np.bool_]:
    h = hands()
    scale, sums, counts = _class_sums(key)
    if shows:
        cls_play = sums > -scale * counts
    else:
        cls_play = np.repeat(
            sums.sum(axis=1, keepdims=True) > -scale * counts.sum(axis=1, keepdims=True), 52, 1
        )
    u = np.arange(52, dtype=np.int64)
    mapped = (u[None, :] >> 2) * 4 + h.perm.astype(np.int64)[:, u & 3]  # (hands, 52)
    table: npt.NDArray[np.bool_] = cls_play[h.klass[:, None], mapped]
    return table


def play_table(rules: ThreeCardRules) -> npt.NDArray[np.bool_]:
    """The best decision for every player hand (lexicographic number) and shown card.

    ``table[hand, u]`` is True to play. Without a shown card every column is the same.
    """
    return _play_table(_key(rules), rules.dealer_shows_card)


def should_play(rules: ThreeCardRules, cards: tuple[int, ...], shown: int | None) -> bool:
    """The best decision for one hand (card indices) given the dealer's shown card."""
    if len(cards) != 3 or len(set(cards)) != 3 or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"not a three-card hand: {cards}")
    a, b, c = sorted(cards)
    column = 0
    if rules.dealer_shows_card:
        if shown is None or shown in cards or not 0 <= shown < 52:
            raise ValueError(f"this table shows a dealer card; got {shown!r}")
        column = shown
    return bool(play_table(rules)[int(hands().index[a, b, c]), column])


def _pp_units(rules: ThreeCardRules, scale: int) -> npt.NDArray[np.int64]:
    out = np.full(len(Category3), -scale, dtype=np.int64)
    for cat, r in rules.pair_plus.items():
        out[cat] = scale * r.num // r.den
    return out


def bet_returns(rules: ThreeCardRules) -> dict[str, Fraction]:
    """Expected net per unit staked on each bet, playing the best strategy."""
    h = hands()
    scale, play, sums, counts = class_play(rules)
    sizes = h.sizes[:, None]
    deals = HANDS * DEALER_HANDS * 3
    ante_total = int((sizes * np.where(play, sums, -scale * counts)).sum())
    out = {"ante": Fraction(ante_total, deals * scale)}
    pp_scale = _scale(*rules.pair_plus.values())
    pp = _pp_units(rules, pp_scale)[h.category[h.reps]][:, None]
    pp_total = int((sizes * counts * np.where(play, pp, -pp_scale)).sum())
    out["pair-plus"] = Fraction(pp_total, deals * pp_scale)
    if rules.six_card_bonus:
        out["six-card-bonus"] = six_card_bonus_return(rules)
    return out


def pair_plus_alone_return(rules: ThreeCardRules) -> Fraction:
    """Pair Plus bet without an ante (Tri-Card allows it): pays on the player's hand alone."""
    counts = np.bincount(hands().category, minlength=len(Category3))
    total = Fraction(0)
    for cat in Category3:
        r = rules.pair_plus.get(cat)
        total += int(counts[cat]) * (Fraction(r.num, r.den) if r else Fraction(-1))
    return total / HANDS


@functools.cache
def six_card_counts() -> dict[Category, int]:
    """Best-five category counts of all C(52, 6) six-card sets."""
    hist = exhaustive_histogram(6)
    cats = categories(np.arange(len(hist)))
    return {c: int(hist[cats == c].sum()) for c in Category}


def six_card_bonus_return(rules: ThreeCardRules) -> Fraction:
    total = Fraction(0)
    for cat, n in six_card_counts().items():
        r = rules.six_card_bonus.get(cat)
        total += n * (Fraction(r.num, r.den) if r else Fraction(-1))
    return total / math.comb(52, 6)

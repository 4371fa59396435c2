"""European Slot Poker's exact first hand from a fresh 141-card deck, under best holds.

The fruit deck has no suits: a hand is a multiset of symbols, and every figure depends
only on counts. So the analysis enumerates symbol multisets, not cards:

* a deal is one of the multisets of 5 symbols (792 over 8 symbols), dealt with
  probability ``prod C(n_s, d_s) / C(141, 5)`` (``n_s`` cards of symbol ``s``);
* a hold is a sub-multiset of the deal (up to 32, fewer with repeated symbols) and the
  draw of ``5 - k`` cards from the 136 left is again a multiset, with hypergeometric
  weight ``prod C(n_s - d_s, w_s) / C(136, 5 - k)``;
* a final hand's line comes from the machine's own rule (``line_of(jokers, groups)``,
  :func:`games.video_poker.hands.fruit_line`: the joker wild), so the analysis and the
  machine cannot disagree on what pays.

Every deal's best hold (greatest expected pay; ties: more cards kept, then symbols in
deck order) is found exactly, and weighted: :func:`first_hand` gives the return, each
line's probability, and the per-hand chances the bonuses read (a hand of two or more
natural cherries; a hand of four or more of a fruit, the joker counting), all exact
Fractions. Every figure is for a hand dealt from a *fresh* deck; the machine keeps its
deck between hands (shuffled only at 25 cards or fewer, after a win and after a Cherry
Bonus), which the simulation measures.

>>> first = first_hand(TOY_DECK, {"five": 50, "four": 10, "three": 2}, _toy_line, ("plum",))
>>> first.deals, float(first.expected_pay) > 0
(15, True)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
LineOf = Callable[[int, tuple[int, ...]], str | None]
WILD = "joker"
CHERRY = "cherry"

#: a small deck for the doctests: jokers, plums, bells
TOY_DECK = {"joker": 2, "plum": 8, "bell": 10}


def _toy_line(jokers: int, groups: tuple[int, ...]) -> str | None:
    top = (groups[0] if groups else 0) + jokers
    return {5: "five", 4: "four", 3: "three"}.get(top)


@functools.cache
def multisets(size: int, kinds: int) -> tuple[tuple[int, ...], ...]:
    """Every count vector of ``kinds`` symbols summing to ``size``."""
    if kinds == 1:
        return ((size,),)
    return tuple((a, *rest) for a in range(size + 1) for rest in multisets(size - a, kinds - 1))


@dataclass(frozen=True, slots=True)
class FirstHand:
    """The exact first hand from a fresh deck, under best holds (per coins' pays).

    Probabilities are of the final hand; ``expected_pay`` is in the pays' units (credits
    for the coins bet), divide by the coins for the return.
    """

    deals: int  # distinct symbol deals enumerated
    expected_pay: Fraction
    lines: Mapping[str, Fraction]
    cherry_hit: Fraction  # two or more natural cherries
    collect: Mapping[str, Fraction]  # four or more of the fruit, the joker counting
    collect_sets: Mapping[frozenset[str], Fraction]  # which fruits one hand collects


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per symbol count ``kinds``: the draw multisets of each size as arrays, and codes."""

    draws: tuple[I64, ...]  # draws[j]: (m_j, kinds) count vectors
    codes: tuple[I64, ...]  # their base-6 codes
    final: I64  # code of a 5-multiset -> its index in multisets(5, kinds)


@functools.cache
def _tables(kinds: int) -> _Tables:
    weights = 6 ** np.arange(kinds, dtype=np.int64)
    draws = tuple(
        np.array(multisets(j, kinds), dtype=np.int64).reshape(-1, kinds) for j in range(6)
    )
    final = np.full(6**kinds, -1, dtype=np.int64)
    final[draws[5] @ weights] = np.arange(draws[5].shape[0])
    return _Tables(draws, tuple(d @ weights for d in draws), final)


#: C(a, b) for a < 200, b < 6
_COMB: I64 = np.array([[comb(a, b) for b in range(6)] for a in range(200)], dtype=np.int64)


def hold_values(
    deal: Sequence[int], left: Sequence[int], pays: I64
) -> dict[tuple[int, ...], tuple[Fraction, I64, I64]]:
    """Every distinct held multiset of ``deal``: its value, final-hand indices and weights.

    ``left`` is the deck after the deal; ``pays[i]`` the pay of final multiset ``i`` of
    :func:`multisets(5, kinds)`. Weights are out of ``C(sum(left), 5 - k)`` draws.
    """
    kinds = len(deal)
    t = _tables(kinds)
    six = 6 ** np.arange(kinds, dtype=np.int64)
    rest = np.array(left, dtype=np.int64)
    out: dict[tuple[int, ...], tuple[Fraction, I64, I64]] = {}
    for held in itertools.product(*(range(d + 1) for d in deal)):
        j = 5 - sum(held)
        ways = _COMB[rest[None, :], t.draws[j]].prod(axis=1)
        finals = t.final[int(np.array(held) @ six) + t.codes[j]]
        total = int(ways @ pays[finals])
        out[held] = (Fraction(total, comb(int(rest.sum()), j)), finals, ways)
    return out


@functools.cache
def _index5(kinds: int) -> dict[tuple[int, ...], int]:
    return {m: i for i, m in enumerate(multisets(5, kinds))}


def _preferred(held: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Tie order: more cards kept, then the symbols earlier in deck order."""
    return (sum(held), held)


def first_hand(
    deck: Mapping[str, int],
    pays: Mapping[str, int],
    line_of: LineOf,
    fruits: Sequence[str] = (),
    collect_at: int = 4,
) -> FirstHand:
    """Every symbol deal of a fresh ``deck`` with its best hold, exactly weighted.

    ``deck`` maps symbols to cards (``"joker"`` wild); ``pays`` line -> pay for the coins
    bet; ``fruits`` the Fruit Bonus symbols (collected by ``collect_at`` of them).
    """
    symbols = tuple(deck)
    n = tuple(deck[s] for s in symbols)
    kinds = len(symbols)
    wild = symbols.index(WILD) if WILD in symbols else None
    finals5 = multisets(5, kinds)
    line5 = [_line(m, wild, line_of) for m in finals5]
    pay5 = np.array([pays.get(line, 0) if line else 0 for line in line5], dtype=np.int64)
    size = sum(n)
    total_deals = comb(size, 5)
    value = Fraction(0)
    # final-hand weights by draw size j, each out of total_deals * C(size - 5, j)
    dist = np.zeros((6, len(finals5)), dtype=np.int64)
    deals = 0
    for deal in finals5:
        ways = 1
        for have, take in zip(n, deal, strict=True):
            ways *= comb(have, take)
        if not ways:
            continue
        deals += 1
        left = tuple(a - b for a, b in zip(n, deal, strict=True))
        holds = hold_values(deal, left, pay5)
        best = max(holds, key=lambda h: (holds[h][0], _preferred(h)))
        v, finals, weights = holds[best]
        value += Fraction(ways, total_deals) * v
        np.add.at(dist[5 - sum(best)], finals, ways * weights)
    prob = [
        sum(
            (Fraction(int(dist[j, i]), total_deals * comb(size - 5, j)) for j in range(6)),
            Fraction(0),
        )
        for i in range(len(finals5))
    ]
    return _summary(
        deals,
        value,
        dict(zip(finals5, prob, strict=True)),
        symbols,
        line5,
        fruits,
        collect_at,
        wild,
    )


@functools.cache
def _pays5(
    symbols: tuple[str, ...], pays: tuple[tuple[str, int], ...], line_of: LineOf
) -> tuple[I64, list[str | None]]:
    """The pay and line of every 5-multiset of ``symbols`` (cached per table)."""
    wild = symbols.index(WILD) if WILD in symbols else None
    line5 = [_line(m, wild, line_of) for m in multisets(5, len(symbols))]
    table = dict(pays)
    pay5 = np.array([table.get(line, 0) if line else 0 for line in line5], dtype=np.int64)
    return pay5, line5


def best_symbol_hold(
    cards: Sequence[str],
    left: Sequence[int],
    pays: Mapping[str, int],
    symbols: Sequence[str],
    line_of: LineOf,
) -> tuple[tuple[int, ...], Fraction]:
    """The machine's auto-hold on the fruit deck: positions to keep and their value.

    ``left`` counts the cards left in the deck (after the deal), in ``symbols`` order;
    the value is exact over every draw from them. Ties: more cards kept, then symbols
    earlier in ``symbols``; of the cards of a kept symbol, the first dealt.
    """
    syms = tuple(symbols)
    if len(cards) != 5 or any(c not in syms for c in cards):
        raise ValueError(f"a fruit deal is five cards of {list(syms)}")
    if len(left) != len(syms) or any(n < 0 for n in left):
        raise ValueError("the cards left need one count of at least 0 per symbol")
    deal = tuple(sum(1 for c in cards if c == s) for s in syms)
    pay5, _ = _pays5(syms, tuple(sorted(pays.items())), line_of)
    holds = hold_values(deal, left, pay5)
    best = max(holds, key=lambda h: (holds[h][0], _preferred(h)))
    keep: list[int] = []
    for s, n in zip(syms, best, strict=True):
        keep += [i for i, c in enumerate(cards) if c == s][:n]
    return tuple(sorted(keep)), holds[best][0]


def _line(m: tuple[int, ...], wild: int | None, line_of: LineOf) -> str | None:
    jokers = m[wild] if wild is not None else 0
    groups = tuple(sorted((c for i, c in enumerate(m) if i != wild and c), reverse=True))
    return line_of(jokers, groups)


def _summary(
    deals: int,
    value: Fraction,
    dist: Mapping[tuple[int, ...], Fraction],
    symbols: tuple[str, ...],
    line5: Sequence[str | None],
    fruits: Sequence[str],
    collect_at: int,
    wild: int | None,
) -> FirstHand:
    index = _index5(len(symbols))
    lines: dict[str, Fraction] = {}
    collect = {f: Fraction(0) for f in fruits}
    sets: dict[frozenset[str], Fraction] = {}
    cherry = Fraction(0)
    for final, p in dist.items():
        if not p:
            continue
        name = line5[index[final]] or "nothing"
        lines[name] = lines.get(name, Fraction(0)) + p
        jokers = final[wild] if wild is not None else 0
        if CHERRY in symbols and final[symbols.index(CHERRY)] >= 2:
            cherry += p
        got = frozenset(f for f in fruits if final[symbols.index(f)] + jokers >= collect_at)
        sets[got] = sets.get(got, Fraction(0)) + p
        for f in got:
            collect[f] += p
    return FirstHand(deals, value, lines, cherry, collect, sets)

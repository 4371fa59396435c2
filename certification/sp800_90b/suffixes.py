"""Sorted suffixes and their longest common prefixes.

The t-tuple and LRS estimates need, for every length ``t``, the counts of repeated
``t``-tuples. NIST's tool builds a suffix array and LCP array once and derives both
estimates from it (Kaufer's algorithm). This module produces the same two arrays with
one value sort and two compiled passes instead of a per-suffix comparison sort:

* every suffix gets one 64-bit word (a rolling pass): its first ``w`` symbols (``b``
  bits each, zero padded past the end) above its reversed position, so a plain value sort
  (fast, SIMD) orders the suffixes by their first ``w`` symbols with shorter suffixes
  first among equal words, which is their true lexicographic order;
* groups still tied after ``w`` symbols are refined by prefix doubling, touching only the
  tied suffixes (few for real data);
* the LCP of adjacent suffixes comes from the highest set bit of the XOR of their words
  (a compiled pass), capped by their lengths, and for fully tied words from the doubling
  ranks.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@kernel
def _suffix_words(x: npt.NDArray[np.uint8], w: int, b: int, pos_bits: int) -> U64:
    """``words[i]``: symbols ``i..i+w-1`` packed ``b`` bits each (first symbol highest,
    zero past the end) above ``n - 1 - i`` in the low ``pos_bits`` bits (one rolling pass).
    """
    n = x.size
    words = np.empty(n, dtype=np.uint64)
    mask = (np.uint64(1) << np.uint64(w * b)) - np.uint64(1)
    shift = np.uint64(b)
    key = np.uint64(0)
    for j in range(w):
        key = (key << shift) | (np.uint64(x[j]) if j < n else np.uint64(0))
    for i in range(n):
        words[i] = (key << np.uint64(pos_bits)) | np.uint64(n - 1 - i)
        nxt = i + w
        key = ((key << shift) | (np.uint64(x[nxt]) if nxt < n else np.uint64(0))) & mask
    return words


@kernel
def _unpack(words: U64, pos_bits: int) -> tuple[I64, U64]:
    """The sorted words' suffix positions ``sa`` and window keys."""
    n = words.size
    sa = np.empty(n, dtype=np.int64)
    keys = np.empty(n, dtype=np.uint64)
    low = (np.uint64(1) << np.uint64(pos_bits)) - np.uint64(1)
    for j in range(n):
        sa[j] = n - 1 - np.int64(words[j] & low)
        keys[j] = words[j] >> np.uint64(pos_bits)
    return sa, keys


@kernel
def _adjacent(skeys: U64, sa: I64, w: int, b: int) -> tuple[I64, npt.NDArray[np.bool_]]:
    """The LCP of adjacent sorted suffixes within their first ``w`` symbols, and whether
    the pair is tied on all ``w`` (equal keys, both suffixes at least ``w`` long).

    The LCP is the number of whole ``b``-bit fields above the highest differing bit of
    their keys (``w`` for equal keys), capped by both suffixes' lengths.
    """
    n = sa.size
    m = max(n - 1, 0)
    lcp = np.empty(m, dtype=np.int64)
    same = np.zeros(m, dtype=np.bool_)
    for j in range(m):
        v = skeys[j + 1] ^ skeys[j]
        len_a = n - sa[j]
        len_b = n - sa[j + 1]
        if v == 0:
            common = w
            same[j] = len_a >= w and len_b >= w
        else:
            high = 0  # index of the highest set bit of v
            for step in (32, 16, 8, 4, 2, 1):
                if v >> np.uint64(step):
                    v >>= np.uint64(step)
                    high += step
            common = (w * b - 1 - high) // b
        lcp[j] = min(common, len_a, len_b)
    return lcp, same


@kernel
def _group_ranks(same: npt.NDArray[np.bool_], sa: I64) -> tuple[I64, I64]:
    """Each sorted position's group start (groups: runs of tied pairs) and, by suffix,
    that start as its rank."""
    n = sa.size
    starts = np.empty(n, dtype=np.int64)
    rank = np.empty(n, dtype=np.int64)
    start = 0
    for j in range(n):
        if j > 0 and not same[j - 1]:
            start = j
        starts[j] = start
        rank[sa[j]] = start
    return starts, rank


def sorted_suffix_lcp(x: npt.NDArray[np.uint8], alph_size: int) -> tuple[I64, I64]:
    """Suffix array ``sa`` and ``lcp`` (``lcp[j]`` = LCP of suffixes ``sa[j]``, ``sa[j+1]``).

    Each step below is one pass over all suffixes (compiled, or NumPy's sort) with no
    whole-array temporaries: at 8x10^6 bits every array is 64 MB of fresh memory.
    """
    n = int(x.size)
    b = max(1, int(alph_size - 1).bit_length())
    pos_bits = max(1, int(n - 1).bit_length())
    w = (64 - pos_bits) // b
    if w < 1:
        raise ValueError("sample too long for suffix sorting")
    words = _suffix_words(x, w, b, pos_bits)
    words.sort()  # by the first w symbols, shorter suffixes first among equal keys
    sa, skeys = _unpack(words, pos_bits)
    del words
    lcp, same = _adjacent(skeys, sa, w, b)
    del skeys
    levels = _refine_ties(sa, same, n, w)
    full = np.flatnonzero(same)
    if full.size:
        lcp[full] = w + _tied_extension(x, sa, full, levels, n, w)
    return sa, lcp


def _refine_ties(sa: I64, same: npt.NDArray[np.bool_], n: int, w: int) -> list[tuple[int, I64]]:
    """Order the groups still tied after ``w`` symbols by prefix doubling, in place in ``sa``.

    Only the tied suffixes are touched. Returns the rank array of every level (``w``,
    ``2w``, ...): at level ``h`` equal ranks mean ``h`` equal leading symbols.
    """
    starts, rank = _group_ranks(same, sa)
    levels: list[tuple[int, I64]] = [(w, rank.copy())]
    h = w
    tied_pairs = np.flatnonzero(same)
    while tied_pairs.size and h < n:
        pos = np.union1d(tied_pairs, tied_pairs + 1)
        members = sa[pos]
        nxt = members + h
        second = np.full(pos.size, -1, dtype=np.int64)
        ok = nxt < n
        second[ok] = rank[nxt[ok]]
        first = starts[pos]
        order = np.lexsort((second, first))
        members = members[order]
        second = second[order]
        sa[pos] = members
        # New group starts inside the tied region.
        new_start = np.empty(pos.size, dtype=np.int64)
        brk = np.ones(pos.size, dtype=bool)
        brk[1:] = (first[1:] != first[:-1]) | (second[1:] != second[:-1])
        new_start[:] = np.where(brk, pos, 0)
        np.maximum.accumulate(new_start, out=new_start)
        starts[pos] = new_start
        rank[members] = new_start
        h *= 2
        levels.append((h, rank.copy()))
        still = ~brk[1:] & (pos[1:] == pos[:-1] + 1)
        tied_pairs = pos[:-1][still]
    return levels


def _tied_extension(
    x: npt.NDArray[np.uint8], sa: I64, full: I64, levels: list[tuple[int, I64]], n: int, w: int
) -> I64:
    """How many symbols past the first ``w`` the tied pairs at ``full`` still share.

    The doubling ranks give the long stretches, largest level first; symbol-by-symbol
    comparison gives the rest.
    """
    a = sa[full] + w
    c = sa[full + 1] + w
    ext = np.zeros(full.size, dtype=np.int64)
    for step, lev in reversed(levels):
        ia = a + ext
        ic = c + ext
        ok = (ia < n) & (ic < n)
        eq = np.zeros(full.size, dtype=bool)
        eq[ok] = lev[ia[ok]] == lev[ic[ok]]
        # A level-``step`` rank match means ``step`` more equal symbols, but only when
        # both suffixes are long enough for that level to be exact.
        eq &= (np.int64(n) - ia >= step) & (np.int64(n) - ic >= step)
        ext[eq] += step
    active = np.ones(full.size, dtype=bool)
    while active.any():
        ia = a + ext
        ic = c + ext
        ok = active & (ia < n) & (ic < n)
        eq = np.zeros(full.size, dtype=bool)
        eq[ok] = x[ia[ok]] == x[ic[ok]]
        ext[eq] += 1
        active &= eq
    return ext

"""Sorted suffixes and their longest common prefixes, vectorised.

The t-tuple and LRS estimates need, for every length ``t``, the counts of repeated
``t``-tuples. NIST's tool builds a suffix array and LCP array once and derives both
estimates from it (Kaufer's algorithm). This module produces the same two arrays with
NumPy instead of a per-suffix loop:

* every suffix gets one 64-bit word: its first ``w`` symbols (``b`` bits each, zero padded
  past the end) above its reversed position, so a plain value sort (fast, SIMD) orders the
  suffixes by their first ``w`` symbols with shorter suffixes first among equal words, which
  is their true lexicographic order;
* groups still tied after ``w`` symbols are refined by prefix doubling, touching only the
  tied suffixes (few for real data);
* the LCP of adjacent suffixes comes from the XOR of their words, capped by their lengths,
  and for fully tied words from the doubling ranks.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]


def _leading_equal_fields(xor: npt.NDArray[np.uint64], top_bits: int, b: int) -> I64:
    """Number of whole ``b``-bit fields equal above the highest set bit of ``xor``.

    ``xor`` must be non-zero; fields occupy bits ``top_bits-1`` downwards.
    """
    _, e = np.frexp(xor.astype(np.float64))
    hb = e.astype(np.int64) - 1
    hb[(np.uint64(1) << hb.astype(np.uint64)) > xor] -= 1  # float rounding up near 2^k
    return (top_bits - 1 - hb) // b


def _window_keys(vals: npt.NDArray[np.uint64], n: int, w: int, b: int) -> npt.NDArray[np.uint64]:
    """``keys[i]`` = symbols ``i..i+w-1`` packed ``b`` bits each, first symbol highest."""
    # Windows of length 2^j by doubling, then combined along the binary expansion of w.
    pow_windows: list[npt.NDArray[np.uint64]] = [vals]
    length = 1
    while length * 2 <= w:
        prev = pow_windows[-1]
        m = prev.size - length
        pow_windows.append((prev[:m] << np.uint64(b * length)) | prev[length : length + m])
        length *= 2
    keys = np.zeros(n, dtype=np.uint64)
    offset = 0
    for j in range(len(pow_windows) - 1, -1, -1):
        span = 1 << j
        if w - offset >= span:
            keys <<= np.uint64(b * span)
            keys |= pow_windows[j][offset : offset + n]
            offset += span
    return keys


def sorted_suffix_lcp(x: npt.NDArray[np.uint8], alph_size: int) -> tuple[I64, I64]:
    """Suffix array ``sa`` and ``lcp`` (``lcp[j]`` = LCP of suffixes ``sa[j]``, ``sa[j+1]``).

    Each step below is whole-array NumPy work done once per call, so naming the steps
    costs a handful of Python calls, not a per-suffix one.
    """
    n = int(x.size)
    b = max(1, int(alph_size - 1).bit_length())
    pos_bits = max(1, int(n - 1).bit_length())
    w = (64 - pos_bits) // b
    if w < 1:
        raise ValueError("sample too long for suffix sorting")
    sa, skeys = _sort_by_words(x, n, w, b, pos_bits)
    length = np.int64(n) - sa  # suffix lengths in sorted order
    # Group-start ranks: equal only for identical full-width keys.
    same = (skeys[1:] == skeys[:-1]) & (length[1:] >= w) & (length[:-1] >= w)
    lcp = _word_lcp(skeys, length, same, w, b)
    levels = _refine_ties(sa, same, n, w)
    full = np.flatnonzero(same)
    if full.size:
        lcp[full] = w + _tied_extension(x, sa, full, levels, n, w)
    return sa, lcp


def _sort_by_words(
    x: npt.NDArray[np.uint8], n: int, w: int, b: int, pos_bits: int
) -> tuple[I64, npt.NDArray[np.uint64]]:
    """The suffixes sorted by their first ``w`` symbols (shorter first among equals).

    Returns the order ``sa`` and each sorted suffix's window key.
    """
    vals = np.zeros(n + w, dtype=np.uint64)
    vals[:n] = x
    keys = _window_keys(vals, n, w, b)
    words = (keys << np.uint64(pos_bits)) | (np.uint64(n - 1) - np.arange(n, dtype=np.uint64))
    words.sort()
    sa = np.int64(n - 1) - (words & np.uint64((1 << pos_bits) - 1)).astype(np.int64)
    del words
    return sa, keys[sa]


def _word_lcp(
    skeys: npt.NDArray[np.uint64], length: I64, same: npt.NDArray[np.bool_], w: int, b: int
) -> I64:
    """The LCP of adjacent sorted suffixes within their first ``w`` symbols.

    From the XOR of their keys, capped by both suffixes' lengths; ``w`` for tied keys.
    """
    lcp = np.empty(skeys.size - 1, dtype=np.int64)
    xor = skeys[1:] ^ skeys[:-1]
    nzx = xor != 0
    lcp[same] = w
    lcp[~nzx] = w
    lcp[nzx] = _leading_equal_fields(xor[nzx], w * b, b)
    np.minimum(lcp, np.minimum(length[1:], length[:-1]), out=lcp)
    return lcp


def _refine_ties(sa: I64, same: npt.NDArray[np.bool_], n: int, w: int) -> list[tuple[int, I64]]:
    """Order the groups still tied after ``w`` symbols by prefix doubling, in place in ``sa``.

    Only the tied suffixes are touched. Returns the rank array of every level (``w``,
    ``2w``, ...): at level ``h`` equal ranks mean ``h`` equal leading symbols.
    """
    diff = ~same
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = np.where(diff, np.arange(1, n, dtype=np.int64), 0)
    np.maximum.accumulate(starts, out=starts)
    rank = np.empty(n, dtype=np.int64)
    rank[sa] = starts
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

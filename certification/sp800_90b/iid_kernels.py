"""Compiled loops of the IID permutation tests (SP 800-90B 5.1): shuffle, statistics, text.

Each shuffle of 10^6 samples is one pass of Fisher-Yates and a few passes of counting;
NumPy needed a dozen temporaries of the data's size per shuffle for them (and a sort for
the collision statistics), numba compiles them to loops over the bytes. Every function
here is compiled by :func:`certification.sp800_90b.jit.kernel`: it releases the GIL, so
:mod:`certification.sp800_90b.permutation` runs shuffles on both cores in threads, and is
cached on disk (compiled once per install).

The shuffles draw from NumPy's PCG64 (XSL-RR 128/64, the generator behind
``numpy.random.default_rng``), stepped here from the state NumPy seeded: the words equal
``PCG64.random_raw``'s (tests/certification/sp800_90b/test_iid_kernels.py), and each
bound is drawn without bias by Lemire's multiply-and-reject method.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel

U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S63 = np.uint64(63)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
#: PCG's 128-bit default multiplier, high and low words
_MUL_HI = np.uint64(0x2360ED051FC65DA4)
_MUL_LO = np.uint64(0x4385DF649FCCF645)

#: the lags of the periodicity and covariance statistics (SP 800-90B 5.1.9 and 5.1.10)
LAGS = (1, 2, 8, 16, 32)


@kernel
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    """High 64 bits of the 128-bit product ``a * b``."""
    a_lo = a & _M32
    a_hi = a >> _S32
    b_lo = b & _M32
    b_hi = b >> _S32
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    mid = (p0 >> _S32) + (p1 & _M32) + (p2 & _M32)
    return a_hi * b_hi + (p1 >> _S32) + (p2 >> _S32) + (mid >> _S32)


@kernel
def _step(st: U64) -> np.uint64:
    """Advance the PCG64 state ``st`` (state hi, lo, increment hi, lo) and return the
    XSL-RR output of the new state."""
    s_hi = st[0]
    s_lo = st[1]
    lo = s_lo * _MUL_LO
    hi = _mulhi(s_lo, _MUL_LO) + s_lo * _MUL_HI + s_hi * _MUL_LO
    lo2 = lo + st[3]
    carry = _ONE if lo2 < lo else _ZERO
    hi2 = hi + st[2] + carry
    st[0] = hi2
    st[1] = lo2
    v = hi2 ^ lo2
    rot = hi2 >> _S58
    return np.uint64((v >> rot) | (v << ((_ZERO - rot) & _S63)))


@kernel
def pcg64_words(st: U64, count: int) -> U64:
    """The next ``count`` 64-bit words of the PCG64 state ``st`` (advanced in place)."""
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = _step(st)
    return out


#: most samples a shuffle takes: its bounds are drawn from 32-bit halves
MAX_SHUFFLE = 1 << 32


@kernel
def shuffle_into(src: U8, out: U8, st: U64) -> None:
    """``out`` = a uniform shuffle of ``src`` (Fisher-Yates from the end; at most
    ``MAX_SHUFFLE`` samples), drawn from the PCG64 state ``st``: each index below
    ``i + 1`` by Lemire's unbiased multiply-and-reject on a 32-bit half of a word (low
    half first). The generator's step was most of a shuffle's time; halves need half as
    many steps (with the modulo skipped unless a low half falls below the bound: 1.8 ms
    -> 1.1 ms per 10^6 samples)."""
    n = src.size
    for i in range(n):
        out[i] = src[i]
    spare = _ZERO
    have = False
    for i in range(n - 1, 0, -1):
        bound = np.uint64(i + 1)
        floor = _ZERO  # 2^32 mod bound (the rejected lows), worked out only when needed
        while True:
            if have:
                r = spare
                have = False
            else:
                w = _step(st)
                r = w & _M32
                spare = w >> _S32
                have = True
            m = r * bound
            low = m & _M32
            if low >= bound:
                break
            if floor == _ZERO:
                floor = (_M32 + _ONE) % bound
            if low >= floor:
                break
        j = m >> _S32
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp


@kernel
def _runs(a: U8, lo: int, hi: int, median: float, directional: bool) -> tuple[int, int, int]:
    """(number of runs, longest run, number of True) of the booleans ``a[i] <= a[i+1]``
    (directional) or ``a[i] >= median`` over the positions ``lo <= i < hi``."""
    count = 0
    longest = 0
    ups = 0
    cur = 0
    prev = False
    for i in range(lo, hi):
        b = (a[i] <= a[i + 1]) if directional else (a[i] >= median)
        if b:
            ups += 1
        if i > lo and b == prev:
            cur += 1
        else:
            count += 1
            cur = 1
        if cur > longest:
            longest = cur
        prev = b
    return count, longest, ups


@kernel
def _collisions(a: U8) -> tuple[float, int]:
    """(average, longest) wait for a repeated value, each wait starting after the last
    repeat (SP 800-90B 5.1.7 and 5.1.8); (0, -1) when no value repeats."""
    seen = np.zeros(256, dtype=np.int64)
    gen = 1
    start = 0
    total = 0
    count = 0
    longest = -1
    for j in range(a.size):
        v = a[j]
        if seen[v] == gen:
            t = j - start + 1
            total += t
            count += 1
            if t > longest:
                longest = t
            gen += 1
            start = j + 1
        else:
            seen[v] = gen
    return (total / count if count else 0.0), longest


@kernel
def _excursion(x: U8) -> float:
    """max |S_i - i * mean| over the prefix sums ``S_i`` (SP 800-90B 5.1.1), as
    max |n * S_i - i * S_n| / n in integers while they fit (n below 1.9 * 10^8 bytes):
    the exact maximum, rounded once (NIST's tool works in long double and agrees to the
    17 digits a double holds)."""
    n = x.size
    total = 0
    for i in range(n):
        total += x[i]
    if n < 190_000_000:
        s = 0
        top = 0
        for i in range(n):
            s += x[i]
            d = abs(n * s - (i + 1) * total)
            if d > top:
                top = d
        return top / n
    mean = total / n
    s = 0
    best = 0.0
    for i in range(n):
        s += x[i]
        e = abs(s - (i + 1) * mean)
        if e > best:
            best = e
    return best


@kernel
def _blocks(x: U8, weights: U8, values: U8) -> None:
    """Conversion I (Hamming weight) and II (value) of each 8-bit block of bits ``x``."""
    for b in range(weights.size):
        w = 0
        v = 0
        for k in range(8):
            bit = x[8 * b + k]
            w += bit
            v = (v << 1) | bit
        weights[b] = w
        values[b] = v


@kernel
def statistics_into(
    x: U8, binary: bool, median: float, need: npt.NDArray[np.bool_], out: npt.NDArray[np.float64]
) -> None:
    """The first 18 permutation statistics of ``x`` into ``out`` (those in ``need``).

    Binary data use Conversion I for the directional, periodicity and covariance
    statistics and Conversion II for the collisions; the excursion and the runs about the
    median count the bits themselves.
    """
    n = x.size
    if binary:
        m = n // 8
        c1 = np.empty(m, dtype=np.uint8)
        c2 = np.empty(m, dtype=np.uint8)
        _blocks(x, c1, c2)
    else:
        c1 = x
        c2 = x
    if need[0]:
        out[0] = _excursion(x)
    if need[1] or need[2] or need[3]:
        count, longest, ups = _runs(c1, 0, c1.size - 1, 0.0, True)
        out[1] = count
        out[2] = longest
        out[3] = max(ups, c1.size - 1 - ups)
    if need[4] or need[5]:
        count, longest, ups = _runs(x, 0, n, median, False)
        out[4] = count
        out[5] = longest
    if need[6] or need[7]:
        avg, top_wait = _collisions(c2)
        out[6] = avg
        out[7] = top_wait
    for k in range(5):
        p = LAGS[k]
        if need[8 + k] or need[13 + k]:
            same = 0
            prod = 0
            for i in range(c1.size - p):
                a = int(c1[i])
                b = int(c1[i + p])
                same += a == b
                prod += a * b
            out[8 + k] = same
            out[13 + k] = prod


def _digit_table() -> tuple[U8, U8]:
    """Each byte value's decimal text and a space, padded to 4 bytes, and its length."""
    cells = np.zeros((256, 4), dtype=np.uint8)
    sizes = np.zeros(256, dtype=np.uint8)
    for v in range(256):
        word = f"{v} ".encode()
        cells[v, : len(word)] = np.frombuffer(word, dtype=np.uint8)
        sizes[v] = len(word)
    return cells, sizes


_CELLS, _SIZES = _digit_table()


@kernel
def _text(x: U8, buf: U8, cells: U8, sizes: U8) -> int:
    pos = 0
    for i in range(x.size):
        v = x[i]
        buf[pos] = cells[v, 0]
        buf[pos + 1] = cells[v, 1]
        buf[pos + 2] = cells[v, 2]
        buf[pos + 3] = cells[v, 3]
        pos += sizes[v]
    return pos - 1 if pos else 0


def text_into(x: U8, buf: U8) -> int:
    """Write ``x`` as decimal numbers separated by single spaces into ``buf`` (at least
    ``4 * x.size + 1`` bytes), without the last space, as NIST's tool compresses them;
    return the length written (GIL released while it writes)."""
    return _text(x, buf, _CELLS, _SIZES)

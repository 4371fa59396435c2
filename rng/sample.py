"""Unbiased draws from DRBG output: the :class:`Rng` every game uses.

Every integer comes from rejection sampling, never from a modulus: to draw below
``n`` we take ``k = (n - 1).bit_length()`` fresh bits and reject values ``>= n``
(the probability of a rejection is below 1/2, so few words are needed). Rejected
words are thrown away, and no byte of DRBG output is ever used twice: each
generate call's output serves one draw or batch and is then dropped.

No look-ahead: nothing is generated before an outcome needs it. Each draw (or
batch of draws: one shuffle, one roll of several dice, one sample) asks the
generator for exactly the bytes it is about to examine, and whatever it does not
accept is thrown away; no byte is kept for a later outcome. So an outcome is
always made from DRBG output produced when it was asked for: with prediction
resistance every outcome's generate call carries fresh entropy from the source,
and a source that died before the call stops the outcome (docs/rng.md, "No
precomputed outcomes"). The facade keeps no buffer.

Speed: many draws at once are done with NumPy: each pending draw gets eight fresh
words (16-bit when every bound is at most 2**16, else 32-bit), each masked to ``k``
bits; the first word below its bound is taken and the rest discarded; draws whose
eight words were all rejected go round again (one more generate call for those
rows only). That is the same rejection sampler, vectorised. A single ``randbelow``
asks for eight words at once (one when the bound is a power of two: nothing can be
rejected), so a draw is almost always one generate call.

Counting: ``usage()`` reports the draws made and the DRBG bytes consumed (rejected
words included), so the game log can state what each round used.

>>> rng = Rng(SeededBytes(seed=1))      # deterministic: for tests and examples only
>>> 0 <= rng.randbelow(52) < 52
True
>>> sorted(rng.shoe(decks=1)) == list(range(52))
True
>>> len(rng.roll(3)), all(1 <= d <= 6 for d in rng.roll(3))
(3, True)
>>> rng.choice("abc") in "abc"
True
>>> sorted(rng.sample(range(10), 10)) == list(range(10))
True
>>> rng.usage().draws > 0
True
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from rng.ctr_drbg import CtrDrbg
from rng.drbg import MAX_REQUEST_BYTES

T = TypeVar("T")

CANDIDATES = 8  # words (16-bit, or 32-bit for bounds > 2**16) tried per draw per round
JOKER = 52  # card index of the joker (games/core/cards.py convention)
MAX_DECKS = 64


class ByteGenerator(Protocol):
    """Anything that returns ``n`` fresh bytes per call: the DRBG generator."""

    def generate(self, n: int) -> bytes: ...


class SeededBytes:
    """NOT FOR PLAY: a CTR_DRBG seeded from a number, for doctests, tests and demos."""

    def __init__(self, seed: int) -> None:
        digest = hashlib.sha256(b"croupier seeded bytes" + str(seed).encode()).digest()
        self._drbg = CtrDrbg(digest, digest[:16], b"NOT FOR PLAY")

    def generate(self, n: int) -> bytes:
        parts = []
        while n > 0:
            size = min(n, MAX_REQUEST_BYTES)
            parts.append(self._drbg.generate(size))
            n -= size
        return b"".join(parts)


@dataclass(frozen=True, slots=True)
class Usage:
    """Draws made and DRBG bytes consumed; subtract two snapshots to meter one game."""

    draws: int
    bytes: int

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.draws - other.draws, self.bytes - other.bytes)


def _bit_lengths(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Vectorised ``int.bit_length`` for 0 <= values < 2**32."""
    v = values.copy()
    k = np.zeros_like(v)
    for shift in (16, 8, 4, 2, 1):
        high = v >> shift
        has = high > 0
        k += shift * has
        v = np.where(has, high, v)
    return k + (v > 0)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Precomputed per-draw constants for a batch of bounds (cached: shuffles repeat)."""

    limits: npt.NDArray[np.unsignedinteger[Any]]  # bound - 1: accept a candidate <= limit
    masks: npt.NDArray[np.unsignedinteger[Any]]  # (1 << k) - 1, k = (bound - 1).bit_length()
    dtype: str  # "<u2" when every bound <= 2**16, else "<u4"
    width: int  # bytes per candidate word
    rows: npt.NDArray[np.intp]  # 0..count-1, for fancy indexing


def _plan(bounds: npt.NDArray[np.int64]) -> _Plan:
    if int(bounds.min()) < 1 or int(bounds.max()) > 1 << 32:
        raise ValueError("bounds must be in 1..2**32")
    narrow = int(bounds.max()) <= 1 << 16
    kind = np.uint16 if narrow else np.uint32
    masks = (np.int64(1) << _bit_lengths(bounds - 1)) - 1
    return _Plan(
        limits=(bounds - 1).astype(kind),
        masks=masks.astype(kind),
        dtype="<u2" if narrow else "<u4",
        width=2 if narrow else 4,
        rows=np.arange(bounds.size),
    )


CACHE_MAX_DRAWS = 4096  # plans up to this size are kept (a few per table); larger are built


def _descending_plan(n: int, count: int) -> _Plan:
    """Bounds n, n-1, ..., n-count+1 (Fisher-Yates and partial Fisher-Yates)."""
    if count <= CACHE_MAX_DRAWS:
        return _cached_descending_plan(n, count)
    return _plan(np.arange(n, n - count, -1, dtype=np.int64))


@functools.lru_cache(maxsize=64)
def _cached_descending_plan(n: int, count: int) -> _Plan:
    return _plan(np.arange(n, n - count, -1, dtype=np.int64))


@functools.lru_cache(maxsize=64)
def _constant_plan(count: int, bound: int) -> _Plan:
    """``count`` draws below the same bound (dice; count <= 1000)."""
    return _plan(np.full(count, bound, dtype=np.int64))


class Rng:
    """randbelow, shuffle, shoe, roll, choice, sample over one byte generator. Thread-safe."""

    def __init__(self, source: ByteGenerator) -> None:
        self._source = source
        self._draws = 0
        self._bytes = 0
        self._lock = threading.RLock()

    # -- raw bytes, made when asked for ---------------------------------------------
    def _take(self, n: int) -> bytes:
        """``n`` bytes generated now for the draw at hand (never buffered for later)."""
        out = self._source.generate(n)
        self._bytes += n
        return out

    def usage(self) -> Usage:
        """Draws so far and bytes consumed so far (for the game log)."""
        with self._lock:
            return Usage(self._draws, self._bytes)

    # -- single draws --------------------------------------------------------------
    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        k = (n - 1).bit_length()
        nbytes, mask = (k + 7) // 8, (1 << k) - 1
        with self._lock:
            self._draws += 1
            if k == 0:
                return 0
            # One generate call per draw: a bound that may reject gets CANDIDATES words at
            # once (all rejected: probability < 2**-8), a power of two exactly one word.
            count = 1 if n == mask + 1 else CANDIDATES
            while True:
                words = self._take(nbytes * count)
                for i in range(0, len(words), nbytes):
                    r = int.from_bytes(words[i : i + nbytes], "big") & mask
                    if r < n:
                        return r

    def _below_many(self, plan: _Plan) -> list[int]:
        """One uniform draw below each bound of ``plan``: vectorised rejection sampling."""
        count = int(plan.rows.size)
        if count == 0:
            return []
        with self._lock:
            self._draws += count
            words = self._take(plan.width * CANDIDATES * count)
            cand = np.frombuffer(words, dtype=plan.dtype).reshape(count, CANDIDATES)
            cand = cand & plan.masks[:, None]
            ok = cand <= plan.limits[:, None]
            first = ok.argmax(axis=1)  # the first accepted candidate of each row
            got = ok[plan.rows, first]
            out = cand[plan.rows, first].astype(np.int64)
            pending = np.flatnonzero(~got)
            while pending.size:  # rows whose candidates were all rejected: draw again
                rows = int(pending.size)
                words = self._take(plan.width * CANDIDATES * rows)
                cand = np.frombuffer(words, dtype=plan.dtype).reshape(rows, CANDIDATES)
                cand = cand & plan.masks[pending, None]
                ok = cand <= plan.limits[pending, None]
                first = ok.argmax(axis=1)
                got = ok[np.arange(rows), first]
                out[pending[got]] = cand[np.arange(rows), first][got]
                pending = pending[~got]
        return out.tolist()  # type: ignore[no-any-return]

    # -- the sampling API ---------------------------------------------------------
    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place: position i swaps with a uniform j in [0, i]."""
        n = len(items)
        if n < 2:
            return
        if n > 1 << 32:
            raise ValueError("shuffle supports at most 2**32 items")
        js = self._below_many(_descending_plan(n, n - 1))
        for i, j in zip(range(n - 1, 0, -1), js, strict=True):
            items[i], items[j] = items[j], items[i]

    def shoe(self, decks: int, jokers: int = 0) -> list[int]:
        """A shuffled shoe of card indices: ``(rank - 2) * 4 + suit`` for 2..A, 52 = joker."""
        if not 1 <= decks <= MAX_DECKS:
            raise ValueError(f"decks must be in 1..{MAX_DECKS}, got {decks}")
        if not 0 <= jokers <= decks * 4:
            raise ValueError(f"jokers must be in 0..{decks * 4}, got {jokers}")
        cards = list(range(52)) * decks + [JOKER] * jokers
        self.shuffle(cards)
        return cards

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        """``dice`` independent fair dice with faces 1..sides."""
        if not 1 <= dice <= 1000 or not 2 <= sides <= 1 << 32:
            raise ValueError(f"roll needs 1..1000 dice of 2..2**32 sides, got {dice}d{sides}")
        return tuple(f + 1 for f in self._below_many(_constant_plan(dice, sides)))

    def choice(self, seq: Sequence[T]) -> T:
        """One uniform element of a non-empty sequence."""
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct positions of ``population``, in random order (partial Fisher-Yates)."""
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError(f"sample size {k} is outside 0..{n}")
        if k == 0:
            return []
        if n > 1 << 32:  # beyond the 32-bit batch: one rejection draw per position
            offsets = [self.randbelow(n - i) for i in range(k)]
        else:
            offsets = self._below_many(_descending_plan(n, k))
        # Fisher-Yates over a virtual list of positions 0..n-1: ``moved`` holds only the
        # positions swapped so far, so a huge population costs O(k) memory.
        moved: dict[int, int] = {}
        picked = []
        for i, r in enumerate(offsets):
            j = i + r
            at_i, at_j = moved.get(i, i), moved.get(j, j)
            moved[i], moved[j] = at_j, at_i
            picked.append(population[at_j])
        return picked

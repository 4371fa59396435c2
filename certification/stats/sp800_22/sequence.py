"""A sequence under test, with the derived arrays several tests share, computed once.

The random walk feeds cumulative sums and both excursion tests; the circular m-bit
window values feed serial, approximate entropy and both template tests. Window values
are built from 64-bit big-endian words read at every byte offset of the packed bits,
so one pass yields every window of up to 57 bits.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numpy.typing import NDArray

Bits = NDArray[np.uint8]


class Sequence:
    """Bits (a uint8 array of 0/1) and lazily computed shared views of them."""

    def __init__(self, bits: NDArray[np.uint8] | Sequence) -> None:
        if isinstance(bits, Sequence):
            self.bits: Bits = bits.bits
        else:
            self.bits = np.ascontiguousarray(bits, dtype=np.uint8)
        self.n = int(self.bits.size)
        self._windows: dict[int, NDArray[np.uint64]] = {}
        self._counts: dict[int, NDArray[np.int64]] = {}

    @cached_property
    def ones(self) -> int:
        return int(np.count_nonzero(self.bits))

    @cached_property
    def walk(self) -> NDArray[np.int32]:
        """Partial sums S_k of X_i = 2*e_i - 1, k = 1..n."""
        return np.cumsum(self.bits.astype(np.int32) * 2 - 1, dtype=np.int32)

    def windows(self, width: int) -> NDArray[np.uint64]:
        """Value of the ``width`` bits starting at each position, wrapping circularly.

        Position i holds e_i e_{i+1} ... e_{i+width-1} (indices mod n), first bit most
        significant. For positions i <= n - width no wrap is involved.
        """
        if width < 1 or width > 57:
            raise ValueError(f"window width must be 1..57, got {width}")
        for have in sorted(self._windows):
            if have >= width:
                return self._windows[have] >> np.uint64(have - width)
        ext_len = self.n + width - 1
        ext = np.resize(self.bits, ext_len) if ext_len > self.n else self.bits
        nbytes = (ext_len + 7) // 8
        packed = np.zeros(nbytes + 8, dtype=np.uint8)
        packed[:nbytes] = np.packbits(ext)
        starts = np.lib.stride_tricks.sliding_window_view(packed, 8)[: (self.n + 7) // 8]
        words = np.ascontiguousarray(starts).view(">u8").astype(np.uint64).ravel()
        mask = np.uint64((1 << width) - 1)
        shifts = np.arange(64 - width, 56 - width, -1, dtype=np.uint64)  # bit offset r = 0..7
        out = (words[:, None] >> shifts[None, :]) & mask
        result = out.ravel()[: self.n]
        self._windows[width] = result
        return result

    def counts(self, width: int) -> NDArray[np.int64]:
        """How often each ``width``-bit pattern occurs among the n circular windows."""
        if width in self._counts:
            return self._counts[width]
        for have in sorted(self._counts):
            if have > width:
                c: NDArray[np.int64] = self._counts[have].reshape(1 << width, -1).sum(axis=1)
                self._counts[width] = c
                return c
        counted: NDArray[np.int64] = np.bincount(
            self.windows(width).astype(np.intp), minlength=1 << width
        ).astype(np.int64)
        self._counts[width] = counted
        return counted


def as_sequence(bits: NDArray[np.uint8] | Sequence) -> Sequence:
    return bits if isinstance(bits, Sequence) else Sequence(bits)

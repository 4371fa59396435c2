"""Loading raw noise-source samples the way NIST's ``ea_*`` tools read them.

One sample per byte; the symbol is the least significant ``bits_per_symbol`` bits. When the
width is not given it is the position of the highest bit set anywhere in the file. Symbols
are then *mapped down* to ``0..k-1`` in increasing order when fewer than ``2**bits`` distinct
values occur (the literal estimators work on these), while the bitstring (most significant
bit of each symbol first) is built from the unmapped values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError, SampleFileError

U8 = npt.NDArray[np.uint8]

#: SP 800-90B asks for at least this many samples; fewer gives a warning, not an error.
MIN_SIZE = 1_000_000


@dataclass(frozen=True, slots=True)
class Samples:
    """Symbols ready for assessment.

    ``symbols`` are mapped down to ``0..alph_size-1``; ``raw`` are the masked values;
    ``bits`` is the bitstring of ``raw`` (``word_size`` bits per sample, MSB first).
    """

    raw: U8
    symbols: U8
    bits: U8
    word_size: int
    alph_size: int
    narrower_than_declared: bool = False

    @property
    def len(self) -> int:
        """Number of samples."""
        return int(self.symbols.size)


def _data_width(data: U8) -> int:
    """Bits needed for the largest value present (0 for all-zero data)."""
    mask = int(np.bitwise_or.reduce(data)) if data.size else 0
    return mask.bit_length()


def from_array(data: npt.ArrayLike, bits_per_symbol: int | None = None) -> Samples:
    """Build :class:`Samples` from an array of byte-sized samples."""
    arr = np.asarray(data)
    if arr.ndim != 1 or arr.size == 0:
        raise SampleDataError("samples must be a non-empty one-dimensional array")
    if arr.dtype != np.uint8:
        if np.any(arr < 0) or np.any(arr > 255):
            raise SampleDataError("samples must be integers in 0..255 (one sample per byte)")
        arr = arr.astype(np.uint8)
    width = _data_width(arr)
    narrower = False
    if bits_per_symbol is None:
        word_size = width
    else:
        if not 1 <= bits_per_symbol <= 8:
            raise SampleDataError(f"bits per symbol must be 1..8, got {bits_per_symbol}")
        if width > bits_per_symbol:
            raise SampleFileError(
                f"data does not fit within {bits_per_symbol} bits per symbol "
                f"(values need {width} bits)"
            )
        narrower = width < bits_per_symbol
        word_size = bits_per_symbol
    if word_size == 0:
        raise SampleDataError("symbol alphabet consists of 1 symbol; no entropy awarded")
    raw = arr & np.uint8((1 << word_size) - 1)
    present = np.bincount(raw, minlength=1 << word_size) > 0
    alph_size = int(present.sum())
    if alph_size <= 1:
        raise SampleDataError("symbol alphabet consists of 1 symbol; no entropy awarded")
    table = (np.cumsum(present) - 1).astype(np.uint8)
    symbols = table[raw] if alph_size < int(raw.max()) + 1 else raw.copy()
    if word_size == 1:
        bits = raw.copy()
    else:
        shifts = np.arange(word_size - 1, -1, -1, dtype=np.uint8)
        bits = ((raw[:, None] >> shifts[None, :]) & 1).astype(np.uint8).ravel()
    return Samples(
        raw=raw,
        symbols=symbols,
        bits=bits,
        word_size=word_size,
        alph_size=alph_size,
        narrower_than_declared=narrower,
    )


def read_samples(
    path: str | Path, bits_per_symbol: int | None = None, *, limit: int | None = None
) -> Samples:
    """Read a sample file (one sample per byte) as NIST's tools do."""
    p = Path(path)
    try:
        data = np.fromfile(p, dtype=np.uint8)
    except OSError as exc:
        raise SampleFileError(f"cannot read sample file {str(p)!r}: {exc.strerror}") from exc
    if limit is not None:
        data = data[:limit]
    if data.size == 0:
        raise SampleFileError(f"sample file {str(p)!r} is empty")
    return from_array(data, bits_per_symbol)

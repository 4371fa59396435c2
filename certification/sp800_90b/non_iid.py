"""The non-IID track (SP 800-90B 6.3): every estimator on the literal symbols and on the
bitstring, and the assessed min-entropy, as NIST's ``ea_non_iid`` computes them.

For binary data (two symbols) the estimators run once, on the symbols ("Literal"). For
larger alphabets the bitstring estimators ("Bitstring") run as well; the collision, Markov
and compression estimators run on the bitstring only. The assessed value for the initial
entropy estimate is ``min(H_original, word_size * H_bitstring)``; with ``conditioned``
(the tool's ``-c``) only the bitstring is assessed and ``h' = H_bitstring``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.collision import CollisionResult, collision_estimate
from certification.sp800_90b.compression import CompressionResult, compression_estimate
from certification.sp800_90b.lag import lag_estimate
from certification.sp800_90b.lz78y import lz78y_estimate
from certification.sp800_90b.markov import MarkovResult, markov_estimate
from certification.sp800_90b.mcv import McvResult, most_common_value
from certification.sp800_90b.mcw import mcw_estimate
from certification.sp800_90b.memory import reuses_freed_memory
from certification.sp800_90b.mmc import mmc_estimate
from certification.sp800_90b.prediction import PredictionResult
from certification.sp800_90b.samples import Samples
from certification.sp800_90b.tuples import LrsResult, TupleResult, tuple_estimates

Estimate = (
    McvResult
    | CollisionResult
    | MarkovResult
    | CompressionResult
    | TupleResult
    | LrsResult
    | PredictionResult
)

#: Estimator names in the tool's order (and its output labels).
ESTIMATORS = (
    "Most Common Value",
    "Collision",
    "Markov",
    "Compression",
    "t-Tuple",
    "LRS",
    "MultiMCW Prediction",
    "Lag Prediction",
    "MultiMMC Prediction",
    "LZ78Y Prediction",
)


@dataclass(frozen=True, slots=True)
class EstimateRow:
    """One estimator's outcome on one track ("Literal" or "Bitstring")."""

    estimator: str
    track: str
    result: Estimate | None  # None: the tool reports the estimate could not run
    seconds: float
    cpu_seconds: float = 0.0

    @property
    def min_entropy(self) -> float | None:
        """Per-symbol (Literal) or per-bit (Bitstring) min-entropy, when available."""
        return None if self.result is None else self.result.min_entropy


@dataclass(frozen=True, slots=True)
class NonIidResult:
    """The whole non-IID assessment."""

    samples: int
    alph_size: int
    word_size: int
    bit_count: int
    initial: bool
    rows: tuple[EstimateRow, ...]
    h_original: float | None
    h_bitstring: float | None
    h_assessed: float
    seconds: float = field(default=0.0)

    def row(self, estimator: str, track: str) -> EstimateRow | None:
        """The row for one estimator and track, if it ran."""
        for r in self.rows:
            if r.estimator == estimator and r.track == track:
                return r
        return None


#: The estimators that run on the binary tracks only (the bitstring, or binary symbols).
_BINARY_ONLY: tuple[tuple[str, Callable[..., Estimate | None]], ...] = (
    ("Collision", collision_estimate),
    ("Markov", markov_estimate),
    ("Compression", compression_estimate),
)

#: The predictors, run on every track with its alphabet size.
_PREDICTORS: tuple[tuple[str, Callable[..., Estimate | None]], ...] = (
    ("MultiMCW Prediction", mcw_estimate),
    ("Lag Prediction", lag_estimate),
    ("MultiMMC Prediction", mmc_estimate),
    ("LZ78Y Prediction", lz78y_estimate),
)

#: Estimators run side by side in threads (the compiled loops run without the GIL, as do
#: NumPy's sorts and array loops); the rows are collected in the tool's order, so results
#: do not change.
WORKERS = 2


def _timed(fn: Callable[..., object], *args: object) -> tuple[object, float, float]:
    """``fn(*args)`` with its wall and thread CPU seconds (threads share the process)."""
    t0, c0 = time.perf_counter(), time.thread_time()
    res = fn(*args)
    return res, time.perf_counter() - t0, time.thread_time() - c0


class Submitter(Protocol):
    """Where the estimators run: a thread pool here, or a Dask cluster's client adapter
    (:class:`certification.cluster.Tasks`); ``submit`` returns a future with ``result()``."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


#: A track: its label, its symbols and their alphabet size.
_Track = tuple[str, npt.NDArray[np.uint8], int]


class _Tally:
    """The rows in the order they ran, and each track's running minimum min-entropy.

    ``h_original`` starts at the word size and ``h_bitstring`` at 1 bit, as in the tool.
    """

    def __init__(
        self, word: int, progress: Callable[[str, str], None] | None, pool: Submitter
    ) -> None:
        self.rows: list[EstimateRow] = []
        self.h_original = float(word)
        self.h_bitstring = 1.0
        self.progress = progress
        self.pool = pool
        self.pending: list[tuple[str, str, Any]] = []  # name, track, future of _timed

    def lower(self, track: str, res: Estimate | None) -> None:
        """Take an estimate's min-entropy into its track's minimum (none: no change)."""
        if res is not None:
            if track == "Bitstring":
                self.h_bitstring = min(self.h_bitstring, res.min_entropy)
            else:
                self.h_original = min(self.h_original, res.min_entropy)

    def record(
        self, name: str, track: str, fn: Callable[..., Estimate | None], *args: object
    ) -> None:
        """Queue one estimator on one track; :meth:`finish` keeps its row and minimum."""
        self.pending.append((name, track, self.pool.submit(_timed, fn, *args)))

    def finish(self) -> None:
        """Collect the queued estimates in the tool's order (rows, progress, minima)."""
        for name, track, fut in self.pending:
            if self.progress is not None:
                self.progress(name, track)
            res, wall, cpu = fut.result()
            if name == "t-Tuple":
                tt, lrs = cast("tuple[TupleResult | None, LrsResult | None]", res)
                self.rows.append(EstimateRow("t-Tuple", track, tt, wall, cpu))
                self.rows.append(EstimateRow("LRS", track, lrs, 0.0, 0.0))
                self.lower(track, tt)
                self.lower(track, lrs)
            else:
                est = cast("Estimate | None", res)
                self.rows.append(EstimateRow(name, track, est, wall, cpu))
                self.lower(track, est)
        self.pending.clear()

    def record_tuples(self, tracks: list[_Track]) -> None:
        """The t-tuple and LRS estimates, both from one suffix array per track.

        The pair's time is the t-Tuple row's; the LRS row shows none.
        """
        for track, data, alph in tracks:
            self.pending.append(
                ("t-Tuple", track, self.pool.submit(_timed, tuple_estimates, data, alph))
            )


@reuses_freed_memory
def assess_non_iid(
    samples: Samples,
    *,
    conditioned: bool = False,
    literal_only: bool = False,
    only: frozenset[str] | None = None,
    progress: Callable[[str, str], None] | None = None,
    executor: Submitter | None = None,
) -> NonIidResult:
    """Run the non-IID track.

    ``literal_only`` skips the bitstring (as the restart validation does); ``only`` limits
    the run to some estimators (for benchmarks). The estimators run in the tool's order,
    each on the bitstring first, then on the literal symbols. ``executor`` runs them
    elsewhere (a Dask cluster: ``croupier certify sp800-90b --dask``); each estimator is
    deterministic on its data, so the result is the local run's.
    """
    t_start = time.perf_counter()
    initial = not conditioned
    binary = samples.alph_size == 2
    do_bits = ((not binary) or conditioned) and not literal_only
    do_lit = initial
    own_pool = ThreadPoolExecutor(WORKERS) if executor is None else None
    pool: Submitter = own_pool if own_pool is not None else cast("Submitter", executor)
    tally = _Tally(samples.word_size, progress, pool)

    def want(name: str) -> bool:
        return only is None or name in only

    tracks: list[_Track] = [("Bitstring", samples.bits, 2)] if do_bits else []
    if do_lit:
        tracks.append(("Literal", samples.symbols, samples.alph_size))
    if want("Most Common Value"):
        for track, data, alph in tracks:
            tally.record("Most Common Value", track, most_common_value, data, alph)
    binary_tracks = [(track, data) for track, data, _ in tracks if track == "Bitstring" or binary]
    for name, fn in _BINARY_ONLY:
        if want(name):
            for track, data in binary_tracks:
                tally.record(name, track, fn, data)
    if want("t-Tuple") or want("LRS"):
        tally.record_tuples(tracks)
    for name, pfn in _PREDICTORS:
        if want(name):
            for track, data, alph in tracks:
                tally.record(name, track, pfn, data, alph)
    try:
        tally.finish()
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    return _result(samples, tally, initial=initial, do_bits=do_bits, do_lit=do_lit, t0=t_start)


def _result(
    samples: Samples, tally: _Tally, *, initial: bool, do_bits: bool, do_lit: bool, t0: float
) -> NonIidResult:
    """The assessment from the tally: ``min(H_original, word_size * H_bitstring)``.

    A track that did not run contributes nothing (and its ``h_*`` is ``None``).
    """
    word = samples.word_size
    h_assessed = float(word)
    if do_bits:
        h_assessed = min(h_assessed, tally.h_bitstring * word)
    if do_lit:
        h_assessed = min(h_assessed, tally.h_original)
    return NonIidResult(
        samples=samples.len,
        alph_size=samples.alph_size,
        word_size=word,
        bit_count=int(samples.bits.size),
        initial=initial,
        rows=tuple(tally.rows),
        h_original=tally.h_original if do_lit else None,
        h_bitstring=tally.h_bitstring if do_bits else None,
        h_assessed=h_assessed,
        seconds=time.perf_counter() - t0,
    )

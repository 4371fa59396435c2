"""Text and JSON renderings of an assessment, in the terms and layout of NIST's tool.

``render_non_iid(result, verbose=2)`` reproduces the ``ea_non_iid -vv`` transcript (one
line per reported quantity, ``%.17g`` numbers); ``verbose=1`` gives the tool's summary
(one line per estimator and the final ``H_original`` / ``H_bitstring`` / ``min(...)``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from certification.sp800_90b.collision import CollisionResult
from certification.sp800_90b.compression import CompressionResult
from certification.sp800_90b.markov import MarkovResult
from certification.sp800_90b.mcv import McvResult
from certification.sp800_90b.non_iid import EstimateRow, NonIidResult
from certification.sp800_90b.samples import MIN_SIZE
from certification.sp800_90b.tuples import LrsResult, TupleResult


def g17(x: float) -> str:
    """C's ``%.17g``."""
    return format(x, ".17g")


def _detail_lines(row: EstimateRow) -> list[str]:
    res = row.result
    lab = f"{row.track} {row.estimator} Estimate"
    if res is None:
        if row.estimator == "t-Tuple":
            return ["t-Tuple Estimate: No strings are repeated 35 times. t-Tuple estimate failed."]
        if row.estimator == "LRS":
            return ["LRS Estimate: v<u. Can't Run LRS Test."]
        return [f"{lab}: could not run"]
    out: list[str]
    if isinstance(res, McvResult):
        out = [f"Mode count = {res.mode}", f"p-hat = {g17(res.p_hat)}", f"p_u = {g17(res.p_u)}"]
    elif isinstance(res, CollisionResult):
        out = [
            f"v = {res.v}",
            f"Sum t_i = {res.sum_t}",
            f"X-bar = {g17(res.x_bar)}",
            f"sigma-hat = {g17(res.sigma_hat)}",
            f"X-bar' = {g17(res.x_bar_prime)}",
            "Found p." if res.found else "Could Not Find p. Proceeding with the lower bound for p.",
            f"p = {g17(res.p)}",
        ]
    elif isinstance(res, MarkovResult):
        out = [
            f"P_0 = {g17(res.p0)}",
            f"P_1 = {g17(res.p1)}",
            f"P_{{0,0}} = {g17(res.p00)}",
            f"P_{{0,1}} = {g17(res.p01)}",
            f"P_{{1,0}} = {g17(res.p10)}",
            f"P_{{1,1}} = {g17(res.p11)}",
            f"p-hat_max = {g17(res.p_max)}",
        ]
    elif isinstance(res, CompressionResult):
        out = [
            f"X-bar = {g17(res.x_bar)}",
            f"sigma-hat = {g17(res.sigma_hat)}",
            f"X-bar' = {g17(res.x_bar_prime)}",
            "Found p." if res.found else "Could Not Find p. Proceeding with the lower bound for p.",
            f"p = {g17(res.p)}",
        ]
    elif isinstance(res, TupleResult):
        out = [f"t = {res.t}", f"p-hat_max = {g17(res.p_hat_max)}", f"p_u = {g17(res.p_u)}"]
    elif isinstance(res, LrsResult):
        out = [f"u = {res.u}", f"v = {res.v}", f"p-hat = {g17(res.p_hat)}", f"p_u = {g17(res.p_u)}"]
    else:
        out = [
            f"C = {res.c}",
            f"r = {res.r}",
            f"N = {res.n}",
            f"P_global = {g17(res.p_global)}",
            f"P_global' = {g17(res.p_global_prime)}",
            "P_local can't change the result."
            if res.p_local is None
            else f"P_local = {g17(res.p_local)}",
        ]
    out.append(f"min entropy = {g17(res.min_entropy)}")
    return [f"{lab}: {line}" for line in out]


def render_non_iid(result: NonIidResult, path: str, *, verbose: int = 1) -> str:
    """The tool's console output for a non-IID assessment."""
    lines: list[str] = []
    if verbose >= 2:
        lines.append(f"Opening file: '{path}'")
        lines.append(
            f"Loaded {result.samples} samples of {result.alph_size} distinct "
            f"{result.word_size}-bit-wide symbols"
        )
        if result.alph_size > 2 or not result.initial:
            lines.append(f"Number of Binary Symbols: {result.bit_count}")
    if result.samples < MIN_SIZE:
        lines += ["", f"*** Warning: data contains less than {MIN_SIZE} samples ***", ""]
    if verbose >= 2:
        for row in result.rows:
            lines.extend(_detail_lines(row))
        if result.h_bitstring is not None:
            lines.append(f"H_bitstring = {g17(result.h_bitstring)}")
        if result.h_original is not None:
            lines.append(f"H_original: {g17(result.h_original)}")
        lines.append(f"Assessed min entropy: {g17(result.h_assessed)}")
        return "\n".join(lines) + "\n"
    lines.append("Running non-IID tests...")
    lines.append("")
    for row in result.rows:
        unit = "1" if row.track == "Bitstring" else str(result.word_size)
        suffix = " (bit string)" if row.track == "Bitstring" else ""
        value = "not run" if row.min_entropy is None else f"{row.min_entropy:f}"
        lines.append(f"\t{row.estimator} Estimate{suffix} = {value} / {unit} bit(s)")
    lines.append("")
    if result.initial:
        assert result.h_original is not None
        lines.append(f"H_original: {result.h_original:f}")
        if result.h_bitstring is not None:
            lines.append(f"H_bitstring: {result.h_bitstring:f}")
            lines.append(
                f"min(H_original, {result.word_size} X H_bitstring): {result.h_assessed:f}"
            )
    else:
        lines.append(f"h': {result.h_bitstring:f}")
    return "\n".join(lines) + "\n"


def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, tuple | list):
        return [_plain(x) for x in obj]
    return obj


def non_iid_json(result: NonIidResult, path: str) -> dict[str, Any]:
    """A JSON-ready dictionary of the assessment (every reported quantity)."""
    estimates = []
    for row in result.rows:
        res = row.result
        entry: dict[str, Any] = {
            "estimator": row.estimator,
            "track": row.track,
            "min_entropy": row.min_entropy,
            "seconds": round(row.seconds, 6),
        }
        if res is not None:
            entry["details"] = _plain(res)
        estimates.append(entry)
    return {
        "file": path,
        "mode": "initial" if result.initial else "conditioned",
        "samples": result.samples,
        "distinct_symbols": result.alph_size,
        "bits_per_symbol": result.word_size,
        "binary_symbols": result.bit_count,
        "estimates": estimates,
        "h_original": result.h_original,
        "h_bitstring": result.h_bitstring,
        "h_assessed": result.h_assessed,
        "seconds": round(result.seconds, 6),
    }

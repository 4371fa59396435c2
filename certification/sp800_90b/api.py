"""One entry point for a whole SP 800-90B assessment of a sample file.

``assess_file`` reads the samples, runs the chosen track (non-IID by default, or IID),
optionally the restart tests, and returns a :class:`Report` that renders itself as the
NIST tool's text or as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certification.sp800_90b.iid import IidResult, assess_iid, iid_json, render_iid
from certification.sp800_90b.non_iid import NonIidResult, assess_non_iid
from certification.sp800_90b.report import non_iid_json, render_non_iid
from certification.sp800_90b.restart import (
    RestartResult,
    read_restart_matrix,
    render_restart,
    restart_json,
    restart_tests,
)
from certification.sp800_90b.samples import read_samples


@dataclass(frozen=True, slots=True)
class Report:
    """Result of :func:`assess_file`."""

    path: str
    non_iid: NonIidResult | None
    iid: IidResult | None
    restart: RestartResult | None

    @property
    def h_assessed(self) -> float:
        """The assessed min-entropy per sample of the chosen track."""
        if self.non_iid is not None:
            return self.non_iid.h_assessed
        assert self.iid is not None
        return self.iid.h_assessed

    def to_text(self, verbose: int = 1) -> str:
        """NIST-tool style console text (``verbose=2`` is the tool's ``-vv``)."""
        parts = []
        if self.non_iid is not None:
            parts.append(render_non_iid(self.non_iid, self.path, verbose=verbose))
        if self.iid is not None:
            parts.append(render_iid(self.iid, self.path, verbose=verbose))
        if self.restart is not None:
            parts.append(render_restart(self.restart, verbose=verbose))
        return "\n".join(parts)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        out: dict[str, Any] = {"file": self.path, "h_assessed": self.h_assessed}
        if self.non_iid is not None:
            out["non_iid"] = non_iid_json(self.non_iid, self.path)
        if self.iid is not None:
            out["iid"] = iid_json(self.iid)
        if self.restart is not None:
            out["restart"] = restart_json(self.restart)
        return out


def assess_file(
    path: str | Path,
    *,
    bits_per_symbol: int | None = None,
    iid: bool = False,
    conditioned: bool = False,
    restart_file: str | Path | None = None,
    h_i: float | None = None,
    seed: int = 0,
    dask: Any = None,
) -> Report:
    """Assess a sample file; see the module docstring. ``dask``: a Dask client on which the
    non-IID estimators run (the IID track and the restart tests stay in this process)."""
    samples = read_samples(path, bits_per_symbol)
    non_iid_res: NonIidResult | None = None
    iid_res: IidResult | None = None
    if iid:
        iid_res = assess_iid(samples, conditioned=conditioned, seed=seed)
        h = iid_res.h_assessed
    else:
        from certification.cluster import Tasks

        executor = Tasks(dask, "sp800-90b") if dask is not None else None
        non_iid_res = assess_non_iid(samples, conditioned=conditioned, executor=executor)
        h = non_iid_res.h_assessed
    restart_res: RestartResult | None = None
    if restart_file is not None:
        matrix = read_restart_matrix(restart_file, samples.word_size)
        restart_res = restart_tests(
            matrix, matrix.word_size, h if h_i is None else h_i, iid=iid, seed=seed
        )
    return Report(path=str(path), non_iid=non_iid_res, iid=iid_res, restart=restart_res)

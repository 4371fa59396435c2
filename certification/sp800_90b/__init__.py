"""NIST SP 800-90B entropy assessment of raw noise-source samples.

Reproduces NIST's SP800-90B_EntropyAssessment tool (``ea_non_iid``, ``ea_iid``,
``ea_restart``): the same estimators, the same intermediate quantities and the same
final min-entropy, computed with NumPy, and the predictors' sample-by-sample loops
compiled by numba (``predictor_loops``, through ``jit``). Start with :func:`assess_file`, or
:func:`assess_non_iid` / :func:`assess_iid` on :func:`read_samples` output.

Modules: ``samples`` (reading and symbol mapping), one module per estimator (``mcv``,
``collision``, ``markov``, ``compression``, ``tuples`` over ``suffixes``, ``mcw``, ``lag``,
``mmc`` and ``lz78y`` over ``predictor_loops``, with ``prediction`` for the predictor
bounds), ``non_iid`` and ``iid`` (the two tracks; ``permutation``,
``chisquare``, ``lrs_test``), ``restart``, ``report`` (tool-style text and JSON), ``api``
and ``cli``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from certification.sp800_90b.api import Report, assess_file
    from certification.sp800_90b.errors import SampleDataError, SampleFileError, Sp80090bError
    from certification.sp800_90b.iid import IidResult, assess_iid
    from certification.sp800_90b.non_iid import NonIidResult, assess_non_iid
    from certification.sp800_90b.restart import RestartResult, restart_tests
    from certification.sp800_90b.samples import Samples, from_array, read_samples

#: public name -> the module that defines it, imported on first use (PEP 562): the
#: package is imported by ``croupier``'s command registration, which must not pay for
#: SciPy (0.3-0.7 s) in every other command
_HOME = {
    "Report": "api", "assess_file": "api",
    "SampleDataError": "errors", "SampleFileError": "errors", "Sp80090bError": "errors",
    "IidResult": "iid", "assess_iid": "iid",
    "NonIidResult": "non_iid", "assess_non_iid": "non_iid",
    "RestartResult": "restart", "restart_tests": "restart",
    "Samples": "samples", "from_array": "samples", "read_samples": "samples",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "IidResult",
    "NonIidResult",
    "Report",
    "RestartResult",
    "SampleDataError",
    "SampleFileError",
    "Samples",
    "Sp80090bError",
    "assess_file",
    "assess_iid",
    "assess_non_iid",
    "from_array",
    "read_samples",
    "restart_tests",
]

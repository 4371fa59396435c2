"""The one way the estimators compile their sequential loops (numba).

The predictors of SP 800-90B 6.3.7-6.3.10 are one pass over the samples in which every
step depends on the last (a scoreboard picks the next winner, a dictionary grows); NumPy
can only approximate that with sorts and passes per context length. :func:`kernel`
compiles such a loop to machine code with numba:

* ``cache=True``: the machine code is written beside the module, in its ``__pycache__``
  (numba's ``*.nbi`` index and ``*.nbc`` code, keyed by the source file's timestamp and
  size), so only a process that finds no cache compiles; the software seal skips
  ``__pycache__`` (certification/install/manifest.py), so the cache never breaks it. A
  missing or stale cache only costs the compile time, never a different result.
* ``nogil=True``: the compiled loop runs without the GIL, so the estimators' threads
  (non_iid.WORKERS) use both cores.

Kernels take and return only NumPy arrays and integers; each has a typed Python wrapper
(in the estimator's module), which is what the rest of the code calls and what mypy sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(fn: F) -> F:
    """``fn`` compiled by numba (cached on disk, GIL released), same signature."""
    return cast("F", numba.njit(cache=True, nogil=True)(fn))

"""Freed NumPy temporaries kept in the process heap while an assessment runs (glibc).

Where the system time went: the estimators allocate fresh arrays of 10^6-10^7 elements
block after block (a few MB to some tens of MB each). glibc serves blocks of 128 KB and
more with ``mmap`` (the threshold adapts upward only after a free, to the freed size), and
gives the top of the heap back to the kernel past ``M_TRIM_THRESHOLD``; so nearly every
temporary was new memory, faulted in page by page and zeroed by the kernel: 446,000 minor
page faults and 4.3 s of system time in the non-IID track on 10^6 8-bit samples (with
13.9 s of user time). Raising the mmap threshold to its maximum (32 MB on 64-bit) and
the trim threshold and top pad well above the track's working set lets ``free`` keep the
pages and ``malloc`` reuse them: 123,000 faults and 1.6 s of system time, same results.
The estimators' worker threads are held to the main heap (``M_ARENA_MAX`` 1): each
thread's own arena would fault its temporaries in afresh again.

:func:`reuses_freed_memory` wraps an assessment: it sets those three ``mallopt``
parameters on entry, and on leaving the outermost assessment sets glibc's documented
defaults back (fixed values: the adaptive threshold stays off, as after any
``mallopt``) and returns the kept pages with ``malloc_trim(0)``. On a C library without
``mallopt`` (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -2, -3, -8
#: parameter -> (while assessing, glibc's default)
SETTINGS = {
    M_MMAP_THRESHOLD: (32 * 1024 * 1024, 128 * 1024),
    M_TRIM_THRESHOLD: (2**31 - 1, 128 * 1024),
    M_TOP_PAD: (256 * 1024 * 1024, 128 * 1024),
    M_ARENA_MAX: (1, 0),  # the estimator threads share the main heap (0: glibc's own limit)
}

_lock = threading.Lock()
_depth = 0


def _libc() -> Any | None:
    name = ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(name)
        return lib if hasattr(lib, "mallopt") and hasattr(lib, "malloc_trim") else None
    except OSError:
        return None


_LIBC = _libc()


def _apply(index: int) -> None:
    if _LIBC is None:
        return
    for param, values in SETTINGS.items():
        _LIBC.mallopt(param, values[index])
    if index == 1:
        _LIBC.malloc_trim(0)


def reuses_freed_memory(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with freed memory kept for reuse (see the module's docstring)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        global _depth
        with _lock:
            _depth += 1
            if _depth == 1:
                _apply(0)
        try:
            return fn(*args, **kwargs)
        finally:
            with _lock:
                _depth -= 1
                if _depth == 0:
                    _apply(1)

    return wrapper

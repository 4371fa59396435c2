"""Campaigns on a Dask cluster: ``--dask ADDRESS`` or ``--dask local[:N]``.

A lab's campaign (the SP 800-22 battery over thousands of sequences) is independent
work per sequence, which is what a Dask cluster schedules: each sequence is one task,
submitted with its index in its key, and the results are put back in sequence order,
so the report is the one a single process writes (every test is deterministic on its
sequence). The scheduler re-runs the tasks of a worker it loses on the others, so a
campaign that loses a worker still finishes. ``local[:N]`` starts a ``LocalCluster``
of N single-threaded worker processes on this machine (default: one per core) with no
dashboard; an address (``tcp://scheduler:8786``) joins the lab's running cluster,
whose workers must have this package installed at the same version.

Every task runs through :func:`in_worker`, which first sets the worker process's heap
to keep freed memory for reuse (:func:`keep_freed_memory`, once per process): a Dask
nanny starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which fixes glibc's
mmap threshold at 128 KB, so every multi-MB NumPy temporary of a test was fresh memory
faulted in page by page (SP 800-22 on 10^6 bits: 27,000 minor faults and 43 ms of
system time a sequence against 10,000 and 17 ms in a plain process,
``bench/results/cluster.md``).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

LOCAL = "local"

# glibc's mallopt parameters: freed blocks up to 32 MB stay in the heap, and the heap
# keeps up to 512 MB of free memory at its top, so a task's temporaries reuse pages
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_KEPT = {M_MMAP_THRESHOLD: 32 * 1024 * 1024, M_TRIM_THRESHOLD: 512 * 1024 * 1024}
_heap_set: list[bool] = []  # this process's heap was set (a worker's, by its first task)


def keep_freed_memory() -> bool:
    """Set this process's glibc heap to keep freed memory (see the module docstring),
    once; False where the C library has no ``mallopt`` (musl, macOS): nothing changes."""
    if _heap_set:
        return _heap_set[0]
    try:
        # the C library the interpreter already runs on: dlopen(NULL) finds its symbols,
        # where find_library("c") would run ldconfig (10 ms, and ctypes.util's imports)
        libc: Any = ctypes.CDLL(None)
        done = hasattr(libc, "mallopt") and all(
            libc.mallopt(param, value) == 1 for param, value in HEAP_KEPT.items()
        )
    except OSError:
        done = False
    _heap_set.append(done)
    return done


def in_worker(fn: Callable[..., Any], *args: Any) -> Any:
    """Run one task's ``fn(*args)`` in a worker whose heap keeps freed memory."""
    keep_freed_memory()
    return fn(*args)


def _distributed() -> Any:
    """The ``distributed`` package, imported when a campaign asks for it (it is large,
    and its API is untyped: used through ``Any``)."""
    import importlib

    return importlib.import_module("distributed")


def parse(spec: str) -> tuple[str, int | None]:
    """``local`` / ``local:N`` -> ("local", N or None); anything else is an address."""
    if spec == LOCAL or spec.startswith(LOCAL + ":"):
        rest = spec.removeprefix(LOCAL).removeprefix(":")
        if rest and (not rest.isdigit() or int(rest) < 1):
            raise ValueError(f"--dask {spec!r}: write local or local:N with N >= 1")
        return LOCAL, int(rest) if rest else None
    if "://" not in spec and ":" not in spec:
        raise ValueError(f"--dask {spec!r}: expected local[:N] or a scheduler address")
    return spec, None


@contextmanager
def client(spec: str) -> Iterator[Any]:
    """A ``distributed.Client`` on the cluster ``spec`` names (closed on exit)."""
    dist = _distributed()
    Client, LocalCluster = dist.Client, dist.LocalCluster
    where, workers = parse(spec)
    if where == LOCAL:
        n = workers or os.cpu_count() or 1
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        )
        try:
            with Client(cluster) as c:
                yield c
        finally:
            cluster.close()
    else:
        with Client(where) as c:
            yield c


def run_tasks(
    dask: Any,
    fn: Callable[..., Any],
    items: Iterable[tuple[int, tuple[Any, ...]]],
    on_done: Callable[[int, Any], None],
    *,
    name: str,
    window: int | None = None,
) -> dict[int, Any]:
    """Run ``fn(*args)`` for each ``(index, args)`` on the cluster; ``on_done(index,
    result)`` as each finishes (progress); returns every result by index. ``window``:
    at most that many tasks submitted at once (their inputs are made only then, so a
    campaign of a thousand 1 MB sequences never holds them all)."""
    todo = iter(items)
    futures: dict[Any, int] = {}
    running = _distributed().as_completed()

    def submit_next() -> bool:
        for index, args in todo:
            future = dask.submit(in_worker, fn, *args, key=f"{name}-{index}", pure=False)
            futures[future] = index
            running.add(future)
            return True
        return False

    while (window is None or len(futures) < window) and submit_next():
        pass
    out: dict[int, Any] = {}
    for future in running:  # as each finishes; the next one takes its place
        index = futures.pop(future)
        out[index] = future.result()
        on_done(index, out[index])
        submit_next()
    return out


class Tasks:
    """A Dask client as a ``submit(fn, *args) -> future`` executor (the SP 800-90B
    estimators' :class:`~certification.sp800_90b.non_iid.Submitter`).

    Large NumPy arguments (the samples, the bitstring: megabytes each) are scattered to
    every worker once (so losing a worker loses no input) and passed by reference, not
    sent again with every estimator; tasks
    are impure (each runs even if an identical one ran before) and named ``name-N``.
    """

    def __init__(self, dask: Any, name: str) -> None:
        self.dask = dask
        self.name = name
        self.count = 0
        self._scattered: dict[int, tuple[Any, Any]] = {}  # id -> (array, its future)

    def _ref(self, arg: Any) -> Any:
        import numpy as np

        if isinstance(arg, np.ndarray) and arg.nbytes >= 1 << 16:
            held = self._scattered.get(id(arg))
            if held is None or held[0] is not arg:
                # on every worker: a worker that dies takes no copy the others need
                held = (arg, self.dask.scatter(arg, hash=False, broadcast=True))
                self._scattered[id(arg)] = held
            return held[1]
        return arg

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.count += 1
        refs = [self._ref(a) for a in args]
        return self.dask.submit(in_worker, fn, *refs, key=f"{self.name}-{self.count}", pure=False)

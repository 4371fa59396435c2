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
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

LOCAL = "local"


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
            future = dask.submit(fn, *args, key=f"{name}-{index}", pure=False)
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
        return self.dask.submit(fn, *refs, key=f"{self.name}-{self.count}", pure=False)

"""``croupier serve --workers N``: N processes serving one store, so every core serves.

Python runs one request at a time per process, so a 2-core appliance serves with both
cores only from two processes. Each worker is a ``croupier serve`` of its own
(``--worker I``) on the same store, opened shared (``[store] shared``: SQLite for the
workers of one appliance, PostgreSQL for a floor), listening on the base port + I. The
tables are partitioned: the configured tables are dealt round-robin, worker I leasing
tables I, I + N, I + 2N, ... (:mod:`kiosk_ui.table.leasing`), and standing by for the
others, so a worker that dies has its tables taken over by the survivors once its leases
expire, and back once it serves again and nobody plays at them
(:meth:`kiosk_ui.appliance.Appliance._hand_back_idle`). Partitioned rather than
any-worker-any-table: a table's game, seats and action clock live in one process's
memory, and a second copy elsewhere would have to be rebuilt from the log at every
request; partitioning also keeps a table's WebSocket feed in the process that makes its
events. Each worker appends a signed log chain of its own
(:mod:`certification.log.chains`), named like its leases' holder, so the workers never
re-read each other's records. This supervisor starts the workers, names each one's
address, stops them on SIGINT or SIGTERM, starts again any that dies (all of them, if
all die at once), and stops them all if one fails to start.

A stop is orderly: every worker is asked with one SIGTERM, whichever signal came. A
Ctrl-C reaches the workers from the terminal too (they share its process group), and a
second SIGINT is uvicorn's "quit now", which skips the app's shutdown: the store
closed under a cancelled task, with tracebacks, and the worker's leases left to expire.
So a worker heeds only the first signal it gets, whichever comes first
(:func:`kiosk_ui.serve_cli._stopping_server`). Each worker takes no table over from
the moment its signal arrives (``Appliance.begin_stop``), serves its requests in
flight, then gives its leases up and closes its store; a worker that stopped sooner
leaves its tables to the floor's running appliances, never to a worker that is
stopping too. A worker still running ``[serve] stop_seconds`` after the stop began (hung:
a deadlock, a frozen process, a device read that never returns) is killed, so the stop
always ends; its leases then expire like a crashed worker's, and the supervisor says
which worker it killed and exits with status 1.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from types import FrameType

from kiosk_ui.errors import KioskError


def worker_command(args: argparse.Namespace, index: int, workers: int) -> list[str]:
    """The ``croupier serve`` command line of worker ``index``."""
    port = args.port + index if args.port else 0
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--host", args.host, "--port", str(port)]
    for flag in ("config", "store", "url"):
        value = getattr(args, flag)
        if value is not None:
            cmd += [f"--{flag}", str(value)]
    return [*cmd, "--workers", str(workers), "--worker", str(index)]


START_SECONDS = 30.0  # a worker that stops sooner failed to start: every worker stops


def supervise(args: argparse.Namespace, workers: int, stop_seconds: float = 60.0) -> int:
    """Run ``workers`` worker processes until a signal stops them. A worker that dies
    after it started is started again (it takes its own leases back at once: its
    holder name is the same); one that refuses to start (exit status 2 within
    :data:`START_SECONDS`: a refused store, a port in use) stops every worker. A
    worker not ended ``stop_seconds`` after the stop began is killed (status 1)."""
    procs = [subprocess.Popen(worker_command(args, i, workers)) for i in range(workers)]
    started = [time.monotonic()] * workers
    stopping: list[float] = []  # when the stop began (once: later signals change nothing)
    asked: set[int] = set()  # the workers sent their one SIGTERM

    def ask(p: subprocess.Popen[bytes]) -> None:
        if p.poll() is None and p.pid not in asked:
            p.send_signal(signal.SIGTERM)  # never a second SIGINT (see the docstring)
            asked.add(p.pid)

    def stop(signum: int, _frame: FrameType | None) -> None:
        if not stopping:  # the grace runs from the first signal
            stopping.append(time.monotonic())
        for p in procs:
            ask(p)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    failed = 0
    killed: list[int] = []
    try:
        # Until a signal (or a failed start) stops them, and then until every one ended:
        # workers that all die at once are all started again, not taken for a stop.
        while not (stopping or failed) or any(p.poll() is None for p in procs):
            for i, p in enumerate(procs):
                if p.poll() is None or stopping or failed:
                    continue
                if p.returncode == 2 and time.monotonic() - started[i] < START_SECONDS:
                    failed = p.returncode or 1
                    stop(signal.SIGTERM, None)
                else:
                    print(f"croupier: worker {i} stopped ({p.returncode}): starting it again")
                    procs[i] = subprocess.Popen(worker_command(args, i, workers))
                    started[i] = time.monotonic()
            for p in procs if stopping else ():
                # one started again as the signal came (it ran inside that Popen, before
                # procs held the new worker): asked now, or it would serve on, orphaned
                ask(p)
            if stopping and time.monotonic() - stopping[0] > stop_seconds:
                killed = _kill_hung(procs, stop_seconds)
                break
            time.sleep(0.2)
    finally:
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    if failed:
        raise KioskError(f"a worker stopped with status {failed}: every worker was stopped")
    return 1 if killed else 0


def _kill_hung(procs: list[subprocess.Popen[bytes]], stop_seconds: float) -> list[int]:
    """Kill every worker still running after the stop's grace; say which (stderr)."""
    hung = [i for i, p in enumerate(procs) if p.poll() is None]
    for i in hung:
        procs[i].kill()
        print(
            f"croupier: worker {i} (pid {procs[i].pid}) did not stop within "
            f"{stop_seconds:g} s: killed; its tables' leases expire as after a crash",
            file=sys.stderr,
            flush=True,
        )
    return hung

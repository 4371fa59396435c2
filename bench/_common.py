"""What every bench script shares: the machine line of a results file, medians of timed
runs, and starting and stopping a server under load.

The benches run on shared, noisy machines, so every figure is a median of repeated
runs, and every results file says what it ran on. The served benches start
``croupier serve --port 0`` (or a peer app) in its own process and read the address it
prints (``start_server``), so the load never waits on a fixed port. Scripts import these as
``from bench._common import machine, median_seconds`` (each puts the repository
root on ``sys.path`` first, so ``python bench/bench_x.py`` works from anywhere).
"""

from __future__ import annotations

import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
URL = re.compile(r"http://([\d.]+):(\d+)/")  # the line a server prints once it listens


def free_ports(n: int) -> int:
    """A base port ``p`` with ``p`` .. ``p + n - 1`` all free now (bound and released).

    For servers started as N processes on consecutive ports (``serve --workers N``): the
    benches' and the tests' supervisors. Another process may still take one in between,
    so a caller that starts servers on them retries on new ports if one is refused."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = int(s.getsockname()[1])
        if base + n > 65535:
            continue
        socks: list[socket.socket] = []
        try:
            for port in range(base + 1, base + n):
                t = socket.socket()
                socks.append(t)
                t.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for t in socks:
                t.close()
    raise RuntimeError(f"no {n} consecutive free ports on 127.0.0.1")


def cpu_name() -> str:
    """The CPU's model name from ``/proc/cpuinfo``, else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine(*, numpy: bool = False, load: bool = False) -> str:
    """One line for a results file: CPU, cores, OS, Python (and NumPy, the load average).

    ``load`` adds the one-minute load average now (call it at the start of the run).
    """
    noise = "shared, noisy"
    if load and hasattr(os, "getloadavg"):
        noise += f"; load average {os.getloadavg()[0]:.1f} at the start"
    line = (
        f"{cpu_name()}, {os.cpu_count()} cores ({noise}), {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}"
    )
    if numpy:
        import numpy as np

        line += f", NumPy {np.__version__}"
    return line


def timed(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Median seconds of ``repeat`` runs of ``fn``, and what its last run returned."""
    t0 = time.perf_counter()
    result = fn()
    times = [time.perf_counter() - t0]
    for _ in range(repeat - 1):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` runs of ``fn``."""
    return timed(fn, repeat)[0]


def median_rate(fn: Callable[[], int], runs: int = 3) -> float:
    """Median of ``count / seconds`` over ``runs`` runs of ``fn`` (which returns the count)."""
    rates: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        count = fn()
        rates.append(count / (time.perf_counter() - t0))
    return statistics.median(rates)


class CpuWindow:
    """A server process's CPU seconds (user + system, from /proc) over a load window.

    Started when the load starts: samples at ``warmup`` and ``warmup + seconds`` on a
    thread, so the figure is the window's alone. ``busy`` is the difference once joined.
    """

    def __init__(self, pid: int, seconds: float, warmup: float = 2.0) -> None:
        self.samples: list[float] = []
        begin = time.perf_counter()
        self._thread = threading.Thread(target=self._sample, args=(pid, begin + warmup, seconds))
        self._thread.start()

    def _sample(self, pid: int, start: float, seconds: float) -> None:
        for at in (start, start + seconds):
            time.sleep(max(0.0, at - time.perf_counter()))
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            self.samples.append((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))

    def join(self) -> None:
        self._thread.join()

    @property
    def busy(self) -> float:
        """CPU seconds spent in the window (NaN if it was not sampled twice)."""
        s = self.samples
        return s[1] - s[0] if len(s) == 2 else float("nan")


def init_store(cli: list[str], conf: str, env: dict[str, str], cwd: Path = ROOT) -> None:
    """``cli store init --if-missing --config conf``: ``serve`` opens only a store that exists.

    ``cli`` is how the tree's command line is run (``[python, "-m", "kiosk_ui.cli"]``, or
    ``-c`` with the entry point where the tree is not installed); a failure is raised with
    the command's own words.
    """
    made = subprocess.run(
        [*cli, "store", "init", "--if-missing", "--config", conf],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
    )
    if made.returncode != 0:
        raise RuntimeError(f"store init failed: {made.stderr.strip()}")


def start_server(
    cmd: list[str], env: dict[str, str], cwd: Path = ROOT, timeout: float = 60.0
) -> tuple[subprocess.Popen[str], str, int]:
    """Start ``cmd`` (a server on port 0) and wait for the address it prints.

    Returns the process, its host and its port. A server that exits, or prints no
    ``http://HOST:PORT/`` line within ``timeout`` seconds, is killed and raised.
    """
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, cwd=cwd)
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = URL.search(line)
        if m:
            return proc, m.group(1), int(m.group(2))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError(f"server did not start: {' '.join(cmd)}")


def stop_server(proc: subprocess.Popen[str], timeout: float = 20.0) -> None:
    """SIGTERM (the server's clean shutdown), then SIGKILL if it is not gone in ``timeout``."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()


_PEER = """
import json, socket, sys, uvicorn
{respond}
async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            m = await receive()
            if m["type"] == "lifespan.startup":
                await send({{"type": "lifespan.startup.complete"}})
            else:
                await send({{"type": "lifespan.shutdown.complete"}}); return
    body = b""
    while True:
        m = await receive(); body += m.get("body", b"")
        if not m.get("more_body"): break
    out = respond(body)
    await send({{"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(out)).encode())]}})
    await send({{"type": "http.response.body", "body": out}})
sock = socket.socket(); sock.bind(("127.0.0.1", 0))
print(f"serving on http://127.0.0.1:{{sock.getsockname()[1]}}/", flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
"""


def peer_app(respond: str) -> str:
    """The source of a served bench's peer: a bare uvicorn app on a free loopback port
    (printed as a server prints it, for :func:`start_server`) that answers every request
    with ``respond(body) -> bytes`` (JSON; ``respond`` is Python source defining it) and
    does nothing else: the HTTP ceiling of the machine with the bench's client."""
    return _PEER.format(respond=textwrap.dedent(respond).strip())

"""Feeding a tool's standard input from a reader while it runs, counting what it took.

The reader is a callable ``read(n) -> bytes``: the appliance's DRBG (endless) or a
file (finite: an empty answer is its end). A writer thread pushes blocks into the
tool's stdin until the tool closes it (it has read what it needs) or the reader is
exhausted, in which case stdin is closed and the run is marked ``exhausted``: a tool
that hits the end of its input has not tested what it claims (dieharder's file
input would rewind and reuse the data), so callers refuse such a run.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

BLOCK = 1 << 16

Reader = Callable[[int], bytes]


@dataclass(frozen=True, slots=True)
class Fed:
    """What a fed tool printed, its exit status, and the input it consumed."""

    stdout: str
    stderr: str
    returncode: int
    bytes_fed: int
    exhausted: bool


def feed(cmd: Sequence[str], read: Reader, *, limit: int | None = None) -> Fed:
    """Run ``cmd`` with ``read``'s bytes on its stdin (at most ``limit`` bytes, then EOF).

    ``limit`` makes a finite feed on purpose (rngtest and ent test exactly what they
    are given): reaching it is not exhaustion.
    """
    proc = subprocess.Popen(
        list(cmd),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    stdin = proc.stdin
    state = {"fed": 0, "exhausted": False}

    def pump() -> None:
        try:
            while limit is None or state["fed"] < limit:
                want = BLOCK if limit is None else min(BLOCK, limit - state["fed"])
                block = read(want)
                if not block:
                    state["exhausted"] = True
                    break
                state["fed"] += len(block)  # taken from the source: never offered again
                stdin.write(block)
        except (BrokenPipeError, ValueError, OSError):
            pass  # the tool closed its input: it read all it needed
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    errors: list[bytes] = []
    threads = [
        threading.Thread(target=pump, name=f"feed-{cmd[0]}", daemon=True),
        threading.Thread(  # stderr drained beside stdout: a full pipe never blocks the tool
            target=lambda: errors.append(proc.stderr.read() if proc.stderr else b""), daemon=True
        ),
    ]
    with proc:  # closes every pipe and waits for the tool on the way out
        for t in threads:
            t.start()
        out = proc.stdout.read() if proc.stdout else b""
        proc.wait()
        for t in threads:
            t.join()
    err = errors[0] if errors else b""
    return Fed(
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
        returncode=proc.returncode,
        bytes_fed=int(state["fed"]),
        exhausted=bool(state["exhausted"]),
    )

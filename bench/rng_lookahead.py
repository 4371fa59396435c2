"""BENCH ONLY: ``croupier`` with the old 64 KiB look-ahead in ``rng.Rng``, to measure its cost.

Before issue 12 (A3) ``Rng`` pulled DRBG output 64 KiB at a time and served draws
from that buffer, so outcomes were made long before they were needed (and kept
settling after the entropy source died). The rule now is that each draw generates
exactly the bytes it examines. To measure what the rule costs, ``bench_kiosk.py
--rng-buffer`` runs the real server both ways side by side; this module is the
"before" side: it puts the old buffered ``_take`` back on ``rng.sample.Rng`` and then
runs the ordinary command line. Never used by the appliance.

Run: python -m bench.rng_lookahead serve --port 0 --config F
"""

from __future__ import annotations

import sys
from typing import Any

BLOCK_BYTES = 1 << 16  # what the old facade pulled from the generator at a time


def install() -> None:
    """Give ``rng.sample.Rng`` the old buffered ``_take`` (read strictly forward)."""
    from rng.sample import Rng

    def _take(self: Any, n: int) -> bytes:
        buf: bytes = getattr(self, "_buf", b"")
        pos: int = getattr(self, "_pos", 0)
        if pos + n > len(buf):
            rest = buf[pos:]
            need = n - len(rest)
            fresh = self._source.generate(max(BLOCK_BYTES, -(-need // BLOCK_BYTES) * BLOCK_BYTES))
            buf, pos = rest + fresh, 0
        out = buf[pos : pos + n]
        self._buf, self._pos = buf, pos + n
        self._bytes += n
        return out

    Rng._take = _take  # type: ignore[method-assign]


def main() -> int:
    install()
    from kiosk_ui.cli import main as croupier

    return croupier(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())

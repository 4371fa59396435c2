"""NIST's own tools, built from ``../shared/peers`` into the git-ignored ``.peers/``.

Benchmarks run the peer in the same run as croupier (never a recorded figure): each
asks :func:`peer` for a binary, which builds the peers with ``../shared/peers/build.sh
.peers`` the first time (NIST's own makefiles; ``ea_restart`` is its makefile's
``restart`` target, which build.sh leaves out) and returns its path. ``CROUPIER_PEERS``
names another source folder (a clone elsewhere).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / ".peers"
#: binary -> path under DEST
BINARIES = {
    "assess": Path("sts") / "assess",
    "ea_non_iid": Path("ea") / "ea_non_iid",
    "ea_iid": Path("ea") / "ea_iid",
    "ea_restart": Path("ea") / "ea_restart",
}


def source() -> Path:
    return Path(os.environ.get("CROUPIER_PEERS", ROOT.parent / "shared" / "peers"))


def peer(name: str) -> Path:
    """The built binary ``name`` (building the peers first if it is missing)."""
    path = DEST / BINARIES[name]
    if path.exists():
        return path
    build = source() / "build.sh"
    if not build.exists():
        raise SystemExit(f"no peers to build: {build} is missing (set CROUPIER_PEERS)")
    if not (DEST / BINARIES["ea_non_iid"]).exists() or not (DEST / BINARIES["assess"]).exists():
        print(f"building NIST's tools: {build} {DEST}", flush=True)
        subprocess.run(["bash", str(build), str(DEST)], check=True)
    if name == "ea_restart" and not path.exists():
        subprocess.run(["make", "-s", "-C", str(DEST / "ea"), "restart"], check=True,
                       capture_output=True)  # fmt: skip
    if not path.exists():
        raise SystemExit(f"building the peers did not make {path}")
    return path

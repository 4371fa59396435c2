"""Finding the external tools: one clear line when one is not installed."""

from __future__ import annotations

import shutil

from certification.errors import SourceError

#: tool -> Debian package that provides it
PACKAGES = {"dieharder": "dieharder", "rngtest": "rng-tools5", "ent": "ent"}


class ToolMissing(SourceError):
    """An external battery's program is not on the PATH."""


def require(tool: str) -> str:
    """The path of ``tool``, or ToolMissing naming the Debian package to install."""
    path = shutil.which(tool)
    if path is None:
        package = PACKAGES.get(tool, tool)
        raise ToolMissing(f"{tool} is not installed (Debian package {package}; make system-deps)")
    return path

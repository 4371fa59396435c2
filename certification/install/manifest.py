"""The manifest of an installation: every package file and its SHA-256.

The five top-level packages are found where Python imports them from (an
editable install is the source tree, a wheel install is site-packages), and every
regular file under them is listed, except byte-code caches (``__pycache__``,
``*.pyc``), which Python rewrites on its own and which are derived from the
listed sources. Paths are relative to the package's parent, with ``/``
separators, so the manifest of the same build is the same on every machine.

The manifest's own hash (:meth:`Manifest.digest`) is SHA-256 over its canonical
JSON: sorted keys, no whitespace. That hash is what a report prints and what a
lab compares with the build it certified.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from certification.install.errors import InstallError

PACKAGES = ("firmware_bridge", "rng", "games", "kiosk_ui", "certification")
SKIPPED_DIRS = frozenset({"__pycache__"})
SKIPPED_SUFFIXES = frozenset({".pyc", ".pyo"})
FORMAT = "croupier-software-manifest/1"


@dataclass(frozen=True, slots=True)
class Manifest:
    """The files of one installation (path -> SHA-256 hex) and the distribution version."""

    files: Mapping[str, str]
    version: str

    def body(self) -> dict[str, object]:
        """The JSON object that is hashed and signed."""
        files = dict(sorted(self.files.items()))
        return {"format": FORMAT, "version": self.version, "files": files}

    def canonical(self) -> bytes:
        return json.dumps(self.body(), sort_keys=True, separators=(",", ":")).encode()

    def digest(self) -> str:
        """SHA-256 of the canonical JSON: the one figure that names this build."""
        return hashlib.sha256(self.canonical()).hexdigest()

    @classmethod
    def from_body(cls, body: object) -> Manifest:
        """Read back :meth:`body`; a malformed object is an :class:`InstallError`."""
        if not isinstance(body, dict) or body.get("format") != FORMAT:
            raise InstallError(f"not a {FORMAT} manifest")
        files, version = body.get("files"), body.get("version")
        if not isinstance(files, dict) or not isinstance(version, str):
            raise InstallError("the manifest has no file list or no version")
        for path, digest in files.items():
            if not isinstance(digest, str) or len(digest) != 64:
                raise InstallError(f"the manifest's entry for {path} is not a SHA-256")
        return cls(files=dict(files), version=version)


def package_roots(packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Where each package is imported from (its directory)."""
    roots: dict[str, Path] = {}
    for name in packages:
        spec = importlib.util.find_spec(name)
        locations = spec.submodule_search_locations if spec else None
        if not locations:
            raise InstallError(f"package {name} is not installed")
        roots[name] = Path(next(iter(locations)))
    return roots


def installed_version() -> str:
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # run from a source tree without installing
        return "0+unknown"


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def build_manifest(roots: Mapping[str, Path] | None = None) -> Manifest:
    """Hash every file of the installed packages (or of ``roots``, for tests and labs)."""
    files: dict[str, str] = {}
    for name, root in (roots if roots is not None else package_roots()).items():
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if not path.is_file() or SKIPPED_DIRS.intersection(rel.parts):
                continue
            if path.suffix in SKIPPED_SUFFIXES:
                continue
            files[f"{name}/{rel.as_posix()}"] = _file_digest(path)
    return Manifest(files=files, version=installed_version())


@dataclass(frozen=True, slots=True)
class Difference:
    """How an installation differs from a manifest (each list sorted)."""

    changed: tuple[str, ...]
    added: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not (self.changed or self.added or self.missing)

    def summary(self) -> str:
        """One line for a refusal: the counts and the first files of each kind."""
        parts = []
        kinds = (("changed", self.changed), ("added", self.added), ("missing", self.missing))
        for word, paths in kinds:
            if paths:
                more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
                parts.append(f"{len(paths)} {word} ({', '.join(paths[:3])}{more})")
        return "; ".join(parts) if parts else "no difference"


def compare(sealed: Manifest, installed: Manifest) -> Difference:
    """Files whose hash differs, files not in the seal, files of the seal not installed."""
    a, b = sealed.files, installed.files
    return Difference(
        changed=tuple(sorted(p for p in a.keys() & b.keys() if a[p] != b[p])),
        added=tuple(sorted(b.keys() - a.keys())),
        missing=tuple(sorted(a.keys() - b.keys())),
    )

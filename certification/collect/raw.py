"""``certify collect raw``: the noise source before conditioning, the DRBG before scaling.

``raw.bin`` is the source's samples as the health tests see them (a source that
fails a health test stops the collection: no data is written past a failure);
``drbg.bin`` is the DRBG's output bytes exactly as ``rng`` hands them to the
sampling that turns them into ranges (before any scaling), from the stack the
tables use.
"""

from __future__ import annotations

from pathlib import Path

from certification.collect.files import write_manifest
from certification.errors import SourceError


def _copy(read: object, path: Path, size: int) -> None:
    with path.open("wb") as fh:
        done = 0
        while done < size:
            chunk = read(min(65_536, size - done))  # type: ignore[operator]
            fh.write(chunk)
            done += len(chunk)


def collect_raw(
    out: Path, *, source: str, url: str = "", seed: int = 1, raw_bytes: int, drbg_bytes: int
) -> dict[str, object]:
    """Write ``raw.bin`` and ``drbg.bin`` and their manifest; return the manifest."""
    from firmware_bridge import ENTROPY_OPENER
    from rng import RngConfig, RngError, open_rng
    from rng.factory import checked, raw_source

    config = RngConfig(source=source, url=url, test_mode=source == "sim", sim_seed=seed)
    out.mkdir(parents=True, exist_ok=True)
    try:
        raw = checked(config, raw_source(config, source, opener=ENTROPY_OPENER))
        try:
            _copy(raw.read, out / "raw.bin", raw_bytes)
        finally:
            raw.close()
        stack = open_rng(config, real_money=False, opener=ENTROPY_OPENER)
        _copy(stack.generator.generate, out / "drbg.bin", drbg_bytes)
    except RngError as exc:
        raise SourceError(f"the {source} source failed during the collection: {exc}") from exc
    what = {
        "collection": "raw",
        "source": source,
        "url": url,
        "raw": "noise source samples before conditioning (health-tested), 8 bits each",
        "drbg": "DRBG output before scaling, bytes as rng's sampling receives them",
    }
    return write_manifest(out, what, {"raw.bin": raw_bytes, "drbg.bin": drbg_bytes})

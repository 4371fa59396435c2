"""Simulated devices as data: the packaged spec files load, bad ones fail clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge import ConfigError, open_device
from firmware_bridge.sim.spec import load_spec

GOOD = """spec = 1
kind = "dice"
model = "ACME-{dice}"
firmware = "2.1"
serial_prefix = "AC-"
slow_delay = 0.5
garbage_bytes = [8, 64]
"""


@pytest.mark.parametrize("kind", ["shoe", "dice", "wheel"])
def test_packaged_specs_load_and_name_the_device(kind: str) -> None:
    spec = load_spec(kind)
    assert spec.kind == kind
    status = open_device(f"sim://{kind}?seed=12").status()
    assert status.firmware == spec.firmware
    assert status.serial_number == f"{spec.serial_prefix}12"


def test_dice_confidence_comes_from_the_spec() -> None:
    lo, hi = load_spec("dice").confidence
    dev = open_device("sim://dice?seed=3")
    confidences = {dev.next_event().confidence for _ in range(40)}  # type: ignore[attr-defined]
    assert min(confidences) >= lo
    assert max(confidences) <= hi


def test_a_spec_file_parses(tmp_path: Path) -> None:
    path = tmp_path / "acme.toml"
    path.write_text(GOOD)
    spec = load_spec("dice", path)
    assert (spec.model, spec.garbage_bytes, spec.confidence) == ("ACME-{dice}", (8, 64), (100, 100))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("spec = 1", "spec = 2"), "expected 'spec = 1'"),
        (('kind = "dice"', 'kind = "shoe"'), "kind is 'shoe'"),
        (('firmware = "2.1"', 'firmware = ""'), "firmware must be a non-empty string"),
        (("slow_delay = 0.5", "slow_delay = -1"), "slow_delay must be"),
        (("[8, 64]", "[64, 8]"), "garbage_bytes must be"),
        (("[8, 64]", "[8, 64]\ncolour = 1"), "unknown key"),
        (('serial_prefix = "AC-"\n', ""), "missing key"),
        (("spec = 1", "spec = = 1"), "not valid TOML"),
    ],
)
def test_bad_spec_files(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(*edit))
    with pytest.raises(ConfigError, match=message):
        load_spec("dice", path)

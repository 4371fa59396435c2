"""``probe``: open a device and report identity, firmware and a health check.

For an entropy device the check reads a 4096-byte sample and flags the obvious
failures a technician can act on at once (a stuck or heavily biased output). It
is a commissioning aid, not the SP 800-90B health tests, which ``rng`` runs on
every byte it uses. For a framed peripheral it asks the device's own HEALTH.
"""

from __future__ import annotations

from collections import Counter

from firmware_bridge.hal import Device, EntropyDevice
from firmware_bridge.registry import open_device

SAMPLE = 4096


def entropy_sample_health(sample: bytes) -> str:
    """A one-line verdict on a raw sample: "ok ..." or "FAIL ..."."""
    if not sample:
        return "FAIL: no bytes"
    value, count = Counter(sample).most_common(1)[0]
    share = count / len(sample)
    distinct = len(set(sample))
    if distinct == 1:
        return f"FAIL: stuck output (every byte is 0x{value:02x})"
    if share > 0.05:  # 1/256 expected; 5 % is far outside any healthy sample of 4096
        return f"FAIL: biased output (0x{value:02x} is {share:.0%} of {len(sample)} bytes)"
    return f"ok: {len(sample)} bytes, {distinct} distinct values, top value {share:.1%}"


def probe(url: str) -> dict[str, str]:
    """Identity, firmware and health of the device at ``url`` as printable fields."""
    dev: Device = open_device(url)
    with dev:
        if isinstance(dev, EntropyDevice):
            health = entropy_sample_health(dev.read(SAMPLE))
        else:
            check = getattr(dev, "health", None)
            health = str(check()) if callable(check) else "n/a"
        s = dev.status()
    state = "fault" if health.startswith("FAIL") else s.state.value
    return {
        "url": s.url,
        "role": s.role,
        "model": s.model,
        "serial": s.serial_number or "-",
        "firmware": s.firmware or "-",
        "state": state,
        "health": health,
        "last fault": s.last_fault or "-",
    }

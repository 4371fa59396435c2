"""Failure policy (fail-closed, fallback), reseeding, real-money refusal, device sources."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rng.config import RngConfig
from rng.errors import RngConfigError, RngHalted, SourceUnavailable, TestModeRequired
from rng.generator import DrbgGenerator
from rng.health import HealthConfig
from rng.sources import HealthCheckedSource, OsSource, SimSource
from rng.supply import Alarm, EntropySupply
from tests.rng.devices import DeviceSource, open_rng


def supply_with(raw: SimSource, policy: str) -> EntropySupply:
    primary = HealthCheckedSource(raw, HealthConfig())
    fallback = HealthCheckedSource(OsSource(), HealthConfig(min_entropy="8"))
    return EntropySupply(primary, policy=policy, fallback=fallback)


def test_fail_closed_stops_on_a_stuck_source_and_stays_stopped() -> None:
    raw = SimSource(seed=1)
    supply = supply_with(raw, "fail-closed")
    alarms: list[Alarm] = []
    supply.subscribe(alarms.append)
    gen = DrbgGenerator(supply, reseed_requests=2)
    gen.start()
    gen.generate(100)
    raw.inject("stuck")
    with pytest.raises(RngHalted, match="fail-closed"):
        gen.generate(1 << 17)  # needs a reseed after 2 requests
    assert [a.kind for a in alarms] == ["halt"]
    with pytest.raises(RngHalted):
        gen.generate(1)  # no output at all while halted
    assert supply.status().halted is not None
    # The operator fixes the source and restarts: a new start-up test, then service.
    raw.inject("none")
    supply.restart()
    gen.start()
    assert len(gen.generate(10)) == 10
    assert alarms[-1].kind == "restart"


def test_fallback_switches_to_the_os_csprng_with_an_alarm_and_a_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    raw = SimSource(seed=2)
    supply = supply_with(raw, "fallback")
    alarms: list[Alarm] = []
    supply.subscribe(alarms.append)
    gen = DrbgGenerator(supply, reseed_requests=1)
    gen.start()
    raw.inject("biased")
    with caplog.at_level(logging.WARNING, logger="rng"):
        out = gen.generate(1 << 17)
    assert len(out) == 1 << 17
    assert [a.kind for a in alarms] == ["fallback"]
    assert "switched to os:" in alarms[0].message
    assert any("fallback" in r.getMessage() for r in caplog.records)
    status = supply.status()
    assert status.active.startswith("os:") and status.halted is None
    assert status.sources[0].state == "failed"


def test_unplugged_source_under_each_policy() -> None:
    closed = supply_with(SimSource(seed=3, fault="unplug", unplug_after=2000), "fail-closed")
    gen = DrbgGenerator(closed, reseed_requests=1)
    gen.start()  # 1024 start-up samples + 37 + 19 bytes of entropy fit under 2000

    def drain() -> None:
        for _ in range(40):
            gen.generate(1 << 16)

    with pytest.raises(RngHalted, match="unplugged"):
        drain()
    fallback = supply_with(SimSource(seed=3, fault="unplug", unplug_after=2000), "fallback")
    gen = DrbgGenerator(fallback, reseed_requests=1)
    gen.start()
    for _ in range(40):
        gen.generate(1 << 16)
    assert fallback.status().alarms[0].kind == "fallback"


def test_reseeds_on_the_request_interval_and_on_start() -> None:
    supply = supply_with(SimSource(seed=4), "fail-closed")
    gen = DrbgGenerator(supply, reseed_requests=3)
    gen.start()
    served = supply.primary.bytes_served
    for _ in range(7):
        gen.generate(1000)
    assert gen.reseeds == 2
    assert supply.primary.bytes_served > served
    gen.start()
    assert gen.instantiations == 2


def test_reseeds_on_the_time_interval() -> None:
    now = [0.0]
    supply = supply_with(SimSource(seed=5), "fail-closed")
    gen = DrbgGenerator(supply, reseed_seconds=60, clock=lambda: now[0])
    gen.start()
    gen.generate(10)
    assert gen.reseeds == 0
    now[0] = 61.0
    gen.generate(10)
    assert gen.reseeds == 1


def test_prediction_resistance_draws_fresh_entropy_for_every_request() -> None:
    supply = supply_with(SimSource(seed=6), "fail-closed")
    gen = DrbgGenerator(supply, prediction_resistance=True)
    gen.start()
    before = supply.primary.bytes_served
    gen.generate(3 * (1 << 16))  # three requests
    per_request = -(-256 // 7)  # 256 bits at a claimed 7 bits per sample
    assert supply.primary.bytes_served - before == 3 * per_request
    assert gen.reseeds == 3


def test_simulator_refuses_a_real_money_table_without_test_mode() -> None:
    with pytest.raises(TestModeRequired, match="NOT FOR PLAY"):
        open_rng(RngConfig(source="sim"), real_money=True)
    with pytest.raises(TestModeRequired):
        open_rng(RngConfig(source="hw", url="sim://trng?seed=1"), real_money=True)
    stack = open_rng(RngConfig(source="sim", test_mode=True), real_money=True)
    assert len(stack.rng.shoe(1)) == 52
    stack.close()
    stack = open_rng(RngConfig(source="sim"), real_money=False)
    stack.close()


@pytest.mark.parametrize(("fault", "policy"), [("stuck", "fail-closed"), ("biased", "fallback")])
def test_firmware_bridge_simulated_trng_through_the_hw_path(fault: str, policy: str) -> None:
    url = f"sim://trng?seed=7&fault={fault}"
    config = RngConfig(source="hw", url=url, policy=policy, test_mode=True)
    if policy == "fail-closed":
        with pytest.raises(RngHalted, match="RCT"):
            open_rng(config, real_money=True)
    else:
        stack = open_rng(config, real_money=True)
        assert stack.status().supply.alarms[0].kind == "fallback"
        assert len(stack.rng.roll(2)) == 2
        stack.close()


def test_healthy_firmware_bridge_trng_serves() -> None:
    stack = open_rng(
        RngConfig(source="hw", url="sim://trng?seed=9", test_mode=True), real_money=True
    )
    status = stack.status()
    assert status.supply.sources[0].state == "ok" and status.supply.alarms == ()
    stack.close()


def test_missing_device_is_unavailable() -> None:
    source = DeviceSource("serial:///dev/does-not-exist-croupier")
    with pytest.raises(SourceUnavailable, match="does-not-exist"):
        source.read(16)


def test_config_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        '[rng]\nsource = "hw"\nurl = "sim://trng"\npolicy = "fallback"\nmin_entropy = 7.5\n'
        "alpha_log2 = 40\n"
    )
    config = RngConfig.from_toml(path)
    assert (config.policy, config.min_entropy, config.alpha_log2) == ("fallback", "7.5", 40)
    for bad, message in [
        ('[rng]\ncolour = "red"\n', "unknown key 'colour'"),
        ('[rng]\nsource = "moon"\n', "expected one of"),
        ('[rng]\nalpha_log2 = "x"\n', "must be int"),
        ('[rng]\nsource = "hw"\n', "needs rng.url"),
        ("[rng]\nalpha_log2 = 50\n", "2\\*\\*-40"),
        ("[rng\n", "not valid TOML"),
    ]:
        path.write_text(bad)
        with pytest.raises(RngConfigError, match=message):
            RngConfig.from_toml(path)


def test_the_timer_hook_reads_the_source_only_when_the_seeding_is_old() -> None:
    now = [0.0]
    raw = SimSource(seed=9)
    supply = supply_with(raw, "fail-closed")
    gen = DrbgGenerator(supply, reseed_seconds=60, clock=lambda: now[0])
    gen.start()
    read = supply.primary.bytes_read
    assert gen.reseed_if_older(60) is False  # seeded just now: the source is not touched
    assert supply.primary.bytes_read == read
    now[0] = 60.0
    assert gen.reseed_if_older(60) is True and gen.reseeds == 1
    assert supply.primary.bytes_read > read  # read and health-tested
    raw.inject("stuck")
    now[0] = 120.0
    with pytest.raises(RngHalted):
        gen.reseed_if_older(60)  # a stuck source found with no output asked for
    assert supply.status().halted is not None

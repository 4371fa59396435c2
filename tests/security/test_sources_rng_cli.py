"""Issue 12 C17: ``croupier rng health|stream --config F`` test the source serve would use.

The attack: a technician checks the appliance's TRNG with ``croupier rng health
--config /etc/croupier.toml`` before opening; the command ignored the file's
``source`` and ``policy`` (it forced ``auto``, which falls back to the OS CSPRNG),
so a stuck TRNG that stops ``croupier serve`` under ``fail-closed`` looked like a
working appliance. Now both commands read that settings file's ``[rng]`` table as
serve does: the stuck TRNG halts them, named, with a non-zero exit.
"""

from __future__ import annotations

from pathlib import Path

from tests.security.conftest import croupier, real_money_settings, write_config


def _stuck_trng_config(tmp_path: Path) -> Path:
    data = real_money_settings(tmp_path / "store")
    data["rng"] = {
        "source": "hw",
        "url": "sim://trng?seed=1&fault=stuck",
        "policy": "fail-closed",
        "test_mode": True,  # the simulated TRNG stands in for the real one in this lab test
    }
    return write_config(tmp_path, data)


def test_rng_health_reports_the_configs_stuck_trng(tmp_path: Path) -> None:
    result = croupier("rng", "health", "--config", str(_stuck_trng_config(tmp_path)))
    assert result.returncode != 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[0].startswith("policy: fail-closed"), result.stdout
    assert any(line.startswith("HALTED: ") and "RCT" in line for line in lines), result.stdout
    assert "switched to os" not in result.stdout  # no silent fallback serve would not make
    assert "  kind=hw for_play=NO state=failed" in lines


def test_rng_stream_refuses_the_configs_stuck_trng(tmp_path: Path) -> None:
    config = _stuck_trng_config(tmp_path)
    result = croupier("rng", "stream", "--config", str(config), "--bytes", "1000")
    assert result.returncode == 2
    assert result.stdout == ""  # not one byte from a source serve would refuse
    assert result.stderr.startswith("croupier: error: rng halted: ")
    assert "RCT" in result.stderr and "fail-closed" in result.stderr


def test_options_still_override_the_config(tmp_path: Path) -> None:
    config = _stuck_trng_config(tmp_path)
    result = croupier("rng", "health", "--config", str(config), "--source", "os")
    assert result.returncode == 0, result.stdout
    assert "active source: os:" in result.stdout

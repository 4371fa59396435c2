"""Appliance settings: one TOML file, validated into frozen dataclasses.

Precedence: explicit argument > environment (``CROUPIER_STORE``, ``CROUPIER_CONFIG``)
> the config file > the packaged defaults (``default.toml``: every game on a
simulated entropy source and simulated shoe, dice reader and wheel, the embedded
store under ``var/store``, demo credit for new players). Unknown keys are
refused with the key named, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kiosk_ui.errors import KioskError


class SettingsError(KioskError, ValueError):
    code = "settings"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettings:
    id: str
    variant: str
    source: str = "rng"  # "rng", or a device role from [devices] ("shoe", "dice", "wheel")


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    store: Path
    synchronous: str = "FULL"
    rng: dict[str, Any] = field(default_factory=dict)  # rng.RngConfig fields
    devices: dict[str, str] = field(default_factory=dict)  # role -> device URL
    tables: tuple[TableSettings, ...] = ()
    all_variants: bool = False  # one RNG table per variant in addition to ``tables``
    demo: bool = False  # new players get demo credit; banner says "not for play"
    demo_credit: int = 100_000
    session_minutes: int = 30
    operator_user: str = "admin"
    operator_password: str = ""  # first start only; empty: generate and print one
    source_file: str = ""

    @property
    def real_money(self) -> bool:
        return not self.demo


DEVICE_ROLES = frozenset(("entropy", "shoe", "dice", "wheel"))  # firmware_bridge.roles.ROLES
_TOP = {"store", "rng", "devices", "tables", "demo", "operator", "lobby"}


def _expect(where: str, table: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise SettingsError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")


def parse(data: dict[str, Any], *, source: str = "", base: Path | None = None) -> Settings:
    """Validate a settings mapping (already parsed from TOML)."""
    _expect(source or "settings", data, _TOP)
    store = data.get("store", {})
    _expect("[store]", store, {"dir", "synchronous"})
    demo = data.get("demo", {})
    _expect("[demo]", demo, {"enabled", "credit"})
    lobby = data.get("lobby", {})
    _expect("[lobby]", lobby, {"all_variants"})
    op = data.get("operator", {})
    _expect("[operator]", op, {"user", "password", "session_minutes"})
    devices = data.get("devices", {})
    if not all(isinstance(v, str) for v in devices.values()):
        raise SettingsError("[devices]: every role maps to a device URL string")
    bad_roles = sorted(set(devices) - DEVICE_ROLES)
    if bad_roles:
        raise SettingsError(
            f"[devices]: unknown role {bad_roles[0]!r} (roles: {', '.join(sorted(DEVICE_ROLES))})"
        )
    tables: list[TableSettings] = []
    seen: set[str] = set()
    for i, t in enumerate(data.get("tables", [])):
        _expect(f"[[tables]] #{i + 1}", t, {"id", "variant", "source"})
        if "id" not in t or "variant" not in t:
            raise SettingsError(f"[[tables]] #{i + 1}: needs id and variant")
        if t["id"] in seen:
            raise SettingsError(f"[[tables]]: table id {t['id']!r} used twice")
        seen.add(t["id"])
        src = t.get("source", "rng")
        if src != "rng" and src not in devices:
            raise SettingsError(f"table {t['id']}: source {src!r} is not a role in [devices]")
        tables.append(TableSettings(id=str(t["id"]), variant=str(t["variant"]), source=src))
    store_dir = Path(os.environ.get("CROUPIER_STORE") or store.get("dir", "var/store"))
    if not store_dir.is_absolute() and base is not None:
        store_dir = base / store_dir
    sync = str(store.get("synchronous", "FULL")).upper()
    if sync not in ("FULL", "NORMAL"):
        raise SettingsError("[store] synchronous must be FULL or NORMAL")
    credit = demo.get("credit", 100_000)
    if not isinstance(credit, int) or credit < 0:
        raise SettingsError("[demo] credit is a whole number of cents")
    return Settings(
        store=store_dir,
        synchronous=sync,
        rng=dict(data.get("rng", {})),
        devices=dict(devices),
        tables=tuple(tables),
        all_variants=bool(lobby.get("all_variants", False)),
        demo=bool(demo.get("enabled", False)),
        demo_credit=credit,
        session_minutes=int(op.get("session_minutes", 30)),
        operator_user=str(op.get("user", "admin")),
        operator_password=str(op.get("password", "")),
        source_file=source,
    )


def load(path: str | Path | None = None) -> Settings:
    """Load settings from ``path`` (or ``CROUPIER_CONFIG``), else the packaged defaults."""
    chosen = path or os.environ.get("CROUPIER_CONFIG")
    if chosen:
        p = Path(chosen)
        try:
            data = tomllib.loads(p.read_text())
        except OSError as exc:
            raise SettingsError(f"cannot read config {p}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"config {p} is not valid TOML: {exc}") from None
        return parse(data, source=str(p), base=p.parent)
    text = resources.files("kiosk_ui").joinpath("default.toml").read_text()
    return parse(tomllib.loads(text), source="default.toml", base=Path.cwd())

"""Appliance settings: one TOML file, validated by type and range into a frozen dataclass.

Precedence: explicit argument > environment (``CROUPIER_STORE``, ``CROUPIER_CONFIG``)
> the config file > the packaged defaults (``default.toml``: every game on a
simulated entropy source and simulated shoe, dice reader and wheel, the embedded
store under ``var/store``, demo credit for new players).

Every value is checked strictly (pydantic strict models, one per TOML table): a
boolean must be a TOML boolean (``"false"`` in quotes is refused, not read as
true), an integer a TOML integer inside its range, a string a string. Unknown keys
are refused, so a typo never silently falls back to a default. The ``[rng]``
table is checked by :class:`rng.RngConfig` itself. Every error is one
:class:`SettingsError` line naming the key and the value.

Adding a key: (1) a field with its type and range on its table's model below
(``_Store``, ``_Demo``, ``_Seats``, ...; a new table is a new model plus a field on
``_Config``), (2) a field on :class:`Settings`, (3) one line in :func:`parse`
passing it on. The rest of the code reads only :class:`Settings`. (``[store]
anchor`` and ``[seats]`` are read by the chain and seat code of issue 12.)
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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
    store_url: str | None = None  # [store] url: postgresql://... (None: SQLite in ``store``)
    shared: bool = False  # [store] shared: other appliances write the same database
    lease_seconds: float = 15.0  # [store] lease_seconds: a table's lease on a shared store
    workers: int = 1  # [serve] workers: processes serving the store (serve --workers)
    stop_seconds: float = 60.0  # [serve] stop_seconds: a worker still running then is killed
    public_url: str | None = None  # [serve] public_url: where this appliance is reached
    worker: int | None = None  # which of them this process is (None: the only one)
    synchronous: str = "FULL"
    anchor: Path | None = None  # [store] anchor: append-only file of signed tree heads
    rng: dict[str, Any] = field(default_factory=dict)  # rng.RngConfig fields (validated)
    devices: dict[str, str] = field(default_factory=dict)  # role -> device URL
    tables: tuple[TableSettings, ...] = ()
    all_variants: bool = False  # one RNG table per variant in addition to ``tables``
    time_zone: str = "UTC"  # [lobby] time_zone: the casino's zone, for the times players read
    demo: bool = False  # new players get demo credit; banner says "not for play"
    demo_credit: int = 100_000
    session_minutes: int = 30
    operator_user: str = "admin"
    operator_password: str = ""  # first start only; empty: generate and print one
    seats_per_table: int = 2  # [seats] per_table: seats one player may hold at one table
    seats_floor: int = 4  # [seats] floor: seats one player may hold at all tables together
    seat_idle_seconds: float = 300.0  # [seats] idle_seconds: an unused seat is freed after
    action_seconds: float = 30.0  # [seats] action_seconds: the clock on a shared game's decision
    hand_pause_seconds: float = 3.0  # [seats] hand_pause_seconds: a poker room deals after it
    max_body_bytes: int = 64 * 1024  # [http] max_body_bytes: larger request bodies are 413
    kiosk_name: str = "kiosk-1"  # [kiosk] name: a terminal's name when its page gives none
    voucher_days: int = 30  # [kiosk] voucher_days: a cash-out voucher expires after
    idle_seconds: int = 120  # [kiosk] idle_seconds: no touch for this long ends the session
    at_idle: str = "keep"  # [kiosk] at_idle: "keep" the wallet, or pay it to a "voucher"
    source_file: str = ""

    @property
    def real_money(self) -> bool:
        return not self.demo


DEVICE_ROLES = frozenset(("entropy", "shoe", "dice", "wheel"))  # firmware_bridge.roles.ROLES
MIN_PASSWORD = 8  # kiosk_ui.auth.Operators.add refuses shorter ones
MAX_DEMO_CREDIT = 100_000_000  # cents ($1,000,000) per new player at most
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$"  # table ids appear in URLs and the log


# --- the TOML tables, one strict model each ----------------------------------------


class _Table(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _Store(_Table):
    dir: str = Field(default="var/store", min_length=1)
    # the database: "" (SQLite in dir), sqlite:///PATH or postgresql://... (kiosk_ui.store.location)
    url: str = ""
    shared: bool = False  # several appliances on one PostgreSQL store (kiosk_ui/table/leasing.py)
    lease_seconds: float = Field(default=15.0, ge=1.0, le=600.0)
    synchronous: Literal["FULL", "NORMAL"] = "FULL"
    anchor: str | None = Field(default=None, min_length=1)  # a file outside the store

    @field_validator("synchronous", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class _Demo(_Table):
    enabled: bool = False
    credit: int = Field(default=100_000, ge=0, le=MAX_DEMO_CREDIT)


class _Operator(_Table):
    user: str = Field(default="admin", min_length=1, max_length=64)
    password: str = ""
    session_minutes: int = Field(default=30, ge=1, le=24 * 60)

    @field_validator("password")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        if value and len(value) < MIN_PASSWORD:
            raise ValueError(f"needs at least {MIN_PASSWORD} characters (has {len(value)})")
        return value


class _Serve(_Table):
    # processes serving the store (serve --workers): each its share of the tables
    workers: int = Field(default=1, ge=1, le=64)
    # serve --workers: a worker still running this long after the stop began is killed
    # (hung), so a stop always ends; it must outlast a console stream's 25 s drain
    stop_seconds: float = Field(default=60.0, ge=1.0, le=3600.0)
    # where players and the floor's other servers reach this one (worker I: port + I);
    # empty: http://<listening address or host name>:<port>
    public_url: str = Field(
        default="", max_length=200, pattern=r"^$|^https?://[A-Za-z0-9.\[\]:-]+(:\d+)?/?$"
    )


class _Lobby(_Table):
    all_variants: bool = False
    time_zone: str = Field(default="UTC", min_length=1, max_length=64)

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        """An IANA zone this system knows (the history shows the casino's local times)."""
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {v!r} (an IANA name, like 'America/Los_Angeles')"
            ) from None
        return v


class _Seats(_Table):
    per_table: int = Field(default=2, ge=1, le=100)
    floor: int = Field(default=4, ge=1, le=100)
    idle_seconds: float = Field(default=300.0, ge=0.05, le=86_400)
    action_seconds: float = Field(default=30.0, ge=0.05, le=86_400)
    hand_pause_seconds: float = Field(default=3.0, ge=0.0, le=3_600)


class _Http(_Table):
    # The largest API body is a full bet slip (~4 KiB); a huge one is refused unread.
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)


class _Kiosk(_Table):
    name: str = Field(default="kiosk-1", pattern=ID_PATTERN)
    voucher_days: int = Field(default=30, ge=1, le=3650)
    idle_seconds: int = Field(default=120, ge=10, le=86_400)
    at_idle: Literal["keep", "voucher"] = "keep"


class _Devices(_Table):
    entropy: str | None = Field(default=None, min_length=1)
    shoe: str | None = Field(default=None, min_length=1)
    dice: str | None = Field(default=None, min_length=1)
    wheel: str | None = Field(default=None, min_length=1)


class _TableEntry(_Table):
    id: str = Field(pattern=ID_PATTERN)
    variant: str = Field(min_length=1)
    source: str = Field(default="rng", min_length=1)


class _Config(_Table):
    store: _Store = Field(default_factory=_Store)
    rng: dict[str, Any] = Field(default_factory=dict)  # checked by rng.RngConfig.from_mapping
    devices: _Devices = Field(default_factory=_Devices)
    demo: _Demo = Field(default_factory=_Demo)
    operator: _Operator = Field(default_factory=_Operator)
    lobby: _Lobby = Field(default_factory=_Lobby)
    serve: _Serve = Field(default_factory=_Serve)
    seats: _Seats = Field(default_factory=_Seats)
    http: _Http = Field(default_factory=_Http)
    kiosk: _Kiosk = Field(default_factory=_Kiosk)
    tables: list[_TableEntry] = Field(default_factory=list)


assert set(_Devices.model_fields) == DEVICE_ROLES


# --- errors: one line naming the key and the value ----------------------------------

_SECRET_KEYS = {"password"}


def _where(loc: tuple[int | str, ...]) -> str:
    """Where an error is, as the config says it: ``[demo] enabled``, ``[[tables]] #2 id``."""
    if not loc:
        return "settings"
    head, rest = str(loc[0]), list(loc[1:])
    if head == "tables" and rest and isinstance(rest[0], int):
        where = f"[[tables]] #{rest[0] + 1}"
        rest = rest[1:]
    elif rest:
        where = f"[{head}]"
    else:
        return head
    return " ".join([where, *(str(p) for p in rest)])


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return repr(value)


def _describe(err: Any) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    texts = {
        "bool_type": "must be true or false (a TOML boolean, without quotes)",
        "int_type": "must be a whole number (a TOML integer)",
        "float_type": "must be a number",
        "string_type": "must be a string (in quotes)",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "less_than_equal": f"must be at most {ctx.get('le')}",
        "literal_error": f"must be one of {ctx.get('expected')}",
        "string_too_short": "must not be empty",
        "string_too_long": f"must be at most {ctx.get('max_length')} characters",
        "string_pattern_mismatch": "must be letters, digits and _ . : - (at most 64)",
        "model_type": "must be a table",
        "model_attributes_type": "must be a table",
        "dict_type": "must be a table",
        "list_type": "must be an array of tables ([[tables]])",
    }
    text = texts.get(kind) or str(err["msg"]).removeprefix("Value error, ")
    return text


def _allowed(loc: tuple[int | str, ...]) -> str:
    """The keys the table holding ``loc`` allows (said with an unknown key)."""
    model: type[BaseModel] = _Config
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        annotation = model.model_fields[str(part)].annotation
        inner = getattr(annotation, "__args__", (annotation,))[0]
        if not (isinstance(inner, type) and issubclass(inner, BaseModel)):
            return ""
        model = inner
    return ", ".join(model.model_fields)


def _error(exc: ValidationError, source: str) -> SettingsError:
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    where = _where(loc)
    if err["type"] == "missing":
        return _fail(source, f"{where} is required")
    if err["type"] == "extra_forbidden":
        allowed = _allowed(loc)
        return _fail(
            source, f"{where}: unknown key" + (f" (allowed: {allowed})" if allowed else "")
        )
    if loc and str(loc[-1]) in _SECRET_KEYS:  # never echo a password
        return _fail(source, f"{where}: {_describe(err)}")
    return _fail(source, f"{where} = {_toml(err['input'])}: {_describe(err)}")


def _fail(source: str, message: str) -> SettingsError:
    return SettingsError(f"{source}: {message}" if source else message)


# --- parse and load -------------------------------------------------------------------


def parse(data: dict[str, Any], *, source: str = "", base: Path | None = None) -> Settings:
    """Validate a settings mapping (already parsed from TOML)."""
    from rng import RngConfig
    from rng.errors import RngConfigError

    try:
        cfg = _Config.model_validate(data)
    except ValidationError as exc:
        raise _error(exc, source) from None
    try:
        RngConfig.from_mapping(cfg.rng)
    except RngConfigError as exc:
        raise _fail(source, str(exc)) from None
    devices = cfg.devices.model_dump(exclude_none=True)
    tables: list[TableSettings] = []
    seen: set[str] = set()
    for i, t in enumerate(cfg.tables):
        if t.id in seen:
            raise _fail(source, f"[[tables]] #{i + 1} id = {_toml(t.id)}: table id used twice")
        seen.add(t.id)
        if t.source != "rng" and t.source not in devices:
            raise _fail(
                source,
                f"[[tables]] #{i + 1} source = {_toml(t.source)}: not 'rng' nor a role "
                f"in [devices] ({', '.join(sorted(devices)) or 'none configured'})",
            )
        tables.append(TableSettings(id=t.id, variant=t.variant, source=t.source))
    store_dir = Path(os.environ.get("CROUPIER_STORE") or cfg.store.dir)
    if not store_dir.is_absolute() and base is not None:
        store_dir = base / store_dir
    anchor = Path(cfg.store.anchor) if cfg.store.anchor else None
    if anchor is not None and not anchor.is_absolute() and base is not None:
        anchor = base / anchor
    return Settings(
        store=store_dir,
        store_url=os.environ.get("CROUPIER_STORE_URL") or cfg.store.url or None,
        shared=cfg.store.shared,
        lease_seconds=cfg.store.lease_seconds,
        workers=cfg.serve.workers,
        stop_seconds=cfg.serve.stop_seconds,
        public_url=cfg.serve.public_url or None,
        synchronous=cfg.store.synchronous,
        anchor=anchor,
        rng=dict(cfg.rng),
        devices=devices,
        tables=tuple(tables),
        all_variants=cfg.lobby.all_variants,
        time_zone=cfg.lobby.time_zone,
        demo=cfg.demo.enabled,
        demo_credit=cfg.demo.credit,
        session_minutes=cfg.operator.session_minutes,
        operator_user=cfg.operator.user,
        operator_password=cfg.operator.password,
        seats_per_table=cfg.seats.per_table,
        seats_floor=cfg.seats.floor,
        seat_idle_seconds=cfg.seats.idle_seconds,
        action_seconds=cfg.seats.action_seconds,
        hand_pause_seconds=cfg.seats.hand_pause_seconds,
        max_body_bytes=cfg.http.max_body_bytes,
        kiosk_name=cfg.kiosk.name,
        voucher_days=cfg.kiosk.voucher_days,
        idle_seconds=cfg.kiosk.idle_seconds,
        at_idle=cfg.kiosk.at_idle,
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
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError(f"config {p} is not valid TOML: {exc}") from None
        return parse(data, source=str(p), base=p.parent)
    text = resources.files("kiosk_ui").joinpath("default.toml").read_text()
    return parse(tomllib.loads(text), source="default.toml", base=Path.cwd())

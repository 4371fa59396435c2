"""``replay://recording.jsonl``: play a recorded peripheral session back, in order.

A recording (written by :func:`record` or ``croupier devices record``) is JSON Lines:
a header, then one event per line::

    {"spec": 1, "role": "shoe", "url": "serial:///dev/ttyUSB0?model=shoe", "model": "...",
     "serial": "...", "firmware": "...", "dice": 2, "zeros": 2}
    {"t": 0.0132, "event": "CardDrawn", "seq": 3, "rank": "A", "suit": "s", "position": 1}

Replaying gives the same events to the same code that met them in the field (to
reproduce an incident). Every line is checked when the file is opened: an unknown
event, a missing or mistyped field, or a wrong ``spec`` is a ConfigError naming the
line, and nothing is replayed from a bad file.
"""

from __future__ import annotations

import dataclasses
import json
import time
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from firmware_bridge import hal
from firmware_bridge.base import BaseDevice
from firmware_bridge.config import build_config
from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import DeviceEvent, EventDevice
from firmware_bridge.url import DeviceUrl

SPEC = 1
EVENTS: dict[str, type[DeviceEvent]] = {
    cls.__name__: cls
    for cls in vars(hal).values()
    if isinstance(cls, type) and issubclass(cls, DeviceEvent) and cls is not DeviceEvent
}


def event_to_json(event: DeviceEvent, t: float) -> dict[str, Any]:
    """One recording line for ``event`` seen ``t`` seconds into the session."""
    line: dict[str, Any] = {"t": round(t, 6), "event": type(event).__name__}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        line[f.name] = list(value) if isinstance(value, tuple) else value
    return line


def event_from_json(line: Mapping[str, Any], where: str) -> DeviceEvent:
    """The event a recording line holds, or ConfigError naming ``where``."""
    name = line.get("event")
    cls = EVENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ConfigError(f"{where}: unknown event {name!r}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in line:
            if f.default is dataclasses.MISSING:
                raise ConfigError(f"{where}: {name} needs field {f.name!r}")
            continue
        value = line[f.name]
        expected = hints[f.name]
        if expected == tuple[int, ...]:
            ok = isinstance(value, list) and all(type(v) is int for v in value)
            value = tuple(value) if ok else value
        else:
            ok = type(value) is expected
        if not ok:
            raise ConfigError(f"{where}: {name}.{f.name} has a bad value {value!r}")
        kwargs[f.name] = value
    extra = set(line) - {"t", "event"} - set(kwargs) - {f.name for f in dataclasses.fields(cls)}
    if extra:
        raise ConfigError(f"{where}: {name} has unknown field(s) {', '.join(sorted(extra))}")
    return cls(**kwargs)


def record(device: EventDevice, path: Path, *, events: int, timeout: float = 5.0) -> int:
    """Write ``device``'s next ``events`` events to ``path``; return how many were seen."""
    s = device.status()
    header = {
        "spec": SPEC,
        "role": s.role,
        "url": s.url,
        "model": s.model,
        "serial": s.serial_number,
        "firmware": s.firmware,
        "dice": getattr(device, "dice", 2),
        "zeros": getattr(device, "zeros", 2),
    }
    start = time.monotonic()
    seen = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        while seen < events:
            event = device.next_event(timeout=timeout)
            if event is None:
                break
            out.write(json.dumps(event_to_json(event, time.monotonic() - start)) + "\n")
            seen += 1
    return seen


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReplayConfig:
    """Query keys of ``replay://`` (none but the file)."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {}
    path: str


def load(path: Path) -> tuple[dict[str, Any], list[DeviceEvent]]:
    """Header and events of a recording, fully validated."""
    try:
        lines = path.read_text("utf-8").splitlines()
    except FileNotFoundError:
        raise ConfigError(f"replay://{path}: no such recording") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"replay://{path}: cannot read ({exc})") from None
    parsed: list[tuple[int, dict[str, Any]]] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ConfigError(f"{path}:{number}: expected a JSON object")
        parsed.append((number, obj))
    if not parsed:
        raise ConfigError(f"{path}: empty recording")
    header = parsed[0][1]
    if header.get("spec") != SPEC:
        raise ConfigError(f"{path}:1: expected a header with 'spec': {SPEC}")
    if header.get("role") not in ("shoe", "dice", "wheel"):
        raise ConfigError(f"{path}:1: role must be shoe, dice or wheel")
    events = [event_from_json(obj, f"{path}:{n}") for n, obj in parsed[1:]]
    return header, events


class _Replay(BaseDevice):
    """Events from a recording, in order; None once they run out."""

    def __init__(self, url: str, header: Mapping[str, Any], events: list[DeviceEvent]) -> None:
        super().__init__(url)
        self.model = str(header.get("model", ""))
        self.serial_number = str(header.get("serial", ""))
        self.firmware = str(header.get("firmware", ""))
        self._events = list(events)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._events) - self._next

    def next_event(self, timeout: float | None = None) -> DeviceEvent | None:
        self._check_open()
        if self._next >= len(self._events):
            return None
        event = self._events[self._next]
        self._next += 1
        self.counters[f"events.{type(event).__name__}"] += 1
        return event


class ReplayShoe(_Replay):
    role = "shoe"

    def arm(self, cards: int = 0) -> None:
        """Recorded sessions deal what they recorded; arming changes nothing."""


class ReplayDice(_Replay):
    role = "dice"

    def __init__(self, url: str, header: Mapping[str, Any], events: list[DeviceEvent]) -> None:
        super().__init__(url, header, events)
        self.dice = int(header.get("dice", 2))


class ReplayWheel(_Replay):
    role = "wheel"

    def __init__(self, url: str, header: Mapping[str, Any], events: list[DeviceEvent]) -> None:
        super().__init__(url, header, events)
        self.zeros = int(header.get("zeros", 2))


class ReplayBackend:
    """Open a recording."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> hal.Device:
        config = build_config(
            ReplayConfig, url.text, {"path": url.target}, {**url.query, **overrides}
        )
        header, events = load(Path(config.path))
        kind = {"shoe": ReplayShoe, "dice": ReplayDice, "wheel": ReplayWheel}[header["role"]]
        return kind(url.text, header, events)

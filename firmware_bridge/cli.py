"""``croupier devices``: list the configured devices, probe one, or serve a simulator.

- ``croupier devices list [--config F]``: each role, its URL and where it came from,
  then what the device says (state, model, serial, firmware) or why it cannot be opened;
- ``croupier devices probe URL``: open one device, print identity, firmware and health;
- ``croupier devices record URL FILE [--events N] [--arm]``: record a peripheral's events
  to a ``replay://FILE`` recording;
- ``croupier devices sim KIND [--seed N] [--link PATH] [--set KEY=VALUE ...]``: serve a
  simulator on a pseudo-terminal, print its path, and serve until Ctrl-C. Type a fault
  name (``garbage``, ``unplug``, ``jam``...) and Enter on stdin to inject it.

Only the standard library is imported here; handlers import the device layer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``devices`` sub-commands to ``parser``."""
    sub = parser.add_subparsers(dest="devices_command", metavar="ACTION", required=True)

    p = sub.add_parser("list", help="show every role's device and its state")
    p.add_argument("--config", type=str, default=None, help="devices TOML file")
    p.add_argument(
        "--no-open", action="store_true", help="only show the configuration, open nothing"
    )
    p.set_defaults(handler=_list)

    p = sub.add_parser("probe", help="open a device URL; show identity, firmware and health")
    p.add_argument("url", help="device URL, e.g. serial:///dev/ttyACM0?model=truerng")
    p.set_defaults(handler=_probe)

    p = sub.add_parser("record", help="record a peripheral's events to a replay:// file")
    p.add_argument("url", help="device URL of a shoe, dice reader or wheel reader")
    p.add_argument("output", help="recording to write (JSON Lines)")
    p.add_argument("--events", type=int, default=100, help="events to record (default 100)")
    p.add_argument("--arm", action="store_true", help="arm a shoe before recording")
    p.add_argument("--timeout", type=float, default=5.0, help="stop after this long idle")
    p.set_defaults(handler=_record)

    p = sub.add_parser("sim", help="serve a simulated device on a pseudo-terminal")
    p.add_argument("kind", choices=("trng", "shoe", "dice", "wheel"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--link", type=str, default=None, help="also make this symlink to the pty")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a simulator setting, as in the pty:// URL (e.g. decks=6, interval=2, model=onerng)",
    )
    p.set_defaults(handler=_sim)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.upper().ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(line.rstrip() for line in lines)


def _list(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware_bridge.errors import DeviceError
    from firmware_bridge.roles import load_roles, open_role

    entries = load_roles(Path(args.config) if args.config else None)
    rows: list[list[str]] = []
    for role, entry in entries.items():
        row = [role, entry.url, entry.source]
        if args.no_open:
            rows.append(row)
            continue
        try:
            with open_role(role, url=entry.url) as dev:
                s = dev.status()
            row += [s.state.value, s.model, s.serial_number, s.firmware]
        except (DeviceError, OSError) as exc:
            row += ["unavailable", "", "", str(exc).splitlines()[0]]
        rows.append(row)
    headers = ["role", "url", "source"]
    if not args.no_open:
        headers += ["state", "model", "serial", "firmware / error"]
    print(_table(headers, rows))
    return 0


def _probe(args: argparse.Namespace) -> int:
    from firmware_bridge.probing import probe

    report = probe(args.url)
    print(_table(["field", "value"], [[k, v] for k, v in report.items()]))
    return 0 if report["state"] in ("ok", "degraded") else 1


def _record(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware_bridge.errors import ConfigError
    from firmware_bridge.hal import CardShoe, EventDevice
    from firmware_bridge.registry import open_device
    from firmware_bridge.replay import record

    if args.events < 1:
        raise ConfigError("--events must be at least 1")
    with open_device(args.url) as dev:
        if not isinstance(dev, EventDevice):
            raise ConfigError(f"{args.url} reports no events (not a shoe, dice or wheel reader)")
        if args.arm and isinstance(dev, CardShoe):
            dev.arm()
        seen = record(dev, Path(args.output), events=args.events, timeout=args.timeout)
    print(f"recorded {seen} events to {args.output}")
    return 0


def _sim(args: argparse.Namespace) -> int:
    import signal
    import threading
    from pathlib import Path

    from firmware_bridge.errors import ConfigError
    from firmware_bridge.sim.pty_server import PtyServer
    from firmware_bridge.sim.serve import build_served

    settings: dict[str, str] = {"seed": str(args.seed)}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set expects KEY=VALUE, got {item!r}")
        settings[key] = value
    device = build_served(args.kind, settings)
    server = PtyServer(device, link_path=Path(args.link) if args.link else None)
    path = server.start()
    print(path, flush=True)
    print(
        f"serving a simulated {args.kind} on {path}; type a fault name + Enter to inject, "
        "Ctrl-C to stop",
        file=sys.stderr,
        flush=True,
    )
    done = threading.Event()
    # Ctrl-C and SIGTERM both stop the server cleanly; set explicitly, because a process
    # started in the background of a non-interactive shell inherits SIGINT ignored.
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())

    def read_faults() -> None:
        for line in sys.stdin:
            fault = line.strip()
            if not fault:
                continue
            try:
                server.inject(fault)
                print(f"injected {fault}", file=sys.stderr, flush=True)
            except ValueError as exc:
                print(f"croupier: error: {exc}", file=sys.stderr, flush=True)

    threading.Thread(target=read_faults, daemon=True).start()
    try:
        while not done.wait(0.2):
            if server.error is not None:
                raise server.error
    finally:
        server.stop()
    print("stopped", file=sys.stderr)
    return 0

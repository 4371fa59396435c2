"""``croupier rng``: raw streams for outside test tools, health status, known-answer tests.

- ``croupier rng stream --source {hw,os,sim,auto} --bytes N [--raw] [--url URL]``
  writes DRBG output (or, with ``--raw``, health-tested raw source samples) to
  stdout as binary; ``--bytes 0`` streams until the reader closes the pipe.
- ``croupier rng health`` prints each source's status, health counters, bytes
  served and reseeds (exit 1 if a source failed).

Both use ``--config F``'s ``[rng]`` table as it stands (the file ``croupier serve
--config F`` reads): its source, URL and policy, so a TRNG that would stop ``serve``
fails here too; options given on the command line override single keys.
- ``croupier rng kat FILE.rsp ...`` runs NIST CAVP DRBG vector files and ends with
  one line ``N passed, M failed`` (exit 1 on any failure or if nothing ran).

Only the standard library is imported here; the rng modules load inside handlers,
which hand the factory the device layer's opener (``firmware_bridge.ENTROPY_OPENER``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the real import happens inside the handlers
    from rng.config import RngConfig
    from rng.supply import Alarm

CHUNK = 1 << 20
SOURCE_HELP = "entropy source (default: the --config file's [rng] source, else auto)"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``rng`` sub-commands to ``parser``."""
    sub = parser.add_subparsers(dest="rng_command", metavar="SUBCOMMAND")

    def source_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", type=Path, help="TOML file whose [rng] table to use")
        p.add_argument("--url", help="hardware TRNG URL (e.g. serial:///dev/ttyACM0, sim://trng)")
        p.add_argument("--seed", type=int, help="seed of the simulator source (--source sim)")
        p.add_argument("--drbg", choices=("CTR_DRBG", "HMAC_DRBG"), help="DRBG mechanism")
        p.add_argument("--policy", choices=("fail-closed", "fallback"), help="failure policy")
        p.add_argument("--alpha-log2", type=int, help="health-test alpha = 2**-N (20..40)")
        p.add_argument("--min-entropy", help="claimed min-entropy per sample, bits (e.g. 7.5)")

    stream = sub.add_parser(
        "stream",
        help="write DRBG output (or raw samples) to stdout for dieharder, rngtest, ent",
        description="Write binary random bytes to stdout. Example: "
        "croupier rng stream --source os --bytes 20000000 | rngtest",
    )
    stream.add_argument("--source", choices=("hw", "os", "sim", "auto"), help=SOURCE_HELP)
    stream.add_argument(
        "--bytes", type=int, required=True, dest="n_bytes", help="bytes to write; 0 = until EOF"
    )
    stream.add_argument(
        "--raw", action="store_true", help="unconditioned (health-tested) source samples"
    )
    source_options(stream)
    stream.set_defaults(handler=_stream)

    health = sub.add_parser("health", help="each source's status, health counters, reseeds")
    health.add_argument("--source", choices=("hw", "os", "sim", "auto"), help=SOURCE_HELP)
    health.add_argument(
        "--bytes", type=int, default=1 << 20, dest="n_bytes", help="DRBG bytes to draw first"
    )
    source_options(health)
    health.set_defaults(handler=_health)

    kat = sub.add_parser("kat", help="run NIST CAVP DRBG .rsp known-answer files")
    kat.add_argument("files", nargs="+", type=Path, metavar="FILE.rsp")
    kat.add_argument("-v", "--verbose", action="store_true", help="name every failed case")
    kat.set_defaults(handler=_kat)

    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _config(args: argparse.Namespace) -> RngConfig:
    import dataclasses

    from rng.config import RngConfig

    # The same [rng] table `croupier serve --config F` reads (rng.config parses it with
    # tomllib, strict about keys): its source, URL and policy, unless an option says else.
    config = RngConfig.from_toml(args.config) if args.config else RngConfig()
    changes: dict[str, object] = {}
    for option, key in (
        ("source", "source"),
        ("url", "url"),
        ("seed", "sim_seed"),
        ("drbg", "drbg"),
        ("policy", "policy"),
        ("alpha_log2", "alpha_log2"),
        ("min_entropy", "min_entropy"),
    ):
        value = getattr(args, option)
        if value is not None:
            changes[key] = value
    if changes.get("source", config.source) == "sim":
        changes["test_mode"] = True  # a stream or health check is not a real-money table
    return dataclasses.replace(config, **changes)  # type: ignore[arg-type]


def _write_all(out: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(out, view)
        view = view[written:]


def _quiet_stdout() -> None:
    """After the reader left: point stdout at /dev/null so interpreter exit stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _print_alarm(alarm: Alarm) -> None:
    """Tell the person at the terminal about a switch (a halt arrives as the error line)."""
    if alarm.kind != "halt":
        print(f"croupier: rng alarm ({alarm.kind}): {alarm.message}", file=sys.stderr)


def _stream(args: argparse.Namespace) -> int:
    from firmware_bridge import ENTROPY_OPENER
    from rng.errors import RngConfigError
    from rng.factory import build_supply, open_rng

    if args.n_bytes < 0:
        raise RngConfigError(f"--bytes must be >= 0, got {args.n_bytes}")
    config = _config(args)
    if args.raw:
        supply = build_supply(config, opener=ENTROPY_OPENER)
        source = supply.primary

        def produce(n: int) -> bytes:
            return source.read(n)

        closer = supply.close
    else:
        stack = open_rng(config, real_money=False, opener=ENTROPY_OPENER, start=False)
        stack.supply.subscribe(_print_alarm)
        stack.generator.start()
        produce = stack.generator.generate
        closer = stack.close
    sys.stdout.flush()
    out = sys.stdout.fileno()
    left = args.n_bytes
    try:
        while args.n_bytes == 0 or left > 0:
            n = CHUNK if args.n_bytes == 0 else min(CHUNK, left)
            _write_all(out, produce(n))
            left -= n
    except BrokenPipeError:
        _quiet_stdout()
    finally:
        closer()
    return 0


def _health(args: argparse.Namespace) -> int:
    from firmware_bridge import ENTROPY_OPENER
    from rng.errors import RngError
    from rng.factory import open_rng

    config = _config(args)
    stack = open_rng(config, real_money=False, opener=ENTROPY_OPENER, start=False)
    error = None
    try:
        stack.generator.start()
        stack.generator.generate(max(0, args.n_bytes))
    except RngError as exc:
        error = str(exc)
    status = stack.status()
    print(f"policy: {status.supply.policy}   active source: {status.supply.active}")
    if status.supply.halted:
        print(f"HALTED: {status.supply.halted}")
    for src in status.supply.sources:
        h = src.health
        print(f"source {src.name}")
        print(f"  kind={src.kind} for_play={'yes' if src.for_play else 'NO'} state={src.state}")
        print(
            f"  health: started={h.started} failed={h.failed} samples={h.samples} "
            f"windows={h.windows} rct_cutoff={h.rct_cutoff} apt_cutoff={h.apt_cutoff}/"
            f"{h.apt_window} longest_run={h.longest_run} highest_proportion={h.highest_proportion}"
        )
        print(
            f"  failures: rct={h.rct_failures} apt={h.apt_failures} "
            f"startup_runs={h.startup_runs} last={h.last_failure or '-'}"
        )
        print(f"  bytes read={src.bytes_read} served={src.bytes_served}")
    g = status.generator
    print(
        f"drbg {g.mechanism}: requests={g.requests} bytes={g.bytes_generated} "
        f"reseeds={g.reseeds} instantiations={g.instantiations}"
    )
    for alarm in status.supply.alarms:
        print(f"alarm #{alarm.seq} {alarm.kind}: {alarm.message}")
    if error is not None:
        print(f"error: {error}")
    stack.close()
    return 1 if error is not None or any(s.state == "failed" for s in status.supply.sources) else 0


def _kat(args: argparse.Namespace) -> int:
    from rng.cavp import run_file
    from rng.errors import KatFileError

    passed = failed = 0
    for path in args.files:
        if not path.is_file():
            raise KatFileError(f"{path}: no such file")
        report = run_file(path)
        passed += report.passed
        failed += report.failed
        skipped = ", ".join(f"{name} ({n})" for name, n in report.skipped.items())
        print(f"{path}: {report.passed} passed, {report.failed} failed")
        if skipped:
            print(f"  skipped (not implemented): {skipped}")
        for line in report.failures if args.verbose else report.failures[:5]:
            print(f"  FAIL {line}")
    if passed + failed == 0:
        print("no supported test case in the given files", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0

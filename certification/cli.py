"""``croupier certify``: the statistical batteries, game-outcome tests and full runs.

Sub-commands::

    croupier certify sp800-22 FILE [--sequences N --length BITS] [--input-format F] [--json]
    croupier certify fips140-2 FILE [--input-format F] [--json]
    croupier certify games [--game G] [--rounds N] [--source S] [--json]
    croupier certify run --source {hw,os,sim} --out DIR [--sequences N --length BITS]
    croupier certify sp800-90b ...   (registered by certification.sp800_90b.cli)

Only the standard library is imported here; each handler imports what it needs.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {value}")
    return value


def _add_stream_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--input-format",
        choices=("binary", "ascii"),
        default=None,
        help="raw bytes (MSB first) or ASCII '0'/'1'; detected when omitted",
    )


def _dieharder_tests(text: str) -> tuple[int, ...]:
    """``good`` (the tests dieharder rates Good), ``all``, ``none`` or numbers like ``0,2,15``."""
    from certification.external.dieharder import ALL_TESTS, GOOD_TESTS

    named = {"good": GOOD_TESTS, "all": ALL_TESTS, "none": ()}
    if text in named:
        return named[text]
    try:
        tests = tuple(int(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected good, all, none or test numbers like 0,2,15, got {text!r}"
        ) from None
    unknown = [t for t in tests if t not in ALL_TESTS]
    if unknown or not tests:
        raise argparse.ArgumentTypeError(
            f"dieharder has no test {unknown[0] if unknown else text!r} (see dieharder -l)"
        )
    return tests


def _add_external_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--dieharder",
        type=_dieharder_tests,
        default="good",
        help="dieharder tests: good (default: those dieharder rates Good but its 3 slowest), "
        "all, none, or numbers like 0,2,15",
    )
    p.add_argument(
        "--dieharder-runs", type=_positive, default=3, help="runs of each (second level)"
    )
    p.add_argument(
        "--dieharder-psamples", type=int, default=0, help="dieharder -p (0: the tool's own)"
    )


def _add_battery_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sequences", type=_positive, default=None, help="number of sequences")
    p.add_argument(
        "--length", type=_positive, default=None, help="bits per sequence (default 1,000,000)"
    )
    p.add_argument("--tests", default=None, help="comma-separated test names (default: all 15)")
    p.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        help="worker processes (default 1: the sequences run on threads of this one)",
    )
    from certification.cluster import add_options

    add_options(p, "the sequences")
    p.add_argument("--block-frequency-length", type=_positive, default=128, metavar="M")
    p.add_argument("--non-overlapping-length", type=_positive, default=9, metavar="m")
    p.add_argument("--overlapping-length", type=_positive, default=9, metavar="m")
    p.add_argument("--approximate-entropy-length", type=_positive, default=10, metavar="m")
    p.add_argument("--serial-length", type=_positive, default=16, metavar="m")
    p.add_argument("--linear-complexity-length", type=_positive, default=500, metavar="M")


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``certify`` sub-commands to ``parser``."""
    sub = parser.add_subparsers(dest="certify_command", metavar="SUBCOMMAND")

    p = sub.add_parser(
        "sp800-22",
        help="NIST SP 800-22 Rev 1a battery with the tool's final analysis",
        description="Run the 15 NIST SP 800-22 tests on a bit file, as sts-2.1.2 does.",
    )
    p.add_argument("file", type=Path, help="bit file (raw bytes or ASCII '0'/'1')")
    _add_stream_options(p)
    _add_battery_options(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of the NIST report")
    p.set_defaults(handler=_sp800_22)

    p = sub.add_parser(
        "fips140-2",
        help="FIPS 140-2 block tests, counted as rngtest reports them",
        description="Monobit, poker, runs, long run and continuous run on 20,000-bit blocks.",
    )
    p.add_argument("file", type=Path, help="raw bytes (as piped to rngtest) or ASCII bits")
    _add_stream_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=_fips140_2)

    p = sub.add_parser(
        "games",
        help="game-outcome tests (GLI-11 style) and the return-to-player check of every game",
        description="Shuffle, card, dice and roulette distribution tests on the appliance's "
        "own output, and each game's simulated return against its exact house edge.",
    )
    p.add_argument("--game", default=None, help="one game family or variant (default: all)")
    p.add_argument("--rounds", type=_positive, default=100_000, help="simulated rounds per game")
    p.add_argument("--samples", type=_positive, default=20_000, help="shuffles / rolls / spins")
    p.add_argument("--source", choices=("os", "sim"), default="os", help="entropy source")
    p.add_argument("--seed", type=int, default=1, help="simulation seed (and sim source seed)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=_games)

    p = sub.add_parser(
        "run",
        help="capture data from the rng, run every battery, write JSON, NIST text and HTML",
        description="Capture from the appliance's rng and run SP 800-22, FIPS 140-2, the "
        "game-outcome tests and RTP checks; interrupt and run again to resume.",
    )
    p.add_argument("--source", choices=("hw", "os", "sim"), required=True)
    p.add_argument("--url", default="", help="device URL of the hardware RNG (--source hw)")
    p.add_argument("--out", type=Path, required=True, help="report directory (resumable)")
    p.add_argument("--sequences", type=_positive, default=100)
    p.add_argument("--length", type=_positive, default=1_000_000)
    p.add_argument("--rounds", type=_positive, default=100_000, help="RTP rounds per game")
    p.add_argument("--samples", type=_positive, default=20_000, help="shuffles / rolls / spins")
    p.add_argument("--seed", type=int, default=1, help="sim source seed and simulation seed")
    p.add_argument("--jobs", type=_positive, default=1, help="worker processes for SP 800-22")
    from certification.cluster import add_options

    add_options(p, "the SP 800-22 part")
    p.add_argument("--game", default=None, help="limit the RTP check to one game (default: all)")
    p.add_argument(
        "--raw-samples",
        type=int,
        default=1_000_000,
        help="raw 8-bit source samples for the SP 800-90B assessment (0 skips it)",
    )
    _add_external_options(p)
    p.set_defaults(handler=_run)

    _add_collect_commands(sub)

    p = sub.add_parser(
        "external",
        help="dieharder, rngtest and ent on a data file (refused if dieharder would rewind it)",
        description="Run Debian's dieharder (-g 200, fed the file on stdin, one test at a "
        "time on fresh bytes), rngtest and ent on a binary file; a file too short for the "
        "tests asked is refused, never rewound.",
    )
    p.add_argument("--in", dest="input", type=Path, required=True, help="binary data file")
    _add_external_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=_external)

    # The SP 800-90B assessment is part of certification: if its module is missing the
    # installation is broken, and ``croupier`` says so (one line, exit 2).
    from certification.sp800_90b.cli import add_command

    add_command(sub)

    parser.set_defaults(handler=lambda _args: _help(parser))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _params(args: argparse.Namespace) -> object:
    from certification.stats.sp800_22.battery import Parameters

    return Parameters(
        block_frequency=args.block_frequency_length,
        non_overlapping_template=args.non_overlapping_length,
        overlapping_template=args.overlapping_length,
        approximate_entropy=args.approximate_entropy_length,
        serial=args.serial_length,
        linear_complexity=args.linear_complexity_length,
    )


def _sp800_22(args: argparse.Namespace) -> int:
    from certification.cluster import from_args, keep_freed_memory
    from certification.progress import Progress
    from certification.report.json_report import dumps, sp800_22_document
    from certification.report.nist_text import final_analysis_report
    from certification.stats.bitstream import read_bits, split_sequences
    from certification.stats.sp800_22.battery import Parameters, select_tests
    from certification.stats.sp800_22.suite import run_suite

    # each test's multi-MB temporaries reuse freed pages instead of faulting in new ones:
    # 12,000 minor faults and 26 ms of system time a sequence -> 800 and 1 ms
    keep_freed_memory()
    spec, tls = from_args(args)  # before reading anything: a bad --dask is said at once
    params = _params(args)
    assert isinstance(params, Parameters)
    tests = select_tests(args.tests.split(",")) if args.tests else None
    bits, fmt = read_bits(args.file, args.input_format)
    sequences = split_sequences(bits, args.sequences, args.length, fmt)
    where = None
    with ExitStack() as stack:
        dask = None
        if spec is not None:
            from certification.cluster import connect

            conn = stack.enter_context(connect(spec, tls))
            dask, where = conn.dask, conn.where
        bar = stack.enter_context(Progress(len(sequences), "SP 800-22"))
        result = run_suite(
            sequences,
            params,
            tests,
            on_sequence=lambda _i, _r: bar.advance(),
            jobs=args.jobs,
            dask=dask,
        )
    if args.json:
        extra = {"cluster": where.as_dict()} if where else None  # none: the local report
        doc = sp800_22_document(result.summaries, result.sequences, result.length, extra)
        sys.stdout.write(dumps(doc) + "\n")
    else:
        sys.stdout.write(final_analysis_report(result.summaries, str(args.file)))
        if where is not None:
            sys.stdout.write(f"\n{where.text()}\n")
    return 0


def _fips140_2(args: argparse.Namespace) -> int:
    import json

    import numpy as np

    from certification.errors import InputFormatError
    from certification.stats.bitstream import detect_format, parse_bits
    from certification.stats.fips140_2 import fips140_2

    try:
        data = args.file.read_bytes()
    except IsADirectoryError:
        raise InputFormatError(f"{args.file} is a directory, not a data file") from None
    fmt = args.input_format or detect_format(data)
    if fmt == "ascii":
        bits, _ = parse_bits(data, "ascii")
        data = np.packbits(bits[: bits.size - bits.size % 8]).tobytes()
    report = fips140_2(data)
    if args.json:
        sys.stdout.write(json.dumps(report.as_dict(), indent=1) + "\n")
    else:
        sys.stdout.write(report.rngtest_text())
    return 0 if report.passed else 1


def _games(args: argparse.Namespace) -> int:
    import json

    from certification.outcomes import run_game_checks, source_rng

    rng = source_rng(args.source, seed=args.seed)
    report = run_game_checks(
        rng, game=args.game, rounds=args.rounds, samples=args.samples, seed=args.seed
    )
    if args.json:
        sys.stdout.write(json.dumps(report.as_dict(), indent=1) + "\n")
    else:
        sys.stdout.write(report.text())
    return 0 if report.passed else 1


def _run(args: argparse.Namespace) -> int:
    from certification.cluster import from_args
    from certification.run import RunOptions, certify_run

    dask, dask_tls = from_args(args)  # before any capture: a bad --dask is said at once
    options = RunOptions(
        source=args.source,
        url=args.url,
        out=args.out,
        sequences=args.sequences,
        length=args.length,
        rounds=args.rounds,
        samples=args.samples,
        seed=args.seed,
        jobs=args.jobs,
        dask=dask,
        dask_tls=dask_tls,
        game=args.game,
        raw_samples=args.raw_samples,
        dieharder=args.dieharder,
        dieharder_runs=args.dieharder_runs,
        dieharder_psamples=args.dieharder_psamples,
    )
    summary = certify_run(options)
    sys.stdout.write(summary)
    return 0


def _external(args: argparse.Namespace) -> int:
    """The external batteries on a file: exit 0 passed, 1 failed, 2 refused."""
    import json

    from certification.external.battery import run_external

    try:
        data = args.input.read_bytes()
    except OSError as exc:
        raise OSError(f"cannot read {args.input}: {exc.strerror}") from None
    if not data:
        raise ValueError(f"{args.input} is empty")
    position = 0

    def read(n: int) -> bytes:  # each test takes the next bytes; the file's end is its end
        nonlocal position
        block: bytes = data[position : position + n]
        position += len(block)
        return block

    report = run_external(
        read,
        data,
        tests=args.dieharder or (),
        runs=args.dieharder_runs,
        psamples=args.dieharder_psamples or None,
    )
    sys.stdout.write(json.dumps(report.as_dict(), indent=1) + "\n" if args.json else report.text())
    return 0 if report.passed else 1


def _add_collect_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``certify collect raw|outcomes`` and ``certify outcomes DIR`` (GLI-style collection)."""
    p = sub.add_parser("collect", help="write raw data or final outcomes for a lab's own tests")
    kinds = p.add_subparsers(dest="collect_kind", metavar="KIND", required=True)
    for name, help_text in (
        ("raw", "the noise source before conditioning (raw.bin), the DRBG before scaling"),
        ("outcomes", "shuffled shoes, dice, wheel numbers, video poker deals, then tested"),
    ):
        k = kinds.add_parser(name, help=help_text, description=help_text)
        k.add_argument("--source", choices=("hw", "os", "sim"), required=True)
        k.add_argument("--url", default="", help="device URL of the hardware RNG (--source hw)")
        k.add_argument("--seed", type=int, default=1, help="seed of the sim source")
        k.add_argument("--out", type=Path, required=True, help="directory to write")
        if name == "raw":
            k.add_argument("--raw-bytes", type=_positive, default=1_000_000)
            k.add_argument("--drbg-bytes", type=_positive, default=12_500_000)
            k.set_defaults(handler=_collect_raw)
        else:
            for opt, default in (("--shoes", 1_000), ("--decks", 8), ("--rolls", 10_000),
                                 ("--dice", 2), ("--spins", 10_000), ("--pockets", 38),
                                 ("--deals", 10_000)):  # fmt: skip
                k.add_argument(opt, type=int, default=default)
            k.add_argument("--json", action="store_true", help="print the tests as JSON")
            k.set_defaults(handler=_collect_outcomes)
    p = sub.add_parser(
        "outcomes",
        help="chi-square tests at 99%% on a collection directory (collect.json's files)",
    )
    p.add_argument("directory", type=Path)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=_test_outcomes)


def _collect_raw(args: argparse.Namespace) -> int:
    from certification.collect.raw import collect_raw

    doc = collect_raw(args.out, source=args.source, url=args.url, seed=args.seed,
                      raw_bytes=args.raw_bytes, drbg_bytes=args.drbg_bytes)  # fmt: skip
    files = doc["files"]
    assert isinstance(files, dict)
    for name, entry in files.items():
        sys.stdout.write(
            f"wrote {args.out / name}: {entry['bytes']:,} bytes, sha256 {entry['sha256']}\n"
        )
    return 0


def _collect_outcomes(args: argparse.Namespace) -> int:
    from certification.collect.draws import OutcomeCounts, collect_outcomes

    if args.pockets not in (37, 38) or args.dice not in (2, 3) or not 1 <= args.decks <= 8:
        raise ValueError("--pockets must be 37 or 38, --dice 2 or 3, --decks 1..8")
    counts = OutcomeCounts(shoes=args.shoes, decks=args.decks, rolls=args.rolls, dice=args.dice,
                           spins=args.spins, pockets=args.pockets, deals=args.deals)  # fmt: skip
    collect_outcomes(args.out, source=args.source, url=args.url, seed=args.seed, counts=counts)
    return _test_outcomes(argparse.Namespace(directory=args.out, json=args.json))


def _test_outcomes(args: argparse.Namespace) -> int:
    """Exit 0 every family passed, 1 one failed; writes outcome-tests.json beside the files."""
    import json

    from certification.collect.tests import test_directory

    result = test_directory(args.directory)
    (args.directory / "outcome-tests.json").write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        sys.stdout.write(json.dumps(result, indent=1) + "\n")
        return 0 if result["passed"] else 1
    files = result["files"]
    assert isinstance(files, dict)
    for name, entry in files.items():
        sys.stdout.write(f"{name}: {entry['records']:,} records, sha256 {entry['sha256']}\n")
    tests = result["tests"]
    assert isinstance(tests, list)
    for t in tests:
        if "-position-" in str(t["name"]):
            continue  # each position is in outcome-tests.json; the family line says how many fail
        p = "too few" if t["p_value"] is None else f"p {t['p_value']:.6f}"
        verdict = "passed" if t["passed"] else "FAILED"
        sys.stdout.write(f"{t['name']:<22} {verdict:<7} {p:<12} {t['description']}\n")
    sys.stdout.write(("PASSED" if result["passed"] else "FAILED") + "\n")
    return 0 if result["passed"] else 1

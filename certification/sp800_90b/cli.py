"""``croupier certify sp800-90b``: SP 800-90B entropy assessment of a raw sample file.

The certification CLI (``certification/cli.py``) calls :func:`add_command` with its
sub-parsers. Only the standard library is imported here; NumPy and the estimators are
imported when the command runs.

``croupier certify sp800-90b FILE [--bits-per-symbol K] [--iid | --non-iid] [--conditioned]
[--restart RESTART_FILE] [--json] [-v]``
"""

from __future__ import annotations

import argparse
import json
import sys


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sp800-90b`` sub-command."""
    p = subparsers.add_parser(
        "sp800-90b",
        help="NIST SP 800-90B entropy assessment of raw noise-source samples",
        description=(
            "NIST SP 800-90B entropy assessment of raw noise-source samples (one sample per "
            "byte, the low bits are the symbol), with the output terms of NIST's "
            "SP800-90B_EntropyAssessment tool."
        ),
    )
    register(p)


def register(p: argparse.ArgumentParser) -> None:
    """Add the command's arguments to an existing parser and set its handler."""
    p.add_argument("file", metavar="FILE", help="raw sample file, one sample per byte")
    p.add_argument(
        "--bits-per-symbol",
        type=int,
        metavar="K",
        default=None,
        help="bits per symbol, 1-8 (default: inferred from the data)",
    )
    track = p.add_mutually_exclusive_group()
    track.add_argument("--iid", action="store_true", help="IID track (ea_iid)")
    track.add_argument("--non-iid", action="store_true", help="non-IID track (ea_non_iid, default)")
    p.add_argument(
        "--conditioned",
        action="store_true",
        help="conditioned sequential dataset estimate h' (the tools' -c)",
    )
    p.add_argument(
        "--restart",
        metavar="RESTART_FILE",
        default=None,
        help="also run the restart tests on a 1000x1000 restart matrix file (row-major)",
    )
    p.add_argument(
        "--h-i",
        type=float,
        default=None,
        metavar="H_I",
        help="initial entropy estimate for the restart tests (default: this run's result)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the IID shuffles (default 0)")
    from certification.cluster import add_options

    add_options(p, "the non-IID estimators")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="more output; -v prints every quantity like the tool's -vv",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handler: read the file, run the chosen track, print the report."""
    from contextlib import ExitStack

    from certification.cluster import ClusterError, from_args
    from certification.sp800_90b.api import assess_file

    spec, tls = from_args(args)  # before reading anything: a bad --dask is said at once
    if spec is not None and args.iid:
        raise ClusterError("--dask runs the non-IID estimators; the IID track (--iid) runs here")
    where = None
    with ExitStack() as stack:
        dask = None
        if spec is not None:
            from certification.cluster import connect

            conn = stack.enter_context(connect(spec, tls))
            dask, where = conn.dask, conn.where
        report = assess_file(
            args.file,
            bits_per_symbol=args.bits_per_symbol,
            iid=bool(args.iid),
            conditioned=bool(args.conditioned),
            restart_file=args.restart,
            h_i=args.h_i,
            seed=args.seed,
            dask=dask,
        )
    if args.json:
        doc = report.to_json()
        if where is not None:  # without --dask: the local report, unchanged
            doc["cluster"] = where.as_dict()
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(report.to_text(verbose=1 + int(args.verbose)))
        if where is not None:
            sys.stdout.write(f"\n{where.text()}\n")
    return 0

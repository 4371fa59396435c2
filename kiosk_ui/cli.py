"""The ``croupier`` command: one entry point, one sub-command per package.

Each package owns its sub-commands in its own ``cli`` module, which exposes
``register(parser)``: it adds its sub-parsers and sets ``handler`` on each, a
callable taking the parsed ``argparse.Namespace`` and returning an exit status.
Registration modules import only the standard library at module level, so that
``croupier rng stream`` does not pay for FastAPI or NumPy it never uses; and only the
command being run is registered (the others' modules are located, not imported), so
``croupier certify sp800-22`` does not pay for the rng or the log verifier either.

Errors: any exception deriving from a package's base error (``DeviceError``,
``RngError``, ``GameError``, ``CertificationError``, ``KioskError``) or from
``ValueError``/``OSError`` is printed as one line ``croupier: error: ...`` with
exit status 2; nothing prints a traceback unless ``--debug`` is given. A command
whose module is missing (or, for the command being run, cannot be imported) is a
broken installation, never a command quietly left out: ``croupier`` refuses to start
with the same one line and status 2.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence

#: sub-command name -> (module that registers it, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("kiosk_ui.serve_cli", "serve the tables and operator console over HTTP"),
    "store": ("kiosk_ui.store_cli", "create a store (serve refuses a missing or emptied one)"),
    "devices": ("firmware_bridge.cli", "list, probe and simulate devices"),
    "rng": ("rng.cli", "entropy sources, health, known-answer tests, raw streams"),
    "games": ("games.cli", "list games, exact house edges, simulations"),
    "table": ("kiosk_ui.table_cli", "drive the table runtime (autoplay, soak tests)"),
    "ledger": ("kiosk_ui.ledger_cli", "audit the wallet ledger"),
    "log": ("kiosk_ui.log_cli", "verify, export and recall the signed game log"),
    "certify": ("certification.cli", "statistical test batteries and certification reports"),
    "verify-install": ("kiosk_ui.install_cli", "check the installed files against their seal"),
}

Handler = Callable[[argparse.Namespace], int]


class CommandUnavailable(Exception):
    """A sub-command's registration module (or one it needs) cannot be imported."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Build the parser; raise CommandUnavailable naming a missing command and module.

    Only the command ``argv`` names is registered (its module imported): ``croupier
    certify sp800-22`` does not load the rng, the device layer or the log verifier,
    whose packages' ``__init__`` import NumPy, the DRBGs and cryptography. Every other
    command gets its help line, and its module is only located on disk, so a broken
    installation is still refused whatever the command. Without a known command (help,
    a typo) every module is imported, as the full help needs.
    """
    parser = argparse.ArgumentParser(
        prog="croupier",
        description="Croupier casino table appliance.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _named_command(argv)
    for name, (module_name, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        if chosen is not None and name != chosen:
            if not _present(module_name):
                raise CommandUnavailable(
                    f"command {name!r} is not available ({module_name}: no such module); "
                    "the installation is incomplete"
                )
            continue
        try:
            importlib.import_module(module_name).register(cmd)
        except ImportError as exc:
            raise CommandUnavailable(
                f"command {name!r} is not available ({module_name}: {exc}); "
                "the installation is incomplete"
            ) from exc
    return parser


def _named_command(argv: Sequence[str] | None) -> str | None:
    """The sub-command ``argv`` runs (its first word not an option), if it is one we know."""
    words = sys.argv[1:] if argv is None else argv
    first = next((w for w in words if not w.startswith("-")), None)
    return first if first in COMMANDS else None


def _present(module_name: str) -> bool:
    """Whether the module's file is installed, found without importing it or its package."""
    top, *rest = module_name.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    for depth in range(len(rest)):
        if spec is None or spec.submodule_search_locations is None:
            return False
        full = ".".join([top, *rest[: depth + 1]])
        spec = importlib.machinery.PathFinder.find_spec(full, spec.submodule_search_locations)
    return spec is not None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    try:
        parser = build_parser(argv)
    except CommandUnavailable as exc:
        if "--debug" in (sys.argv[1:] if argv is None else argv):
            raise
        print(f"croupier: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("croupier: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Reader went away (e.g. `croupier rng stream | head`): not an error.
        sys.stderr.close()
        return 0
    except Exception as exc:
        if args.debug:
            raise
        print(f"croupier: error: {_describe(exc)}", file=sys.stderr)
        return 2


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0] if "\n" in text else text


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""``croupier ledger audit``: prove the wallet ledger balances and agrees with the log."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="ledger_command", metavar="ACTION", required=True)
    a = sub.add_parser(
        "audit",
        help="check that the ledger is the one the log implies, balances, and logs every game once",
    )
    a.add_argument("--store", type=Path, required=True, help="store directory")
    a.set_defaults(handler=_audit)


def _audit(args: argparse.Namespace) -> int:
    from games.core.money import format_cents
    from kiosk_ui.errors import AuditError
    from kiosk_ui.store.audit import audit_store
    from kiosk_ui.store.log_records import db_path

    if not db_path(args.store).exists():
        raise AuditError(f"no Croupier store at {args.store}")
    try:
        report = audit_store(args.store)
    except AuditError as exc:
        print(f"AUDIT FAILED: {exc}")
        return 1
    print(
        f"AUDIT OK: {report['transactions']} transactions over {report['accounts']} accounts "
        f"sum to zero, each the one its log record implies ({report['money_records']} money "
        f"records; every balance recomputed from the log); "
        f"{report['games_settled']} finished games each logged once; "
        f"{report['open_games']} open; player credits {format_cents(report['player_credits'])}, "
        f"house {format_cents(report['house'])}, commission {format_cents(report['commission'])}"
        + (f", collection {format_cents(report['collection'])}" if report["collection"] else "")
        + (f", poker room revenue {format_cents(report['revenue'])}" if report["revenue"] else "")
        + (
            f", chips at the poker tables {format_cents(report['stacks'])}"
            if report["stacks"]
            else ""
        )
    )
    return 0

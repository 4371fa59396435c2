"""Double-entry wallet ledger: every credit movement is a transaction whose postings sum to zero.

Accounts (all in integer cents):

=====================  ===========================================================
``cash``               money outside the appliance (cash-in draws from it, cash-out
                       returns to it); its balance is minus what players hold
``wallet:<player>``    a player's credits
``stakes:<table>``     bets on the layout of one table, not yet resolved
``house``              the casino's win or loss on play
``commission``         commission taken on wins (banker, pai gow, buy/lay)
``jackpot:<name>``     a progressive meter (contributions in, jackpot wins out)
=====================  ===========================================================

Balances are derived from the postings; ``accounts.balance`` is a cache updated
in the same transaction, and :func:`audit` proves the two agree.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk_ui.errors import AuditError, InsufficientFunds, LedgerError

CASH = "cash"
HOUSE = "house"
COMMISSION = "commission"

#: accounts that may go negative (the others are players' or table money)
_MAY_BE_NEGATIVE = ("cash", "house")


def wallet(player: str) -> str:
    return f"wallet:{player}"


def stakes(table: str) -> str:
    return f"stakes:{table}"


def jackpot(name: str) -> str:
    return f"jackpot:{name}"


def _kind(account: str) -> str:
    return account.split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class Posting:
    account: str
    amount: int  # cents; positive credits the account


def post(
    conn: sqlite3.Connection,
    kind: str,
    postings: Sequence[Posting],
    *,
    ts: int,
    game: str = "",
    memo: str = "",
    log_seq: int | None = None,
) -> int:
    """Record one balanced transaction; refuse one that would overdraw a wallet or stake."""
    if sum(p.amount for p in postings) != 0:
        raise LedgerError(f"unbalanced {kind} transaction: {postings}")
    if any(not isinstance(p.amount, int) or isinstance(p.amount, bool) for p in postings):
        raise LedgerError("ledger amounts are integer cents")
    moves = [p for p in postings if p.amount]
    if not moves:
        return 0
    for p in moves:
        row = conn.execute(
            "UPDATE accounts SET balance = balance + ? WHERE name = ? RETURNING balance",
            (p.amount, p.account),
        ).fetchone()
        if row is None:  # first movement on this account
            conn.execute(
                "INSERT INTO accounts (name, kind, balance) VALUES (?, ?, ?)",
                (p.account, _kind(p.account), p.amount),
            )
            row = (p.amount,)
        (bal,) = row
        if bal < 0 and _kind(p.account) not in _MAY_BE_NEGATIVE:
            who = p.account.split(":", 1)[-1]
            raise InsufficientFunds(
                f"insufficient funds in {p.account}: short by {-bal} cents"
                if _kind(p.account) != "wallet"
                else f"insufficient balance for player {who}: short by {-bal} cents"
            )
    cur = conn.execute(
        "INSERT INTO txns (kind, game, memo, log_seq, ts) VALUES (?, ?, ?, ?, ?)",
        (kind, game, memo, log_seq, ts),
    )
    txn = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO postings (txn, account, amount) VALUES (?, ?, ?)",
        [(txn, p.account, p.amount) for p in moves],
    )
    return txn


def balance(conn: sqlite3.Connection, account: str) -> int:
    row = conn.execute("SELECT balance FROM accounts WHERE name = ?", (account,)).fetchone()
    return int(row[0]) if row else 0


def balances(conn: sqlite3.Connection, prefix: str = "") -> dict[str, int]:
    return {
        str(n): int(b)
        for n, b in conn.execute(
            "SELECT name, balance FROM accounts WHERE name LIKE ? ORDER BY name", (prefix + "%",)
        )
    }


@dataclass(frozen=True, slots=True)
class AuditReport:
    transactions: int
    accounts: int
    total: int  # always 0
    player_credits: int
    house: int
    commission: int


def audit(conn: sqlite3.Connection) -> AuditReport:
    """Prove the ledger balances; raise :class:`AuditError` naming the first discrepancy."""
    bad = conn.execute(
        "SELECT txn, SUM(amount) FROM postings GROUP BY txn HAVING SUM(amount) != 0 "
        "ORDER BY txn LIMIT 1"
    ).fetchone()
    if bad:
        raise AuditError(f"transaction {bad[0]} does not balance (sums to {bad[1]} cents)")
    mismatch = conn.execute(
        "SELECT a.name, a.balance, COALESCE(SUM(p.amount), 0) AS derived FROM accounts a "
        "LEFT JOIN postings p ON p.account = a.name GROUP BY a.name "
        "HAVING a.balance != derived ORDER BY a.name LIMIT 1"
    ).fetchone()
    if mismatch:
        raise AuditError(
            f"account {mismatch[0]}: cached balance {mismatch[1]} != ledger {mismatch[2]}"
        )
    negative = conn.execute(
        "SELECT name, balance FROM accounts WHERE balance < 0 AND kind NOT IN ('cash', 'house') "
        "ORDER BY name LIMIT 1"
    ).fetchone()
    if negative:
        raise AuditError(f"account {negative[0]} is negative ({negative[1]} cents)")
    total = conn.execute("SELECT COALESCE(SUM(amount), 0) FROM postings").fetchone()[0]
    if total != 0:
        raise AuditError(f"the ledger does not sum to zero ({total} cents)")
    n_txn = conn.execute("SELECT COUNT(*) FROM txns").fetchone()[0]
    n_acc = conn.execute("SELECT COUNT(*) FROM accounts").fetchone()[0]
    credits = conn.execute(
        "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE kind = 'wallet'"
    ).fetchone()[0]
    return AuditReport(
        transactions=int(n_txn),
        accounts=int(n_acc),
        total=int(total),
        player_credits=int(credits),
        house=balance(conn, HOUSE),
        commission=balance(conn, COMMISSION),
    )

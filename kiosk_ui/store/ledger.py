"""Double-entry wallet ledger: every credit movement is a transaction whose postings sum to zero.

Accounts (all in integer cents):

=====================  ===========================================================
``cash``               money outside the appliance (cash-in draws from it, cash-out
                       returns to it); its balance is minus what players hold
``wallet:<player>``    a player's credits
``stakes:<table>``     bets on the layout of one table, not yet resolved
``house``              the casino's win or loss on play
``commission``         commission taken on wins (banker, pai gow, buy/lay)
``collection``         the California tables' per-hand collection fees (page 004)
``jackpot:<name>``     a progressive meter (contributions in, jackpot wins out)
``vouchers``           cash-out vouchers printed and not yet paid (a liability: a
                       ticket-out moves a wallet here, a ticket-in or the cage pays
                       it out, an expired one goes to the house)
``stack:<table>:<p>``  a poker room player's chips at one table (bought in from the
                       wallet, returned to it on leaving)
``pot:<table>``        the chips in the pot(s) of a poker room's hand in play
``revenue``            the poker rooms' collection (seat fee or rake)
=====================  ===========================================================

Balances are derived from the postings; ``accounts.balance`` is a cache updated
in the same transaction, and :func:`audit` proves the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.money import format_cents
from kiosk_ui.errors import AuditError, InsufficientFunds, LedgerError
from kiosk_ui.store.sql import Conn

CASH = "cash"
HOUSE = "house"
COMMISSION = "commission"
COLLECTION = "collection"
VOUCHERS = "vouchers"
REVENUE = "revenue"

#: accounts that may go negative (the others are players' or table money)
_MAY_BE_NEGATIVE = ("cash", "house")


def wallet(player: str) -> str:
    return f"wallet:{player}"


def stakes(table: str) -> str:
    return f"stakes:{table}"


def jackpot(name: str) -> str:
    return f"jackpot:{name}"


def stack(table: str, player: str) -> str:
    """A poker room player's chips at ``table`` (player against player)."""
    return f"stack:{table}:{player}"


def pot(table: str) -> str:
    """The pot(s) of the hand in play at poker room ``table``."""
    return f"pot:{table}"


def _kind(account: str) -> str:
    return account.split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class Posting:
    account: str
    amount: int  # cents; positive credits the account


def post(
    conn: Conn,
    kind: str,
    postings: Sequence[Posting],
    *,
    ts: int,
    log_seq: int,
    log_hash: str,
    game: str = "",
    memo: str = "",
) -> int:
    """Record one balanced transaction; refuse one that would overdraw a wallet or stake.

    ``log_seq`` and ``log_hash`` name the log record that caused it (the audit derives
    the same postings from that record and compares them row by row). Zero postings are
    not stored; a transaction that moves nothing is not stored at all (returns 0).
    """
    if sum(p.amount for p in postings) != 0:
        raise LedgerError(f"unbalanced {kind} transaction: {postings}")
    if any(not isinstance(p.amount, int) or isinstance(p.amount, bool) for p in postings):
        raise LedgerError("ledger amounts are integer cents")
    if log_seq < 1 or not log_hash:
        raise LedgerError(f"{kind} transaction names no log record")
    moves = moving(postings)
    if not moves:
        return 0
    changes: dict[str, int] = {}  # net change per account, in order of first posting
    for p in moves:
        changes[p.account] = changes.get(p.account, 0) + p.amount
    balances = _apply_changes(conn, changes)
    for account, bal in balances.items():
        if bal < 0 and _kind(account) not in _MAY_BE_NEGATIVE:
            raise InsufficientFunds(
                f"insufficient funds in {account}: short by {format_cents(-bal)}"
                if _kind(account) != "wallet"
                else f"insufficient balance: {format_cents(-bal)} short"
            )
    (txn,) = conn.execute(
        "INSERT INTO txns (kind, game, memo, log_seq, log_hash, ts) VALUES (?, ?, ?, ?, ?, ?) "
        "RETURNING id",
        (kind, game, memo, log_seq, log_hash, ts),
    ).fetchone()
    conn.executemany(
        "INSERT INTO postings (txn, account, amount) VALUES (?, ?, ?)",
        [(txn, p.account, p.amount) for p in moves],
    )
    return int(txn)


def moving(postings: Sequence[Posting]) -> list[Posting]:
    """The postings a transaction stores: those that move money."""
    return [p for p in postings if p.amount]


def _apply_changes(conn: Conn, changes: dict[str, int]) -> dict[str, int]:
    """Add each change to its account's cached balance (one statement for all the
    accounts that exist, an insert for each first movement); return the new balances."""
    if not changes:
        return {}
    cases = " ".join("WHEN ? THEN ?" for _ in changes)
    marks = ", ".join("?" for _ in changes)
    params: list[object] = [x for item in changes.items() for x in item]
    params += list(changes)
    found = dict(
        conn.execute(
            f"UPDATE accounts SET balance = balance + CASE name {cases} END "
            f"WHERE name IN ({marks}) RETURNING name, balance",
            params,
        ).fetchall()
    )
    out: dict[str, int] = {}
    for account, change in changes.items():
        if account not in found:  # first movement on this account
            conn.execute(
                "INSERT INTO accounts (name, kind, balance) VALUES (?, ?, ?)",
                (account, _kind(account), change),
            )
            found[account] = change
        out[account] = int(found[account])
    return out


def balance(conn: Conn, account: str) -> int:
    row = conn.execute("SELECT balance FROM accounts WHERE name = ?", (account,)).fetchone()
    return int(row[0]) if row else 0


def balances(conn: Conn, prefix: str = "") -> dict[str, int]:
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
    collection: int = 0  # the California tables' collection fees (page 004)
    vouchers: int = 0  # vouchers printed and not yet paid (the liability)
    revenue: int = 0  # the poker rooms' collection (seat fee or rake)
    stacks: int = 0  # chips at the poker room tables (players' money, off their wallets)


def audit(conn: Conn) -> AuditReport:
    """Prove the ledger balances; raise :class:`AuditError` naming the first discrepancy."""
    bad = conn.execute(
        "SELECT txn, SUM(amount) FROM postings GROUP BY txn HAVING SUM(amount) != 0 "
        "ORDER BY txn LIMIT 1"
    ).fetchone()
    if bad:
        raise AuditError(f"transaction {bad[0]} does not balance (sums to {bad[1]} cents)")
    mismatch = conn.execute(
        "SELECT a.name, a.balance, COALESCE(SUM(p.amount), 0) FROM accounts a "
        "LEFT JOIN postings p ON p.account = a.name GROUP BY a.name "
        "HAVING a.balance != COALESCE(SUM(p.amount), 0) ORDER BY a.name LIMIT 1"
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
        collection=balance(conn, COLLECTION),
        vouchers=balance(conn, VOUCHERS),
        revenue=balance(conn, REVENUE),
        stacks=int(
            conn.execute(
                "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE kind = 'stack'"
            ).fetchone()[0]
        ),
    )


class SqliteLedger:
    """The ledger repository of one connection (the module's functions, bound to it)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def post(
        self,
        kind: str,
        postings: Sequence[Posting],
        *,
        ts: int,
        log_seq: int,
        log_hash: str,
        game: str = "",
        memo: str = "",
    ) -> int:
        """:func:`post` on this connection."""
        return post(
            self._conn,
            kind,
            postings,
            ts=ts,
            log_seq=log_seq,
            log_hash=log_hash,
            game=game,
            memo=memo,
        )

    def balance(self, account: str) -> int:
        return balance(self._conn, account)

    def exists(self, account: str) -> bool:
        """Whether ``account`` has ever moved money (it has a row)."""
        row = self._conn.execute("SELECT 1 FROM accounts WHERE name = ?", (account,)).fetchone()
        return row is not None

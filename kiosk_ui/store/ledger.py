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

On a store several processes write at once (``Store.shared``), every settlement
moves the house's accounts, so one cached row each would have every writer's
transactions queue on its row lock (PostgreSQL holds it to the commit). There the
cache of the accounts in :data:`SHARDED` is kept per writer: a row
``<account>@<writer>`` of kind ``shard`` (the connection's :attr:`shard`), the
postings still naming the account itself. Nothing decides on these balances inside
a unit (they may be negative, or only grow); reading one sums its rows
(:func:`balance`), and the audit compares the sums (:func:`cached_balances`).
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
#: the accounts every writer moves (see the module docstring): cached per writer
SHARDED = frozenset(("cash", "house", "commission", "collection", "revenue"))
SHARD = "shard"  # the kind of a per-writer cache row


def shard_of(conn: Conn) -> str:
    """The writer whose cache rows ``conn`` updates ("" on a one-writer store or a bare
    connection: no shard rows)."""
    return str(getattr(conn, "shard", ""))


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
        if bal < 0 and _kind(account) not in _MAY_BE_NEGATIVE and account not in SHARDED:
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
    accounts that exist, an insert for each first movement); return the new balances
    (a sharded account's: this writer's row's, see the module docstring)."""
    if not changes:
        return {}
    shard = shard_of(conn)
    rows = {
        (f"{a}@{shard}" if shard and a in SHARDED else a): change for a, change in changes.items()
    }
    cases = " ".join("WHEN ? THEN ?" for _ in rows)
    marks = ", ".join("?" for _ in rows)
    params: list[object] = [x for item in rows.items() for x in item]
    params += list(rows)
    found = dict(
        conn.execute(
            f"UPDATE accounts SET balance = balance + CASE name {cases} END "
            f"WHERE name IN ({marks}) RETURNING name, balance",
            params,
        ).fetchall()
    )
    out: dict[str, int] = {}
    for (account, change), row in zip(changes.items(), rows, strict=True):
        if row not in found:  # first movement on this row (here: another writer of a
            # shared store may make it at the same moment, and then this adds to it)
            kind = _kind(account)
            if row != account:  # the postings name the account: it has a row too
                conn.execute(
                    "INSERT INTO accounts (name, kind, balance) VALUES (?, ?, 0) "
                    "ON CONFLICT (name) DO NOTHING",
                    (account, kind),
                )
                kind = SHARD
            (found[row],) = conn.execute(
                "INSERT INTO accounts (name, kind, balance) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET balance = accounts.balance + excluded.balance "
                "RETURNING balance",
                (row, kind, change),
            ).fetchone()
        out[account] = int(found[row])
    return out


def balance(conn: Conn, account: str) -> int:
    if account in SHARDED:  # its own row and every writer's (see the module docstring)
        row = conn.execute(
            "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE name = ? "
            "OR (kind = 'shard' AND name LIKE ?)",
            (account, account + "@%"),
        ).fetchone()
        return int(row[0])
    row = conn.execute("SELECT balance FROM accounts WHERE name = ?", (account,)).fetchone()
    return int(row[0]) if row else 0


def cached_balances(conn: Conn) -> dict[str, int]:
    """Every account's cached balance, each sharded account's rows summed."""
    out: dict[str, int] = {}
    for name, kind, bal in conn.execute("SELECT name, kind, balance FROM accounts"):
        account = str(name).split("@", 1)[0] if kind == SHARD else str(name)
        out[account] = out.get(account, 0) + int(bal)
    return out


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
    cached = cached_balances(conn)
    posted = {
        str(a): int(t)
        for a, t in conn.execute("SELECT account, SUM(amount) FROM postings GROUP BY account")
    }
    for name in sorted(set(cached) | set(posted)):
        if cached.get(name, 0) != posted.get(name, 0):
            raise AuditError(
                f"account {name}: cached balance {cached.get(name, 0)} != ledger "
                f"{posted.get(name, 0)}"
            )
    for name in sorted(cached):
        if cached[name] < 0 and _kind(name) not in _MAY_BE_NEGATIVE:
            raise AuditError(f"account {name} is negative ({cached[name]} cents)")
    total = conn.execute("SELECT COALESCE(SUM(amount), 0) FROM postings").fetchone()[0]
    if total != 0:
        raise AuditError(f"the ledger does not sum to zero ({total} cents)")
    n_txn = conn.execute("SELECT COUNT(*) FROM txns").fetchone()[0]
    n_acc = len(cached)
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

    def has_stack(self, player: str) -> bool:
        """Whether ``player`` has chips at any poker room of the store (every appliance's,
        on a shared one)."""
        suffix = ":" + player
        row = self._conn.execute(
            "SELECT 1 FROM accounts WHERE kind = 'stack' AND balance > 0 "
            "AND substr(name, length(name) - ? + 1) = ? LIMIT 1",
            (len(suffix), suffix),
        ).fetchone()
        return row is not None

    def stacks(self, table: str) -> dict[str, int]:
        """Each player's chips at poker room ``table`` (player -> cents), the empty
        stacks left out: what recovery returns to the wallets."""
        prefix = stack(table, "")
        rows = self._conn.execute(
            "SELECT name, balance FROM accounts WHERE kind = 'stack' AND balance <> 0 "
            "AND substr(name, 1, ?) = ? ORDER BY name",
            (len(prefix), prefix),
        )
        return {str(name)[len(prefix) :]: int(bal) for name, bal in rows}

    def exists(self, account: str) -> bool:
        """Whether ``account`` has ever moved money (it has a row)."""
        row = self._conn.execute("SELECT 1 FROM accounts WHERE name = ?", (account,)).fetchone()
        return row is not None

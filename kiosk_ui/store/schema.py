"""The SQLite store's schema: every table and index, in one place.

One file (``croupier.db``) holds the game log (``log``, ``log_verified``: the record
format and its checks are :mod:`certification.log`'s), the ledger (``accounts``,
``txns``, ``postings``), players, games and who sat in them, the server-side shoes,
idempotency keys and operators. The SQL is plain enough (no SQLite-only types) that
a PostgreSQL backend can declare the same tables.
"""

from __future__ import annotations

import re

DB_NAME = "croupier.db"
#: 2: ledger transactions name their log record's hash; 3: a log chain per writer
SCHEMA_VERSION = 3

LOG_DDL = """
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    chain TEXT NOT NULL DEFAULT '',
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL,
    type TEXT NOT NULL,
    game TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (chain, seq)
);
CREATE INDEX IF NOT EXISTS log_by_game ON log(game, id) WHERE game != '';
CREATE INDEX IF NOT EXISTS log_keys ON log(chain, seq) WHERE type IN ('log-start', 'key-rotation');
CREATE TABLE IF NOT EXISTS log_verified (
    chain     TEXT PRIMARY KEY,
    seq       INTEGER NOT NULL,
    hash      TEXT NOT NULL,
    tree      TEXT NOT NULL,
    key_id    TEXT NOT NULL,
    signature TEXT NOT NULL
);
"""
# log: one signed chain per writer (certification.log.chain): ``chain`` names it (""
# for a store one process writes alone), ``seq`` counts within it, ``id`` is the
# store's order of insertion across chains (a game's records in the order written,
# whichever writers wrote them). log_keys: each chain's key records (log-start and
# rotations) are read at every start without a scan of the log. log_verified: per
# chain, the last checkpoint the start-up check (or a clean stop) vouched for, with
# the RFC 6962 tree at it, signed (certification.log.integrity).

SCHEMA = (
    LOG_DDL
    + """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    name    TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    balance INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS txns (
    id      INTEGER PRIMARY KEY,
    kind    TEXT NOT NULL,
    game    TEXT NOT NULL DEFAULT '',
    memo    TEXT NOT NULL DEFAULT '',
    log_seq INTEGER NOT NULL,        -- the log record that caused it ...
    log_hash TEXT NOT NULL,          -- ... and that record's hash (a reused seq is caught)
    ts      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS postings (
    txn     INTEGER NOT NULL REFERENCES txns(id),
    account TEXT NOT NULL REFERENCES accounts(name),
    amount  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS postings_by_account ON postings(account);
CREATE TABLE IF NOT EXISTS players (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    variant  TEXT NOT NULL,
    status   TEXT NOT NULL,          -- open, settled, voided, suspended
    started  INTEGER NOT NULL,
    ended    INTEGER,
    source   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status);
CREATE INDEX IF NOT EXISTS games_by_table ON games(table_id);
CREATE TABLE IF NOT EXISTS game_seats (
    game   TEXT NOT NULL REFERENCES games(id),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    staked INTEGER NOT NULL DEFAULT 0,
    net    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS game_seats_by_player ON game_seats(player);
CREATE TABLE IF NOT EXISTS shoes (
    game  TEXT PRIMARY KEY,
    cards TEXT NOT NULL,             -- server-side only: never served before the reveal
    salt  TEXT NOT NULL,
    next  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS idempotency (
    key      TEXT PRIMARY KEY,
    response TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS operators (
    username TEXT PRIMARY KEY,
    pw_hash  TEXT NOT NULL,
    role     TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0
);
"""
)


# A shared store's table leases (kiosk_ui/store/leases.py): made by the PostgreSQL store
# at every open of a shared store, so a store made before leases gains them then.
LEASES_DDL = """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    holder   TEXT NOT NULL,          -- the appliance serving the table
    expires  INTEGER NOT NULL        -- microseconds since the epoch
);
CREATE TABLE IF NOT EXISTS servers (
    holder   TEXT PRIMARY KEY,       -- an appliance (or serve --workers worker) of the store
    url      TEXT NOT NULL,          -- where it serves its tables (kiosk_ui/web/floor_view.py)
    seen     INTEGER NOT NULL        -- microseconds since the epoch, renewed while it serves
);
"""

VOUCHERS_DDL = """
CREATE TABLE IF NOT EXISTS vouchers (
    serial    TEXT PRIMARY KEY,
    digest    TEXT NOT NULL UNIQUE,
    amount    INTEGER NOT NULL CHECK (amount > 0),
    player    TEXT NOT NULL,
    kiosk     TEXT NOT NULL,
    issued    INTEGER NOT NULL,
    expires   INTEGER NOT NULL,
    status    TEXT NOT NULL,
    closed    INTEGER,
    closed_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS vouchers_by_status ON vouchers(status, expires);
"""
# vouchers (issue 17, the cash-out ticket): one row per voucher printed. ``serial`` is
# its public id (in the log and on the console); ``digest`` ``hmac:`` and the
# HMAC-SHA256 of its validation number under the store's voucher key in keys/ (a row
# written before that key: the plain SHA-256, 64 hex digits; the number itself is never
# stored: it is the bearer's); times in
# microseconds like the log's; ``status`` issued, redeemed or expired, ``closed`` /
# ``closed_by`` when and by whom (``kiosk:<name>`` or ``cage:<operator>``). Added after
# schema 2 without a version change: part of SCHEMA for a new store, made on open where
# it is missing (``tx.vouchers.ensure_table``), and not in TABLES, which a store must
# hold. Portable SQL: PostgreSQL declares it through ``sql.postgres_ddl``.

LOCKOUTS_DDL = """
CREATE TABLE IF NOT EXISTS lockouts (
    scope     TEXT NOT NULL,
    key       TEXT NOT NULL,
    failures  INTEGER NOT NULL,
    locks     INTEGER NOT NULL,
    locked_at INTEGER NOT NULL,
    last      INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
);
"""
# lockouts: the guessing counts of sign-ins and voucher numbers, shared by every process
# of the store (kiosk_ui/store/lockouts.py, kiosk_ui.backoff.StoreBackoff). Added after
# vouchers, the same way: in SCHEMA for a new store, made on open where missing.

#: tables added after schema 2, made on open where missing (an older store lacks them)
ADDED_TABLES = ("vouchers", "lockouts")
SCHEMA += VOUCHERS_DDL + LOCKOUTS_DDL
#: the tables every store must hold to be opened
TABLES = tuple(
    t for t in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA) if t not in ADDED_TABLES
)

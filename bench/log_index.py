"""What the log's ``UNIQUE (chain, seq)`` index costs an insert (bench_layout's why).

The chain per writer (schema 3) keeps ``id`` as the store's order of insertion and a
``(chain, seq)`` index beside it. This times, in CPU seconds of this process, units of
``--per`` records (a baccarat round writes about 20, ~330 bytes each) inserted into a
fresh SQLite file (WAL, ``synchronous=NORMAL``, one ``BEGIN IMMEDIATE`` .. ``COMMIT``
per unit, as the store's units do), for four forms of the log table:

- ``schema``: the store's own ``LOG_DDL`` (kiosk_ui/store/schema.py);
- ``no-unique``: the same without ``UNIQUE (chain, seq)`` (what the index costs; not safe:
  nothing in the database would refuse a seq written twice in a chain);
- ``without-rowid``: ``PRIMARY KEY (chain, seq) WITHOUT ROWID`` with ``id`` under a
  unique index of its own (one B-tree holding the row and ``(chain, seq)``);
- ``schema-2``: the one-chain table before it (``seq INTEGER PRIMARY KEY``).

Run: .venv/bin/python bench/log_index.py [--records 60000] [--per 20] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kiosk_ui.store.schema import LOG_DDL  # noqa: E402

_UNIQUE = ",\n    UNIQUE (chain, seq)\n);"
FORMS = {
    "schema": LOG_DDL,
    "no-unique": LOG_DDL.replace(_UNIQUE, "\n);"),
    "without-rowid": LOG_DDL.replace(
        "    id INTEGER PRIMARY KEY,\n    chain TEXT NOT NULL DEFAULT '',\n"
        "    seq INTEGER NOT NULL,",
        "    chain TEXT NOT NULL DEFAULT '',\n    seq INTEGER NOT NULL,\n    id INTEGER NOT NULL,",
    ).replace(_UNIQUE, ",\n    PRIMARY KEY (chain, seq)\n) WITHOUT ROWID;")
    + "CREATE UNIQUE INDEX log_order ON log(id);",
    "schema-2": """CREATE TABLE log (seq INTEGER PRIMARY KEY, hash TEXT NOT NULL,
    type TEXT NOT NULL, game TEXT NOT NULL, data BLOB NOT NULL);
CREATE INDEX log_by_game ON log(game, seq) WHERE game != '';
CREATE INDEX log_keys ON log(seq) WHERE type IN ('log-start', 'key-rotation');""",
}

# every other form really is another table (the DDL it edits still reads as expected)
assert all(ddl != LOG_DDL for form, ddl in FORMS.items() if form != "schema"), FORMS


def insert_cost(form: str, directory: Path, records: int, per: int) -> float:
    """CPU microseconds per record inserted into a fresh table of ``form``."""
    path = directory / f"{form}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(FORMS[form])
    data = os.urandom(165).hex().encode()  # a record's size in a baccarat round
    if form == "schema-2":
        sql = "INSERT INTO log (seq, hash, type, game, data) VALUES (?, ?, ?, ?, ?)"
    elif form == "without-rowid":
        sql = (
            "INSERT INTO log (chain, seq, id, hash, type, game, data) VALUES ('', ?, ?, ?, ?, ?, ?)"
        )
    else:
        sql = "INSERT INTO log (chain, seq, hash, type, game, data) VALUES ('', ?, ?, ?, ?, ?)"
    seq = 0
    start = time.process_time()
    for unit in range(records // per):
        rows: list[tuple[object, ...]] = []
        for _ in range(per):
            seq += 1
            row = (seq, f"{seq:064x}", "event", f"g-{unit // 3:08d}", data)
            rows.append((seq, *row) if form == "without-rowid" else row)
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(sql, rows)
        conn.execute("COMMIT")
    cpu = time.process_time() - start
    conn.close()
    return cpu / (records // per * per) * 1e6


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--records", type=int, default=60_000)
    p.add_argument("--per", type=int, default=20, help="records per unit (transaction)")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    costs: dict[str, list[float]] = {form: [] for form in FORMS}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):  # the forms alternate, so machine noise falls on all
            for form in FORMS:
                costs[form].append(insert_cost(form, Path(tmp), args.records, args.per))
    base = statistics.median(costs["schema"])
    print(f"{args.records} records, {args.per} a unit, median of {args.repeats} (CPU us/record)")
    for form, got in costs.items():
        med = statistics.median(got)
        print(f"{form:14} {med:6.2f}  ({med - base:+.2f} against the schema's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

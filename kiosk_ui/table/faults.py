"""The operator's resume after a store fault (a full disk, a disk I/O error).

A fault suspends every table of the store at once and the alarm cannot be written to
the game log while the store is failing (see :mod:`kiosk_ui.store.faults`). Tables
reopen only when the operator resumes: the cause (a full disk, a failing drive) needs
a person, and reopening on the first write that happens to fit would flap between
play and 503s while the disk stays nearly full. The resume, one at a time:

1. proves the store writable: writes and fsyncs free space and checkpoints the WAL
   (:meth:`~kiosk_ui.store.db.Database.probe`); if that fails the fault stays open and
   the operator is answered 503 with the reason;
2. re-reads the chain head and rebuilds every table from the log, so nothing of a
   unit of work that failed survives in memory;
3. writes, in one transaction, what could not be logged when it happened: the
   ``store-fault`` alarm (reason, where, since, how many errors), a
   ``table-suspended`` per table, then ``store-resumed`` and a ``table-resumed`` per
   table by the operator; only once that is durable is the fault cleared.

Until then every other write is refused before it touches the store
(:meth:`~kiosk_ui.store.faults.StoreHealth.refuse`), save an operator's sign-in, which
first proves the store writable (:meth:`~kiosk_ui.store.db.Database.writable`): a
session that ended during the fault must not lock the operator out of the resume.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime


def resume_store(rt: Runtime, operator: str) -> None:
    """Reopen every table of ``rt``'s store after a fault (no-op if there is none)."""
    health = rt.db.health
    with health.resume_lock:
        fault = health.fault
        if fault is None:
            return  # another resume got here first
        rt.db.probe()
        rt.log.resync()
        tables = list(rt.tables.values())
        for table in tables:
            table.rebuild()
        reason = health.reason()
        who = f"operator:{operator}"
        with health.admitted(), rt.log.transaction() as conn:  # proven writable above
            rt.log.append(conn, "runtime", "store-fault", fault.record(health.errors))
            for table in tables:
                body = {"table": table.id, "reason": reason}
                rt.log.append(conn, "runtime", "table-suspended", body, table.game or "")
            rt.log.append(conn, who, "store-resumed", {"fault": fault.reason})
            for table in tables:
                rt.log.append(conn, who, "table-resumed", {"table": table.id}, table.game or "")
        health.clear(fault)

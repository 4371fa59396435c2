"""The floor around the tables: the cashier, attendant calls and the alarm watcher.

:class:`Floor` is made once per served appliance (``create_app``'s lifespan). Its
watcher thread scans every ``SCAN_SECONDS`` what the console must see at once and
turns each state into an alarm or clears it (:class:`~kiosk_ui.cashier.alarms.Alarms`):
every device not ``ok``, a halted RNG, an open store fault, every suspended table (an
integrity alarm when a shoe does not match its commitment). RNG alarms (a fallback to
the OS source, a restart) arrive from the RNG supply itself. Attendant calls come from
the player screens; each call, cancellation and acknowledgement is a log record.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from kiosk_ui.cashier.alarms import Alarm, Alarms
from kiosk_ui.cashier.vouchers import Cashier
from kiosk_ui.table.room import Room

if TYPE_CHECKING:
    from kiosk_ui.appliance import Appliance
    from rng import Alarm as RngAlarm

log = logging.getLogger("kiosk_ui.floor")

SCAN_SECONDS = 0.5
_INTEGRITY_WORDS = ("commitment", "tamper", "shoe order", "integrity")


def table_alarm_kind(reason: str) -> str | None:
    """The alarm a table's suspension reason raises (None: another alarm covers it)."""
    low = reason.lower()
    if low.startswith("rng halted"):
        return None  # the rng-halt alarm says it once for every table
    if any(w in low for w in _INTEGRITY_WORDS):
        return "integrity"
    if low.startswith("device"):
        return "device-fault"
    return "table-suspended"


class Floor:
    def __init__(self, appliance: Appliance) -> None:
        self.appliance = appliance
        settings = appliance.settings
        self.alarms = Alarms()
        self.cashier = Cashier(
            appliance.runtime, voucher_days=settings.voucher_days, on_lock=self._guessing
        )
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        appliance.rng.supply.subscribe(self._on_rng_alarm)

    # --- the watcher -----------------------------------------------------------------

    def start(self) -> None:
        self.scan()
        self._thread = threading.Thread(target=self._watch, name="floor-alarms", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _watch(self) -> None:
        while not self._stop.wait(SCAN_SECONDS):
            try:
                self.scan()
            except Exception:  # a scan must never stop the watcher
                log.exception("alarm scan failed")

    def scan(self) -> None:
        """Raise or clear each condition's alarm from the appliance's state now."""
        app, alarms = self.appliance, self.alarms
        for st in app.device_status():
            key, state = f"device:{st.role}", str(st.state)
            if state == "ok":
                alarms.clear(key)
            else:
                fault = f": {st.last_fault}" if st.last_fault else ""
                alarms.raise_("device-fault", key, f"device {st.role} is {state}{fault}")
        halted = app.rng_status()["halted"]
        if halted:
            alarms.raise_("rng-halt", "rng-halt", f"RNG halted: {halted}")
        else:
            alarms.clear("rng-halt")
        store = app.runtime.db.health.reason()
        if store:
            alarms.raise_("store-fault", "store-fault", store)
        else:
            alarms.clear("store-fault")
        for table in app.tables():
            key, reason = f"table:{table.id}", table.suspended
            kind = table_alarm_kind(reason) if reason and not store else None
            if kind is None:
                alarms.clear(key)
            else:
                alarms.raise_(kind, key, f"table {table.id} suspended: {reason}")

    def _on_rng_alarm(self, alarm: RngAlarm) -> None:
        if alarm.kind != "halt":  # a halt is the watcher's rng-halt alarm
            message = f"RNG {alarm.kind} ({alarm.source}): {alarm.message}"
            self.alarms.raise_("rng-alarm", f"rng:{alarm.seq}", message)

    def _guessing(self, address: str, failures: int, seconds: float) -> None:
        """Wrong voucher numbers from one address locked it out: someone may be guessing."""
        message = (
            f"{failures} wrong voucher numbers from {address}: "
            f"ticket-in and the cage locked there for {round(seconds)} s"
        )
        self.alarms.raise_("integrity", f"voucher-guess:{address}", message)

    def integrity(self, key: str, message: str) -> None:
        """A check the operator ran failed (the signed log, the ledger audit)."""
        self.alarms.raise_("integrity", key, message)

    def in_play(self, player: str) -> bool:
        """Whether ``player`` has stakes on the layout of an open game (their own at a
        per-player table, or a seat's at a shared one): their session must not end, or
        what those bets win would land in a wallet nobody holds. A poker room seat with
        chips counts too: its stack goes back to the wallet when the seat is freed.

        On a shared store the player may also be playing at another worker's or
        appliance's table: the store says so (stakes in a game not ended, chips at a
        room), whoever serves the table."""
        for table in self.appliance.tables():
            own = table.games_of.get(player)
            for t in (table, own) if own is not None else (table,):
                held = [s for s, p in list(t.seats.items()) if p == player]
                if any(t.in_game(s) for s in held):
                    return True
                if held and isinstance(t, Room) and t.stack(player) > 0:
                    return True
        db = self.appliance.runtime.db
        if not db.shared:
            return False
        with db.read() as tx:
            return tx.seats.in_open_game(player) or tx.ledger.has_stack(player)

    # --- attendant calls -------------------------------------------------------------

    def call_attendant(self, player: str, kiosk: str, where: str) -> Alarm:
        """The player at ``kiosk`` asks for an attendant (one open call per player)."""
        key = f"attendant:{player}"
        open_call = self.alarms.get(key)
        if open_call is not None:
            return open_call
        message = f"attendant wanted at {kiosk}" + (f" ({where})" if where else "")
        self._log(f"player:{player}", "attendant-call", {"kiosk": kiosk, "where": where})
        alarm = self.alarms.raise_("attendant", key, message)
        assert alarm is not None
        return alarm

    def cancel_attendant(self, player: str) -> None:
        if self.alarms.clear(f"attendant:{player}") is not None:
            self._log(f"player:{player}", "attendant-cancelled", {})

    def attendant_call(self, player: str) -> Alarm | None:
        return self.alarms.get(f"attendant:{player}")

    def acknowledge(self, alarm_id: int, operator: str) -> Alarm:
        alarm = self.alarms.acknowledge(alarm_id, operator)
        body = {"alarm": alarm.key, "kind": alarm.kind, "message": alarm.message}
        self._log(f"operator:{operator}", "alarm-acknowledged", body)
        return alarm

    def _log(self, source: str, type_: str, body: dict[str, Any]) -> None:
        rt = self.appliance.runtime
        with rt.log.transaction() as tx:
            rt.log.append(tx, source, type_, body)

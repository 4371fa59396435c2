"""The running appliance: settings turned into a runtime, an RNG, devices and open tables.

``create_app`` builds one of these in the FastAPI lifespan; the CLI and tests can
build one directly. Every RNG alarm (fallback, halt) and every device fault is
written to the game log, and a halted RNG or faulted device suspends the tables
that depend on it with the reason shown to the operator.

Before anything opens, :func:`refuse_simulators` applies the device layer's rule
(``firmware_bridge.roles.require_for_play``) to every device role a table deals
from, with the ``CROUPIER_<ROLE>_URL`` override applied: on a real-money appliance
without ``[rng] test_mode`` a simulated shoe, dice reader or wheel is refused.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import asdict
from typing import Any

from firmware_bridge import ENTROPY_OPENER, DeviceError
from firmware_bridge.hal import DeviceState, DeviceStatus, EventDevice
from firmware_bridge.roles import env_var, open_role, require_for_play
from firmware_bridge.url import public_text
from games import catalog
from kiosk_ui.auth import Operators
from kiosk_ui.errors import KioskError
from kiosk_ui.settings import Settings
from kiosk_ui.store.location import appliance_name
from kiosk_ui.table.leasing import TableLeased
from kiosk_ui.table.outcomes import DeviceOutcomes, OutcomeSource, RngOutcomes
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.seats import SeatRules
from kiosk_ui.table.table import Table
from rng import Alarm, RngConfig, RngStack, open_rng

log = logging.getLogger("kiosk_ui")

# how long a stop waits for a takeover under way (a recovery: a few store round trips)
ADOPTER_JOIN_SECONDS = 30.0


def device_urls(settings: Settings) -> dict[str, str]:
    """Each configured role's URL, ``CROUPIER_<ROLE>_URL`` winning over the file."""
    return {
        role: os.environ.get(env_var(role)) or configured
        for role, configured in settings.devices.items()
    }


def refuse_simulators(settings: Settings) -> None:
    """Raise SimulatorRefused when a simulated device would deal on a real-money table.

    Checked for every role a configured table deals from; ``croupier serve`` calls
    this before it listens, so the refusal is one line and exit status 2.
    """
    test_mode = settings.rng.get("test_mode") is True
    urls = device_urls(settings)
    for role in sorted({t.source for t in settings.tables if t.source != "rng"}):
        if role in urls:
            require_for_play(role, urls[role], real_money=settings.real_money, test_mode=test_mode)


class Appliance:
    def __init__(self, settings: Settings, *, create: bool = False) -> None:
        # create: make the store if there is none yet (serve: only where nothing is)
        refuse_simulators(settings)
        self.settings = settings
        self.runtime = Runtime(
            settings.store,
            url=settings.store_url,
            shared=settings.shared,
            lease_seconds=settings.lease_seconds,
            worker=settings.worker,
            synchronous=settings.synchronous,
            create=create,
            seat_rules=SeatRules(
                per_table=settings.seats_per_table,
                floor=settings.seats_floor,
                idle_seconds=settings.seat_idle_seconds,
                action_seconds=settings.action_seconds,
                hand_pause=settings.hand_pause_seconds,
            ),
            anchor=settings.anchor,
        )
        self.operators = Operators(self.runtime)
        self.generated_password = self.operators.bootstrap(
            settings.operator_user, settings.operator_password
        )
        self.rng: RngStack = open_rng(
            RngConfig.from_mapping(settings.rng),
            real_money=settings.real_money,
            opener=ENTROPY_OPENER,
        )
        self.rng.supply.subscribe(self._on_alarm)
        # A deterministic source may drive a table: every player page shows the test
        # banner and /api/status says so; never silent.
        self.test_mode = self.rng.config.test_mode
        self.devices: dict[str, EventDevice] = {}
        self.device_errors: dict[str, str] = {}
        for role, url in device_urls(settings).items():
            try:
                dev = open_role(role, url=url)
            except DeviceError as exc:
                self.device_errors[role] = public_text(str(exc))  # shown on the status page
                continue
            if isinstance(dev, EventDevice):
                self.devices[role] = dev
        self.lock = threading.RLock()
        # tables another appliance of a shared store serves now: taken over when its
        # lease expires (kiosk_ui/table/leasing.py)
        self.standby: dict[str, tuple[str, str]] = {}
        # whose share each standby table is (the worker of serve --workers it is dealt
        # to, or the appliance that held it at start): a table taken over from it goes
        # back once it serves again and nobody plays there (_hand_back_idle)
        self.homes: dict[str, str] = {}
        # table taken over -> when (store clock, µs), its variant and outcome source
        self.adopted: dict[str, tuple[int, str, str]] = {}
        self.returned: dict[str, str] = {}  # table handed back -> to whom (not re-taken)
        # true once this appliance begins to stop (begin_stop): it takes nothing over
        # from then on, whatever leases the others give up meanwhile; _wake ends the
        # standby thread's wait at close
        self.stopping = False
        self._wake = threading.Event()
        self._open_tables()
        self.recoveries = self.runtime.recover()
        self._adopter: threading.Thread | None = None
        if self.standby:
            self._adopter = threading.Thread(
                target=self._adopt_loop, name="croupier-standby", daemon=True
            )
            self._adopter.start()

    # --- tables --------------------------------------------------------------

    def _source(self, role: str) -> OutcomeSource:
        if role == "rng":
            return RngOutcomes(self.rng.rng, f"rng:{self.rng.config.source}")
        return DeviceOutcomes(self.devices[role])

    def _open_tables(self) -> None:
        wanted: list[tuple[str, str, str]] = []
        if self.settings.all_variants:
            wanted += [(v.id, v.id, "rng") for v in catalog.variants().values()]
        wanted += [(t.id, t.variant, t.source) for t in self.settings.tables]
        workers, worker = self.settings.workers, self.settings.worker
        names = (
            []
            if worker is None
            else [appliance_name(self.settings.store, w) for w in range(workers)]
        )
        for k, (table_id, variant, role) in enumerate(wanted):
            if table_id in self.runtime.tables:
                continue
            if worker is not None:  # its worker's share, whoever holds it now
                self.homes[table_id] = names[k % workers]
                if k % workers != worker:
                    self.standby[table_id] = (variant, role)  # another worker's share
                    continue
            try:
                self._open_table(table_id, variant, role)
            except TableLeased as leased:
                self.standby[table_id] = (variant, role)  # served by another appliance
                self.homes.setdefault(table_id, leased.holder)  # (or its worker's, taken)

    def _open_table(self, table_id: str, variant: str, role: str, *, adopt: bool = False) -> None:
        """Open a configured table; ``adopt``: one taken over from a dead holder, its
        open games recovered before any request can reach it (Runtime.adopt_table)."""
        # A one-seat RNG game is per-player: everybody plays their own (issue 12, C11).
        solo = role == "rng" and max(catalog.get_variant(variant).seats, 1) == 1
        source = self._source_or_rng(role)
        if adopt:
            table, done = self.runtime.adopt_table(table_id, variant, source, per_player=solo)
            self.recoveries += done
        else:
            table = self.runtime.open_table(table_id, variant, source, per_player=solo)
        if role != "rng" and role not in self.devices:
            table.suspend(f"device {role} unavailable: {self.device_errors.get(role, '')}")

    def _adopt_loop(self) -> None:
        """Take over each standby table once its holder's lease has expired (the holder
        died or was cut off) or was given up (it stopped), recovering the game it left
        open; never once this appliance is stopping (:meth:`begin_stop`). A stopping
        appliance that took tables over would serve them for a moment only, and its
        store closing under a takeover fails it ("the connection is closed"): the tables
        are the survivors' to take, the stopping one releasing its own at close."""
        life = self.settings.lease_seconds
        failures: tuple[type[Exception], ...] = (KioskError, *self.runtime.db.errors)
        # The first look after a whole lease life: the others' tables that no lease
        # names yet are their share, not yet opened (workers start together, some
        # slower), and are theirs to open; a dead holder's lease takes as long to lapse.
        wait = life
        while not self._wake.wait(wait) and not self.stopping:
            wait = life / 3
            back = self._serving_again()
            for table_id, (variant, role) in sorted(self.standby.items()):
                if self.returned.get(table_id) in back:
                    continue  # handed back to a server that serves: its to take
                with self.lock:
                    if self._stopped_since():  # (a method: mypy narrows the attribute)
                        return  # checked per table: a stop may begin between two
                    try:
                        self._open_table(table_id, variant, role, adopt=True)
                    except TableLeased:
                        continue
                    except failures as exc:
                        log.warning("taking over table %s failed (tried again): %s", table_id, exc)
                        continue
                del self.standby[table_id]
                self.returned.pop(table_id, None)
                self.adopted[table_id] = (self.runtime.log.clock(), variant, role)
                log.warning(
                    "table %s taken over: its previous holder stopped or its lease expired",
                    table_id,
                )
            self._hand_back_idle(back)

    def _serving_again(self) -> dict[str, int]:
        """The servers of the floor serving now (their ``servers`` row renewed within a
        lease life): holder -> when last seen; read only while a table was taken over or
        handed back (nothing to decide otherwise). A table handed back is forgotten here
        once its home holds its lease again: the lease keeps it from being re-taken from
        then on, and with nothing left to watch the loop stops reading."""
        if not (self.adopted or self.returned):
            return {}
        with self.runtime.db.read() as tx:
            servers = tx.leases.servers()
            leases = tx.leases.holders() if self.returned else {}
        now, life = self.runtime.log.clock(), int(self.settings.lease_seconds * 1e6)
        for table_id, home in list(self.returned.items()):
            holder, expires = leases.get(table_id, ("", 0))
            if holder == home and expires > now:
                del self.returned[table_id]
        return {h: seen for h, (_, seen) in servers.items() if now - seen <= life}

    def _hand_back_idle(self, back: dict[str, int]) -> None:
        """Give each table taken over back to the server whose share it is once that one
        serves again (its row renewed since the takeover) and nobody plays at the table
        (:meth:`Runtime.hand_back`): after a worker's restart both workers deal again,
        where before the survivor kept every table and the appliance one core. Its
        standby here again, taken over anew if that server dies or stops."""
        for table_id, (since, variant, role) in sorted(self.adopted.items()):
            home = self.homes.get(table_id)
            if home is None or home == self.runtime.db.appliance or back.get(home, 0) < since:
                continue  # its share is this server's, or its server is not back
            with self.lock:
                if self._stopped_since() or not self.runtime.hand_back(table_id):
                    continue
            del self.adopted[table_id]
            self.standby[table_id] = (variant, role)
            self.returned[table_id] = home
            log.warning("table %s handed back to %s, which serves again", table_id, home)

    def _source_or_rng(self, role: str) -> OutcomeSource:
        return self._source(role if role == "rng" or role in self.devices else "rng")

    def tables(self) -> list[Table]:
        return list(self.runtime.tables.values())

    # --- health --------------------------------------------------------------

    def _on_alarm(self, alarm: Alarm) -> None:
        # Alarms arrive inside an RNG call, possibly inside a table's transaction that is
        # about to roll back: record them and suspend tables from a thread of their own.
        threading.Thread(target=self._record_alarm, args=(alarm,), daemon=True).start()

    def _record_alarm(self, alarm: Alarm) -> None:
        with self.runtime.log.transaction() as conn:
            self.runtime.log.append(conn, "rng", "rng-alarm", asdict(alarm))
        if alarm.kind == "halt":
            for table in self.tables():
                if table.source.name.startswith("rng"):
                    table.suspend(f"RNG halted: {alarm.message}")

    def device_status(self) -> list[DeviceStatus]:
        out: list[DeviceStatus] = []
        for role, url in self.settings.devices.items():
            dev = self.devices.get(role)
            if dev is None:
                out.append(
                    DeviceStatus(
                        url=url,
                        role=role,
                        state=DeviceState.DISCONNECTED,
                        last_fault=self.device_errors.get(role),
                    )
                )
            else:
                out.append(dev.status())
        return out

    def rng_status(self) -> dict[str, Any]:
        st = self.rng.status()
        return {
            "policy": st.supply.policy,
            "active": st.supply.active,
            "halted": st.supply.halted,
            "alarms": [asdict(a) for a in st.supply.alarms],
            "sources": [asdict(s) for s in st.supply.sources],
            "generator": asdict(st.generator),
            "draws": st.usage.draws,
            "bytes": st.usage.bytes,
        }

    def begin_stop(self) -> None:
        """Mark this appliance as stopping: from now on it takes no table over. Safe
        from a signal handler: it only sets a flag, no lock (an Event's set takes one,
        and a second signal arriving inside it, as Ctrl-C's SIGINT and the supervisor's
        SIGTERM do, waited on it forever). ``croupier serve`` calls it when
        the stop signal arrives, before uvicorn drains its connections, and the app's
        lifespan when it shuts down. Nothing else changes: the tables it serves go on
        serving until :meth:`close` (their leases are given up there, after the last
        unit, so a running appliance of the floor takes them over at once)."""
        self.stopping = True

    def _stopped_since(self) -> bool:
        """Whether a stop began (:meth:`begin_stop`), read afresh."""
        return self.stopping

    def close(self) -> None:
        """Stop: no more takeovers, and the standby thread joined (a takeover under way
        finishes first, its lease then given up with the others), then the devices, the
        RNG and the runtime (its leases released, the store closed last)."""
        self.begin_stop()
        self._wake.set()
        if self._adopter is not None:
            self._adopter.join(timeout=ADOPTER_JOIN_SECONDS)
            if self._adopter.is_alive():  # a takeover stuck on the store: it fails below
                log.warning("a table takeover was still under way at the stop")
        for dev in self.devices.values():
            try:
                dev.close()
            except DeviceError:
                log.warning("closing %s failed", dev.url)
        self.rng.close()
        self.runtime.close()

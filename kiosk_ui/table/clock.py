"""The seat clock: an asyncio task that frees idle seats and applies the action clock.

Every ``SeatRules.tick`` seconds it looks at each shared table: seats left during a
game and idle seats with nothing on the layout are freed (``Table.tend``), and each
decision whose clock ran out gets the rules' default (``Table.due``), applied like a
player's action but logged from the source ``timeout`` (an RNG table's through the
loop's group commit, a device table's on a worker thread, as requests are). Idle
per-player games are forgotten. A poker room deals its next hand once it is due
(:meth:`kiosk_ui.table.room.Room.hand_due`). Table pages hear of every change on the WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from games.core.errors import GameError
from kiosk_ui.errors import KioskError
from kiosk_ui.table.answers import public
from kiosk_ui.table.commit import LoopCommitter
from kiosk_ui.table.room import Room

if TYPE_CHECKING:
    from games.core.records import Action
    from kiosk_ui.table.answers import ActResult
    from kiosk_ui.table.runtime import Runtime
    from kiosk_ui.table.table import Table

log = logging.getLogger("kiosk_ui.clock")

Publish = Callable[[str, dict[str, Any]], None]


class SeatClock:
    def __init__(self, runtime: Runtime, committer: LoopCommitter, publish: Publish) -> None:
        self.rt = runtime
        self.committer = committer
        self.publish = publish
        self.timeouts = 0  # defaults applied (for the operator and the tests)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="seat-clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.rt.seat_rules.tick)
            for table in list(self.rt.tables.values()):
                try:
                    await self.tick(table)
                except Exception:  # the clock never stops; the fault is the operator's to see
                    log.exception("seat clock at table %s", table.id)

    async def tick(self, table: Table) -> None:
        rules = self.rt.seat_rules
        now = time.monotonic()
        if table.per_player:
            table.drop_idle(now, rules)
            return
        if table.tend(now, rules):
            self.publish(table.id, {"type": "update", "events": []})
        if isinstance(table, Room) and table.hand_due(now):
            await self._deal(table)
        game = table.game
        for action in table.due(now, rules):
            try:
                result = await self._apply(table, action, game)
            except (KioskError, GameError) as exc:  # the player acted meanwhile, or a fault
                log.info("timeout at table %s not applied: %s", table.id, exc)
                if action.kind == "deal" and isinstance(exc, GameError):
                    await self._withdraw(table, game)
                continue
            self._applied(table, result)

    async def _deal(self, room: Room) -> None:
        """A poker room's next hand: the dealer deals once two players are ready."""
        try:
            if room.source.blocking:
                result = await asyncio.to_thread(room.start_hand)
            else:
                result = await self.committer.run(room, partial(room.start_hand, defer=True))
        except (KioskError, GameError) as exc:  # a player left meanwhile, or a fault
            log.info("no hand dealt at table %s: %s", room.id, exc)
            return
        self.publish(room.id, {"type": "update", "events": public(result.events)})

    async def _withdraw(self, table: Table, game: str | None) -> None:
        """The bets of absent seats are taken down when they stop the others' deal (a
        refused one is tried again after the rest: riders come down before their base)."""
        pending = table.withdrawals()
        while pending:
            left: list[Action] = []
            for action in pending:
                try:
                    result = await self._apply(table, action, game)
                except (KioskError, GameError):
                    left.append(action)
                    continue
                self._applied(table, result)
            if len(left) == len(pending):
                log.info("timeout at table %s: %s stay up", table.id, left)
                return
            pending = left

    async def _apply(self, table: Table, action: Action, game: str | None) -> ActResult:
        if table.source.blocking:
            return await asyncio.to_thread(table.act_many, [action], by="timeout", game=game)
        return await self.committer.run(
            table, partial(table.act_many, [action], by="timeout", game=game, defer=True)
        )

    def _applied(self, table: Table, result: ActResult) -> None:
        self.timeouts += 1
        self.publish(table.id, {"type": "update", "events": public(result.events)})

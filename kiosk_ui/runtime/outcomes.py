"""Where a table's cards, dice and wheel numbers come from.

:class:`RngOutcomes` deals from a shoe shuffled by ``rng`` at game start and kept
server-side (the ``shoes`` table): the log records only a SHA-256 commitment to
the order at the start and reveals it when the game ends, so a regulator can
check that the cards dealt were the committed shoe. Dice and wheel numbers are
drawn from ``rng`` at the moment they are needed.

:class:`DeviceOutcomes` reads a physical shoe, dice reader or wheel through
``firmware_bridge``: it turns device events into engine actions, and raises
:class:`OutcomeFault` for any fault. It never invents a card or a roll.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from typing import Any, Protocol

from firmware_bridge import hal
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.records import Action, DealCard, RollDice, SpinResult
from kiosk_ui.errors import TableError
from rng.errors import RngError


class OutcomeFault(TableError):
    """The source cannot supply an outcome (device fault, RNG health failure)."""

    code = "outcome-fault"


class RandomOutcomeSource(Protocol):
    """What the runtime needs of ``rng.Rng``."""

    def shoe(self, decks: int, jokers: int = 0) -> list[int]: ...

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]: ...

    def randbelow(self, n: int) -> int: ...


class OutcomeSource(Protocol):
    name: str
    blocking: bool  # True: supply() waits on hardware, so it runs outside the store lock

    def start_game(self, conn: sqlite3.Connection, game: str, variant: Variant) -> dict[str, Any]:
        """Prepare a game; return what the log's game-start record should state."""
        ...

    def supply(
        self, conn: sqlite3.Connection, game: str, need: Need
    ) -> tuple[Action, dict[str, Any]]:
        """The next outcome as an engine action, with draw details for the log."""
        ...

    def end_game(self, conn: sqlite3.Connection, game: str) -> dict[str, Any]:
        """Finish a game; return what the log's game-end record should state."""
        ...


def commitment(salt: str, cards: str) -> str:
    return hashlib.sha256(f"{salt}:{cards}".encode()).hexdigest()


def wheel_number(index: int, zeros: int) -> str:
    """Map a uniform index in ``range(36 + zeros)`` to a wheel number (37 -> "00")."""
    return "00" if index == 37 and zeros == 2 else str(index)


class RngOutcomes:
    def __init__(self, rng: RandomOutcomeSource, name: str = "rng") -> None:
        self.rng = rng
        self.name = name
        self.blocking = False
        self._zeros: dict[str, int] = {}
        self._orders: dict[str, list[int]] = {}  # game -> committed shoe order (server-side)

    def start_game(self, conn: sqlite3.Connection, game: str, variant: Variant) -> dict[str, Any]:
        self._zeros[game] = variant.zeros
        if not variant.decks:
            return {"source": self.name}
        try:
            order = self.rng.shoe(variant.decks, variant.jokers)
        except RngError as exc:
            raise OutcomeFault(f"RNG: {exc}") from None
        cards = ",".join(map(str, order))
        self._orders[game] = order
        salt = secrets.token_hex(16)  # a commitment nonce, not an outcome
        conn.execute(
            "INSERT INTO shoes (game, cards, salt, next) VALUES (?, ?, ?, 0)", (game, cards, salt)
        )
        return {
            "source": self.name,
            "decks": variant.decks,
            "jokers": variant.jokers,
            "shoe_commitment": commitment(salt, cards),
        }

    def supply(
        self, conn: sqlite3.Connection, game: str, need: Need
    ) -> tuple[Action, dict[str, Any]]:
        try:
            return self._supply(conn, game, need)
        except RngError as exc:  # a failed health test or halted source: never an outcome
            raise OutcomeFault(f"RNG: {exc}") from None

    def _supply(
        self, conn: sqlite3.Connection, game: str, need: Need
    ) -> tuple[Action, dict[str, Any]]:
        if need.kind is NeedKind.CARD:
            # The position lives in the store (it rolls back with a failed unit); the
            # order never changes once committed to, so it is read once per game.
            row = conn.execute(
                "UPDATE shoes SET next = next + 1 WHERE game = ? RETURNING next", (game,)
            ).fetchone()
            if row is None:
                raise OutcomeFault(f"game {game} has no shoe")
            position = int(row[0]) - 1
            order = self._orders.get(game)
            if order is None:
                cards = conn.execute("SELECT cards FROM shoes WHERE game = ?", (game,)).fetchone()
                order = self._orders[game] = [int(c) for c in cards[0].split(",")]
            if position >= len(order):
                raise OutcomeFault(f"game {game}: the shoe is empty")
            return DealCard(card=Card.from_index(order[position])), {"draw": position + 1}
        if need.kind is NeedKind.DICE:
            return RollDice(faces=self.rng.roll(need.count)), {}
        zeros = self._zeros.get(game) or 1
        return SpinResult(number=wheel_number(self.rng.randbelow(36 + zeros), zeros)), {}

    def end_game(self, conn: sqlite3.Connection, game: str) -> dict[str, Any]:
        row = conn.execute("SELECT cards, salt, next FROM shoes WHERE game = ?", (game,)).fetchone()
        self._zeros.pop(game, None)
        self._orders.pop(game, None)
        if row is None:
            return {}
        return {"shoe_reveal": {"salt": row[1], "cards": row[0], "dealt": int(row[2])}}


class DeviceOutcomes:
    """Outcomes read from a physical device; every fault stops the table."""

    def __init__(self, device: hal.EventDevice, *, timeout: float = 30.0) -> None:
        self.device = device
        self.name = f"device:{device.url}"
        self.blocking = True
        self.timeout = timeout

    def start_game(self, conn: sqlite3.Connection, game: str, variant: Variant) -> dict[str, Any]:
        arm = getattr(self.device, "arm", None)
        if callable(arm):
            arm()
        return {"source": self.name}

    def supply(
        self, conn: sqlite3.Connection, game: str, need: Need
    ) -> tuple[Action, dict[str, Any]]:
        while True:
            ev = self.device.next_event(self.timeout)
            if ev is None:
                raise OutcomeFault(f"{self.device.url}: no outcome within {self.timeout:g} s")
            if isinstance(ev, hal.CardDrawn) and need.kind is NeedKind.CARD:
                card = Card.parse("X" if ev.rank == "X" else ev.rank + ev.suit)
                return DealCard(card=card), {"position": ev.position, "device_seq": ev.seq}
            if isinstance(ev, hal.DiceRolled) and need.kind is NeedKind.DICE:
                if len(ev.faces) != need.count or not all(1 <= f <= 6 for f in ev.faces):
                    raise OutcomeFault(f"{self.device.url}: invalid roll {ev.faces}")
                return RollDice(faces=tuple(ev.faces)), {"device_seq": ev.seq}
            if isinstance(ev, hal.WinningNumber) and need.kind is NeedKind.SPIN:
                return SpinResult(number=ev.number), {"device_seq": ev.seq}
            if isinstance(ev, hal.BurnCard | hal.BallLaunched | hal.RerollRequested | hal.NoRoll):
                continue  # informational: wait for the outcome itself
            if isinstance(ev, hal.DeviceFault):
                raise OutcomeFault(f"{self.device.url}: {ev.code}: {ev.message}")
            raise OutcomeFault(
                f"{self.device.url}: {type(ev).__name__} while waiting for {need.kind}"
            )

    def end_game(self, conn: sqlite3.Connection, game: str) -> dict[str, Any]:
        return {}

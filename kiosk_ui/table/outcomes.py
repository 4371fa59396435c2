"""Where a table's cards, dice and wheel numbers come from.

:class:`RngOutcomes` deals from a shoe shuffled by ``rng`` at game start and kept
server-side (the ``shoes`` table): the log records only a SHA-256 commitment to
the order at the start and reveals it when the game ends, so a regulator can
check that the cards dealt were the committed shoe. Dice, wheel numbers and table
positions (where a deal around the table starts) are drawn from ``rng`` at the moment
they are needed.

:class:`DeviceOutcomes` reads a physical shoe, dice reader or wheel through
``firmware_bridge``: it turns device events into engine actions, and raises
:class:`OutcomeFault` for any fault. It never invents a card or a roll.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from certification.log.commitments import shoe_commitment
from firmware_bridge import hal
from firmware_bridge.url import public_url
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.records import Action, DealCard, RollDice, SpinResult, StartPosition
from kiosk_ui.errors import TableError
from kiosk_ui.store.protocol import Tx
from rng.errors import RngError


class OutcomeFault(TableError):
    """The source cannot supply an outcome (device fault, RNG health failure).

    ``alarm`` names the integrity alarm the suspension logs, if it is one."""

    code = "outcome-fault"
    alarm: str | None = None


class RandomOutcomeSource(Protocol):
    """What the runtime needs of ``rng.Rng``."""

    def shoe(self, decks: int, jokers: int = 0) -> list[int]: ...

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]: ...

    def randbelow(self, n: int) -> int: ...


class OutcomeSource(Protocol):
    name: str
    blocking: bool  # True: supply() waits on hardware, so it runs outside the store lock

    def start_game(self, conn: Tx, game: str, variant: Variant[Any]) -> dict[str, Any]:
        """Prepare a game; return what the log's game-start record should state."""
        ...

    def supply(self, conn: Tx, game: str, need: Need) -> tuple[Action, dict[str, Any]]:
        """The next outcome as an engine action, with draw details for the log."""
        ...

    def end_game(self, conn: Tx, game: str) -> dict[str, Any]:
        """Finish a game; return what the log's game-end record should state."""
        ...


@runtime_checkable
class KeepsShoes(Protocol):
    """A source that keeps each game's shoe in the store and deals from it by position."""

    def forget(self, game: str) -> None:
        """Drop what is kept in memory of a game's shoe; it is read back and checked."""
        ...

    def check_shoe(self, conn: Tx, game: str) -> None:
        """Check a game's stored shoe against its commitment (raises ShoeTampered)."""
        ...


class ShoeTampered(OutcomeFault):
    """A shoe read back from the store is not the order committed to at game start
    (or its position disagrees with the cards the log shows dealt): nothing is dealt
    from it, the table suspends and an operator alarm is logged."""

    code = "shoe-tampered"
    alarm = "shoe-commitment"


def commitment(salt: str, cards: str) -> str:
    """The SHA-256 commitment to a shoe order (defined in certification.log.commitments)."""
    return shoe_commitment(salt, cards)


def _logged_shoe(conn: Tx, game: str) -> tuple[str | None, int]:
    """What the log says of a game's shoe: its commitment, and how many cards it dealt."""
    committed: str | None = None
    dealt = 0
    for line in conn.log.game_lines(game):
        rec = json.loads(line)
        if rec["type"] == "game-start":
            value = rec["body"].get("shoe_commitment")
            committed = value if isinstance(value, str) else None
        elif rec["type"] == "action" and rec["body"].get("kind") == "deal-card":
            dealt += 1
    return committed, dealt


def load_checked_shoe(conn: Tx, game: str) -> tuple[list[int], int]:
    """The game's shoe order read back from the store, checked against the log.

    The log (a hash chain, verified at start-up) holds the commitment made when the
    shoe was shuffled; the store's ``shoes`` row is only a working copy. If the row
    does not hash to the commitment, or its position is not the number of cards the
    log shows dealt, it was changed after the commitment: :class:`ShoeTampered`.
    Returns the order and the position of the next card (0-based).
    """
    stored = conn.shoes.read(game)
    if stored is None:
        raise OutcomeFault(f"game {game} has no shoe")
    cards, salt, position = stored
    committed, dealt = _logged_shoe(conn, game)
    if committed is None:
        raise ShoeTampered(f"game {game}: the stored shoe has no commitment in the log")
    if shoe_commitment(salt, cards) != committed:
        raise ShoeTampered(
            f"game {game}: the stored shoe does not match its commitment "
            f"{committed[:16]}...: it was changed in the store; nothing is dealt from it"
        )
    if position != dealt:
        raise ShoeTampered(
            f"game {game}: the stored shoe position is {position} but the log shows "
            f"{dealt} cards dealt: it was changed in the store; nothing is dealt from it"
        )
    try:
        return [int(c) for c in cards.split(",")], position
    except ValueError:
        raise ShoeTampered(f"game {game}: the stored shoe is malformed") from None


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
        self._next: dict[str, int] = {}  # game -> position of its next card, as dealt here

    def start_game(self, conn: Tx, game: str, variant: Variant[Any]) -> dict[str, Any]:
        self._zeros[game] = variant.zeros
        if not variant.decks:
            return {"source": self.name}
        try:
            order = self.rng.shoe(variant.decks, variant.jokers)
        except RngError as exc:
            raise OutcomeFault(f"RNG: {exc}") from None
        cards = ",".join(map(str, order))
        self._orders[game] = order
        self._next[game] = 0
        salt = secrets.token_hex(16)  # a commitment nonce, not an outcome
        conn.shoes.insert(game, cards, salt)
        return {
            "source": self.name,
            "decks": variant.decks,
            "jokers": variant.jokers,
            "shoe_commitment": commitment(salt, cards),
        }

    def supply(self, conn: Tx, game: str, need: Need) -> tuple[Action, dict[str, Any]]:
        try:
            return self._supply(conn, game, need)
        except RngError as exc:  # a failed health test or halted source: never an outcome
            raise OutcomeFault(f"RNG: {exc}") from None

    def _supply(self, conn: Tx, game: str, need: Need) -> tuple[Action, dict[str, Any]]:
        if need.kind is NeedKind.CARD:
            # The order never changes once committed to: it is kept from the shuffle, or
            # read back from the store once per game (after a restart) and then only
            # after checking it against the logged commitment.
            order = self._orders.get(game)
            if order is None:
                order, self._next[game] = load_checked_shoe(conn, game)
                self._orders[game] = order
            # The position lives in the store (it rolls back with a failed unit).
            position = conn.shoes.take_next(game)
            if position is None:
                raise OutcomeFault(f"game {game} has no shoe")
            if position != self._next.get(game, position):
                # The stored position moved under a running game (a card skipped or
                # dealt twice): that changes the cards as surely as a swapped one.
                raise ShoeTampered(
                    f"game {game}: the stored shoe position was changed (it says card "
                    f"{position + 1}, the game is at card {self._next[game] + 1}); "
                    "nothing is dealt from it"
                )
            self._next[game] = position + 1
            if position >= len(order):
                raise OutcomeFault(f"game {game}: the shoe is empty")
            return DealCard(card=Card.from_index(order[position])), {"draw": position + 1}
        if need.kind is NeedKind.DICE:
            return RollDice(faces=self.rng.roll(need.count)), {}
        if need.kind is NeedKind.POSITION:  # uniform over 1..count (randbelow: no bias)
            return StartPosition(position=1 + self.rng.randbelow(need.count)), {}
        zeros = self._zeros.get(game) or 1
        return SpinResult(number=wheel_number(self.rng.randbelow(36 + zeros), zeros)), {}

    def forget(self, game: str) -> None:
        """Drop what is kept of a game's shoe (its work rolled back, or it ended): the
        next card is dealt only after the stored shoe is read back and checked."""
        self._orders.pop(game, None)
        self._next.pop(game, None)

    def check_shoe(self, conn: Tx, game: str) -> None:
        """Check a game's stored shoe against its commitment before play resumes (on
        recovery); raises :class:`ShoeTampered`. A game without a shoe passes."""
        if conn.shoes.read(game) is None:
            return
        self._orders[game], self._next[game] = load_checked_shoe(conn, game)

    def end_game(self, conn: Tx, game: str) -> dict[str, Any]:
        stored = conn.shoes.read(game)
        order = self._orders.get(game)
        if stored is not None and order is not None and stored.cards != ",".join(map(str, order)):
            # The store's copy changed under a running game (the cards dealt came from
            # the committed order kept here): reveal nothing false, stop the table.
            raise ShoeTampered(
                f"game {game}: the stored shoe was changed during the game; "
                "it no longer matches its commitment"
            )
        self._zeros.pop(game, None)
        self.forget(game)
        if stored is None:
            return {}
        return {"shoe_reveal": {"salt": stored.salt, "cards": stored.cards, "dealt": stored.next}}


class DeviceOutcomes:
    """Outcomes read from a physical device; every fault stops the table."""

    def __init__(self, device: hal.EventDevice, *, timeout: float = 30.0) -> None:
        self.device = device
        # Names and fault messages reach players: the URL's query (a simulator's seed)
        # never does.
        self.where = public_url(device.url)
        self.name = f"device:{self.where}"
        self.blocking = True
        self.timeout = timeout

    def start_game(self, conn: Tx, game: str, variant: Variant[Any]) -> dict[str, Any]:
        arm = getattr(self.device, "arm", None)
        if callable(arm):
            arm()
        return {"source": self.name}

    def supply(self, conn: Tx, game: str, need: Need) -> tuple[Action, dict[str, Any]]:
        if need.kind is NeedKind.POSITION:  # no device reports one: never invent it
            raise OutcomeFault(f"{self.where}: the device supplies no {need.kind}")
        while True:
            ev = self.device.next_event(self.timeout)
            if ev is None:
                raise OutcomeFault(f"{self.where}: no outcome within {self.timeout:g} s")
            if isinstance(ev, hal.CardDrawn) and need.kind is NeedKind.CARD:
                card = Card.parse("X" if ev.rank == "X" else ev.rank + ev.suit)
                return DealCard(card=card), {"position": ev.position, "device_seq": ev.seq}
            if isinstance(ev, hal.DiceRolled) and need.kind is NeedKind.DICE:
                if len(ev.faces) != need.count or not all(1 <= f <= 6 for f in ev.faces):
                    raise OutcomeFault(f"{self.where}: invalid roll {ev.faces}")
                return RollDice(faces=tuple(ev.faces)), {"device_seq": ev.seq}
            if isinstance(ev, hal.WinningNumber) and need.kind is NeedKind.SPIN:
                return SpinResult(number=ev.number), {"device_seq": ev.seq}
            if isinstance(ev, hal.BurnCard | hal.BallLaunched | hal.RerollRequested | hal.NoRoll):
                continue  # informational: wait for the outcome itself
            if isinstance(ev, hal.DeviceFault):
                raise OutcomeFault(f"{self.where}: {ev.code}: {ev.message}")
            raise OutcomeFault(f"{self.where}: {type(ev).__name__} while waiting for {need.kind}")

    def end_game(self, conn: Tx, game: str) -> dict[str, Any]:
        return {}


def draw_info(need: Need, info: Mapping[str, Any]) -> dict[str, Any]:
    """What the log records with a drawn outcome: where it came from, and if dealt face down."""
    out = dict(info)
    if need.hidden:
        out["hidden"] = True
    return out

"""One behaviour suite for every backend of the shoe, dice and wheel roles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from firmware_bridge import CardShoe, DeviceState, DiceReader, WheelReader
from firmware_bridge.hal import (
    BallLaunched,
    BurnCard,
    CardDrawn,
    DeviceEvent,
    DeviceFault,
    DiceRolled,
    NoRoll,
    NoSpin,
    RerollRequested,
    ShoeEmpty,
    WinningNumber,
)

from .conftest import Opened

Make = Callable[[str, str], Opened]
T = 3.0  # generous per-event timeout for the real-clock backends


def deal(dev: CardShoe, limit: int = 2000) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    for _ in range(limit):
        event = dev.next_event(timeout=T)
        if event is not None:
            events.append(event)
            if isinstance(event, ShoeEmpty):
                return events
    raise AssertionError("shoe never emptied")


def positions(events: list[DeviceEvent]) -> list[int]:
    return [e.position for e in events if isinstance(e, CardDrawn | BurnCard)]


# -- shoe --------------------------------------------------------------------------


def test_shoe_identity_and_protocol(peripheral: Make) -> None:
    dev = peripheral("shoe", "seed=1").device
    assert isinstance(dev, CardShoe)
    status = dev.status()
    assert (status.role, status.state, status.model) == ("shoe", DeviceState.OK, "SIM-SHOE-8")
    assert dev.health() == "ok"  # type: ignore[attr-defined]


def test_shoe_deals_nothing_until_armed_then_one_hand(peripheral: Make) -> None:
    dev = peripheral("shoe", "seed=2&burn=0").device
    assert dev.next_event(timeout=0.3) is None
    dev.arm(5)
    got = [dev.next_event(timeout=T) for _ in range(5)]
    assert [e.position for e in got if isinstance(e, CardDrawn)] == [1, 2, 3, 4, 5]
    assert dev.next_event(timeout=0.3) is None
    comp = dev.composition()  # type: ignore[attr-defined]
    assert (comp.dealt, comp.remaining) == (5, 411)


def test_shoe_two_decks_every_card_accounted(peripheral: Make) -> None:
    o = peripheral("shoe", "seed=3&decks=2")
    o.device.arm()
    events = deal(o.device)
    cards = [e for e in events if isinstance(e, CardDrawn | BurnCard)]
    assert positions(events) == list(range(1, 105))
    assert [c.rank + c.suit for c in cards] == o.truth.cards
    assert set(Counter(c.rank + c.suit for c in cards).values()) == {2}


def test_shoe_duplicate_and_garbage_change_nothing(peripheral: Make) -> None:
    o = peripheral("shoe", "seed=4&decks=1&ack_timeout=0.05")
    o.device.arm()
    events: list[DeviceEvent] = []
    for i in range(300):
        o.inject(("duplicate", "garbage", "bad_crc", "drop_ack")[i % 4])
        event = o.device.next_event(timeout=T)
        if event is not None:
            events.append(event)
        if isinstance(event, ShoeEmpty):
            break
    assert positions(events) == list(range(1, 53))
    assert not [e for e in events if isinstance(e, DeviceFault)]


def test_shoe_unplug_fault_then_reconnect_without_loss(peripheral: Make) -> None:
    o = peripheral("shoe", "seed=5&decks=1&replug_after=0.3")
    o.device.arm()
    events = [o.device.next_event(timeout=T) for _ in range(5)]
    o.inject("unplug")
    rest: list[DeviceEvent] = []
    while not rest or not isinstance(rest[-1], ShoeEmpty):
        event = o.device.next_event(timeout=T)
        if event is not None:
            rest.append(event)
    faults = [e for e in rest if isinstance(e, DeviceFault)]
    assert [f.code for f in faults] == ["disconnected"]
    assert positions([e for e in events if e is not None] + rest) == list(range(1, 53))
    assert o.device.status().counters["reconnects"] == 1


# -- dice ----------------------------------------------------------------------------


def test_dice_rolls_in_order(peripheral: Make) -> None:
    o = peripheral("dice", "seed=6&dice=3")
    assert isinstance(o.device, DiceReader)
    assert o.device.dice == 3
    events = [o.device.next_event(timeout=T) for _ in range(30)]
    rolls = [e.faces for e in events if isinstance(e, DiceRolled)]
    assert len(rolls) == 30
    assert rolls == o.truth.rolls[:30]


def test_dice_invalid_face_and_cocked_die(peripheral: Make) -> None:
    o = peripheral("dice", "seed=7")
    o.device.next_event(timeout=T)
    o.inject("invalid_face")
    o.inject("cocked")
    events = [o.device.next_event(timeout=T) for _ in range(8)]
    reasons = [e.reason for e in events if isinstance(e, NoRoll)]
    assert sorted(reasons) == ["cocked", "invalid-face"]
    assert any(isinstance(e, RerollRequested) for e in events)
    rolls = [e.faces for e in events if isinstance(e, DiceRolled)]
    assert all(1 <= f <= 6 for faces in rolls for f in faces)
    assert rolls == o.truth.rolls[1 : 1 + len(rolls)]


# -- wheel ---------------------------------------------------------------------------


def test_wheel_spins_and_no_spin(peripheral: Make) -> None:
    o = peripheral("wheel", "seed=8&zeros=2")
    assert isinstance(o.device, WheelReader)
    events = [o.device.next_event(timeout=T) for _ in range(20)]
    o.inject("no_spin")
    events += [o.device.next_event(timeout=T) for _ in range(6)]
    kinds = [type(e) for e in events[:20]]
    assert kinds == [BallLaunched, WinningNumber] * 10
    numbers = [e.number for e in events if isinstance(e, WinningNumber)]
    assert numbers == o.truth.numbers
    assert any(isinstance(e, NoSpin) for e in events)

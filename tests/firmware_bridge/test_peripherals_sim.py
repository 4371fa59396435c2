"""Shoe, dice and wheel simulators through the real drivers (in-process port, fake clock):
every card accounted for, rolls in order, and every injected fault ending as documented
with no lost and no invented outcome."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware_bridge import (
    CardShoe,
    DeviceDisconnected,
    DeviceState,
    DiceReader,
    WheelReader,
    open_device,
)
from firmware_bridge.hal import (
    BurnCard,
    CardDrawn,
    CardJam,
    CutCardReached,
    DeviceEvent,
    DeviceFault,
    DiceRolled,
    DoorClosed,
    DoorOpened,
    Misread,
    NoRoll,
    NoSpin,
    RerollRequested,
    ShoeEmpty,
    Tilt,
    WinningNumber,
)
from firmware_bridge.sim.inprocess import SimDice, SimShoe, SimWheel


def shoe(url: str) -> SimShoe:
    dev = open_device(url)
    assert isinstance(dev, SimShoe)
    return dev


def drain(dev: SimShoe, until: type[DeviceEvent] = ShoeEmpty) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    for _ in range(2000):
        event = dev.next_event()
        if event is None:
            continue
        events.append(event)
        if isinstance(event, until):
            return events
    raise AssertionError("shoe never finished")


def test_protocols_are_implemented() -> None:
    assert isinstance(open_device("sim://shoe"), CardShoe)
    assert isinstance(open_device("sim://dice"), DiceReader)
    assert isinstance(open_device("sim://wheel"), WheelReader)


def test_identity_from_handshake() -> None:
    status = open_device("sim://shoe?seed=4").status()
    assert (status.model, status.serial_number, status.firmware) == (
        "SIM-SHOE-8",
        "SIM-SHOE-4",
        "sim-1.0.0",
    )
    assert status.state is DeviceState.OK


def accounted(events: list[DeviceEvent]) -> Counter[str]:
    cards: Counter[str] = Counter()
    for e in events:
        if isinstance(e, CardDrawn | BurnCard):
            cards[e.rank + e.suit] += 1
    return cards


def test_eight_deck_shoe_dealt_end_to_end() -> None:
    dev = shoe("sim://shoe?seed=7&decks=8")
    assert dev.next_event(timeout=0.5) is None  # nothing is dealt before the shoe is armed
    dev.arm()
    events = drain(dev)
    cards = [e for e in events if isinstance(e, CardDrawn | BurnCard)]
    assert len(cards) == 416
    assert [c.position for c in cards] == list(range(1, 417))
    counts = accounted(events)
    assert len(counts) == 52
    assert set(counts.values()) == {8}
    assert isinstance(events[0], BurnCard)
    assert sum(isinstance(e, CutCardReached) for e in events) == 1
    assert dev.composition().remaining == 0
    assert dev.status().state is DeviceState.OK


def test_same_seed_same_shoe_and_different_seed_different_shoe() -> None:
    def order(seed: int) -> list[str]:
        dev = shoe(f"sim://shoe?seed={seed}&decks=1")
        dev.arm()
        return [e.rank + e.suit for e in drain(dev) if isinstance(e, CardDrawn)]

    assert order(3) == order(3)
    assert order(3) != order(4)


def test_arm_with_a_count_deals_one_hand() -> None:
    dev = shoe("sim://shoe?seed=1&burn=0")
    dev.arm(4)
    got = []
    while (event := dev.next_event(timeout=0.5)) is not None:
        got.append(event)
    assert [type(e) for e in got] == [CardDrawn] * 4
    comp = dev.composition()
    assert (comp.decks, comp.dealt, comp.remaining) == (8, 4, 412)


@pytest.mark.parametrize("fault", ["garbage", "bad_crc", "drop_ack", "duplicate", "slow"])
def test_link_faults_lose_and_invent_nothing(fault: str) -> None:
    """The shoe is dealt out with a link fault injected every 20 events."""
    dev = shoe("sim://shoe?seed=9&decks=2")
    dev.arm()
    events: list[DeviceEvent] = []
    for i in range(400):
        if i % 20 == 0:
            dev.inject(fault)
        event = dev.next_event()
        if event is not None:
            events.append(event)
        if isinstance(event, ShoeEmpty):
            break
    counts = accounted(events)
    assert sum(counts.values()) == 104
    assert set(counts.values()) == {2}
    assert not [e for e in events if isinstance(e, DeviceFault)]
    positions = [e.position for e in events if isinstance(e, CardDrawn | BurnCard)]
    assert positions == list(range(1, 105))  # in order, none twice


def test_duplicate_card_is_suppressed_not_dealt_twice() -> None:
    dev = shoe("sim://shoe?seed=2&burn=0")
    dev.inject("duplicate")  # the first card is sent twice with the same sequence
    dev.arm()
    first = dev.next_event()
    second = dev.next_event()
    third = dev.next_event()
    assert isinstance(first, CardDrawn)
    assert isinstance(second, CardDrawn)
    assert isinstance(third, CardDrawn)
    assert [first.position, second.position, third.position] == [1, 2, 3]
    assert dev.status().counters["link.duplicates"] == 1


def test_bad_crc_is_nakked_and_resent() -> None:
    dev = shoe("sim://shoe?seed=2&burn=0")
    dev.inject("bad_crc")  # before arming: the first card goes out corrupted
    dev.arm()
    event = dev.next_event()
    assert isinstance(event, CardDrawn)
    assert event.position == 1
    counters = dev.status().counters
    assert counters["link.crc_errors"] >= 1
    assert counters["link.naks_sent"] >= 1


def test_dropped_ack_on_a_command_is_retransmitted() -> None:
    dev = shoe("sim://shoe?seed=2")
    dev.inject("drop_ack")
    dev.arm()  # the shoe's ACK of ARM is lost, then the host's ACK of the first card
    assert isinstance(dev.next_event(), BurnCard)
    assert isinstance(dev.next_event(), CardDrawn)
    counters = dev.status().counters
    assert counters["link.retransmits"] == 1  # ARM sent again
    assert dev.sim.stats["duplicates"] == 1  # ...and recognised by the shoe
    assert counters["link.duplicates"] == 1  # the burn card resent, delivered once


def test_shoe_events_jam_misread_door() -> None:
    dev = shoe("sim://shoe?seed=5&burn=0&decks=1")
    dev.inject("jam")
    dev.inject("door")
    dev.inject("misread")
    dev.arm()
    assert isinstance(dev.next_event(), CardJam)
    assert isinstance(dev.next_event(), DoorOpened)
    assert isinstance(dev.next_event(), DoorClosed)
    misread = dev.next_event()
    assert isinstance(misread, Misread)
    assert misread.position == 1
    rest = drain(dev)
    positions = [e.position for e in rest if isinstance(e, CardDrawn)]
    assert positions == list(range(2, 53))  # the misread card is gone, never guessed


def test_unplug_reports_fault_then_reconnects_without_loss() -> None:
    dev = shoe("sim://shoe?seed=6&decks=1&replug_after=0.5")
    dev.arm()
    before = [dev.next_event() for _ in range(10)]
    dev.inject("unplug")
    fault = dev.next_event()
    assert isinstance(fault, DeviceFault)
    assert fault.code == "disconnected"
    assert dev.status().state is DeviceState.DISCONNECTED
    rest = drain(dev)
    assert dev.status().counters["reconnects"] == 1
    assert dev.status().state is DeviceState.DEGRADED
    events = [e for e in before if e is not None] + rest
    positions = [e.position for e in events if isinstance(e, CardDrawn | BurnCard)]
    assert positions == list(range(1, 53))
    assert set(accounted(events).values()) == {1}


def test_unplug_for_good_gives_up_with_disconnected() -> None:
    dev = shoe("sim://shoe?seed=6&replug_after=0&reconnect_attempts=3")
    dev.arm()
    dev.inject("unplug")
    event = dev.next_event()
    if isinstance(event, BurnCard):  # already received before the cable was pulled
        event = dev.next_event()
    assert isinstance(event, DeviceFault)
    with pytest.raises(DeviceDisconnected, match="gave up after 3"):
        dev.next_event()
    assert dev.status().state is DeviceState.DISCONNECTED
    assert dev.status().counters["reconnect_attempts"] == 3


def test_slow_device_times_out_reads_but_loses_nothing() -> None:
    dev = shoe("sim://shoe?seed=1&burn=0&fault=slow&decks=1")
    dev.arm()
    assert dev.next_event(timeout=0.01) is None  # every frame leaves 0.5 s late
    got = drain(dev)
    assert [e.position for e in got if isinstance(e, CardDrawn)] == list(range(1, 53))
    assert dev.fake_clock.now() > 52 * 0.5


# -- dice ------------------------------------------------------------------------


def dice(url: str) -> SimDice:
    dev = open_device(url)
    assert isinstance(dev, SimDice)
    return dev


@pytest.mark.parametrize("n", [2, 3])
def test_rolls_arrive_in_order(n: int) -> None:
    dev = dice(f"sim://dice?seed=8&dice={n}")
    assert dev.dice == n
    rolls = [dev.next_event() for _ in range(50)]
    assert all(isinstance(r, DiceRolled) for r in rolls)
    faces = [r.faces for r in rolls if isinstance(r, DiceRolled)]
    assert faces == dev.reader.rolls[:50]
    seqs = [r.seq for r in rolls if r is not None]
    assert seqs == sorted(seqs)


def test_invalid_face_becomes_no_roll_never_a_roll() -> None:
    dev = dice("sim://dice?seed=8")
    first = dev.next_event()
    dev.inject("invalid_face")
    events = [first] + [dev.next_event() for _ in range(8)]
    no_rolls = [e for e in events if isinstance(e, NoRoll)]
    assert [e.reason for e in no_rolls] == ["invalid-face"]
    reported = [e.faces for e in events if isinstance(e, DiceRolled)]
    assert len(reported) == 8
    assert reported == dev.reader.rolls[:8]  # the bad roll is in no one's history
    assert all(1 <= f <= 6 for faces in reported for f in faces)
    assert dev.status().state is DeviceState.DEGRADED
    assert "invalid-face" in str(dev.status().last_fault)


def test_cocked_die_tilt_and_reroll() -> None:
    dev = dice("sim://dice?seed=1")
    dev.inject("cocked")
    assert dev.next_event() == NoRoll(seq=2, reason="cocked")
    assert isinstance(dev.next_event(), RerollRequested)
    dev.inject("tilt")
    assert isinstance(dev.next_event(), Tilt)
    dev.request_reroll()
    assert isinstance(dev.next_event(), RerollRequested)


# -- wheel -------------------------------------------------------------------------


def test_wheel_spins_and_no_spin() -> None:
    dev = open_device("sim://wheel?seed=3&zeros=1")
    assert isinstance(dev, SimWheel)
    events = [dev.next_event() for _ in range(40)]
    numbers = [e.number for e in events if isinstance(e, WinningNumber)]
    assert numbers == dev.wheel.numbers
    assert "00" not in numbers
    assert all(0 <= int(n) <= 36 for n in numbers)
    dev.inject("no_spin")
    kinds = [type(dev.next_event()) for _ in range(2)]
    assert NoSpin in kinds
    assert len(dev.wheel.numbers) == 20  # no number for the failed spin


def test_unknown_fault_names_the_known_ones() -> None:
    dev = dice("sim://dice")
    with pytest.raises(ValueError, match="invalid_face"):
        dev.inject("fire")


def test_refused_command_is_a_protocol_error_and_a_status() -> None:
    from firmware_bridge import ProtocolError
    from firmware_bridge.protocol.messages import MsgType

    dev = dice("sim://dice")
    with pytest.raises(ProtocolError, match="refused \\(unknown_type\\)"):
        dev._command(MsgType.ARM, b"", reply=None)  # a dice reader has no ARM
    assert dev.status().state is DeviceState.DEGRADED
    assert "refused" in str(dev.status().last_fault)


def test_device_that_stops_answering_times_out_with_status() -> None:
    dev = shoe("sim://shoe?max_retries=1")
    dev.inject("slow")  # every frame, ACKs included, now leaves 0.5 s late
    with pytest.raises(TimeoutError, match="no ACK for ARM after 2 tries"):
        dev.arm()
    assert "timeout" in str(dev.status().last_fault)


def test_device_restarting_its_numbering_reconnects_at_once() -> None:
    """After a power cycle the shoe numbers its frames afresh; the HELLO_REPLY that opens
    the new session must not be taken for a duplicate of the last frame seen."""
    dev = shoe("sim://shoe?seed=6&decks=1&replug_after=0.05")
    dev.arm()
    assert isinstance(dev.next_event(), BurnCard)
    last_seen = dev.link._rx_last
    assert last_seen is not None
    dev.inject("unplug")
    dev.sim._tx_seq = last_seen  # the restarted device happens to reuse that number
    assert isinstance(dev.next_event(), DeviceFault)
    event = dev.next_event()
    assert isinstance(event, CardDrawn)
    assert event.position == 2
    assert dev.status().counters["reconnect_attempts"] == 1

"""Simulators on real pseudo-terminals, reached through pyserial: the hardware code path."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from firmware_bridge import (
    DeviceDisconnected,
    DeviceNotFound,
    DevicePermissionError,
    DeviceState,
    DeviceTimeout,
    WrongDevice,
    open_device,
)
from firmware_bridge.clock import RealClock
from firmware_bridge.drivers.shoe import ShoeDriver
from firmware_bridge.hal import (
    BurnCard,
    CardDrawn,
    DeviceEvent,
    DeviceFault,
    DiceRolled,
    NoRoll,
    ShoeEmpty,
)
from firmware_bridge.sim.configs import SimShoeConfig
from firmware_bridge.sim.pty_backend import PtyDice, PtyShoe
from firmware_bridge.sim.pty_server import PtyServer
from firmware_bridge.sim.serial_trng import PtyTrng, SerialTrngFirmware
from firmware_bridge.sim.world import SimWorld


def deal_out(dev: ShoeDriver, limit: int = 3000) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    for _ in range(limit):
        event = dev.next_event(timeout=2.0)
        if event is not None:
            events.append(event)
            if isinstance(event, ShoeEmpty):
                return events
    raise AssertionError("shoe never emptied")


def test_eight_deck_shoe_over_a_real_pty() -> None:
    with open_device("pty://shoe?seed=11") as dev:
        assert isinstance(dev, PtyShoe)
        assert os.path.realpath(dev.server.path).startswith("/dev/pts/")
        dev.arm()
        events = deal_out(dev)
        cards = [e for e in events if isinstance(e, CardDrawn | BurnCard)]
        assert [c.position for c in cards] == list(range(1, 417))
        counts = Counter(c.rank + c.suit for c in cards)
        assert len(counts) == 52
        assert set(counts.values()) == {8}
        assert dev.status().state is DeviceState.OK
    assert dev.status().state is DeviceState.CLOSED


@pytest.mark.parametrize("fault", ["garbage", "bad_crc", "duplicate", "drop_ack"])
def test_link_faults_over_a_pty_lose_nothing(fault: str) -> None:
    with open_device("pty://shoe?seed=12&decks=1") as dev:
        assert isinstance(dev, PtyShoe)
        dev.arm()
        events: list[DeviceEvent] = []
        for i in range(200):
            if i % 10 == 0:
                dev.inject(fault)
            event = dev.next_event(timeout=2.0)
            if event is not None:
                events.append(event)
            if isinstance(event, ShoeEmpty):
                break
        cards = [e for e in events if isinstance(e, CardDrawn | BurnCard)]
        assert [c.position for c in cards] == list(range(1, 53))
        assert len({c.rank + c.suit for c in cards}) == 52
        assert not [e for e in events if isinstance(e, DeviceFault)]


def test_unplug_and_replug_over_a_pty() -> None:
    """The pty vanishes mid-shoe; the driver reports it, reconnects, and loses no card."""
    with open_device("pty://shoe?seed=13&decks=1&replug_after=0.3") as dev:
        assert isinstance(dev, PtyShoe)
        dev.arm()
        events = [e for e in (dev.next_event(timeout=2.0) for _ in range(10)) if e is not None]
        dev.inject("unplug")
        faults = 0
        while not isinstance(events[-1] if events else None, ShoeEmpty):
            event = dev.next_event(timeout=2.0)
            if isinstance(event, DeviceFault):
                faults += 1
                assert event.code == "disconnected"
            elif event is not None:
                events.append(event)
        assert faults == 1
        cards = [e for e in events if isinstance(e, CardDrawn | BurnCard)]
        assert [c.position for c in cards] == list(range(1, 53))
        assert dev.status().counters["reconnects"] == 1


def test_dice_over_a_pty_in_order_and_invalid_face() -> None:
    with open_device("pty://dice?seed=5&dice=3") as dev:
        assert isinstance(dev, PtyDice)
        events = [dev.next_event(timeout=2.0) for _ in range(20)]
        dev.inject("invalid_face")
        events += [dev.next_event(timeout=2.0) for _ in range(5)]
        rolls = [e.faces for e in events if isinstance(e, DiceRolled)]
        assert rolls == dev.reader.rolls[: len(rolls)]
        assert len(rolls) == 24
        assert [e.reason for e in events if isinstance(e, NoRoll)] == ["invalid-face"]


# -- serial:// against a pty server: the hardware backend itself --------------------


@pytest.fixture
def shoe_on_pty(tmp_path: Path) -> PtyServer:
    _, fw = SimShoeConfig(seed=1).build(SimWorld(1, RealClock()))
    server = PtyServer(fw, link_path=tmp_path / "ttyShoe")
    server.start()
    yield server  # type: ignore[misc]
    server.stop()


def test_serial_url_opens_a_shoe(shoe_on_pty: PtyServer) -> None:
    with open_device(f"serial://{shoe_on_pty.path}?model=shoe") as dev:
        assert isinstance(dev, ShoeDriver)
        assert dev.status().model == "SIM-SHOE-8"
        dev.arm(3)
        got = [dev.next_event(timeout=2.0) for _ in range(3)]
        assert isinstance(got[0], BurnCard)
        assert all(isinstance(e, CardDrawn) for e in got[1:])


def test_serial_url_wrong_device(shoe_on_pty: PtyServer) -> None:
    with pytest.raises(WrongDevice, match="expected dice"):
        open_device(f"serial://{shoe_on_pty.path}?model=dice")


def test_serial_url_missing_port(tmp_path: Path) -> None:
    with pytest.raises(DeviceNotFound, match="no serial port"):
        open_device(f"serial://{tmp_path}/ttyNothing?model=shoe")


def _open_as_nobody(url: str) -> str:
    """Try ``open_device(url)`` in a forked child running as uid 65534; its error line."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: drop root, try, report, leave without running pytest's exit code
        os.close(read_end)
        try:
            os.setgid(65534)
            os.setuid(65534)
            open_device(url)
            message = "opened"
        except Exception as exc:
            message = f"{type(exc).__name__} {exc}"
        os.write(write_end, message.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message


def test_serial_url_permission_denied() -> None:
    """A pty only its owner may open, opened by another (unprivileged) user."""
    master, slave = os.openpty()
    try:
        path = os.ttyname(slave)
        url = f"serial://{path}?model=shoe"
        if os.geteuid() != 0:
            os.chmod(path, 0o000)
            with pytest.raises(DevicePermissionError, match="permission denied"):
                open_device(url)
            return
        os.chmod(path, 0o600)  # root ignores file modes: try as "nobody"
        message = _open_as_nobody(url)
        assert message.startswith(f"DevicePermissionError permission denied on {path}")
    finally:
        os.close(slave)
        os.close(master)


def test_serial_url_not_a_serial_port(tmp_path: Path) -> None:
    plain = tmp_path / "ttyFake"
    plain.write_bytes(b"")
    with pytest.raises(WrongDevice, match="not a serial port"):
        open_device(f"serial://{plain}?model=truerng")


def test_serial_url_silent_device_times_out(tmp_path: Path) -> None:
    master, slave = os.openpty()  # a port with nothing behind it
    try:
        with pytest.raises(DeviceTimeout, match="no ACK for HELLO"):
            open_device(f"serial://{os.ttyname(slave)}?model=shoe&ack_timeout=0.05&max_retries=1")
    finally:
        os.close(slave)
        os.close(master)


# -- serial TRNGs over a pty ----------------------------------------------------------


def test_truerng_streams_random_bytes() -> None:
    with open_device("pty://trng?seed=3&model=truerng") as dev:
        data = dev.read(65536)  # type: ignore[attr-defined]
        assert len(data) == 65536
        assert len(set(data)) == 256
        assert dev.status().counters["bytes_read"] == 65536


def test_truerngpro_knock_selects_normal_mode() -> None:
    """The simulated device starts in the ASCII power-supply debug mode: only the
    baud-rate knock (110, 300, 110, then 300) gets it streaming binary random bytes."""
    with open_device("pty://trng?model=truerngpro&start_mode=psdebug") as dev:
        assert isinstance(dev, PtyTrng)
        data = dev.read(20000)
        assert dev.sim.mode == "normal"
        assert len(set(data)) == 256


def test_truerngpro_knock_to_a_debug_mode_gives_text() -> None:
    with open_device("pty://trng?model=truerngprov2&mode=psdebug&start_mode=normal") as dev:
        assert isinstance(dev, PtyTrng)
        data = dev.read(2000)
        assert dev.sim.mode == "psdebug"
        assert set(data) <= set(b"0123456789\n")


def test_onerng_starts_on_cmdO_and_stops_on_close() -> None:
    dev = open_device("pty://trng?model=onerng&seed=2")
    assert isinstance(dev, PtyTrng)
    assert len(set(dev.read(10000))) == 256
    assert dev.sim.streaming
    sim = dev.sim
    dev.close()
    assert not sim.streaming  # cmdo was sent
    assert sim.onerng_source == b"4"  # noise gathering off


def test_serial_trng_stuck_fault() -> None:
    with open_device("pty://trng?fault=stuck") as dev:
        assert set(dev.read(4096)) == {0}  # type: ignore[attr-defined]


def test_serial_trng_slow_times_out() -> None:
    with open_device("pty://trng?fault=slow&slow_rate=100&timeout=0.3") as dev:
        with pytest.raises(DeviceTimeout):
            dev.read(10000)  # type: ignore[attr-defined]
        assert "timeout" in str(dev.status().last_fault)


def test_serial_trng_unplug_then_reconnect() -> None:
    with open_device("pty://trng?fault=unplug&unplug_after=20000&replug_after=0.3") as dev:
        assert isinstance(dev, PtyTrng)
        reads = 0
        with pytest.raises(DeviceDisconnected):  # noqa: PT012 - the read that hits the unplug
            while reads < 100:
                dev.read(4096, timeout=2.0)
                reads += 1
        assert reads <= 20000 // 4096
        assert dev.status().state is DeviceState.DISCONNECTED
        dev.inject("none")
        assert len(dev.read(4096, timeout=2.0)) == 4096
        assert dev.status().counters["reconnects"] == 1


class _DeafPro(SerialTrngFirmware):
    """A TrueRNGpro that misses the first ``deaf`` changes to 110 baud (the knock's first step)."""

    def __init__(self, deaf: int) -> None:
        super().__init__(SimWorld(1, RealClock()), kind="truerngpro", start_mode="psdebug")
        self.deaf = deaf

    def baud_changed(self, baud: int, now: float) -> None:
        if baud == 110 and self.deaf > 0:
            self.deaf -= 1
            return
        super().baud_changed(baud, now)


@pytest.mark.parametrize(("deaf", "ok"), [(1, True), (1000, False)])
def test_missed_knock_is_retried_then_refused(tmp_path: Path, deaf: int, ok: bool) -> None:
    server = PtyServer(_DeafPro(deaf), link_path=tmp_path / "ttyPro")
    server.start()
    try:
        url = f"serial://{server.path}?model=truerngpro"
        if ok:
            with open_device(url) as dev:
                assert len(set(dev.read(4096))) > 200  # type: ignore[attr-defined]
                assert dev.status().counters["knock_retries"] >= 1
        else:
            with pytest.raises(WrongDevice, match="did not enter mode 'normal' after 3"):
                open_device(url)
    finally:
        server.stop()


def test_serial_url_shoe_model_on_a_trng_is_a_wrong_device(tmp_path: Path) -> None:
    server = PtyServer(
        SerialTrngFirmware(SimWorld(1, RealClock()), kind="truerng"), link_path=tmp_path / "t"
    )
    server.start()
    try:
        with pytest.raises(WrongDevice, match="sends data but no protocol frames"):
            open_device(f"serial://{server.path}?model=shoe&ack_timeout=0.05&max_retries=1")
    finally:
        server.stop()

"""Serve a simulated device on a real pseudo-terminal, so hosts reach it through pyserial.

:class:`PtyServer` runs a :class:`Served` device (the peripheral
:class:`~firmware_bridge.sim.firmware.Firmware` or the serial TRNG simulator) in a
background thread on the master side of ``os.openpty()``. The host opens the slave
side (or the stable symlink ``link_path``, like a udev ``/dev/serial/by-id`` name)
with pyserial. An unplug closes the pty and removes the symlink; a replug makes a
new pty and points the symlink at it, as a USB CDC-ACM device would reappear.

The server watches the line's baud rate (``termios.tcgetattr`` on its own slave
descriptor) and tells the device, which is how a TrueRNGpro sees its mode knock.
"""

from __future__ import annotations

import contextlib
import os
import select
import termios
import threading
import tty
from pathlib import Path
from typing import Protocol

from firmware_bridge.clock import Clock, RealClock

_BAUDS = {
    getattr(termios, f"B{b}"): b
    for b in (110, 300, 600, 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400)
    if hasattr(termios, f"B{b}")
}
_TICK = 0.005


class Served(Protocol):
    """What the pty server drives: the sans-IO device."""

    def receive(self, data: bytes, now: float) -> None: ...

    def poll(self, now: float) -> bytes: ...

    def next_wake(self, now: float) -> float | None: ...

    def present(self, now: float) -> bool: ...

    def inject(self, fault: str, now: float = 0.0) -> None: ...

    def baud_changed(self, baud: int, now: float) -> None: ...


class PtyServer:
    """One simulated device on one pty, served by a daemon thread until :meth:`stop`."""

    def __init__(
        self, device: Served, *, link_path: Path | None = None, clock: Clock | None = None
    ) -> None:
        self.device = device
        self.link_path = link_path
        self.clock = clock or RealClock()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._master = -1
        self._slave = -1
        self._slave_name = ""
        self._out = bytearray()
        self._baud = 0
        self._thread = threading.Thread(target=self._run, name="pty-sim", daemon=True)
        self.error: BaseException | None = None

    @property
    def path(self) -> str:
        """What the host opens: the symlink if one was asked for, else the slave pty."""
        return str(self.link_path) if self.link_path is not None else self._slave_name

    def start(self) -> str:
        """Create the pty, start serving; return the path to open."""
        self._plug()
        self._thread.start()
        return self.path

    def stop(self) -> None:
        """Stop serving and release the pty (idempotent)."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        self._drain()
        self._unplug()

    def _drain(self) -> None:
        """Hand the device what the host wrote just before the stop (e.g. OneRNG's cmdo)."""
        while self._master >= 0:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.device.receive(data, self.clock.now())

    def inject(self, fault: str) -> None:
        """Inject a fault into the served device, from any thread."""
        with self._lock:
            self.device.inject(fault, self.clock.now())

    # -- plugging ----------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_name = os.ttyname(slave)
        self._baud = 0
        self._out.clear()
        if self.link_path is not None:
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._slave_name)
            tmp.replace(self.link_path)

    def _unplug(self) -> None:
        if self.link_path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    # -- serving -------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._step()
        except BaseException as exc:  # surfaced to tests through .error
            self.error = exc
            raise

    def _step(self) -> None:
        with self._lock:
            now = self.clock.now()
            present = self.device.present(now)
        if not present:
            if self._master >= 0:
                self._unplug()
            self._stop.wait(_TICK)
            return
        if self._master < 0:
            self._plug()
        self._check_baud(now)
        wait = _TICK
        with self._lock:
            wake = self.device.next_wake(now)
        if wake is not None:
            wait = min(wait, max(wake - now, 0.0))
        writers = [self._master] if self._out else []
        readable, _, _ = select.select([self._master], writers, [], wait)
        now = self.clock.now()
        if readable:
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, InterruptedError):
                data = b""
            except OSError:  # EIO: no host has the line open
                data = b""
            if data:
                with self._lock:
                    self.device.receive(data, now)
        with self._lock:
            if len(self._out) < 4096:
                self._out += self.device.poll(now)
        if self._out:
            try:
                written = os.write(self._master, bytes(self._out[:4096]))
            except (BlockingIOError, InterruptedError):
                written = 0
            del self._out[:written]

    def _check_baud(self, now: float) -> None:
        try:
            speed = termios.tcgetattr(self._slave)[5]
        except termios.error:
            return
        baud = _BAUDS.get(speed, 0)
        if baud and baud != self._baud:
            self._baud = baud
            self._out.clear()  # a line-coding change resets the device's transmit FIFO
            with self._lock:
                self.device.baud_changed(baud, now)

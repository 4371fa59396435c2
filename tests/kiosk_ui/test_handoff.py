"""A session handed to another appliance of the floor (kiosk_ui.identity.Handoffs): taken
once, at the server it names, within its minute; forged, misdirected, late or replayed
hand-offs give nobody's session."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk_ui.errors import AuthError
from kiosk_ui.identity import HANDOFF_SECONDS, Handoffs, PlayerTokens

B = "http://pit-2.floor.example:8000"


@pytest.fixture
def floor(tmp_path: Path) -> tuple[PlayerTokens, PlayerTokens]:
    """Two appliances' token keys: the same floor (keys/ copied), and a stranger's."""
    ours = PlayerTokens(tmp_path / "a")
    (tmp_path / "b" / "keys").mkdir(parents=True)
    key = tmp_path / "a" / "keys" / "player-token.key"
    (tmp_path / "b" / "keys" / "player-token.key").write_bytes(key.read_bytes())
    return ours, PlayerTokens(tmp_path / "b")


def test_a_handoff_is_taken_once_at_its_destination(
    floor: tuple[PlayerTokens, PlayerTokens],
) -> None:
    a, b = floor
    now = 1_800_000_000.0
    there = Handoffs(b, B + "/", clock=lambda: now)
    text = a.handoff("guest.7f3a", B, now=now)  # a player id may hold dots
    assert there.take(text) == "guest.7f3a"
    with pytest.raises(AuthError, match="used already"):
        there.take(text)
    assert there.take(a.handoff("guest.7f3a", B, now=now)) == "guest.7f3a"  # a new one


def test_forged_misdirected_and_late_handoffs_give_nothing(
    floor: tuple[PlayerTokens, PlayerTokens], tmp_path: Path
) -> None:
    a, b = floor
    now = 1_800_000_000.0
    there = Handoffs(b, B, clock=lambda: now)
    good = a.handoff("ann", B, now=now)
    player, expires, nonce, tag = good.split(".")
    for bad in (
        f"bo.{expires}.{nonce}.{tag}",  # another player under ann's tag
        f"{player}.{int(expires) + 3600}.{nonce}.{tag}",  # a longer life
        a.handoff("ann", "http://pit-3.floor.example:8000", now=now),  # for another server
        PlayerTokens(tmp_path / "stranger").handoff("ann", B, now=now),  # not of this floor
        a.handoff("ann", B, now=now - HANDOFF_SECONDS - 1),  # too late
        a.issue("ann"),  # a session token is no hand-off
        "",
    ):
        with pytest.raises(AuthError):
            there.take(bad)
    with pytest.raises(AuthError):  # a server that does not know its own address takes none
        Handoffs(b, None, clock=lambda: now).take(good)
    assert there.take(good) == "ann"

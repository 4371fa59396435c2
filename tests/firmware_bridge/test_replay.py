"""replay://: a recorded session plays back the same events, and bad files change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge import CardShoe, ConfigError, DiceReader, open_device
from firmware_bridge.hal import CardDrawn, DiceRolled, NoRoll
from firmware_bridge.replay import record
from kiosk_ui.cli import main


def test_record_and_replay_a_shoe(tmp_path: Path) -> None:
    live = open_device("sim://shoe?seed=3&decks=1")
    live.arm()  # type: ignore[attr-defined]
    path = tmp_path / "shoe.jsonl"
    assert record(live, path, events=60) == 54  # 52 cards, the cut card, shoe empty  # type: ignore[arg-type]
    original = open_device("sim://shoe?seed=3&decks=1")
    original.arm()  # type: ignore[attr-defined]
    expected = [original.next_event() for _ in range(54)]  # type: ignore[attr-defined]
    replay = open_device(f"replay://{path}")
    assert isinstance(replay, CardShoe)
    got = [replay.next_event() for _ in range(54)]
    assert got == expected
    assert replay.next_event() is None
    assert replay.status().model == "SIM-SHOE-8"


def test_cli_record_then_replay_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dice.jsonl"
    assert main(["devices", "record", "sim://dice?seed=2&dice=3", str(path), "--events", "5"]) == 0
    assert "recorded 5 events" in capsys.readouterr().out
    dev = open_device(f"replay://{path}")
    assert isinstance(dev, DiceReader)
    assert dev.dice == 3
    rolls = [dev.next_event() for _ in range(5)]
    assert all(isinstance(r, DiceRolled) and len(r.faces) == 3 for r in rolls)


HEADER = {"spec": 1, "role": "shoe", "url": "x", "model": "m", "serial": "s", "firmware": "f"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty recording"),
        (["{not json"], "not JSON"),
        ([{"spec": 2, "role": "shoe"}], "'spec': 1"),
        ([{"spec": 1, "role": "toaster"}], "role must be"),
        ([HEADER, {"event": "CardPalmed"}], "unknown event 'CardPalmed'"),
        ([HEADER, {"event": "CardDrawn", "rank": "A", "suit": "s"}], "needs field 'position'"),
        ([HEADER, {"event": "CardDrawn", "rank": "A", "suit": "s", "position": "1"}], "bad value"),
        ([HEADER, {"event": "DiceRolled", "faces": [1, "2"]}], "bad value"),
        ([HEADER, {"event": "ShoeEmpty", "colour": "red"}], "unknown field"),
    ],
)
def test_bad_recordings_fail_clearly(tmp_path: Path, lines: list[object], message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines))
    with pytest.raises(ConfigError, match=message):
        open_device(f"replay://{path}")


def test_missing_recording(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such recording"):
        open_device(f"replay://{tmp_path}/nothing.jsonl")


def test_invalid_outcomes_in_a_recording_stay_faults(tmp_path: Path) -> None:
    """A recording holds events as the driver reported them: a NoRoll stays a NoRoll."""
    path = tmp_path / "r.jsonl"
    header = {**HEADER, "role": "dice", "dice": 2}
    events = [
        {"event": "NoRoll", "seq": 4, "reason": "invalid-face"},
        {"event": "CardDrawn", "seq": 5, "rank": "A", "suit": "s", "position": 1},
    ]
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]))
    dev = open_device(f"replay://{path}")
    assert dev.next_event() == NoRoll(seq=4, reason="invalid-face")  # type: ignore[attr-defined]
    assert isinstance(dev.next_event(), CardDrawn)  # type: ignore[attr-defined]

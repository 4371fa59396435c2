"""What the history page draws for one finished game: its table as the player saw it, and the
history's rows in the player's words (the game's name, the casino's local time).

The recall text (certification.log.replay.render_recall) is the log's account, line by line;
``picture`` is the same replay drawn as a table: each hand's cards in the order they were
shown, every dice roll, every wheel number. It keeps the recall's rule for hidden cards: a
card shown to one seat only appears to a viewer holding that seat.

>>> picture([{"type": "event", "body": {"kind": "card-shown", "hand": "player", "card": "Ah",
...           "to": "all"}}, {"type": "action", "body": {"kind": "roll-dice", "faces": [2, 5]}},
...          {"type": "event", "body": {"kind": "card-shown", "hand": "seat1", "card": "Kd",
...           "to": "1"}}], {0})
{'hands': [{'hand': 'player', 'cards': ['Ah']}], 'dice': [[2, 5]], 'wheel': []}
>>> local_time(1_796_133_000_000_000, "America/Los_Angeles")
'Dec 1, 2026, 5:50 AM PST'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from certification.log.replay import shown_to


def picture(records: Iterable[Mapping[str, Any]], seats: Collection[int]) -> dict[str, Any]:
    """The game's cards per hand, dice rolls and wheel numbers, as ``seats`` saw them."""
    hands: dict[str, list[str]] = {}
    dice: list[list[int]] = []
    wheel: list[str] = []
    mine = {int(s) for s in seats}
    for rec in records:
        t, body = rec["type"], rec["body"]
        if t == "action" and body.get("kind") == "roll-dice":
            dice.append([int(f) for f in body["faces"]])
        elif t == "action" and body.get("kind") == "spin-result":
            wheel.append(str(body["number"]))
        elif t == "event" and body.get("kind") == "card-shown" and shown_to(dict(body), mine):
            hands.setdefault(str(body["hand"]), []).append(str(body["card"]))
    return {
        "hands": [{"hand": h, "cards": c} for h, c in hands.items()],
        "dice": dice,
        "wheel": wheel,
    }


def local_time(micros: int, zone: str) -> str:
    """A log time (microseconds since the epoch) as the casino's clock reads it."""
    at = datetime.fromtimestamp(micros / 1_000_000, tz=UTC).astimezone(ZoneInfo(zone))
    hour = at.strftime("%I").lstrip("0")
    return f"{at:%b} {at.day}, {at.year}, {hour}:{at:%M} {at:%p} {at.tzname()}"

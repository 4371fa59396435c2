"""What a table answers: a request's result, and which events each viewer may see.

Hidden cards never leave the server: a ``CardShown`` travels only to the seat it was
shown to (:func:`visible_to`), and a broadcast to every page of a table carries only
the events all may see (:func:`public`). The engine's view inside an answer is the
family's TypedDict, carried as a ``Mapping`` and never indexed here; :meth:`ActResult.
body` is the one JSON-able shape of an answer, which the HTTP edge serialises and an
Idempotency-Key's stored answer keeps (:func:`dumps`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core.records import CardShown, Event


@dataclass
class ActResult:
    """What a request returns: the game, the events this seat may see, its view, balance.

    ``view`` is :meth:`kiosk_ui.table.table.Table.view`: the table's envelope around the
    engine's own view.
    """

    game: str
    events: list[dict[str, Any]]
    view: dict[str, Any]
    balance: int
    over: bool

    def body(self) -> dict[str, Any]:
        """The answer as the client gets it (and an Idempotency-Key's repeat gets again)."""
        return {
            "game": self.game,
            "events": self.events,
            "view": self.view,
            "balance": self.balance,
            "over": self.over,
        }


def visible_to(event: Event, seat: int | None) -> bool:
    """Cards shown only to another seat (or to nobody yet) never leave the server."""
    if isinstance(event, CardShown):
        return event.to == "all" or (seat is not None and event.to == str(seat))
    return True


def public(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The encoded events every page of the table may see (no card shown to one seat)."""
    return [e for e in events if e.get("kind") != "card-shown" or e.get("to") == "all"]


def dumps(obj: Any) -> str:
    """Compact, key-sorted JSON (a stored answer)."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)

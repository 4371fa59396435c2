"""Game recall: fold a game's logged actions through its engine, and show it as played.

Replay is exact because engines are pure: the same actions give the same
events. A replay that does not reproduce the logged events is reported as a
mismatch (the runtime then voids rather than resumes the game).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games import catalog
from games.core.engine import Engine
from games.core.money import format_cents
from games.core.records import Action, decode


@dataclass
class Replayed:
    game: str
    variant: str
    table: str
    engine: Engine
    matches: bool
    records: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)
    mismatch: str = ""


def decode_action(body: dict[str, Any]) -> Action:
    """An action record's body (draw details under ``_``-keys are log-only)."""
    rec = decode({k: v for k, v in body.items() if not k.startswith("_")})
    if not isinstance(rec, Action):
        raise ValueError(f"not an action: {body.get('kind')!r}")
    return rec


def replay_game(records: Iterable[dict[str, Any]]) -> Replayed | None:
    """Replay one game's records (in seq order). None if the game has no start record."""
    recs = list(records)
    start = next((r for r in recs if r["type"] == "game-start"), None)
    if start is None:
        return None
    body = start["body"]
    variant = catalog.get_variant(body["variant"])
    seats = {int(k): str(v) for k, v in body.get("seats", {}).items()}
    carry = body.get("carry")
    engine = catalog.new_game(
        variant,
        max(variant.seats, 1),
        hand=int(body.get("hand", 0)),
        carry=carry if isinstance(carry, dict) else None,
    )
    out = Replayed(start["game"], variant.id, body["table"], engine, True, recs, seats=seats)
    produced: list[dict[str, Any]] = []
    for rec in recs:
        if rec["type"] == "action":
            out.actions.append(rec["body"])
            try:
                produced += [e.encode() for e in engine.apply(decode_action(rec["body"]))]
            except Exception as exc:  # any failure to replay is a mismatch, reported
                out.matches, out.mismatch = False, f"action at seq {rec['seq']}: {exc}"
                break
        elif rec["type"] == "event":
            out.events.append(rec["body"])
    if out.matches and produced != out.events:
        out.matches = False
        first = next(
            (i for i, (a, b) in enumerate(zip(produced, out.events, strict=False)) if a != b),
            min(len(produced), len(out.events)),
        )
        out.mismatch = f"replayed event {first + 1} differs from the logged one"
    return out


def _describe(ev: dict[str, Any]) -> str | None:
    kind = ev.get("kind")
    if kind == "bet-placed":
        return f"seat {ev['seat']} bets {format_cents(ev['amount'])} on {ev['bet']}"
    if kind == "bet-returned":
        return f"seat {ev['seat']} takes down {format_cents(ev['amount'])} from {ev['bet']}"
    if kind == "bet-settled":
        net = ev["returned"] - ev.get("commission", 0) - ev["stake"]
        extra = f", commission {format_cents(ev['commission'])}" if ev.get("commission") else ""
        note = f" ({ev['note']})" if ev.get("note") else ""
        sign = "+" if net >= 0 else ""
        return (
            f"seat {ev['seat']} {ev['bet']}: {ev['result']}{note}, stake "
            f"{format_cents(ev['stake'])}, paid {format_cents(ev['returned'])}{extra}, "
            f"net {sign}{format_cents(net)}"
        )
    if kind == "card-shown":
        return f"{ev['hand']}: {ev['card']}"
    if kind == "message":
        return str(ev["text"])
    if kind == "round-over":
        return f"round over{': ' + ev['summary'] if ev.get('summary') else ''}"
    return None


def render_recall(rep: Replayed) -> str:
    """The game as the player saw it: bets, cards, decisions, pays, and the net result."""
    lines = [f"Game {rep.game}  ({rep.variant}, table {rep.table})"]
    if not rep.matches:
        lines.append(f"WARNING: replay does not match the log: {rep.mismatch}")
    for rec in rep.records:
        t, body = rec["type"], rec["body"]
        if t == "action" and body.get("kind") == "decide":
            arg = f" {body['arg']}" if body.get("arg") else ""
            lines.append(f"  seat {body['seat']} decides: {body['decision']}{arg}")
        elif t == "action" and body.get("kind") == "roll-dice":
            lines.append(f"  dice: {' '.join(map(str, body['faces']))}")
        elif t == "action" and body.get("kind") == "spin-result":
            lines.append(f"  wheel: {body['number']}")
        elif t == "event":
            text = _describe(body)
            if text:
                lines.append(f"  {text}")
        elif t == "game-end":
            if body.get("status") == "voided":
                lines.append("  game voided; stakes returned")
            for seat, net in sorted(body.get("net", {}).items()):
                sign = "+" if net >= 0 else ""
                lines.append(f"Result seat {seat}: {sign}{format_cents(net)}")
        elif t == "game-void":
            lines.append(f"  voided: {body.get('reason', '')}")
    return "\n".join(lines)

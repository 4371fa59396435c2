"""Game recall: fold a game's logged actions through its engine, and show it as played.

Replay is exact because engines are pure: the same actions give the same
events. A replay that does not reproduce the logged events is reported as a
mismatch (the runtime then voids rather than resumes the game). A player's
recall shows what the table showed that player (:func:`shown_to`), and every
recall says whether the game's shoe commitment holds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from certification.log.commitments import GameShoe, check_game
from games import catalog
from games.core.cards import Card
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
        new_players=frozenset(int(s) for s in body.get("new_players", [])),
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
    if kind == "collection-charged":
        return f"seat {ev['seat']} pays the collection, {format_cents(ev['amount'])}"
    room = _describe_room(ev)
    if room is not None:
        return room
    if kind == "card-shown":
        return f"{ev['hand']}: {ev['card']}"
    if kind == "message":
        return str(ev["text"])
    if kind == "round-over":
        return f"round over{': ' + ev['summary'] if ev.get('summary') else ''}"
    return None


def _describe_room(ev: dict[str, Any]) -> str | None:
    """A poker room's chips (player against player): into the pot, back, won, raked."""
    kind = ev.get("kind")
    if kind == "chips-in":
        return f"seat {ev['seat']} puts {format_cents(ev['amount'])} in the pot ({ev['what']})"
    if kind == "uncalled-returned":
        return f"seat {ev['seat']} takes back {format_cents(ev['amount'])} nobody called"
    if kind == "hand-shown":
        return f"seat {ev['seat']} shows {ev['cards']}: {ev['hand']}"
    if kind == "pot-awarded":
        return f"seat {ev['seat']} wins {format_cents(ev['amount'])} from pot {ev['pot']}"
    if kind == "raked":
        return f"the rake: {format_cents(ev['amount'])} from pot {ev['pot']}"
    return None


def shown_to(event: dict[str, Any], seats: Collection[int] | None) -> bool:
    """Whether a viewer holding ``seats`` saw the event at the table (None: the auditor,
    who sees everything). A card shown to one seat (a hole card, a hand that was
    folded or never exposed) stays that seat's; everything else was public."""
    if seats is None or event.get("kind") != "card-shown":
        return True
    to = str(event.get("to", "all"))
    return to == "all" or to in {str(s) for s in seats}


def _names_cards(text: str) -> bool:
    """Whether a decision's argument spells cards (a pai gow setting, say)."""
    for token in text.replace("|", " ").split():
        try:
            Card.parse(token)
        except ValueError:
            continue
        return True
    return False


def shoe_line(shoe: GameShoe) -> str:
    """One line on the game's shoe commitment, for the recall."""
    if shoe.device:
        return "Cards from the physical shoe: no commitment to check"
    if shoe.sha256 is None:
        return (
            "No shoe (no cards dealt from a shuffled shoe)"
            if not shoe.findings
            else (f"Shoe commitment MISSING: {'; '.join(f.message for f in shoe.findings)}")
        )
    if shoe.findings:
        return f"Shoe commitment sha256 {shoe.sha256} DOES NOT HOLD: " + "; ".join(
            f.message for f in shoe.findings
        )
    if not shoe.revealed:
        return f"Shoe commitment sha256 {shoe.sha256}: not revealed yet"
    return f"Shoe commitment sha256 {shoe.sha256} holds: every card dealt is the committed shoe's"


def render_recall(rep: Replayed, seats: Collection[int] | None = None) -> str:
    """The game as it was seen: bets, cards, decisions, pays, the net result, and
    whether the shoe commitment holds.

    ``seats``: the player's seats in the game; their recall shows their own cards,
    and of the other seats only what the table saw (cards shown to all). None shows
    the whole log (the auditor's ``croupier log recall``).
    """
    lines = [f"Game {rep.game}  ({rep.variant}, table {rep.table})"]
    if not rep.matches:
        lines.append(f"WARNING: replay does not match the log: {rep.mismatch}")
    mine = None if seats is None else {int(s) for s in seats}
    for rec in rep.records:
        t, body = rec["type"], rec["body"]
        if t == "action" and body.get("kind") == "decide":
            arg = f" {body['arg']}" if body.get("arg") else ""
            if mine is not None and body.get("seat") not in mine and _names_cards(arg):
                arg = ""  # another seat's hands are seen only as the table saw them
            lines.append(f"  seat {body['seat']} decides: {body['decision']}{arg}")
        elif t == "action" and body.get("kind") == "roll-dice":
            lines.append(f"  dice: {' '.join(map(str, body['faces']))}")
        elif t == "action" and body.get("kind") == "spin-result":
            lines.append(f"  wheel: {body['number']}")
        elif t == "event":
            if not shown_to(body, mine):
                continue
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
    lines.append(shoe_line(check_game(rep.game, rep.records)))
    return "\n".join(lines)

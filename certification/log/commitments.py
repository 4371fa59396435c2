"""Shoe commitments: every card an rng shoe dealt was the next card of the committed order.

At game start the runtime logs ``shoe_commitment`` = SHA-256 of ``"<salt>:<order>"``
(the order as comma-separated card indices, :mod:`games.core.cards` convention), and
at game end (settled or voided) it reveals ``shoe_reveal = {salt, cards, dealt}``.
This module checks, per game, that

- the revealed order hashes to the committed value;
- every card dealt (every ``deal-card`` action: face-up cards, hole cards dealt face
  down, burn cards; they are all drawn the same way) is the next card of that order,
  in log order, and its logged draw number is its position;
- the reveal counts as many cards dealt as the log shows;
- an rng game that dealt cards committed to a shoe first.

Games fed by a device (a physical shoe: game-start ``source`` ``device:...``) have
no commitment (the cards come from the shoe on the table, not from a stored order);
they are counted, not checked. A game still open has not revealed its order yet; a
game voided by an older version ended without a reveal: both are counted as
unrevealed. Pure: records (decoded log dicts) in, a :class:`ShoeReport` out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from certification.log.errors import LogIntegrityError
from games.core.cards import Card


def shoe_commitment(salt: str, cards: str) -> str:
    """The SHA-256 commitment to a shoe order (``cards``: comma-separated indices)."""
    return hashlib.sha256(f"{salt}:{cards}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Finding:
    """One way a game's dealt cards differ from its commitment."""

    game: str
    position: int | None  # 1-based position in the shoe, when one card is at fault
    seq: int | None  # the log record that shows it
    message: str

    def __str__(self) -> str:
        where = f" (record {self.seq})" if self.seq is not None else ""
        return f"game {self.game}: {self.message}{where}"


@dataclass(frozen=True, slots=True)
class GameShoe:
    """What one game's log says about its shoe."""

    game: str
    sha256: str | None  # the committed value (None: no commitment)
    device: bool  # dealt from a physical shoe (no commitment to check)
    revealed: bool
    dealt: int  # deal-card actions in the log
    findings: tuple[Finding, ...]

    @property
    def holds(self) -> bool | None:
        """True: reveal and every card check out; False: a finding; None: not checkable
        (a device game, no cards, or not revealed yet)."""
        if self.findings:
            return False
        if self.sha256 is None or not self.revealed:
            return None
        return True


@dataclass(frozen=True, slots=True)
class ShoeReport:
    games: int  # games with a game-start record
    checked: int  # committed and revealed: every card checked
    unrevealed: int  # committed, not (yet) revealed
    device: int  # physical shoe, no commitment
    findings: tuple[Finding, ...] = field(default=())


def _order(cards: object) -> list[int] | None:
    if not isinstance(cards, str):
        return None
    try:
        return [int(c) for c in cards.split(",")] if cards else []
    except ValueError:
        return None


def _card_text(index: int) -> str:
    try:
        return str(Card.from_index(index))
    except (ValueError, KeyError):
        return f"#{index}"


@dataclass(frozen=True, slots=True)
class StoredShoe:
    """A store's working copy of a game's shoe (``shoes`` row): checked for games that
    have not revealed theirs yet, when the verifier reads the store itself."""

    salt: str
    cards: str
    next: int


def check_game(
    game: str, records: Sequence[Mapping[str, Any]], stored: StoredShoe | None = None
) -> GameShoe:
    """Check one game's records (in log order) against its shoe commitment.

    ``stored`` (the store's copy) is checked in place of a reveal while the game has
    none. A revealed (or stored) order that does not hash to the commitment is named
    with the first position it can differ at: the cards dealt were checked against
    it one by one, and the runtime deals only from an order it checked against the
    commitment, so a shoe whose dealt cards all match was changed after them.
    """
    committed, device, deals, reveal, end_seq = _game_log(records)
    found: list[Finding] = []

    def bad(message: str, *, position: int | None = None, seq: Any = None) -> None:
        found.append(_finding(game, message, position=position, seq=seq))

    if committed is None:
        if reveal is not None:
            bad("a shoe is revealed but none was committed at game start", seq=end_seq)
        elif deals and not device:
            bad(
                f"{len(deals)} cards dealt from the rng without a shoe commitment",
                seq=deals[0].get("seq"),
            )
        return GameShoe(game, None, device, False, len(deals), tuple(found))
    if isinstance(reveal, Mapping):
        noun, salt, cards, count = "the revealed shoe", *_fields(reveal)
    elif stored is not None:
        noun, salt, cards, count = "the stored shoe (not revealed yet)", *_fields(asdict(stored))
        end_seq = None
    else:
        return GameShoe(game, committed, device, False, len(deals), tuple(found))
    order = _order(cards)
    if not isinstance(salt, str) or order is None:
        bad(f"{noun} is malformed", seq=end_seq)
        return GameShoe(game, committed, device, True, len(deals), tuple(found))
    mismatch = _first_mismatch(game, deals, order, noun)
    if mismatch is not None:
        found.append(mismatch)
    if shoe_commitment(salt, str(cards)) != committed:
        found.insert(0, _hash_finding(game, noun, committed, len(deals), mismatch, end_seq))
    if isinstance(count, int) and count != len(deals) and not found:
        said = "counts" if isinstance(reveal, Mapping) else "is at position"
        bad(f"{noun} {said} {count} cards dealt, the log shows {len(deals)}", seq=end_seq)
    return GameShoe(game, committed, device, True, len(deals), tuple(found))


def _game_log(
    records: Sequence[Mapping[str, Any]],
) -> tuple[str | None, bool, list[Mapping[str, Any]], Any, Any]:
    """What a game's records say about its shoe: (the commitment, dealt from a device,
    the deal-card actions in log order, the game-end's reveal, the game-end's seq)."""
    start = next((r for r in records if r.get("type") == "game-start"), None)
    body: Mapping[str, Any] = start.get("body", {}) if start is not None else {}
    committed = body.get("shoe_commitment")
    committed = committed if isinstance(committed, str) else None
    device = str(body.get("source", "")).startswith("device:")
    deals = [
        r
        for r in records
        if r.get("type") == "action"
        and isinstance(r.get("body"), Mapping)
        and r["body"].get("kind") == "deal-card"
    ]
    end = next((r for r in records if r.get("type") == "game-end"), None)
    reveal = end.get("body", {}).get("shoe_reveal") if end is not None else None
    end_seq = end.get("seq") if end is not None else None
    return committed, device, deals, reveal, end_seq


def _finding(game: str, message: str, *, position: int | None = None, seq: Any = None) -> Finding:
    """A finding; ``seq`` is kept only when it is a record number."""
    return Finding(game, position, seq if isinstance(seq, int) else None, message)


def _first_mismatch(
    game: str, deals: Sequence[Mapping[str, Any]], order: Sequence[int], noun: str
) -> Finding | None:
    """The first card dealt that is not the next card of ``order`` (or not logged as the
    next draw, or dealt past the end of the shoe); None when every card matches."""
    for i, rec in enumerate(deals):
        position = i + 1
        dealt = rec["body"].get("card")
        draw = rec["body"].get("_draw", {})
        if isinstance(draw, Mapping) and "draw" in draw and draw["draw"] != position:
            return _finding(
                game,
                f"card {position} dealt is logged as draw {draw['draw']}",
                position=position,
                seq=rec.get("seq"),
            )
        if position > len(order):
            return _finding(
                game,
                f"card {position} ({dealt}) dealt beyond the {len(order)}-card shoe",
                position=position,
                seq=rec.get("seq"),
            )
        expected = _card_text(order[position - 1])
        if dealt != expected:
            return _finding(
                game,
                f"shoe position {position}: dealt {dealt}, {noun} has {expected}",
                position=position,
                seq=rec.get("seq"),
            )
    return None


def _hash_finding(
    game: str, noun: str, committed: str, n: int, mismatch: Finding | None, end_seq: Any
) -> Finding:
    """The order does not hash to the commitment: where it can first differ.

    With all ``n`` cards dealt matching it, at position ``n + 1`` or later; otherwise
    at the first card that did not match.
    """
    where = (
        f"the {n} cards dealt match it, so it differs from the committed order at "
        f"position {n + 1} or later"
        if mismatch is None
        else "it differs from the cards dealt"
    )
    return Finding(
        game,
        n + 1 if mismatch is None else mismatch.position,
        end_seq if isinstance(end_seq, int) else None,
        f"{noun} does not hash to the commitment {committed[:16]}... made at game start: {where}",
    )


def _fields(shoe: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """(salt, cards, cards dealt) of a reveal or a stored shoe."""
    return shoe.get("salt"), shoe.get("cards"), shoe.get("dealt", shoe.get("next"))


def check_records(
    records: Iterable[Mapping[str, Any]], stored: Mapping[str, StoredShoe] | None = None
) -> ShoeReport:
    """Check every game of a log (records in log order); findings in game order.

    ``stored``: the store's shoes by game (``croupier log verify --store``), checked
    for games that have not revealed theirs."""
    by_game: dict[str, list[Mapping[str, Any]]] = {}
    for rec in records:
        game = rec.get("game") if isinstance(rec, Mapping) else None
        if isinstance(game, str) and game:
            by_game.setdefault(game, []).append(rec)
    games = checked = unrevealed = device = 0
    findings: list[Finding] = []
    for game, recs in by_game.items():
        if not any(r.get("type") == "game-start" for r in recs):
            continue
        games += 1
        shoe = check_game(game, recs, (stored or {}).get(game))
        findings += shoe.findings
        if shoe.device:
            device += 1
        elif shoe.sha256 is not None:
            if shoe.revealed:
                checked += 1
            else:
                unrevealed += 1
    return ShoeReport(games, checked, unrevealed, device, tuple(findings))


def shoe_error(report: ShoeReport) -> LogIntegrityError:
    """The verification failure for a report's findings: every finding of the first
    game at fault (game, position, record), and how many more games are."""
    first = report.findings[0]
    same = [f for f in report.findings if f.game == first.game]
    others = len({f.game for f in report.findings}) - 1
    text = "; ".join(f.message + (f" (record {f.seq})" if f.seq is not None else "") for f in same)
    more = f" ({others} more games)" if others else ""
    return LogIntegrityError(
        f"shoe commitment broken: game {first.game}: {text}{more}", seq=first.seq
    )

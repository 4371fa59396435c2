"""``croupier log outcomes``: a store's logged outcomes as collection files.

The signed log already holds every outcome a table produced: the whole shoe order,
revealed at game end (and checked here against the SHA-256 commitment its game-start
record made before the first card), every roll (``roll-dice`` actions) and every
wheel number (``spin-result`` actions, the wheel's size from the game's variant).
Written in :mod:`.files`' formats, the outcomes of real play get the same tests as a
collection (``croupier certify outcomes DIR``), and a collection's files can be
compared with the log they came from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from certification.collect.files import write_lines, write_manifest
from certification.errors import InputFormatError
from certification.log.commitments import shoe_commitment


@dataclass(slots=True)
class LoggedOutcomes:
    shoes: list[str] = field(default_factory=list)  # "DECKS:c1,c2,..." lines
    dice: list[str] = field(default_factory=list)
    wheel: list[str] = field(default_factory=list)
    records: int = 0
    last_seq: int = 0


def _pockets(variant_id: str, cache: dict[str, int]) -> int:
    if variant_id not in cache:
        from games.catalog import get_variant

        cache[variant_id] = 36 + (get_variant(variant_id).zeros or 1)
    return cache[variant_id]


def outcomes_from_lines(lines: Iterable[bytes]) -> LoggedOutcomes:
    """Every revealed shoe (commitment checked), roll and spin, in log order."""
    out = LoggedOutcomes()
    starts: dict[str, dict[str, object]] = {}
    pockets: dict[str, int] = {}
    for line in lines:
        rec = orjson.loads(line)
        out.records += 1
        out.last_seq = int(rec.get("seq", 0))
        body, game, kind = rec.get("body") or {}, rec.get("game"), rec.get("type")
        if kind == "game-start" and isinstance(game, str):
            starts[game] = body
        elif kind == "game-end" and isinstance(body.get("shoe_reveal"), dict):
            start = starts.get(str(game), {})
            reveal = body["shoe_reveal"]
            if shoe_commitment(reveal["salt"], reveal["cards"]) != start.get("shoe_commitment"):
                raise InputFormatError(
                    f"game {game}: the revealed shoe does not match its commitment (seq "
                    f"{out.last_seq}); the log's outcomes cannot be collected"
                )
            out.shoes.append(f"{start.get('decks')}:{reveal['cards']}")
        elif kind == "action" and body.get("kind") == "roll-dice":
            out.dice.append(",".join(str(f) for f in body["faces"]))
        elif kind == "action" and body.get("kind") == "spin-result":
            variant = str(starts.get(str(game), {}).get("variant", ""))
            out.wheel.append(f"{_pockets(variant, pockets)}:{body['number']}")
    return out


def write_logged(out_dir: Path, lines: list[bytes], store: str) -> dict[str, object]:
    """Write the files and ``collect.json`` for the outcomes of ``lines``."""
    found = outcomes_from_lines(lines)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for name, rows in (("shoes.txt", found.shoes), ("dice.txt", found.dice),
                       ("wheel.txt", found.wheel)):  # fmt: skip
        if rows:
            written[name] = write_lines(out_dir / name, rows)
    what = {"collection": "log", "store": store, "records": found.records,
            "last_seq": found.last_seq}  # fmt: skip
    return write_manifest(out_dir, what, written)

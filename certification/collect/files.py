"""The collection's file formats and its manifest (``collect.json``).

Formats, one outcome per line, plain text so any lab tool reads them:

- ``shoes.txt``: ``DECKS:c1,c2,...`` card indices in dealing order (``index =
  rank * 4 + suit``, ranks 2..A as 0..12, suits clubs, diamonds, hearts, spades as
  0..3, as ``games.core.cards.Card.from_index`` reads them; 52 and up are jokers);
- ``dice.txt``: ``f1,f2[,f3]`` faces of one roll;
- ``wheel.txt``: ``POCKETS:N`` the number (``00`` on a 38-pocket wheel);
- ``video_poker.txt``: ``c1,...,c10`` a fresh 52-card shuffle's first ten cards, the
  five dealt and the five a full draw would replace them with, in order.

``collect.json``: what was collected and how, and ``files``: name -> SHA-256 and
line count, so a report can name the data by hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from certification.errors import InputFormatError

MANIFEST = "collect.json"
KINDS = ("shoes", "dice", "wheel", "video_poker")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_lines(path: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` (no newlines inside); return how many."""
    n = 0
    with path.open("w") as fh:
        for line in lines:
            fh.write(line + "\n")
            n += 1
    return n


def write_manifest(
    out: Path, what: Mapping[str, object], counts: Mapping[str, int]
) -> dict[str, object]:
    """``collect.json``: ``what`` plus every named file's SHA-256 and size."""
    files = {
        name: {"sha256": sha256_file(out / name), "bytes": (out / name).stat().st_size,
               "records": count}
        for name, count in sorted(counts.items())
    }  # fmt: skip
    doc = {**what, "files": files}
    (out / MANIFEST).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def check_manifest(out: Path) -> dict[str, object]:
    """Read ``collect.json`` and check every file's SHA-256; InputFormatError on a mismatch."""
    try:
        doc = json.loads((out / MANIFEST).read_text())
    except FileNotFoundError:
        raise InputFormatError(f"{out} has no {MANIFEST}: not a collection directory") from None
    except ValueError as exc:
        raise InputFormatError(f"{out / MANIFEST} is not JSON: {exc}") from None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        raise InputFormatError(f"{out / MANIFEST} lists no files")
    for name, entry in files.items():
        if Path(name).name != name:
            raise InputFormatError(f"{out / MANIFEST} names a file outside it: {name!r}")
        path = out / name
        if not path.is_file():
            raise InputFormatError(f"{path} is listed in {MANIFEST} but missing")
        if sha256_file(path) != entry.get("sha256"):
            raise InputFormatError(f"{path} does not match its SHA-256 in {MANIFEST}")
    checked: dict[str, object] = doc
    return checked


def _ints(text: str, where: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise InputFormatError(f"{where}: expected comma-separated numbers, got {text!r}") from None


def read_shoes(path: Path) -> list[tuple[int, list[int]]]:
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        decks, sep, cards = line.partition(":")
        if not sep or not decks.isdigit():
            raise InputFormatError(f"{path}:{n}: expected DECKS:c1,c2,..., got {line[:40]!r}")
        out.append((int(decks), _ints(cards, f"{path}:{n}")))
    return out


def read_dice(path: Path) -> list[list[int]]:
    rolls = [_ints(line, f"{path}:{n}") for n, line in enumerate(path.read_text().splitlines(), 1)]
    for n, faces in enumerate(rolls, 1):
        if not all(1 <= f <= 6 for f in faces):
            raise InputFormatError(f"{path}:{n}: a face outside 1..6: {faces}")
    return rolls


def read_wheel(path: Path) -> list[tuple[int, int]]:
    """(pockets, index) per spin; ``00`` is index 37."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        pockets, sep, number = line.partition(":")
        if not sep or pockets not in ("37", "38"):
            raise InputFormatError(f"{path}:{n}: expected 37:N or 38:N, got {line[:40]!r}")
        index = 37 if number == "00" else int(number) if number.isdigit() else -1
        if not 0 <= index < int(pockets):
            raise InputFormatError(f"{path}:{n}: no pocket {number!r} on a {pockets}-pocket wheel")
        out.append((int(pockets), index))
    return out


def read_video_poker(path: Path) -> list[list[int]]:
    deals = [_ints(line, f"{path}:{n}") for n, line in enumerate(path.read_text().splitlines(), 1)]
    for n, cards in enumerate(deals, 1):
        if len(cards) != 10 or len(set(cards)) != 10 or not all(0 <= c < 52 for c in cards):
            raise InputFormatError(f"{path}:{n}: expected ten different cards 0..51")
    return deals

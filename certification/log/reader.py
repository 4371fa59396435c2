"""What the verifier reads of a stored log, as a protocol: no database code here.

``certification.log`` is what a regulator runs alone: the record format, the
verifier, replay. It never opens a database. A store that holds a log (the
appliance's, :mod:`kiosk_ui.store`) hands the verifier a :class:`LogReader`: the
records in seq order (in chunks, so a million-record log is never held whole), the
key chain's records, and the verified checkpoint. ``croupier log`` commands that read
a store get a :class:`StoredLog` (a reader that can also list every record, one
game's records and the store's working shoes) from the opener the store wires in
(:mod:`kiosk_ui.log_cli`); an exported JSON-lines file needs no store at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from certification.log.commitments import StoredShoe


@dataclass(frozen=True, slots=True)
class VerifiedPosition:
    """The last checkpoint a start-up check (or a clean stop) vouched for, as stored:
    its seq and hash, the RFC 6962 tree at it (JSON text, as stored: it is parsed and
    checked by :mod:`certification.log.integrity`), the key id and the signature."""

    seq: int
    hash: str
    tree: str | bytes
    key_id: str
    signature: str


class LogReader(Protocol):
    """Records in order, the key chain, the verified checkpoint: what a check reads."""

    def last_seq(self) -> int:
        """The highest seq stored (0 for an empty log)."""
        ...

    def record(self, seq: int) -> bytes | None:
        """Record ``seq``'s exact bytes, or None if there is none."""
        ...

    def chunks(
        self, after: int = 0, upto: int | None = None, size: int = 20_000
    ) -> Iterator[list[bytes]]:
        """The records after seq ``after`` (through ``upto``), in seq order, ``size`` at a time."""
        ...

    def key_records(self) -> list[bytes]:
        """The log-start and key-rotation records (the key chain), in seq order."""
        ...

    def verified(self) -> VerifiedPosition | None:
        """The verified checkpoint as stored (unchecked), or None."""
        ...


class StoredLog(LogReader, Protocol):
    """A store opened read-only for ``croupier log``: a reader, plus what the commands
    list (every record, one game's records, the working copies of the shoes)."""

    def lines(self) -> list[bytes]:
        """Every record's exact bytes, in seq order."""
        ...

    def game_lines(self, game: str) -> Iterator[bytes]:
        """One game's records, in the order written (across chains)."""
        ...

    def stored_shoes(self) -> Mapping[str, StoredShoe]:
        """The store's working copy of every shoe (empty for a log-only store)."""
        ...

    def close(self) -> None: ...

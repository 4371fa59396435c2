"""Verify a store of several chains: one chain per writer, every chain checked on its own.

A store written by several processes at once (the workers of ``serve --workers``,
the appliances of a floor) holds one signed chain per writer (:mod:`.chain`): each
with its own log-start, seq, checkpoints and tree, so no writer ever waits for or
re-reads another's records. A table's records are in the chain of whoever served it
then; a game taken over by another writer continues in that writer's chain.

:class:`ChainsVerifier` takes the store's records in the store's order (each with
the chain it is stored in) and feeds each chain's :class:`~.verify.Verifier`; a
record stored in one chain whose bytes name another was moved there, and fails.
The shoe commitments are checked per game across chains, in the store's order
(which keeps each game's records in the order they were written: a game moves to
another writer only after its earlier records are committed). An exported log
(JSON lines) is read the same way, each record's chain taken from its own bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from certification.log.commitments import StoredShoe, check_records, shoe_error
from certification.log.errors import LogIntegrityError
from certification.log.verify import ChainState, Verifier, VerifyReport

#: byte marks of the records the shoe check reads (canonical JSON: sorted keys, no spaces)
_SHOE_MARKS = (b'"type":"game-start"', b'"type":"game-end"', b'"kind":"deal-card"')
_NO_GAME = b'"game":""'


@dataclass(frozen=True, slots=True)
class ChainsReport:
    """Every chain's report, by chain name (``""``: a one-writer store's log)."""

    chains: dict[str, VerifyReport]
    shoes: Any = None  # the shoe report over every chain (commitments.ShoeReport)

    @property
    def records(self) -> int:
        return sum(r.records for r in self.chains.values())

    @property
    def checkpoints(self) -> int:
        return sum(r.checkpoints for r in self.chains.values())


def chain_of(line: bytes) -> str:
    """The chain a record's bytes name (``""`` if none or unreadable: the chain's own
    verifier then names the fault)."""
    if b'"chain":' not in line:
        return ""
    try:
        rec = orjson.loads(line)
    except orjson.JSONDecodeError:
        return ""
    chain = rec.get("chain", "") if isinstance(rec, dict) else ""
    return chain if isinstance(chain, str) else ""


class ChainsVerifier:
    """Verify the chains of a store fed as ``(chain, record bytes)`` in store order."""

    def __init__(
        self,
        trusted: Iterable[Ed25519PublicKey],
        *,
        keep_tree: bool = False,
        shoes: bool = True,
    ) -> None:
        self.trusted = list(trusted)
        self.keep_tree = keep_tree
        self.verifiers: dict[str, Verifier] = {}
        self._games: list[Mapping[str, Any]] | None = [] if shoes else None
        if not self.trusted:
            raise LogIntegrityError("no trusted public key given")

    def verifier(self, chain: str) -> Verifier:
        v = self.verifiers.get(chain)
        if v is None:
            v = self.verifiers[chain] = Verifier(
                self.trusted, keep_tree=self.keep_tree, chain=chain
            )
        return v

    def state(self, chain: str) -> ChainState:
        return self.verifier(chain).state

    def feed(self, rows: Sequence[tuple[str, bytes]]) -> None:
        """Verify the next records, each with the chain it is stored in."""
        run: list[bytes] = []
        current: str | None = None
        for chain, line in rows:
            if chain != current:
                if current is not None:
                    self._feed(current, run)
                current, run = chain, []
            run.append(line)
        if current is not None:
            self._feed(current, run)
        games = self._games
        if games is not None:
            for _, line in rows:
                if _NO_GAME not in line and any(m in line for m in _SHOE_MARKS):
                    try:
                        games.append(orjson.loads(line))
                    except orjson.JSONDecodeError:
                        continue  # its chain's verifier names it

    def _feed(self, chain: str, lines: list[bytes]) -> None:
        try:
            self.verifier(chain).feed(lines)
        except LogIntegrityError as exc:
            raise _in_chain(exc, chain) from None

    def finish(self, stored_shoes: Mapping[str, StoredShoe] | None = None) -> ChainsReport:
        """End of the store: every chain's last record and trust, then every game's dealt
        cards against its commitment."""
        if not self.verifiers:
            self.verifier("")  # an empty log: its verifier says why it fails
        reports: dict[str, VerifyReport] = {}
        for chain in sorted(self.verifiers):
            try:
                reports[chain] = self.verifiers[chain].finish()
            except LogIntegrityError as exc:
                raise _in_chain(exc, chain) from None
        shoes = None
        if self._games is not None:
            shoes = check_records(self._games, stored_shoes)
            if shoes.findings:
                raise shoe_error(shoes)
        return ChainsReport(reports, shoes)


def _in_chain(exc: LogIntegrityError, chain: str) -> LogIntegrityError:
    """``exc`` naming the chain it happened in (a one-writer store's log: unchanged)."""
    if not chain:
        return exc
    return LogIntegrityError(f"chain {chain}: {exc}", seq=exc.seq, position=exc.position)


def verify_chains(
    rows: Sequence[tuple[str, bytes]],
    trusted: Iterable[Ed25519PublicKey],
    *,
    stored_shoes: Mapping[str, StoredShoe] | None = None,
) -> ChainsReport:
    """Verify a whole store's records given as ``(chain, bytes)`` in store order."""
    v = ChainsVerifier(trusted)
    v.feed(rows)
    return v.finish(stored_shoes)

"""What a store backend provides: the :class:`Store` and the repositories of its unit of work.

Every SQL statement of the appliance is in ``kiosk_ui/store``; the table runtime
(``kiosk_ui/table``), the web routes (``kiosk_ui/web``) and the operators
(``kiosk_ui/auth.py``) reach the store only through these protocols. A unit of work
(:meth:`Store.transaction`, or :meth:`Store.read` for reads under the store lock) yields
a :class:`Tx`: an opaque handle whose attributes are the repositories, one per kind of
thing stored (log records, the verified checkpoint, games, game seats, shoes, the
ledger, players, idempotency keys, operators, vouchers, guessing counts). Whatever the
repositories do through one ``Tx`` commits or rolls back together: an action's log
records and its ledger rows can never disagree. The SQLite backend is
:class:`kiosk_ui.store.db.Database` (its ``Tx`` is the connection itself,
:class:`kiosk_ui.store.tx.SqliteTx`); a second backend (PostgreSQL) implements these
protocols without touching table/ or web/.

The log's own checks stay in :mod:`certification.log`: :class:`LogRecords` is the
verifier's :class:`~certification.log.reader.LogReader`, so the start-up integrity
check reads the log through the unit of work like anything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from certification.log.reader import LogReader, VerifiedPosition
from kiosk_ui.errors import StoreError

if TYPE_CHECKING:
    from certification.log.chain import StoredRecord
    from kiosk_ui.store.faults import StoreHealth
    from kiosk_ui.store.games import GameRow, HistoryRow
    from kiosk_ui.store.ledger import Posting
    from kiosk_ui.store.lockouts import LockoutRow
    from kiosk_ui.store.shoes import StoredShoe
    from kiosk_ui.store.vouchers import VoucherRow


class LogRecords(LogReader, Protocol):
    """The game log's records: appended by the LogBook (each into its writer's chain),
    read back per chain in seq order (the :class:`LogReader` methods read the chain
    :meth:`of` names; ``tx.log`` itself reads chain ``""``, a one-writer store's), and
    across chains in the store's order."""

    def of(self, chain: str) -> LogRecords: ...

    def insert(self, records: Iterable[StoredRecord]) -> None: ...

    def chains(self) -> list[str]: ...

    def rows(self, size: int = 20_000) -> Iterator[list[tuple[str, bytes]]]: ...

    def lines(self) -> list[bytes]: ...

    def game_lines(self, game: str) -> Iterator[bytes]: ...

    def has_game_end(self, game: str) -> bool: ...


class Checkpoints(Protocol):
    """Each chain's verified checkpoint (signed by :mod:`certification.log.integrity`)."""

    def verified(self, chain: str = "") -> VerifiedPosition | None: ...

    def verified_seq(self, chain: str = "") -> int | None: ...

    def save(self, position: VerifiedPosition, chain: str = "") -> None: ...


class Games(Protocol):
    """Each game a table started: its table, variant, status and times."""

    def insert(self, game: str, table: str, variant: str, started: int, source: str) -> None: ...

    def set_status(self, game: str, status: str) -> None: ...

    def end(self, game: str, status: str, ended: int) -> None: ...

    def restore(self, game: str, status: str, ended: int) -> None: ...

    def status(self, game: str) -> str | None: ...

    def started(self, table: str) -> int: ...

    def settled(self, table: str) -> int: ...

    def unfinished(self) -> list[GameRow]: ...

    def last_finished(self) -> list[GameRow]: ...

    def last_settled(self, table: str, player: str | None = None) -> str | None: ...

    def totals(self, table: str) -> tuple[int, int]: ...

    def history(self, player: str, limit: int) -> list[HistoryRow]: ...


class GameSeats(Protocol):
    """Who sat in each seat of a game, and what the seat staked and won."""

    def add(self, game: str, seat: int, player: str, staked: int, net: int) -> None: ...

    def nets(self, game: str) -> dict[str, int]: ...

    def players(self, game: str) -> dict[int, str]: ...

    def staked(self, game: str, seat: int) -> int | None: ...

    def seats_of(self, game: str, player: str) -> set[int]: ...

    def in_open_game(self, player: str) -> bool: ...


class Shoes(Protocol):
    """The working copy of each game's shoe (never served before the reveal)."""

    def insert(self, game: str, cards: str, salt: str) -> None: ...

    def read(self, game: str) -> StoredShoe | None: ...

    def take_next(self, game: str) -> int | None: ...


class Ledger(Protocol):
    """The double-entry ledger (rules in :mod:`kiosk_ui.store.ledger`)."""

    def post(
        self,
        kind: str,
        postings: Sequence[Posting],
        *,
        ts: int,
        log_seq: int,
        log_hash: str,
        game: str = "",
        memo: str = "",
    ) -> int: ...

    def balance(self, account: str) -> int: ...

    def has_stack(self, player: str) -> bool: ...

    def stacks(self, table: str) -> dict[str, int]: ...

    def exists(self, account: str) -> bool: ...


class Players(Protocol):
    def add(self, player: str, name: str, created: int) -> None: ...

    def exists(self, player: str) -> bool: ...

    def roster(self, limit: int = 500) -> list[tuple[str, str, int]]: ...

    def name_of(self, player: str) -> str | None: ...


class Idempotency(Protocol):
    def answer(self, key: str) -> str | None: ...

    def keep(self, key: str, response: str) -> None: ...


class Operators(Protocol):
    def ensure_disabled_column(self) -> None: ...

    def count(self) -> int: ...

    def exists(self, user: str) -> bool: ...

    def insert(self, user: str, pw_hash: str, role: str) -> None: ...

    def credentials(self, user: str) -> tuple[str, str, bool] | None: ...

    def accounts(self) -> list[tuple[str, str, bool]]: ...

    def set_hash(self, user: str, pw_hash: str) -> bool: ...

    def set_disabled(self, user: str, disabled: bool) -> bool: ...

    def set_role(self, user: str, role: str) -> bool: ...


class Lockouts(Protocol):
    """Guessing counts shared by the store's processes (:mod:`kiosk_ui.store.lockouts`)."""

    def ensure_table(self) -> None: ...

    def get(self, scope: str, key: str) -> LockoutRow | None: ...

    def hold(self, scope: str, key: str, now: int) -> LockoutRow: ...

    def put(self, scope: str, key: str, row: LockoutRow) -> None: ...

    def clear(self, scope: str, key: str) -> None: ...

    def forget(self, scope: str, before: int) -> None: ...


class Vouchers(Protocol):
    """Cash-out vouchers (:mod:`kiosk_ui.store.vouchers`): issued, redeemed once, expired."""

    def ensure_table(self) -> None: ...

    def exists_table(self) -> bool: ...

    def insert(
        self, serial: str, digest: str, amount: int, player: str, kiosk: str, issued: int,
        expires: int,
    ) -> None: ...  # fmt: skip

    def find(self, digest: str) -> VoucherRow | None: ...

    def key_check(self, check: str) -> str: ...

    def close(self, serial: str, status: str, at: int, by: str, *, now: int) -> bool: ...

    def due(self, now: int) -> list[VoucherRow]: ...

    def recent(self, limit: int = 200) -> list[VoucherRow]: ...

    def outstanding(self) -> tuple[int, int]: ...


class Leases(Protocol):
    """Which appliance serves each table of a shared store (:mod:`kiosk_ui.store.leases`)."""

    def take(self, table: str, holder: str, now: int, until: int) -> str: ...

    def expires(self, table: str) -> int | None: ...

    def holds(self, table: str, holder: str, now: int, until: int) -> bool: ...

    def renew(self, holder: str, tables: list[str], now: int, until: int) -> set[str]: ...

    def release(self, holder: str) -> None: ...

    def hand_back(self, table: str, holder: str) -> None: ...

    def holders(self) -> dict[str, tuple[str, int]]: ...

    def advertise(self, holder: str, url: str, now: int) -> None: ...

    def withdraw(self, holder: str) -> None: ...

    def servers(self) -> dict[str, tuple[str, int]]: ...


class Tx(Protocol):
    """One unit of work (opaque: callers use only its repositories)."""

    @property
    def log(self) -> LogRecords: ...

    @property
    def checkpoints(self) -> Checkpoints: ...

    @property
    def games(self) -> Games: ...

    @property
    def seats(self) -> GameSeats: ...

    @property
    def shoes(self) -> Shoes: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def players(self) -> Players: ...

    @property
    def idempotency(self) -> Idempotency: ...

    @property
    def operators(self) -> Operators: ...

    @property
    def vouchers(self) -> Vouchers: ...

    @property
    def lockouts(self) -> Lockouts: ...

    @property
    def leases(self) -> Leases: ...


class Store(Protocol):
    """A store directory opened for writing by this process (one writer per store).

    ``transaction`` is one atomic unit of work (re-entrant; ``defer`` leaves the group
    open for :meth:`commit_open`, see :mod:`kiosk_ui.table.commit`); ``read`` holds the
    store lock for reads without starting one. ``health`` is the store's I/O fault
    state (:mod:`kiosk_ui.store.faults`); ``probe``/``writable`` prove the store
    writable again after a fault. ``errors`` are the driver's own exception types (a
    caller that must survive any store failure catches them with the store's).
    """

    @property
    def directory(self) -> Path: ...

    @property
    def health(self) -> StoreHealth: ...

    @property
    def handle(self) -> Tx:
        """The handle outside any unit of work: only for a blocking outcome source's
        ``supply``, which runs outside the store lock and must not touch the store."""
        ...

    @property
    def errors(self) -> tuple[type[Exception], ...]: ...

    @property
    def shared(self) -> bool:
        """Whether other appliances write this store too (its tables are leased: see
        :mod:`kiosk_ui.store.leases`; the log head may move between this one's units)."""
        ...

    @property
    def appliance(self) -> str:
        """This appliance's name on a shared store (the holder of its leases)."""
        ...

    def transaction(self, *, defer: bool = False) -> AbstractContextManager[Tx]: ...

    def read(self) -> AbstractContextManager[Tx]: ...

    @property
    def begin_waits(self) -> bool:
        """Whether opening a group may wait for another process's (SQLite's one write
        lock on a shared store): :meth:`begin_group` is then called off the loop."""
        ...

    def begin_group(self) -> None: ...

    def open_group(self) -> int | None: ...

    def commit_open(self) -> None: ...

    def group_outcome(self, group: int) -> StoreError | None: ...

    def probe(self) -> None: ...

    def writable(self) -> AbstractContextManager[None]: ...

    def audit(self) -> dict[str, Any]: ...

    def close(self) -> None: ...

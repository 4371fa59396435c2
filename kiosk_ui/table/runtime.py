"""The appliance's runtime: store, log, wallets, tables, recovery, history and audit."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from certification.log.replay import Replayed, replay_game
from games import catalog
from games.core.records import Event, decode
from kiosk_ui.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    NoSuchTable,
    SeatError,
    TableError,
    TableOpening,
)
from kiosk_ui.store import ledger, open_store
from kiosk_ui.store.protocol import Store, Tx
from kiosk_ui.table.answers import ActResult, dumps
from kiosk_ui.table.leasing import LEASE_SECONDS, Leasing
from kiosk_ui.table.logbook import LogBook
from kiosk_ui.table.money import (
    Entry,
    Outstanding,
    cash_entry,
    post_entries,
    seed_entry,
    void_collection_entry,
    void_entry,
)
from kiosk_ui.table.outcomes import KeepsShoes, OutcomeFault, OutcomeSource
from kiosk_ui.table.room import Room
from kiosk_ui.table.room_engine import is_room
from kiosk_ui.table.room_money import room_void_entry, room_void_fee_entry
from kiosk_ui.table.seating import logged_seats
from kiosk_ui.table.seats import SeatRules
from kiosk_ui.table.table import Table

HISTORY_LIMIT = 500


@dataclass(frozen=True)
class Recovery:
    game: str
    table: str
    outcome: str  # "resumed", "voided", "suspended" (shoe changed) or "mismatch" (store vs log)
    reason: str


class Runtime:
    def __init__(
        self,
        store_dir: str | Path,
        *,
        synchronous: str = "FULL",
        checkpoint_every: int = 1000,
        create: bool = False,
        seat_rules: SeatRules | None = None,
        anchor: Path | None = None,
        url: str | None = None,
        shared: bool = False,
        lease_seconds: float = LEASE_SECONDS,
        worker: int | None = None,
    ) -> None:
        # create=False: the store must exist (croupier store init makes one); see open_store.
        self.db: Store = open_store(
            store_dir, synchronous=synchronous, create=create, url=url, shared=shared,
            worker=worker,
        )  # fmt: skip
        try:  # the start-up integrity check: a tampered or rolled-back log is not served
            self.log = LogBook(self.db, checkpoint_every=checkpoint_every, anchor=anchor)
        except BaseException:
            self.db.close()  # release the store (its writer lock) for whoever comes next
            raise
        self.tables: dict[str, Table] = {}
        # tables taken over from a dead holder, not reachable by requests until the open
        # games it left are recovered (adopt_table); recover() still finds them
        self.opening: dict[str, Table] = {}
        # several appliances on one store: each serves the tables it leases
        self.leasing = (
            Leasing(self.db, self.log.clock, seconds=lease_seconds, lost=self._lease_lost)
            if self.db.shared
            else None
        )
        self._known_players: set[str] = set()
        self.seat_rules = seat_rules or SeatRules.lab()
        self.seat_lock = threading.Lock()  # a seat limit is checked and taken as one step

    def close(self) -> None:
        if self.leasing is not None:
            self.leasing.close()
        self.log.close()
        self.db.close()

    def check_lease(self, tx: Tx, table_id: str) -> None:
        """On a shared store, refuse a unit for a table this appliance no longer leases."""
        if self.leasing is not None:
            self.leasing.check(tx, table_id)

    def floor(self) -> list[dict[str, Any]]:
        """Every table leased on a shared store: its holder, the seconds its lease runs
        yet, and whether this appliance serves it (the operator console's floor view)."""
        if self.leasing is None:
            return []
        with self.db.read() as tx:
            leases = tx.leases.holders()
        now = self.log.clock()
        return [
            {
                "table": table,
                "holder": holder,
                "seconds_left": max(0, expires - now) // 1_000_000,
                "here": holder == self.leasing.name and table in self.tables,
            }
            for table, (holder, expires) in sorted(leases.items())
        ]

    def _lease_lost(self, table_id: str, reason: str) -> None:
        table = self.tables.get(table_id)
        if table is not None:
            table.suspended = reason  # not logged: the table is another appliance's now

    # --- players and wallets -------------------------------------------------

    def create_player(self, name: str, player_id: str | None = None) -> str:
        pid = player_id or uuid.uuid4().hex[:12]
        with self.log.transaction() as tx:
            tx.players.add(pid, name, self.log.clock())
        return pid

    def player_exists(self, player: str) -> bool:
        if player in self._known_players:  # checked on every request: no lock, no query
            return True
        with self.db.read() as tx:
            known = tx.players.exists(player)
        if known:
            self._known_players.add(player)
        return known

    def balance(self, player: str) -> int:
        with self.db.read() as tx:
            return tx.ledger.balance(ledger.wallet(player))

    def cash_in(self, player: str, amount: int, operator: str) -> int:
        return self._cash("cash-in", player, amount, operator)

    def cash_out(self, player: str, amount: int, operator: str) -> int:
        return self._cash("cash-out", player, amount, operator)

    def _cash(self, kind: str, player: str, amount: int, operator: str) -> int:
        if not isinstance(amount, int) or amount <= 0:
            raise ValueError("amount must be a positive number of cents")
        if not self.player_exists(player):
            raise SeatError(f"no player {player!r}")
        with self.log.transaction() as tx:
            rec = self.log.append(
                tx, f"operator:{operator}", kind, {"player": player, "amount": amount}
            )
            entry = cash_entry(kind, player, amount, operator)
            post_entries(tx, [entry], ts=self.log.clock(), log_seq=rec.seq, log_hash=rec.hash)
            return tx.ledger.balance(ledger.wallet(player))

    # --- tables --------------------------------------------------------------

    def open_table(
        self,
        table_id: str,
        variant_id: str,
        source: OutcomeSource,
        *,
        per_player: bool = False,
        publish: bool = True,
    ) -> Table:
        """Open a table. ``per_player`` (a one-seat game): every player plays a game of
        their own there (:meth:`table_for`), so nobody waits on anybody. ``publish``
        False: kept in :attr:`opening`, out of requests' reach (:meth:`adopt_table`)."""
        if table_id in self.tables or table_id in self.opening:
            raise TableError(f"table {table_id} is already open")
        variant = catalog.get_variant(variant_id)
        if per_player and max(variant.seats, 1) != 1:
            raise TableError(f"table {table_id}: only a one-seat game can be per-player")
        kind = Room if is_room(variant) else Table  # a poker room: player against player
        table = kind(self, table_id, variant, catalog.family_of(variant), source)
        table.per_player = per_player
        with self.log.transaction() as tx:
            if self.leasing is not None:
                self.leasing.take(tx, table_id)
            # A new progressive starts at its reset value, funded by the house; the
            # record says which meters it seeds and every meter's reset value (what a
            # win refills it to), so the audit derives both from the log.
            seeded = {
                meter: reset
                for meter, reset in sorted(variant.jackpots.items())
                if reset > 0 and not tx.ledger.exists(ledger.jackpot(meter))
            }
            body: dict[str, Any] = {"table": table_id, "variant": variant.id}
            body["source"] = source.name
            if table.room:
                body["room"] = True  # its money follows the room's rules (the audit reads it)
            if variant.jackpots:
                body["jackpots"] = dict(sorted(variant.jackpots.items()))
            if seeded:
                body["seeded"] = seeded
            rec = self.log.append(tx, "runtime", "table-open", body)
            entries = [seed_entry(meter, reset) for meter, reset in seeded.items()]
            post_entries(tx, entries, ts=self.log.clock(), log_seq=rec.seq, log_hash=rec.hash)
        (self.tables if publish else self.opening)[table_id] = table
        return table

    def adopt_table(
        self, table_id: str, variant_id: str, source: OutcomeSource, *, per_player: bool = False
    ) -> tuple[Table, list[Recovery]]:
        """Take over a table whose holder's lease expired: open it, recover the games its
        holder left open, and only then let requests reach it. Published before its
        recovery, a bet in between would start a second game that recovery then
        restores over, stranding its stakes. A failed recovery leaves it unpublished
        (the caller tries again from the start)."""
        table = self.open_table(table_id, variant_id, source, per_player=per_player, publish=False)
        try:
            done = self.recover(only={table_id})
        finally:
            del self.opening[table_id]
        self.tables[table_id] = table
        return table, done

    def hand_back(self, table_id: str) -> bool:
        """Give table ``table_id`` up to the server whose share it is, if nobody plays at
        it now (:meth:`Table.idle`): its lease released in one unit, the table out of
        requests' reach; a request that held it already meets its suspension (and a
        unit, the lease check). False, nothing changed, while somebody plays there."""
        table = self.tables.get(table_id)
        if table is None or self.leasing is None:
            return False
        with table.lock:
            if not table.idle():
                return False
            with self.log.transaction() as tx:
                tx.leases.hand_back(table_id, self.leasing.name)
            self.leasing.held.discard(table_id)
            del self.tables[table_id]
            table.suspended = f"table {table_id} moved to the server whose share it is"
        return True

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            if table_id in self.opening:
                raise TableOpening(
                    f"table {table_id} is opening: the game its previous appliance left "
                    "open is being recovered; try again in a moment"
                ) from None
            raise NoSuchTable(f"no open table {table_id!r}") from None

    def _serving(self, table_id: str) -> Table | None:
        """The table ``table_id`` as recovery sees it: open here, published or opening."""
        table = self.tables.get(table_id)
        return table if table is not None else self.opening.get(table_id)

    def table_for(self, table_id: str, player: str) -> Table:
        """Where ``player`` plays at ``table_id``: their own game at a per-player table,
        else the shared table."""
        table = self.table(table_id)
        return table.instance(player) if table.per_player else table

    def seats_held(self, player: str) -> int:
        """Seats ``player`` holds at the shared tables (per-player games block nobody;
        backline positions are no seat)."""
        return sum(t.held_by(player) for t in list(self.tables.values()))

    def leave(self, table_id: str, seat: int, player: str) -> str:
        """``player`` leaves ``seat``: "now", or "after the game" when stakes are out."""
        table = self.table(table_id)
        if table.per_player:
            return "now" if table.drop(player) else "after the game"
        return table.release(seat, player)

    def free_seat(self, table_id: str, seat: int, by: str) -> dict[str, Any]:
        """The operator frees a shared table's seat (logged with the operator's name)."""
        table = self.table(table_id)
        if table.per_player:
            raise SeatError(f"table {table_id} is per-player: its seats block nobody")
        player = table.seats.get(seat)
        when = table.release(seat)
        with self.log.transaction() as tx:
            body = {"table": table_id, "seat": seat, "player": player, "when": when}
            self.log.append(tx, by, "seat-freed", body, table.game or "")
        return body

    def games_started(self, table_id: str) -> int:
        with self.db.read() as tx:
            return tx.games.started(table_id)

    @staticmethod
    def game_id(table_id: str, number: int) -> str:
        """The id of a table's ``number``-th game (1-based)."""
        return f"{table_id}-{number:06d}"

    # --- idempotency ---------------------------------------------------------

    def idempotent_response(self, key: str, digest: str = "") -> dict[str, Any] | None:
        """The stored answer to ``key``, if any; the key's first request must have had
        this ``digest`` (a hash of its table and body), else IdempotencyConflict."""
        with self.db.read() as tx:
            answer = tx.idempotency.answer(key)
        if answer is None:
            return None
        stored: dict[str, Any] = json.loads(answer)
        if stored.pop("request_digest", digest) != digest:
            raise IdempotencyConflict(
                "this Idempotency-Key was already used for a different request "
                "(another table or body): use a new key for a new request"
            )
        return stored

    def store_response(self, tx: Tx, key: str, result: ActResult, digest: str = "") -> None:
        answer = {**result.body(), "request_digest": digest}
        tx.idempotency.keep(key, dumps(answer))

    # --- replay and recovery -------------------------------------------------

    def _game_records(self, game: str) -> Iterator[dict[str, Any]]:
        with self.db.read() as tx:
            lines = list(tx.log.game_lines(game))
        for line in lines:
            yield json.loads(line)

    def replay(self, game: str) -> Replayed | None:
        """Fold a game's logged actions through a fresh engine; compare with logged events."""
        return replay_game(self._game_records(game))

    def recover(self, only: set[str] | None = None) -> list[Recovery]:
        """Resume or void every game left open by a crash (see kiosk_ui.table.table).

        The log decides, not the ``games.status`` column: a game the store calls open
        but whose log holds its game-end is finished (the store was changed): that is
        reported (an operator alarm and a ``mismatch`` entry) and the status is put back
        from the log; it never gets a second game-end or settlement. A resumed game's
        stored shoe is checked against its commitment first; a changed shoe suspends
        the table with an alarm instead of dealing from it. ``only``: the games of
        those tables (a table a shared store's appliance just took over).

        Then every poker room here returns the stacks a restart left at it to their
        players' wallets (:meth:`Room.return_stacks`: ``stack-out`` records), keeping
        only the seats dealt into a hand just resumed until it ends.
        """
        with self.db.read() as tx:
            open_games = [tuple(row) for row in tx.games.unfinished()]
        done: list[Recovery] = self._unended_last_games(only)
        open_games += [(r.game, r.table, "open") for r in done]
        for game, table_id, status in sorted(open_games):
            if (self.leasing is not None and self._serving(table_id) is None) or (
                only is not None and table_id not in only
            ):
                continue  # another appliance's table (its own recovery's), or not asked for
            records = list(self._game_records(game))
            end = next((r for r in records if r["type"] == "game-end"), None)
            if end is not None:
                done.append(self._status_mismatch(game, table_id, str(status), end))
                continue
            rep = replay_game(records)
            table = self._serving(table_id)
            if table is not None and table.per_player:  # the game of the player in seat 0
                owner = rep.seats.get(0) if rep is not None else None
                table = table.instance(owner) if owner is not None else None
            if rep is not None and rep.matches and table is not None:
                table.restore(game, rep.engine, logged_seats(rep.records))
                if isinstance(table.source, KeepsShoes):
                    try:
                        with self.db.read() as tx:
                            table.source.check_shoe(tx, game)
                    except OutcomeFault as exc:
                        table.suspend(str(exc), alarm=exc.alarm)
                        done.append(Recovery(game, table_id, "suspended", str(exc)))
                        continue
                if rep.engine.is_over:
                    with self.log.transaction() as tx:
                        table._finish(tx)
                    done.append(Recovery(game, table_id, "resumed", "settled on restart"))
                    continue
                with self.log.transaction() as tx:
                    self.log.append(tx, "runtime", "game-resumed", {"after": "restart"}, game)
                done.append(Recovery(game, table_id, "resumed", "replayed from the log"))
            else:
                why = (
                    "table not open"
                    if table is None
                    else (rep.mismatch if rep else "no game-start record")
                )
                self.void(game, reason=f"replay failed: {why}", by="runtime")
                done.append(Recovery(game, table_id, "voided", why))
        self._return_stacks(only)
        return done

    def _return_stacks(self, only: set[str] | None) -> None:
        """Each poker room served here (of ``only``, if given) sends home the stacks a
        restart left at it, once its open hand is recovered (see :meth:`recover`)."""
        for table_id in sorted({*self.tables, *self.opening}):
            table = self._serving(table_id)
            if isinstance(table, Room) and (only is None or table_id in only):
                table.return_stacks()

    def _unended_last_games(self, only: set[str] | None = None) -> list[Recovery]:
        """Each table's last game that the store calls finished but whose log has no
        game-end (the store was changed, or it lost the game's end): reported, reopened
        from the log, then recovered like any open game. Only the last game of each
        table is looked at, so start-up stays fast on a large store; ``only``: of those
        tables (a takeover looks at the table it took, not at every table here)."""
        with self.db.read() as tx:
            unended = [
                row
                for row in tx.games.last_finished()
                if (self.leasing is None or self._serving(row.table) is not None)
                and (only is None or row.table in only)
                and not tx.log.has_game_end(row.id)
            ]
        out: list[Recovery] = []
        for game, table_id, status in unended:
            reason = (
                f"the store marks game {game} {status!r} but the log has no game-end for it: "
                "the store was changed; the game is recovered from the log"
            )
            with self.log.transaction() as tx:
                self._store_status_alarm(tx, game, table_id, reason)
                tx.games.set_status(game, "open")
            out.append(Recovery(game, table_id, "mismatch", reason))
        return out

    def _status_mismatch(
        self, game: str, table_id: str, status: str, end: dict[str, Any]
    ) -> Recovery:
        """The store says ``status`` but the log ended the game: report, restore, go on."""
        logged = str(end["body"].get("status", "settled"))
        reason = (
            f"the store marks game {game} {status!r} but the log ended it {logged!r} "
            f"(record {end['seq']}): the store was changed; the log is kept"
        )
        with self.log.transaction() as tx:
            self._store_status_alarm(tx, game, table_id, reason)
            tx.games.restore(game, logged, int(end["ts"]))
        return Recovery(game, table_id, "mismatch", reason)

    def _store_status_alarm(self, tx: Tx, game: str, table_id: str, reason: str) -> None:
        """Log the operator alarm for a game whose store status disagrees with its log."""
        body = {"table": table_id, "alarm": "store-status", "message": reason}
        self.log.append(tx, "runtime", "operator-alarm", body, game)

    def void(self, game: str, *, reason: str, by: str) -> dict[str, int]:
        """Return every stake still on the layout for ``game`` and close it as voided."""
        outstanding = Outstanding()
        table_id = ""
        returns, fees = void_entry, void_collection_entry  # a room's go back to the stacks
        records = list(self._game_records(game))
        for rec in records:
            if rec["type"] == "game-start":
                table_id = rec["body"]["table"]
                if is_room(catalog.get_variant(rec["body"]["variant"])):
                    returns = room_void_entry
                    fees = partial(room_void_fee_entry, table_id)
            elif rec["type"] == "event":
                ev = decode(rec["body"])
                if isinstance(ev, Event):
                    outstanding.apply(ev)
        seats = logged_seats(records)  # whose wallet each seat's stakes go back to
        with self.db.read() as tx:
            for seat, player in tx.seats.players(game).items():
                seats.setdefault(seat, player)
        returned: dict[str, int] = {}
        with self.log.transaction() as tx:
            status = tx.games.status(game)
            if status is None or status in ("settled", "voided"):
                raise TableError(f"game {game} is not open")
            body: dict[str, Any] = {"reason": reason, "stakes": _stakes(outstanding)}
            if outstanding.fees_text():
                body["collection"] = outstanding.fees_text()
            void_rec = self.log.append(tx, by, "game-void", body, game)
            entries: list[Entry] = []
            for (seat, bet), amount in sorted(outstanding.stakes.items()):
                if amount <= 0:
                    continue
                entries.append(returns(table_id, seats[seat], seat, bet, amount, reason))
                returned[f"{seat}:{bet}"] = amount
            for seat, fee in sorted(outstanding.fees.items()):
                entries.append(fees(seats[seat], seat, fee, reason))
            post_entries(
                tx,
                entries,
                ts=self.log.clock(),
                log_seq=void_rec.seq,
                log_hash=void_rec.hash,
                game=game,
            )
            end: dict[str, Any] = {"status": "voided", "returned": returned}
            shoe = tx.shoes.read(game)
            if shoe is not None:  # revealed as stored: `log verify` checks it and its cards
                end["shoe_reveal"] = {"salt": shoe.salt, "cards": shoe.cards, "dealt": shoe.next}
            self.log.append(tx, by, "game-end", end, game)
            tx.games.end(game, "voided", self.log.clock())
            self.log.checkpoint(tx)
        table = self._playing(table_id, game)
        if table is not None:
            with table.lock:
                table.engine, table.game = None, None
        return returned

    def _playing(self, table_id: str, game: str) -> Table | None:
        """The table (or per-player game) whose open game is ``game``."""
        table = self._serving(table_id)
        if table is None:
            return None
        for t in (table, *list(table.games_of.values())):
            if t.game == game:
                return t
        return None

    def void_table(self, table_id: str, *, reason: str, by: str) -> dict[str, dict[str, int]]:
        """Void a suspended table's open game (every player's, at a per-player table):
        the stakes go back and the seats are freed. Returns what each game returned."""
        table = self.table(table_id)
        targets = list(table.games_of.values()) if table.per_player else [table]
        games = [(t, t.game) for t in targets if t.game is not None]
        if not table.suspended or not games:
            raise TableError("only a suspended table's game can be voided: suspend it first")
        out: dict[str, dict[str, int]] = {}
        for t, game in games:
            assert game is not None
            out[game] = self.void(game, reason=reason, by=by)
            if t.owner is not None:
                table.drop(t.owner)
            else:
                t.release_all()
        return out

    # --- history and audit ---------------------------------------------------

    def finished_games(self, table_id: str) -> int:
        with self.db.read() as tx:
            return tx.games.settled(table_id)

    def seat_totals(self, table_id: str) -> dict[str, int]:
        """Total staked and net over a table's settled games (for RTP reports)."""
        with self.db.read() as tx:
            staked, net = tx.games.totals(table_id)
        return {"staked": staked, "net": net, "returned": staked + net}

    def history(self, player: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        """The player's last ``limit`` games, newest first, with net result (cents)."""
        with self.db.read() as tx:
            rows = tx.games.history(player, limit)
        return [
            {
                "game": r.game,
                "variant": r.variant,
                "table": r.table,
                "status": r.status,
                "started": r.started,
                "ended": r.ended,
                "staked": r.staked,
                "net": r.net if r.status == "settled" else 0,
                "collection": r.collection if r.status == "settled" else 0,
            }
            for r in rows
        ]

    def audit(self) -> dict[str, Any]:
        """Ledger balances, and every finished game appears once in the log."""
        return self.db.audit()


def _stakes(o: Outstanding) -> dict[str, int]:
    return {f"{s}:{b}": a for (s, b), a in sorted(o.stakes.items()) if a}


__all__ = ["InsufficientFunds", "Recovery", "Replayed", "Runtime"]

"""The ledger the log implies, compared with the ledger the store holds, row by row.

Every ledger transaction is caused by one log record and names it (``txns.log_seq``,
``txns.log_hash``: the hash names it in whichever writer's chain it is, the seq must
agree). This module reads the log alone, every chain in the store's order (a game's
records in the order they were written, whichever writer wrote them), and derives from each
money record the transactions it implies, through the very rules the runtime posts
with (:mod:`kiosk_ui.table.money`):

============================  =================================================
``cash-in`` / ``cash-out``    cash <-> the wallet the record names, its amount
``table-open``                the meters it says it ``seeded`` (house -> meter);
                              its ``jackpots`` give each meter's reset value
``game-start``                (no money) the table and seats of the game
``seat-player``               (no money) who holds a seat from now on
``event`` (bet-placed, ...)   the engine event's rule (a collection-charged: the
                              wallet -> ``collection``); the wallet is the seat's
                              player per the log; a jackpot win pays from the
                              meter balance the log itself implies
``game-void``                 the stakes the game's own events left on the
                              layout go back (and must equal what it says),
                              and the collection its deal charged
``jackpot-paid``              (no money) must state what the win paid
``voucher-issued`` / ...      wallet -> ``vouchers``; paid to a wallet (ticket-in)
                              or to cash (the cage); expired to the house; each
                              voucher issued once and closed at most once
                              (:mod:`kiosk_ui.cashier.entries`)
``buy-in`` / ``stack-out``    a poker room: the wallet <-> the player's stack at
                              the table; a room's (``table-open`` ``room``)
                              events and voids follow the room's rules
                              (:mod:`kiosk_ui.table.room_money`: stack <-> pot
                              -> revenue, never the house)
============================  =================================================

Then it compares, record by record: each implied transaction must be stored once,
with that record's hash, kind, game and exactly its postings; a stored transaction
that names a record implying nothing, a record not in the log, or a record that
already paid, is a forgery. Finally every account's balance (wallets, stakes, house,
commission, meters, cash) is recomputed from the log and compared with the store.
Each problem names the row: ledger transaction id, posting id (``postings.rowid``),
log seq.

The log's own integrity (hash chain, signatures) is ``croupier log verify``'s proof;
this audit checks that each money record's bytes still hash to its stored hash.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from games.core.money import format_cents
from games.core.records import Event, JackpotWin
from kiosk_ui.cashier.entries import MONEY_TYPES as VOUCHER_TYPES
from kiosk_ui.cashier.entries import OpenVouchers
from kiosk_ui.errors import LedgerError
from kiosk_ui.store import ledger
from kiosk_ui.store.sql import Conn, dialect
from kiosk_ui.table.money import (
    MONEY_EVENTS,
    Entry,
    Outstanding,
    cash_entry,
    event_entries,
    seed_entry,
    void_collection_entry,
    void_entry,
)
from kiosk_ui.table.room_money import (
    BUY_IN,
    ROOM_EVENTS,
    STACK_OUT,
    buy_in_entry,
    room_event_entries,
    room_void_entry,
    room_void_fee_entry,
    stack_out_entry,
)
from kiosk_ui.table.seating import SEAT_PLAYER

#: log record types the derivation reads (engine events are filtered to money kinds)
READ_TYPES = (
    "cash-in",
    "cash-out",
    "table-open",
    "game-start",
    SEAT_PLAYER,
    "game-void",
    "game-end",
    "jackpot-paid",
    *VOUCHER_TYPES,
    BUY_IN,
    STACK_OUT,
)
#: every money event's canonical JSON holds one of these (a superset filter; decoded after)
_EVENT_MARKS = (
    b'"kind":"bet-',
    b'"kind":"jackpot-',
    b'"kind":"collection-',
    b'"kind":"chips-in"',  # a poker room's (kiosk_ui.table.room_money.ROOM_EVENTS)
    b'"kind":"uncalled-returned"',
    b'"kind":"pot-awarded"',
    b'"kind":"raked"',
)


_KINDS: tuple[type[Event], ...] = (*MONEY_EVENTS, *ROOM_EVENTS)
_MONEY_KINDS: dict[str, type[Event]] = {cls.kind: cls for cls in _KINDS}


def _money_event(body: dict[str, Any]) -> Event | None:
    """The money event an event record holds, or None for any other event.

    Money events have only integer and text fields, so they are built straight from
    the record (``games.core.records.decode`` resolves type hints on every call, far
    too slow for millions of records); a field of another type is refused.
    """
    cls = _MONEY_KINDS.get(body.get("kind", ""))
    if cls is None:
        return None
    fields = {k: v for k, v in body.items() if k != "kind"}
    for name, value in fields.items():
        if type(value) not in (int, str):
            raise ValueError(f"{cls.kind}: field {name} is {value!r}")
    return cls(**fields)


@dataclass(slots=True)
class _Txn:
    id: int
    kind: str
    game: str
    log_hash: str
    postings: list[list[Any]] = field(default_factory=list)  # [rowid, account, cents]
    seq: int | None = None  # the log seq it names


@dataclass(slots=True)
class _Game:
    table: str
    seats: dict[int, str]
    room: bool = False  # a poker room's hand (player against player)
    outstanding: Outstanding = field(default_factory=Outstanding)
    awards: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, meter) -> paid


@dataclass(frozen=True, slots=True)
class Derivation:
    """What the comparison found."""

    problems: list[str]
    balances: dict[str, int]  # every account's balance per the log
    records: int  # money records read from the log
    ends: dict[str, int]  # game -> its game-end records
    vouchers: dict[str, int] = field(default_factory=dict)  # open per the log: serial -> cents


def _cents(amount: int) -> str:
    return ("+" if amount >= 0 else "") + format_cents(amount)


def _fmt(moves: list[tuple[str, int]]) -> str:
    return ", ".join(f"{a} {_cents(m)}" for a, m in moves) or "nothing"


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{what} is not a positive number of cents: {value!r}")
    return value


class _Deriver:
    def __init__(self) -> None:
        self.balances: dict[str, int] = {}
        self.games: dict[str, _Game] = {}
        self.resets: dict[str, dict[str, int]] = {}  # table -> meter -> reset value
        self.vouchers = OpenVouchers()
        self.rooms: set[str] = set()  # the poker room tables (table-open ``room``)

    def entries(self, seq: int, type_: str, game: str, body: dict[str, Any]) -> list[Entry]:
        """The transactions record ``seq`` implies; raises ValueError/KeyError if unreadable."""
        if type_ in ("cash-in", "cash-out"):
            return [cash_entry(type_, str(body["player"]), _int(body["amount"], "the amount"))]
        if type_ in VOUCHER_TYPES:
            return self.vouchers.entries(type_, body)
        if type_ in (BUY_IN, STACK_OUT):
            room = str(body["table"])
            if room not in self.rooms:
                raise ValueError(f"table {room} is no poker room")
            amount = _int(body["amount"], "the amount")
            made = buy_in_entry if type_ == BUY_IN else stack_out_entry
            return [made(room, str(body["player"]), amount)]
        if type_ == "table-open":
            table = str(body["table"])
            if body.get("room") is True:
                self.rooms.add(table)
            self.resets[table] = {str(m): int(r) for m, r in body.get("jackpots", {}).items()}
            out = []
            for meter, amount in body.get("seeded", {}).items():
                if ledger.jackpot(meter) in self.balances:
                    raise ValueError(f"it seeds meter {meter}, which already holds money")
                out.append(seed_entry(str(meter), _int(amount, f"the seed of {meter}")))
            return out
        if type_ == "game-start":
            seats = {int(k): str(v) for k, v in body.get("seats", {}).items()}
            table = str(body["table"])
            self.games[game] = _Game(table, seats, room=table in self.rooms)
            return []
        g = self.games.get(game)
        if g is None:
            if type_ == "game-end":
                return []
            raise ValueError(f"game {game!r} has no game-start record before it")
        if type_ == SEAT_PLAYER:
            g.seats[int(body["seat"])] = str(body["player"])
            return []
        if type_ == "event":
            return self._event(g, body)
        if type_ == "game-void":
            return self._void(g, body)
        if type_ == "jackpot-paid":
            key = (int(body["seat"]), str(body["meter"]))
            paid = g.awards.pop(key, None)
            if paid != body["amount"]:
                raise ValueError(f"it says {body['amount']!r} cents, the win paid {paid}")
            return []
        if type_ == "game-end":
            del self.games[game]
        return []

    def _event(self, g: _Game, body: dict[str, Any]) -> list[Entry]:
        """An engine event's transactions (a poker room's by the room's rules)."""
        ev = _money_event(body)
        seat = getattr(ev, "seat", None)
        if ev is None or (seat is None and not g.room):  # a room's rake is the pot's
            return []
        holder = g.seats.get(seat) if seat is not None else ""
        if holder is None:
            raise ValueError(f"seat {seat} has no player in the log")
        g.outstanding.apply(ev)
        if g.room:
            return room_event_entries(ev, table=g.table, player=holder)
        assert seat is not None
        meter_balance, reset = 0, 0
        if isinstance(ev, JackpotWin):
            meter_balance = self.balances.get(ledger.jackpot(ev.meter), 0)
            reset = self.resets.get(g.table, {}).get(ev.meter, 0)
        out = event_entries(
            ev, table=g.table, player=holder, meter_balance=meter_balance, reset=reset
        )
        if isinstance(ev, JackpotWin):
            g.awards[(seat, ev.meter)] = sum(
                p.amount for p in out[0].postings if p.account == ledger.wallet(holder)
            )
        return out

    def _void(self, g: _Game, body: dict[str, Any]) -> list[Entry]:
        """A game-void: the stakes and fees its own events left must be what it returns."""
        left = {f"{s}:{b}": a for (s, b), a in sorted(g.outstanding.stakes.items()) if a}
        if dict(body.get("stakes", {})) != left:
            raise ValueError(f"it returns {body.get('stakes')} but the game's bets left {left}")
        out = []
        for (seat, bet), amount in sorted(g.outstanding.stakes.items()):
            if amount > 0:
                player = g.seats.get(seat)
                if player is None:
                    raise ValueError(f"seat {seat} has no player in the log")
                returns = room_void_entry if g.room else void_entry
                out.append(returns(g.table, player, seat, bet, amount, ""))
        fees = g.outstanding.fees_text()
        if dict(body.get("collection", {})) != fees:
            raise ValueError(f"it returns collection {body.get('collection')} but {fees} was paid")
        for seat, fee in sorted(g.outstanding.fees.items()):
            player = g.seats.get(seat)
            if player is None:
                raise ValueError(f"seat {seat} has no player in the log")
            if g.room:
                out.append(room_void_fee_entry(g.table, player, seat, fee, ""))
            else:
                out.append(void_collection_entry(player, seat, fee, ""))
        g.outstanding = Outstanding()
        return out

    def apply(self, entries: list[Entry]) -> None:
        for e in entries:
            for p in e.postings:
                if p.amount:
                    self.balances[p.account] = self.balances.get(p.account, 0) + p.amount


def derive(conn: Conn) -> Derivation:
    """Derive the ledger from the log and compare it with the stored rows (see module doc)."""
    problems: list[str] = []
    # Each transaction's postings as one JSON array, grouped by the database (far
    # fewer Python objects than a row per posting).
    postgres = dialect(conn) == "postgresql"
    grouped = (
        "json_agg(json_build_array(rowid, account, amount))::text"
        if postgres
        else "json_group_array(json_array(rowid, account, amount))"
    )
    postings_of: dict[int, list[list[Any]]] = {
        int(tid): orjson.loads(rows)
        for tid, rows in conn.execute(f"SELECT txn, {grouped} FROM postings GROUP BY txn")
    }
    by_hash: dict[str, list[_Txn]] = {}
    for tid, kind, game, seq, log_hash in conn.execute(
        "SELECT id, kind, game, log_seq, log_hash FROM txns ORDER BY id"
    ):
        t = _Txn(tid, kind, game, log_hash or "", postings_of.pop(tid, []), seq)
        by_hash.setdefault(t.log_hash, []).append(t)
    for tid, rows in sorted(postings_of.items()):
        for rowid, account, amount in rows:
            problems.append(
                f"posting {rowid} ({account} {_cents(amount)}) belongs to no ledger "
                f"transaction (it names {tid})"
            )
    del postings_of

    deriver = _Deriver()
    found = "position(? in data) > 0" if postgres else "instr(data, ?) > 0"
    marks = " OR ".join(found for _ in _EVENT_MARKS)
    types = ", ".join("?" for _ in READ_TYPES)
    records = 0
    ends: Counter[str] = Counter()
    for chain, seq, record_hash, type_, data in conn.execute(
        f"SELECT chain, seq, hash, type, data FROM log WHERE type IN ({types}) "
        f"OR (type = 'event' AND ({marks})) ORDER BY id",
        (*READ_TYPES, *_EVENT_MARKS),
    ):
        what = record_label(chain, seq, type_)
        try:
            rec = orjson.loads(data)
            game = str(rec.get("game", ""))
            expected = deriver.entries(seq, type_, game, rec["body"])
        except (KeyError, ValueError, TypeError, LedgerError, AttributeError) as exc:
            problems.append(f"{what} cannot be derived: {exc}")
            expected, game = [], ""
        if type_ == "game-end":
            ends[game] += 1
        stored = by_hash.pop(record_hash, [])
        if expected or stored:
            records += 1
            _compare(seq, what, record_hash, game, data, expected, stored, problems)
        deriver.apply(expected)
    problems += _unmatched(conn, by_hash)
    cached = ledger.cached_balances(conn)
    for name in sorted(set(cached) | set(deriver.balances)):
        have, want = cached.get(name, 0), deriver.balances.get(name, 0)
        if have != want:
            problems.append(
                f"account {name}: balance {format_cents(have)}, the log says {format_cents(want)}"
            )
    return Derivation(problems, deriver.balances, records, dict(ends), deriver.vouchers.open)


def record_label(chain: str, seq: int, type_: str) -> str:
    """How a problem names a log record: ``log record SEQ (TYPE)``, with its chain on a
    store of several writers."""
    where = f" of chain {chain}" if chain else ""
    return f"log record {seq}{where} ({type_})"


def _unmatched(conn: Conn, by_hash: dict[str, list[_Txn]]) -> list[str]:
    """The ledger transactions that name no money record of the log: each names no
    record, one not in the log, or one that moves no money."""
    problems = []
    for log_hash, stored in by_hash.items():
        row = (
            conn.execute(
                "SELECT chain, seq, type FROM log WHERE hash = ? LIMIT 1", (log_hash,)
            ).fetchone()
            if log_hash
            else None
        )
        for t in stored:
            if t.seq is None or not log_hash:
                problems.append(f"ledger transaction {t.id} ({t.kind}) names no log record")
            elif row is None:
                problems.append(
                    f"ledger transaction {t.id} ({t.kind}) names log record {t.seq}, "
                    "which is not in the log"
                )
            else:
                problems.append(
                    f"ledger transaction {t.id} ({t.kind}) names "
                    f"{record_label(str(row[0]), int(row[1]), str(row[2]))}, "
                    "which moves no money"
                )
    return problems


def _compare(
    seq: int,
    what: str,
    record_hash: str,
    game: str,
    data: bytes,
    expected: list[Entry],
    stored: list[_Txn],
    problems: list[str],
) -> None:
    """One record's implied transactions against the stored ones that name it."""
    if expected and hashlib.sha256(data).hexdigest() != record_hash:
        problems.append(
            f"{what}: its bytes do not hash to its stored hash "
            "(croupier log verify names the change)"
        )
    implied = [e for e in expected if ledger.moving(e.postings)]
    named = []
    for t in stored:
        if t.seq == seq:
            named.append(t)
        else:  # its hash is this record's, its seq another's: not one of this record's rows
            problems.append(
                f"ledger transaction {t.id} ({t.kind}) names log record {t.seq} by the "
                f"hash {record_hash[:16]} of {what} (a reused sequence number)"
            )
    stored = named
    for i in range(max(len(implied), len(stored))):
        if i >= len(stored):
            e = implied[i]
            moves = [(p.account, p.amount) for p in ledger.moving(e.postings)]
            problems.append(f"{what} implies {e.kind} {_fmt(moves)}, which the ledger lacks")
            continue
        t = stored[i]
        if i >= len(implied):
            if not implied:
                problems.append(
                    f"ledger transaction {t.id} ({t.kind}) names {what}, which moves no money"
                )
            else:
                problems.append(
                    f"ledger transaction {t.id} ({t.kind}) pays {what} again: the record "
                    f"pays once, as transaction {stored[0].id}"
                    if len(implied) == 1
                    else f"ledger transaction {t.id} ({t.kind}) pays {what} again: the record "
                    f"pays {len(implied)} transactions, transactions "
                    f"{', '.join(str(s.id) for s in stored[: len(implied)])}"
                )
            continue
        e = implied[i]
        rows: list[list[Any]] = [[p.account, p.amount] for p in e.postings if p.amount]
        if t.kind == e.kind and [r[1:] for r in t.postings] == rows:
            if t.game != game:
                problems.append(
                    f"ledger transaction {t.id} ({t.kind}) names game {t.game!r}, {what} is of "
                    f"game {game!r}"
                )
            continue
        want: Counter[tuple[str, int]] = Counter((str(a), int(m)) for a, m in rows)
        got = Counter((str(a), int(m)) for _, a, m in t.postings)
        if t.kind != e.kind or want != got:
            unmatched, extra = Counter(want), []
            for r, a, m in t.postings:
                if unmatched[(a, m)] > 0:
                    unmatched[(a, m)] -= 1
                else:
                    extra.append(f"posting {r} {a} {_cents(m)}")
            problems.append(
                f"ledger transaction {t.id} ({t.kind}) differs from {what}, which implies "
                f"{e.kind} {_fmt(sorted(want.elements()))}"
                + (f": {'; '.join(extra)} not implied" if extra else "")
            )
        elif t.game != game:
            problems.append(
                f"ledger transaction {t.id} ({t.kind}) names game {t.game!r}, {what} is of "
                f"game {game!r}"
            )

"""Turn money records into ledger transactions (one rule per kind; the audit uses the same rules).

Every ledger transaction is caused by one log record and names it (seq and hash). The
rules here are pure: given what the record says (and, for a progressive award, the
meter's balance before it), they return the transactions it implies. The runtime posts
what they return (:func:`post_event`, :func:`post_entries`); ``croupier ledger audit``
(:mod:`kiosk_ui.store.derived`) replays the whole log through the same rules and
compares what they return with the stored rows, row by row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from games.core import collection
from games.core.engine import Engine
from games.core.money import format_cents
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    CollectionCharged,
    Event,
    JackpotContribution,
    JackpotWin,
)
from games.core.round import Round
from games.poker_room.events import ChipsIn, CollectionReturned, Uncalled
from kiosk_ui.errors import InsufficientFunds, LedgerError
from kiosk_ui.store import ledger
from kiosk_ui.store.ledger import Posting
from kiosk_ui.store.protocol import Tx

#: The engine events that move money (each one a ledger transaction).
MONEY_EVENTS = (
    BetPlaced,
    BetReturned,
    BetSettled,
    CollectionCharged,
    JackpotContribution,
    JackpotWin,
)


@dataclass
class Outstanding:
    """Stakes still on the layout per (seat, bet), and the collection each seat paid,
    folded from a game's money events (a voided game returns both). At a poker room,
    a seat's chips in the pot are its stake ``(seat, "pot")`` (a void comes before any
    pot is awarded: the hand's awards and its end are one request)."""

    stakes: dict[tuple[int, str], int] = field(default_factory=dict)
    fees: dict[int, int] = field(default_factory=dict)

    def apply(self, ev: Event) -> None:
        if isinstance(ev, BetPlaced):
            key = (ev.seat, ev.bet)
            self.stakes[key] = self.stakes.get(key, 0) + ev.amount
        elif isinstance(ev, BetReturned):
            key = (ev.seat, ev.bet)
            self.stakes[key] = self.stakes.get(key, 0) - ev.amount
        elif isinstance(ev, BetSettled):
            key = (ev.seat, ev.bet)
            self.stakes[key] = self.stakes.get(key, 0) - ev.stake
        elif isinstance(ev, CollectionCharged):
            self.fees[ev.seat] = self.fees.get(ev.seat, 0) + ev.amount
        elif isinstance(ev, CollectionReturned):  # a poker room's misdeal
            self.fees[ev.seat] = self.fees.get(ev.seat, 0) - ev.amount
        elif isinstance(ev, ChipsIn | Uncalled):  # a poker room: chips in the pot
            key = (ev.seat, "pot")
            sign = 1 if isinstance(ev, ChipsIn) else -1
            self.stakes[key] = self.stakes.get(key, 0) + sign * ev.amount

    def fees_text(self) -> dict[str, int]:
        """The collection paid by seat (seat as text), as a game-void record states it."""
        return {str(s): a for s, a in sorted(self.fees.items()) if a}


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger transaction a log record implies."""

    kind: str
    postings: tuple[Posting, ...]
    memo: str = ""


def cash_entry(kind: str, player: str, amount: int, operator: str = "") -> Entry:
    """A ``cash-in`` (cash -> wallet) or ``cash-out`` (wallet -> cash) record."""
    if kind not in ("cash-in", "cash-out"):
        raise LedgerError(f"not a cash movement: {kind}")
    sign = 1 if kind == "cash-in" else -1
    return Entry(
        kind,
        (Posting(ledger.CASH, -sign * amount), Posting(ledger.wallet(player), sign * amount)),
        f"by {operator}" if operator else "",
    )


def seed_entry(meter: str, amount: int) -> Entry:
    """A new progressive meter starts at its reset value, funded by the house."""
    return Entry(
        "jackpot-seed",
        (Posting(ledger.HOUSE, -amount), Posting(ledger.jackpot(meter), amount)),
        f"meter {meter} seeded",
    )


def void_entry(table: str, player: str, seat: int, bet: str, amount: int, reason: str) -> Entry:
    """A stake still on the layout of a voided game goes back to its player."""
    return Entry(
        "void-return",
        (Posting(ledger.stakes(table), -amount), Posting(ledger.wallet(player), amount)),
        f"seat {seat} {bet} returned: {reason}",
    )


def void_collection_entry(player: str, seat: int, amount: int, reason: str) -> Entry:
    """The collection a voided hand charged goes back: the hand was never played."""
    return Entry(
        "void-return",
        (Posting(ledger.COLLECTION, -amount), Posting(ledger.wallet(player), amount)),
        f"seat {seat} collection returned: {reason}",
    )


def event_entries(
    event: Event, *, table: str, player: str, meter_balance: int = 0, reset: int = 0
) -> list[Entry]:
    """The transactions one engine event implies (none for events that move no money).

    BetPlaced: wallet -> stakes. BetReturned: stakes -> wallet. BetSettled: the stake
    leaves the layout; the player gets ``returned - commission``; the house takes
    ``stake - returned``; commission goes to its own account. CollectionCharged: wallet ->
    the collection account (the fee never touches the layout). JackpotContribution: house ->
    meter. JackpotWin: meter -> wallet (see :func:`jackpot_entries`; ``meter_balance`` is
    the meter's balance before the award, ``reset`` its reset value).
    """
    w, s = ledger.wallet(player), ledger.stakes(table)
    memo = f"seat {event.seat}" if hasattr(event, "seat") else ""
    moves: tuple[Posting, ...]
    if isinstance(event, BetPlaced):
        moves = (Posting(w, -event.amount), Posting(s, event.amount))
        return [Entry("bet", moves, f"{memo} {event.bet}")]
    if isinstance(event, BetReturned):
        moves = (Posting(s, -event.amount), Posting(w, event.amount))
        return [Entry("bet-returned", moves, f"{memo} {event.bet}")]
    if isinstance(event, BetSettled):
        if min(event.stake, event.returned, event.commission) < 0:
            raise LedgerError(f"negative amount in settlement {event}")
        moves = (
            Posting(s, -event.stake),
            Posting(w, event.returned - event.commission),
            Posting(ledger.HOUSE, event.stake - event.returned),
            Posting(ledger.COMMISSION, event.commission),
        )
        kind = event.result if event.result in ("win", "lose", "push") else "settle"
        return [Entry(kind, moves, f"{memo} {event.bet}")]
    if isinstance(event, CollectionCharged):
        if event.amount < 0:
            raise LedgerError(f"negative collection {event}")
        moves = (Posting(w, -event.amount), Posting(ledger.COLLECTION, event.amount))
        return [Entry("collection", moves, memo)]
    if isinstance(event, JackpotContribution):
        if event.amount < 0:
            raise LedgerError(f"negative jackpot contribution {event}")
        moves = (
            Posting(ledger.HOUSE, -event.amount),
            Posting(ledger.jackpot(event.meter), event.amount),
        )
        return [Entry("jackpot-contribution", moves, memo)]
    if isinstance(event, JackpotWin):
        return jackpot_entries(event, player=player, meter_balance=meter_balance, reset=reset)
    return []


def collection_due(engine: Engine) -> list[CollectionCharged]:
    """What each seat pays if ``engine``'s hand is dealt now, for the wagers now placed.

    The engine charges the same schedule at the deal (:mod:`games.core.collection`); a
    bank that does not cover every wager may return some first, so this is never less
    than what the deal will charge. None on a table that takes no collection.
    """
    if not isinstance(engine, Round) or engine.variant.collection is None:
        return []
    return collection.charges(engine.variant.collection, engine.bets)


def check_collection(due: Iterable[CollectionCharged], balance_of: dict[int, int]) -> None:
    """Refuse the deal (before anything moves) if a seat cannot pay its collection.

    ``balance_of``: each seated player's wallet by seat, the wagers already taken from it.

    >>> check_collection([CollectionCharged(seat=0, amount=100)], {0: 100})
    >>> try:
    ...     check_collection([CollectionCharged(seat=1, amount=200)], {1: 150})
    ... except InsufficientFunds as exc:
    ...     print(str(exc).split(";")[0])
    seat 1 cannot pay the collection: the fee for this hand's wagers is $2.00 and the \
balance left after the wagers is $1.50
    """
    for fee in due:
        have = balance_of.get(fee.seat)
        if have is not None and have < fee.amount:
            raise InsufficientFunds(
                f"seat {fee.seat} cannot pay the collection: the fee for this hand's wagers "
                f"is {format_cents(fee.amount)} and the balance left after the wagers is "
                f"{format_cents(have)}; add credits or take a wager down"
            )


def jackpot_award(meter_balance: int, event: JackpotWin) -> int:
    """Cents a progressive award pays: the fixed part plus its share of the meter.

    >>> jackpot_award(2_500_000, JackpotWin(seat=0, meter="m", share_bp=1_000))
    250000
    >>> jackpot_award(2_500_000, JackpotWin(seat=0, meter="m", fixed=50_000))
    50000
    """
    return event.fixed + meter_balance * event.share_bp // 10_000


def jackpot_entries(
    event: JackpotWin, *, player: str, meter_balance: int, reset: int
) -> list[Entry]:
    """Pay a progressive award from its meter, then refill the meter to ``reset`` from the house."""
    meter = ledger.jackpot(event.meter)
    amount = jackpot_award(meter_balance, event)
    top_up = max(0, amount - meter_balance)  # the house guarantees a fixed award a low meter cannot
    postings = [Posting(ledger.HOUSE, -top_up), Posting(meter, top_up)] if top_up else []
    postings += [Posting(meter, -amount), Posting(ledger.wallet(player), amount)]
    out = [Entry("jackpot-win", tuple(postings), event.hand)]
    refill = max(0, reset - (meter_balance + top_up - amount))
    if refill:
        out.append(
            Entry(
                "jackpot-reset",
                (Posting(ledger.HOUSE, -refill), Posting(meter, refill)),
                f"meter {event.meter} back to its reset value",
            )
        )
    return out


class RowKeys(TypedDict):
    """What every posted row of one money event carries, for ``**`` into a poster
    (:func:`post_event`, :func:`~kiosk_ui.table.room_money.post_room_event`): the table,
    the game, the seat's player ("" for none, as a rake), the time and the log record."""

    table: str
    game: str
    player: str
    ts: int
    log_seq: int
    log_hash: str


def post_entries(
    conn: Tx,
    entries: Iterable[Entry],
    *,
    ts: int,
    log_seq: int,
    log_hash: str,
    game: str = "",
) -> None:
    """Post each entry as one transaction naming the record (seq, hash) that caused it."""
    for e in entries:
        conn.ledger.post(
            e.kind,
            e.postings,
            ts=ts,
            game=game,
            memo=e.memo,
            log_seq=log_seq,
            log_hash=log_hash,
        )


def post_event(
    conn: Tx,
    event: Event,
    *,
    table: str,
    game: str,
    player: str,
    ts: int,
    log_seq: int,
    log_hash: str,
    reset: int = 0,
) -> int:
    """Post the ledger rows for one event record; return the player's net change in play."""
    meter_balance = (
        conn.ledger.balance(ledger.jackpot(event.meter)) if isinstance(event, JackpotWin) else 0
    )
    entries = event_entries(
        event, table=table, player=player, meter_balance=meter_balance, reset=reset
    )
    post_entries(conn, entries, ts=ts, log_seq=log_seq, log_hash=log_hash, game=game)
    if isinstance(event, BetSettled):
        return event.net
    if isinstance(event, CollectionCharged):
        return -event.amount
    if isinstance(event, JackpotWin):
        return jackpot_award(meter_balance, event)
    return 0

"""Money at a poker room table, where players play against each other (issue 15).

The house deals, runs the betting, holds the pot and takes a collection; it never
wins or loses a hand. So a room's money never touches ``house``:

================  ==============================================================
``buy-in``        a player's wallet -> their stack at the table (``stack:<t>:<p>``)
``stack-out``     the whole stack back to the wallet when the player leaves
engine events     chips-in (ante, blind, bring-in, bet, call, raise): the stack ->
                  the table's pot (``pot:<t>``); uncalled-returned: pot -> stack;
                  pot-awarded: pot -> the winner's stack; raked: pot -> ``revenue``;
                  collection-charged (a seat fee, at the start of the hand): the
                  stack -> ``revenue``; collection-returned (a misdeal): back
``game-void``     every chip a player committed to the voided hand: pot -> stack,
                  and a seat fee it charged: revenue -> stack
================  ==============================================================

Stacks and pots never go negative (the ledger refuses it), and the pot of a table
with no hand in play is empty (the audit says so otherwise). Pure rules: the runtime
posts what they return and the audit (:mod:`kiosk_ui.store.derived`) derives the
same from the log.
"""

from __future__ import annotations

from games.core.records import CollectionCharged, Event
from games.poker_room.events import ChipsIn, CollectionReturned, PotAwarded, Raked, Uncalled
from kiosk_ui.errors import LedgerError
from kiosk_ui.store import ledger
from kiosk_ui.store.ledger import Posting
from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.money import Entry, post_entries

BUY_IN = "buy-in"  # log record: wallet -> stack
STACK_OUT = "stack-out"  # log record: stack -> wallet
#: the engine events that move a room's money (each one a ledger transaction)
ROOM_EVENTS: tuple[type[Event], ...] = (
    ChipsIn,
    Uncalled,
    PotAwarded,
    Raked,
    CollectionCharged,
    CollectionReturned,
)


def buy_in_entry(table: str, player: str, amount: int) -> Entry:
    """A buy-in (or an add-on between hands): chips from the wallet to the stack.

    >>> [(p.account, p.amount) for p in buy_in_entry("r1", "ann", 4000).postings]
    [('wallet:ann', -4000), ('stack:r1:ann', 4000)]
    """
    _positive(amount, "a buy-in")
    return Entry(
        BUY_IN,
        (Posting(ledger.wallet(player), -amount), Posting(ledger.stack(table, player), amount)),
        f"buy-in at {table}",
    )


def stack_out_entry(table: str, player: str, amount: int) -> Entry:
    """The player leaves the table: the whole stack goes back to the wallet.

    >>> [(p.account, p.amount) for p in stack_out_entry("r1", "ann", 2550).postings]
    [('stack:r1:ann', -2550), ('wallet:ann', 2550)]
    """
    _positive(amount, "a stack returned")
    return Entry(
        STACK_OUT,
        (Posting(ledger.stack(table, player), -amount), Posting(ledger.wallet(player), amount)),
        f"leaves {table}",
    )


def room_event_entries(event: Event, *, table: str, player: str) -> list[Entry]:
    """The transactions one engine event implies at a poker room (see the module doc);
    ``player`` is the seat's (none for the rake, which is the pot's).

    >>> bet = ChipsIn(seat=2, amount=200, what="bet", street=1)
    >>> [(p.account, p.amount) for p in room_event_entries(bet, table="r", player="bo")[0].postings]
    [('stack:r:bo', -200), ('pot:r', 200)]
    >>> won = PotAwarded(seat=2, pot=0, amount=1150, hand="two pair")
    >>> [(p.account, p.amount) for p in room_event_entries(won, table="r", player="bo")[0].postings]
    [('pot:r', -1150), ('stack:r:bo', 1150)]
    """
    st, pot = ledger.stack(table, player), ledger.pot(table)
    amount: int = getattr(event, "amount", 0)
    if not isinstance(event, ROOM_EVENTS):
        raise LedgerError(f"a poker room moves no money on {event.kind}: {event}")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise LedgerError(f"negative or non-integer amount in {event}")
    memo = f"seat {getattr(event, 'seat', '')}"
    if isinstance(event, ChipsIn):
        moves = (Posting(st, -amount), Posting(pot, amount))
        return [Entry("chips-in", moves, f"{memo} {event.what}")]
    if isinstance(event, Uncalled):
        return [Entry("uncalled", (Posting(pot, -amount), Posting(st, amount)), memo)]
    if isinstance(event, PotAwarded):
        moves = (Posting(pot, -amount), Posting(st, amount))
        return [Entry("pot-won", moves, f"{memo} pot {event.pot}: {event.hand}")]
    if isinstance(event, CollectionCharged):  # the seat fee, from the stack
        return [Entry("seat-fee", (Posting(st, -amount), Posting(ledger.REVENUE, amount)), memo)]
    if isinstance(event, CollectionReturned):  # a misdeal: the seat fee back
        moves = (Posting(ledger.REVENUE, -amount), Posting(st, amount))
        return [Entry("seat-fee-returned", moves, memo)]
    moves = (Posting(pot, -amount), Posting(ledger.REVENUE, amount))  # Raked
    return [Entry("rake", moves, f"pot {getattr(event, 'pot', 0)}")]


def post_room_event(
    conn: Tx,
    event: Event,
    *,
    table: str,
    game: str,
    player: str,
    ts: int,
    log_seq: int,
    log_hash: str,
) -> tuple[int, int]:
    """Post one event record's room transactions (:func:`room_event_entries`); return
    (chips committed, net change of the seat's stack) for the game's seat row."""
    entries = room_event_entries(event, table=table, player=player)
    post_entries(conn, entries, ts=ts, log_seq=log_seq, log_hash=log_hash, game=game)
    amount: int = getattr(event, "amount", 0)
    if isinstance(event, ChipsIn):
        return amount, -amount
    if isinstance(event, Uncalled):
        return -amount, amount
    if isinstance(event, PotAwarded):
        return 0, amount
    if isinstance(event, CollectionCharged):
        return 0, -amount
    if isinstance(event, CollectionReturned):
        return 0, amount
    return 0, 0


def room_void_entry(
    table: str, player: str, seat: int, bet: str, amount: int, reason: str
) -> Entry:
    """A voided hand: what the seat committed (to ``bet``) goes back from the pot to its
    stack (the same signature as :func:`kiosk_ui.table.money.void_entry`)."""
    _positive(amount, "a void return")
    return Entry(
        "void-return",
        (Posting(ledger.pot(table), -amount), Posting(ledger.stack(table, player), amount)),
        f"seat {seat} {bet} returned: {reason}",
    )


def _positive(amount: int, what: str) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError(f"{what} must be a positive number of cents, not {amount!r}")


def room_void_fee_entry(table: str, player: str, seat: int, amount: int, reason: str) -> Entry:
    """A voided hand was never played: the seat fee it charged goes back to the stack."""
    _positive(amount, "a void return")
    return Entry(
        "void-return",
        (Posting(ledger.REVENUE, -amount), Posting(ledger.stack(table, player), amount)),
        f"seat {seat} seat fee returned: {reason}",
    )

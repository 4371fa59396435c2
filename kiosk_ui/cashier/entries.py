"""The ledger rules of vouchers: what each voucher record moves (the runtime posts these,
the audit derives them from the log with the same functions).

===================  =====================================================
``voucher-issued``   the player's wallet -> ``vouchers`` (ticket-out)
``voucher-redeemed`` ``vouchers`` -> the redeeming player's wallet
                     (ticket-in at a kiosk) or -> ``cash`` (paid at the cage)
``voucher-expired``  ``vouchers`` -> ``house`` (unclaimed past its expiry)
``voucher-refused``  nothing (a wrong, paid or expired number, kept as evidence)
===================  =====================================================

:class:`OpenVouchers` folds the records in log order and refuses what cannot be: a
serial issued twice, a voucher paid (or expired) twice or never issued, an amount that
is not the issued one. So the audit proves each voucher was paid at most once, and the
``vouchers`` account equals the sum of the vouchers the log leaves open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk_ui.store import ledger
from kiosk_ui.store.ledger import Posting
from kiosk_ui.table.money import Entry

ISSUED = "voucher-issued"
REDEEMED = "voucher-redeemed"
EXPIRED = "voucher-expired"
REFUSED = "voucher-refused"
#: the voucher records that move money
MONEY_TYPES = (ISSUED, REDEEMED, EXPIRED)


def issued_entry(serial: str, player: str, amount: int) -> Entry:
    """Ticket-out: the amount leaves the wallet for the vouchers liability."""
    return Entry(
        "voucher-out",
        (Posting(ledger.wallet(player), -amount), Posting(ledger.VOUCHERS, amount)),
        f"voucher {serial}",
    )


def redeemed_entry(serial: str, amount: int, player: str | None) -> Entry:
    """Ticket-in (``player``: the wallet credited) or the cage (``None``: paid in cash)."""
    to = ledger.wallet(player) if player is not None else ledger.CASH
    kind = "voucher-in" if player is not None else "voucher-paid"
    return Entry(
        kind, (Posting(ledger.VOUCHERS, -amount), Posting(to, amount)), f"voucher {serial}"
    )


def expired_entry(serial: str, amount: int) -> Entry:
    """An unclaimed voucher past its expiry: the liability ends, the house keeps it."""
    return Entry(
        "voucher-expired",
        (Posting(ledger.VOUCHERS, -amount), Posting(ledger.HOUSE, amount)),
        f"voucher {serial}",
    )


def _amount(body: dict[str, Any]) -> int:
    value = body["amount"]
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"the amount is not a positive number of cents: {value!r}")
    return value


@dataclass
class OpenVouchers:
    """The vouchers the log has issued and not yet closed (serial -> amount)."""

    open: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    def entries(self, type_: str, body: dict[str, Any]) -> list[Entry]:
        """The transactions a voucher record implies; ValueError if it cannot be."""
        serial, amount = str(body["voucher"]), _amount(body)
        if type_ == ISSUED:
            if serial in self.seen:
                raise ValueError(f"voucher {serial} is issued twice")
            self.seen.add(serial)
            self.open[serial] = amount
            return [issued_entry(serial, str(body["player"]), amount)]
        held = self.open.pop(serial, None)
        if held is None:
            said = "was never issued" if serial not in self.seen else "is already closed"
            raise ValueError(f"voucher {serial} {said}: it cannot be paid or expire again")
        if held != amount:
            raise ValueError(f"voucher {serial} was issued for {held} cents, not {amount}")
        if type_ == REDEEMED:
            at = body.get("at")
            if at not in ("kiosk", "cage"):
                raise ValueError(f"voucher {serial} redeemed at {at!r}")
            return [redeemed_entry(serial, amount, str(body["player"]) if at == "kiosk" else None)]
        return [expired_entry(serial, amount)]

    def liability(self) -> int:
        return sum(self.open.values())

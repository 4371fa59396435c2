"""Voucher validation numbers: 18 decimal digits, 17 drawn at random and a Luhn check digit.

A voucher is a bearer instrument: whoever holds the number may redeem it once. The 17
digits come from :func:`secrets.randbelow` over the whole range (unbiased, no modulo),
so a guess hits one of ``n`` outstanding vouchers with probability ``n / 10**17``; the
redeem paths also lock an address out after a few wrong numbers
(:class:`kiosk_ui.backoff.Backoff`). The check digit (ISO/IEC 7812's Luhn) catches every
single mistyped digit and most swapped neighbours before any lookup, so a typo is told
apart from a wrong number and never counts as a guess. 18 digits is the length of the
validation numbers printed on slot tickets (an even count, as Interleaved 2 of 5 needs).

The store keeps only a number's HMAC-SHA256 under the store's voucher key
(:func:`digest`, the key in ``keys/``: :mod:`kiosk_ui.cashier.number_key`) and the log
its last four digits: neither a copy of the database nor the exported log is a list of
redeemable tickets, and without the key the digests cannot be searched offline. A store
made before the key holds its vouchers of then under their plain SHA-256
(:func:`legacy_digest`), looked up only when the keyed digest finds nothing.

>>> n = "12345678901234567" + check_digit("12345678901234567")
>>> parse(n) == n and parse(" 1234-5678-9012-3456-7" + n[-1]) == n
True
>>> grouped(n)
'1234 5678 9012 3456 71'
>>> digest(n, bytes(32))[:5], len(digest(n, bytes(32))), len(legacy_digest(n))
('hmac:', 69, 64)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from kiosk_ui.errors import VoucherNumberInvalid

DIGITS = 18
_RANDOM = DIGITS - 1


def check_digit(body: str) -> str:
    """The Luhn check digit that makes ``body + digit`` pass :func:`valid`."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def valid(number: str) -> bool:
    """Whether ``number`` is 18 digits whose last is the Luhn check of the others."""
    return (
        len(number) == DIGITS
        and number.isascii()
        and number.isdigit()
        and check_digit(number[:-1]) == number[-1]
    )


def new_number() -> str:
    """A fresh validation number: 17 uniformly random digits and the check digit."""
    body = f"{secrets.randbelow(10**_RANDOM):0{_RANDOM}d}"
    return body + check_digit(body)


def parse(text: str) -> str:
    """The number a person typed or a scanner read (spaces and dashes allowed between
    digits), or :class:`VoucherNumberInvalid` saying what is wrong with it."""
    if len(text) > 64:
        raise VoucherNumberInvalid("a validation number has 18 digits")
    number = "".join(ch for ch in text if ch not in " -")
    if not (number.isascii() and number.isdigit()) or len(number) != DIGITS:
        raise VoucherNumberInvalid(
            f"a validation number has {DIGITS} digits (got {len(number)} characters)"
        )
    if not valid(number):
        raise VoucherNumberInvalid("that validation number does not check out: a digit is mistyped")
    return number


KEYED = "hmac:"  # the prefix of a keyed digest: never equal to a legacy one


def digest(number: str, key: bytes) -> str:
    """What the store keeps of a number: ``hmac:`` and its HMAC-SHA256 under ``key``
    (the store's voucher key), hex. The prefix keeps it apart from a legacy digest."""
    return KEYED + hmac.new(key, number.encode(), hashlib.sha256).hexdigest()


def legacy_digest(number: str) -> str:
    """What a store kept of a number before its voucher key: the plain SHA-256, hex.
    Never written now; looked up for the vouchers printed before, until they close."""
    return hashlib.sha256(number.encode()).hexdigest()


def grouped(number: str) -> str:
    """The number as printed: groups of four digits."""
    return " ".join(number[i : i + 4] for i in range(0, len(number), 4))

"""What each pai gow bet returns once the hands are set: pure functions of the settings.

:class:`~games.pai_gow.engine.PaiGowRound` reveals the hands and records one
settlement per bet; the sums are here, each with the note a player reads:

* :func:`main_bet`: both hands beat the banker's -> 1:1 less commission, one -> push,
  neither -> lose (copies go to the banker);
* :func:`side_bet`: the bonus on the seven cards as dealt (payout cap), plus Envy for
  every other seat's hand;
* :func:`house_wager` and :func:`bank_bet`: a player-banked game (page 002), the house's
  wager against the bank and the bank's settlement for the sum of every wager.

>>> from games.core.money import Rounding
>>> from games.poker.pai_gow_joker import JokerRule
>>> rules = PaiGowRules(joker=JokerRule.ACE_OR_FILLER, wheel_second=True,
...                     commission_bp=500, commission_rounding=Rounding.UP)
>>> bank_bet(rules, 10_000, 1_000, []).returned, bank_bet(rules, 10_000, 1_000, []).commission
(11000, 50)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.core.money import Cents, commission, format_cents, pay
from games.pai_gow.bonus import bonus_pay, envy_amount
from games.pai_gow.hands import Setting, describe_key, high_key, low_key
from games.pai_gow.rules import PaiGowRules, SideBet, main_commission

Keys = tuple[int, int]  # (low, high) comparison keys of a setting
#: a foul player-banker's keys (page 002, "automatically loses"): below every hand,
#: so every hand set correctly beats both of its hands, the house's included
FOUL_KEYS: Keys = (-1, -1)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one bet returns (before commission), the commission, the result, the note."""

    returned: int
    result: str
    note: str
    commission: int = 0


def keys(setting: Setting, rules: PaiGowRules) -> Keys:
    """(low, high) comparison keys of a setting under the table's joker rule."""
    return (
        low_key(setting.low, rules.joker),
        high_key(setting.high, rules.joker, rules.wheel_second),
    )


def main_bet(rules: PaiGowRules, stake: int, player: Setting, banker: Keys) -> Outcome:
    """The main bet of ``stake`` with ``player``'s setting against the banker's keys."""
    p_lo, p_hi = keys(player, rules)
    d_lo, d_hi = banker
    high_won, low_won = p_hi > d_hi, p_lo > d_lo  # a copy goes to the banker
    note = (
        f"high {describe_key(p_hi)} {'beats' if high_won else 'loses to'} "
        f"{describe_key(d_hi)}; low {describe_key(p_lo)} "
        f"{'beats' if low_won else 'loses to'} {describe_key(d_lo)}"
        if banker != FOUL_KEYS
        else "the Banker's hands are foul: this hand set correctly beats both"
    )
    if high_won and low_won:
        fee = main_commission(stake, rules)
        return Outcome(
            returned=2 * stake,
            commission=fee,
            result="win",
            note=f"{note}; pays 1:1 less {format_cents(fee)} commission"
            if fee
            else f"{note}; pays 1:1",
        )
    if high_won or low_won:
        return Outcome(returned=stake, result="push", note=note)
    return Outcome(returned=0, result="lose", note=note)


def foul_loses(stake: int, reason: str) -> Outcome:
    """A foul main bet (``Foul.LOSES``, pages 002 and 004): lost, whatever the banker
    holds; ``reason`` says what is foul."""
    return Outcome(
        returned=0,
        result="lose",
        note=f"foul hand ({reason}): a hand set incorrectly loses its wager",
    )


def side_bet(side: SideBet, seat: int, stake: int, hands: Mapping[int, Sequence[str]]) -> Outcome:
    """The side bet of ``seat``: its own bonus hand, then Envy for the other ``hands``
    (every seat dealt in, in dealing order: seat -> its bonus hands)."""
    returned, notes = 0, []
    paid = bonus_pay(side, hands[seat])
    if paid is not None:
        name, ratio = paid
        win = pay(Cents(stake), ratio)
        if side.payout_cap and win > side.payout_cap:
            win = Cents(side.payout_cap)
            notes.append(f"{name} pays {ratio}, capped at {format_cents(side.payout_cap)}")
        else:
            notes.append(f"{name} pays {ratio}")
        returned = stake + win
    else:
        notes.append("no bonus hand")
    if side.envy and stake >= side.envy_minimum:
        for other, held in hands.items():
            envy = envy_amount(side, held) if other != seat else None
            if envy is not None:
                returned += envy[1]
                notes.append(f"envy {format_cents(envy[1])} for seat {other}'s {envy[0]}")
    net = returned - stake
    result = "win" if net > 0 else "push" if net == 0 else "lose"
    return Outcome(returned=returned, result=result, note="; ".join(notes))


def house_wager(wager: int, house: Keys, bank: Keys) -> tuple[int, str]:
    """The house's ``wager`` against a player-banker: what the house won (+) or lost (-)
    and the words for it. The house's hand must beat both of the bank's to win."""
    h_lo, h_hi = house
    b_lo, b_hi = bank
    house_won, house_lost = h_hi > b_hi and h_lo > b_lo, h_hi <= b_hi and h_lo <= b_lo
    result = wager if house_won else -wager if house_lost else 0
    outcome = "wins" if house_won else "loses" if house_lost else "pushes"
    return result, f"the house's {format_cents(wager)} wager {outcome}"


def bank_bet(rules: PaiGowRules, bank: int, bank_net: int, notes: list[str]) -> Outcome:
    """The player-banker's ``bank`` bet after winning ``bank_net`` (+) or paying (-) over
    every wager; commission on a net win. ``notes`` (the house's wager) follow the sum."""
    fee = 0
    if bank_net > 0:
        fee = commission(Cents(bank_net), rules.commission_bp, rules.commission_rounding)
    sign = "+" if bank_net >= 0 else "-"
    words = [f"bank {sign}{format_cents(abs(bank_net))} over all wagers", *notes]
    if fee:
        words.append(f"less {format_cents(fee)} commission on the net win")
    net = bank_net - fee
    return Outcome(
        returned=bank + bank_net,
        commission=fee,
        result="win" if net > 0 else "lose" if net < 0 else "push",
        note="; ".join(words),
    )


__all__ = [
    "FOUL_KEYS",
    "Keys",
    "Outcome",
    "bank_bet",
    "foul_loses",
    "house_wager",
    "keys",
    "main_bet",
    "side_bet",
]

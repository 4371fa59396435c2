"""What each blackjack bet returns: the pay rules, apart from the flow that reaches them.

Each function answers one settlement as a :class:`Payout` (cents returned, the result, the
note a player reads); :class:`~games.blackjack.engine.BlackjackRound` decides *when* a spot
settles and records it through :meth:`Round.settle <games.core.round.Round.settle>`.

>>> from games.blackjack import VARIANTS
>>> from games.blackjack.seats import PlayerHand
>>> from games.core.cards import parse_cards
>>> pinnacle = VARIANTS[0].rules
>>> peek_payout(pinnacle, PlayerHand(cards=list(parse_cards("As Kd")), stake=1000), False)
Payout(returned=2500, result='win', note='blackjack pays 3:2')
>>> showdown_payout(pinnacle, PlayerHand(cards=list(parse_cards("Ts 8d")), stake=1000), 22)
Payout(returned=2000, result='win', note='18 against dealer 22')
"""

from __future__ import annotations

from typing import NamedTuple

from games.blackjack.hand import Outcome, showdown
from games.blackjack.rules import BlackjackRules
from games.blackjack.seats import PlayerHand
from games.core.money import Cents, pay


class Payout(NamedTuple):
    """One spot's settlement: ``returned`` cents (stake included), result and note."""

    returned: int
    result: str
    note: str


#: a Buster Bet when the dealer turns over a natural (no cards are drawn, so no bust)
BUSTER_AGAINST_NATURAL = Payout(0, "lose", "dealer did not bust")


def insurance_payout(rules: BlackjackRules, stake: int, dealer_natural: bool) -> Payout:
    """Insurance at the peek: paid ``insurance_pays`` on a dealer natural, lost otherwise."""
    if dealer_natural:
        won = stake + pay(Cents(stake), rules.insurance_pays)
        return Payout(won, "win", f"insurance pays {rules.insurance_pays}")
    return Payout(0, "lose", f"dealer has no {rules.natural_name}")


def even_money(stake: int) -> Payout:
    """Even money taken on a blackjack against the dealer's ace: 1 to 1 at once."""
    return Payout(2 * stake, "win", "even money on a blackjack: pays 1 to 1")


def peek_payout(rules: BlackjackRules, hand: PlayerHand, dealer_natural: bool) -> Payout | None:
    """The first hand at the peek: against a dealer natural it pushes (a natural) or loses;
    a player natural is paid ``natural_pays``; None: the hand is played."""
    name = rules.natural_name
    if dealer_natural:
        if hand.natural:
            return Payout(hand.stake, "push", f"both have a {name}")
        return Payout(0, "lose", f"dealer {name}")
    if hand.natural:
        won = hand.stake + pay(Cents(hand.stake), rules.natural_pays)
        return Payout(won, "win", f"{name} pays {rules.natural_pays}")
    return None


def surrender(stake: int) -> Payout:
    """A surrendered hand: half the bet back."""
    return Payout(stake // 2, "lose", "surrendered: half the bet returned")


def bust_payout(rules: BlackjackRules, hand: PlayerHand) -> Payout | None:
    """A busted hand loses at once, except a three-card ``bust_push_totals`` total (None),
    which may still push when the dealer busts higher and is settled after the dealer."""
    total, _ = hand.total
    if len(hand.cards) == 3 and total in rules.bust_push_totals:
        return None
    return Payout(0, "lose", f"bust with {total}")


def showdown_payout(rules: BlackjackRules, hand: PlayerHand, dealer_total: int) -> Payout:
    """A live hand against the dealer's final total: even money, a push, or lost."""
    total, _ = hand.total
    outcome = showdown(total, len(hand.cards), dealer_total, rules.bust_push_totals)
    returned = {Outcome.WIN: 2 * hand.stake, Outcome.PUSH: hand.stake}.get(outcome, 0)
    return Payout(returned, str(outcome), f"{total} against dealer {dealer_total}")


def buster_payout(rules: BlackjackRules, stake: int, dealer_total: int, cards: int) -> Payout:
    """The Buster Bet once the dealer stands or busts: paid by the bust's card count."""
    odds = rules.buster_pay(cards) if dealer_total > 21 else None
    if odds is None:
        return Payout(0, "lose", f"dealer {dealer_total} with {cards} cards")
    won = stake + pay(Cents(stake), odds)
    return Payout(won, "win", f"dealer busts with {cards} cards: pays {odds}")


__all__ = [
    "BUSTER_AGAINST_NATURAL",
    "Payout",
    "bust_payout",
    "buster_payout",
    "even_money",
    "insurance_payout",
    "peek_payout",
    "showdown_payout",
    "surrender",
]

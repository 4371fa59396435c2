"""The documented scripted blackjack player used by ``croupier table autoplay``.

It bets the table minimum on the main spot, deals, declines insurance and even money (basic
strategy never takes either), then plays the table's strategy chart
(``paytables/strategies/<name>.toml``): split when the chart says P and a split is allowed,
double when it says D/Ds and a double is allowed (always for the full bet), surrender when
it says R and surrender is allowed, otherwise hit or stand as the chart says.
"""

from __future__ import annotations

from games.blackjack.engine import BlackjackRound, Phase
from games.blackjack.hand import can_split_cards, points
from games.blackjack.strategy import choose, load_chart
from games.core.engine import Engine
from games.core.records import Action, Deal, Decide, PlaceBet


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The scripted player's next action for ``seat`` (see the module docstring)."""
    if not isinstance(engine, BlackjackRound):
        raise TypeError("blackjack autoplay needs a blackjack round")
    legal = engine.legal_actions(seat)
    if not legal:
        return None
    if engine.phase is Phase.BETTING:
        if "place-bet" not in legal:  # the player/dealer bets nothing; it may deal
            return Deal(seat=seat) if "deal" in legal else None
        if not engine.book.stake(seat, "main"):
            return PlaceBet(seat=seat, bet="main", amount=engine.variant.limits["main"].minimum)
        return Deal(seat=seat)
    if engine.phase is Phase.INSURANCE:
        return Decide(seat=seat, decision="no-insurance")
    turn = engine.turn
    up = engine.dealer_up
    if turn is None or up is None:
        return None
    h = turn[1]
    hand = engine.seat_state(seat).hands[h]
    rules = engine.rules
    total, soft = hand.total
    cards = hand.cards
    pair = (
        points(cards[0])
        if len(cards) == 2 and can_split_cards(cards[0], cards[1], rules.split)
        else None
    )
    decision = choose(
        load_chart(rules.strategy),
        total,
        soft,
        pair,
        points(up),
        can_double="double" in legal,
        can_split="split" in legal,
        can_surrender="surrender" in legal,
    )
    return Decide(seat=seat, decision=decision, hand=h)

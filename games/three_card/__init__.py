"""Three Card Poker (California page 004, with the 6 Card Bonus) and Tri-Card Poker (page 001).

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``three-card-poker`` and ``tri-card-poker`` (``paytables/*.toml``).
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a
:class:`~games.three_card.engine.ThreeCardRound`.
``house_edge(variant)``: exact, :mod:`games.three_card.exact` (bets ``ante`` (with
the play bet, per unit of ante, best strategy), ``pair-plus``, ``six-card-bonus``), and
the ``progressive`` over the 22,100 three-card hands at the meter's reset value, its
note giving the edge as a function of the meter
(:meth:`~games.core.progressive.JackpotTable.return_at` gives any meter).
``simulate(variant, rounds, seed)``: :mod:`games.three_card.simulate`.
``autoplay(engine, seat)``: :mod:`games.three_card.autoplay`.
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.core.player_dealer import rotation_from
from games.three_card.autoplay import autoplay
from games.three_card.engine import ThreeCardRound
from games.three_card.exact import bet_returns
from games.three_card.rules import PACKAGED, ThreeCardRules, load_packaged
from games.three_card.simulate import simulate

VARIANTS: tuple[Variant[ThreeCardRules], ...] = tuple(load_packaged(name) for name in PACKAGED)


def new_game(
    variant: Variant[ThreeCardRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> ThreeCardRound:
    """A fresh round. On a table with the Player/Dealer position (page 004) the rotation
    comes from ``context.previous`` (the table's last round, over) or ``context.carry``
    (the same, as logged); a new table offers it to seat 0 first."""
    start = rotation_from(context, ThreeCardRound, variant.id, seats)
    return ThreeCardRound(variant, seats, carry=start)


def house_edge(variant: Variant[ThreeCardRules]) -> dict[str, HouseEdge]:
    """Exact house edge per unit of each bet's initial wager."""
    rules = variant.rules
    deals = "all 22,100 x 18,424 player/dealer deals"
    shown = (
        "best play/fold for the player's cards and the dealer's exposed card"
        if rules.dealer_shows_card
        else "best play/fold for the player's cards (Q-6-4)"
    )
    methods = {
        "ante": (f"enumeration over {deals}", f"ante and play per unit of ante; {shown}"),
        "pair-plus": (
            f"enumeration over {deals}",
            "lost on a fold; every pair or better is played under the best strategy",
        ),
        "six-card-bonus": ("enumeration over all 20,358,520 six-card sets", "stands on a fold"),
    }
    out: dict[str, HouseEdge] = {}
    for bet, ret in bet_returns(rules).items():
        method, note = methods[bet]
        out[bet] = HouseEdge(edge=-ret, exact=True, method=method, note=note)
    if rules.progressive:
        out["progressive"] = rules.progressive.house_edge()
    return out


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]

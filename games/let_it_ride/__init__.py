"""Let'Em Ride (page 001), standard and alternate pay tables, with the optional progressive.

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``lets-em-ride`` and ``lets-em-ride-alternate`` (``paytables/*.toml``).
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a
:class:`~games.let_it_ride.engine.RideRound`.
``house_edge(variant)``: exact (:mod:`games.let_it_ride.exact`): ``ante`` (ante
and both raises per unit of ante, best strategy) and ``progressive`` (at the
meter's reset value; linear in the meter).
``simulate(variant, rounds, seed)``: :mod:`games.let_it_ride.simulate`.
``autoplay(engine, seat)``: :mod:`games.let_it_ride.autoplay`.

Decision names: ``raise`` (Let It Ride's "let it ride") and ``continue`` (its
"pull back"), twice per round.
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.let_it_ride.autoplay import autoplay
from games.let_it_ride.engine import RideRound
from games.let_it_ride.exact import ante_return
from games.let_it_ride.rules import PACKAGED, RideRules, load_packaged
from games.let_it_ride.simulate import simulate

VARIANTS: tuple[Variant[RideRules], ...] = tuple(load_packaged(name) for name in PACKAGED)


def new_game(
    variant: Variant[RideRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> RideRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return RideRound(variant, seats)


def house_edge(variant: Variant[RideRules]) -> dict[str, HouseEdge]:
    """Exact house edge per unit of each bet's initial wager (see the module docstring)."""
    rules = variant.rules
    out = {
        "ante": HouseEdge(
            edge=-ante_return(rules),
            exact=True,
            method="enumeration over all 2,598,960 five-card hands",
            note="ante and both raises per unit of ante; raise when the expected multiple > 0",
        )
    }
    if rules.jackpot:
        out["progressive"] = rules.jackpot.house_edge()
    return out


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]

"""Caribbean Stud (page 001), Pinnacle Stud Poker (000 + README gap 4), Oasis Poker (000).

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``caribbean-stud``, ``pinnacle-stud-poker``, ``oasis-poker`` (``paytables/*.toml``).
``new_game(variant, seats=1, *, context=NEW_TABLE, always_contribute=None)``: a
:class:`~games.caribbean_stud.engine.StudRound` whose always-contribute buttons follow
on from the table's last game (``context.previous``, or ``context.carry`` as logged).
``house_edge(variant)``: ``ante`` (ante and call per unit of ante) exact for the
best call/fold play, with or without the dealer's up card as the table deals it,
counted over all 19,933,230,517,200 deals by :mod:`games.caribbean_stud.exact`
(the count takes about half a minute, so the figures ship in
``data/exact.json``, recomputed by a slow test). Tables whose rules have no
cached figure, and Oasis Poker (bought draws), get a simulation of the
documented strategy instead (exact=False): Oasis Poker's is a 10^7-round run
shipped in ``data/simulated.json``. ``jackpot`` is exact over all
five-card hands at the meter's reset value
(:meth:`~games.core.progressive.JackpotTable.return_at` gives any meter).
``simulate(variant, rounds, seed)``: :mod:`games.caribbean_stud.simulate`.
``autoplay(engine, seat)``: :mod:`games.caribbean_stud.autoplay`.

Decision names (``Decide(seat=s, decision=...)``): ``call``, ``fold``, and at
Oasis Poker ``draw`` with ``arg`` = the positions to discard (``"0 3"``); while bets
are open ``always-contribute`` (``"on"``/``"off"``), and at Caribbean Stud page 001's
jackpot chip queue: ``jackpot-chip`` (one $1 chip queued, up to ten) and
``clear-jackpot-chips``.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.caribbean_stud.autoplay import autoplay
from games.caribbean_stud.engine import StudRound
from games.caribbean_stud.rules import PACKAGED, StudRules, load_packaged
from games.caribbean_stud.simulate import STRATEGY, ante_run, simulate
from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge, SimulationRun

VARIANTS: tuple[Variant[StudRules], ...] = tuple(load_packaged(name) for name in PACKAGED)

#: rounds and seed of the on-the-fly ``ante`` simulation when no shipped run fits the rules
EDGE_ROUNDS, EDGE_SEED = 400_000, 20261130


def new_game(
    variant: Variant[StudRules],
    seats: int = 1,
    *,
    context: GameContext = NEW_TABLE,
    always_contribute: Iterable[int] | None = None,
) -> StudRound:
    """A new game; the "always contribute" buttons come from ``always_contribute``, or
    from ``previous`` (the table's finished last game), or from ``carry`` (that game's
    ``carry().encode()`` as logged), else the pay table's default; the jackpot chip
    queue from ``previous`` or ``carry``
    (:meth:`~games.caribbean_stud.engine.StudRound.following`). Both are standing orders
    of the seat's player: a seat in ``context.new_players`` starts with neither."""
    return StudRound.following(
        variant,
        seats,
        always_contribute=always_contribute,
        previous=context.previous,
        carry=context.carry,
        new_players=context.new_players,
    )


def house_edge(variant: Variant[StudRules]) -> dict[str, HouseEdge]:
    """House edge per unit of each bet's initial wager (see the module docstring)."""
    from games.caribbean_stud.exact import cached_edge  # local: reads data/exact.json

    rules = variant.rules
    cached = cached_edge(rules)
    if cached is not None:
        shown = "with" if rules.dealer_shows_card else "without"
        ante = HouseEdge(
            edge=cached.edge,
            exact=True,
            method=f"count of all {cached.deals:,} deals, best call/fold play",
            note=f"ante and call per unit of ante, {shown} the dealer's up card; "
            "games.caribbean_stud.exact",
        )
    else:
        run = ante_run(variant)
        if run is None:  # no shipped run fits today's rules: a shorter run on the fly
            sim = simulate(variant, EDGE_ROUNDS, EDGE_SEED).bets["ante"]
            run = SimulationRun.of(sim, EDGE_SEED)
        ante = HouseEdge(
            edge=run.edge,
            exact=False,
            method="simulation of the strategy below",
            note="ante, call and draw prices per unit of ante; not exact: the bought draws "
            "have no count here (the jackpot is exact)",
            strategy=STRATEGY,
            simulation=run,
        )
    out = {"ante": ante}
    if rules.jackpot:
        out["jackpot"] = rules.jackpot.house_edge()
    return out


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]

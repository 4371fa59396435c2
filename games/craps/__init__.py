"""Craps as on the Pinnacle casino page: every bet, exact odds, vectorised simulation.

Modules: :mod:`~games.craps.bets` (bet spots and names), :mod:`~games.craps.paytable`
(``paytables/pinnacle.toml``, validated), :mod:`~games.craps.rules` (the typed rules and
the variant), :mod:`~games.craps.resolve` (one roll, one bet: the rules),
:mod:`~games.craps.placing` (what may be placed or taken down when),
:mod:`~games.craps.engine` (the crap game, a :class:`~games.core.round.Round`),
:mod:`~games.craps.report` ("What just happened?", the page's roll report),
:mod:`~games.craps.exact` (exact edges), :mod:`~games.craps.simulate` (NumPy simulation),
:mod:`~games.craps.autoplay` (the scripted player).

>>> [v.id for v in VARIANTS]
['craps-pinnacle']
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.craps.autoplay import autoplay
from games.craps.bets import Kind
from games.craps.engine import CrapsCarry, CrapsGame
from games.craps.exact import all_bets, percent, with_max_odds
from games.craps.rules import CrapsRules, pinnacle_variant
from games.craps.simulate import simulate

VARIANTS: tuple[Variant[CrapsRules], ...] = (pinnacle_variant(),)

_METHOD = "exact: absorbing chain over the 36 dice pairs (fractions.Fraction)"


def new_game(
    variant: Variant[CrapsRules],
    seats: int = 1,
    *,
    context: GameContext = NEW_TABLE,
) -> CrapsGame:
    """A new crap game from a clean table (no bets, table point off).

    The seats' come-out options come from ``context.previous`` (the table's finished
    last game) or ``context.carry`` (its ``carry().encode()`` as logged), else the
    page's defaults. The options are the seat's player's: a seat in
    ``context.new_players`` (its player is not the last game's) starts with the defaults.
    Nothing else carries: a crap game ends only when no bets remain.
    """
    previous, carry = context.previous, context.carry
    if previous is not None and carry is not None:
        raise ValueError("give previous or carry, not both")
    if previous is not None:
        if not isinstance(previous, CrapsGame) or previous.variant.id != variant.id:
            raise ValueError(f"previous is not a game of {variant.id}")
        options = dict(previous.carry().working)
    elif carry is not None:
        options = dict(CrapsCarry.decode(carry, seats).working)
    else:
        return CrapsGame(variant, seats)
    kept = {s: o for s, o in options.items() if s < seats and s not in context.new_players}
    return CrapsGame(variant, seats, kept)


def house_edge(variant: Variant[CrapsRules]) -> dict[str, HouseEdge]:
    """Exact edge of every bet per unit of the initial wager (pushes count as decisions).

    The note gives the edge per roll (edge / expected rolls to settle). Two combined
    lines back a line bet with the maximum odds on every point: ``pass+max-odds``
    (per unit of the flat bet) and ``pass+max-odds/total`` (per unit of everything
    wagered on average); likewise ``dont-pass+max-odds``.
    """
    t = variant.rules.paytable
    out: dict[str, HouseEdge] = {}
    for name, m in all_bets(t).items():
        out[name] = HouseEdge(
            edge=m.edge,
            exact=True,
            method=_METHOD,
            note=f"per roll {percent(m.edge_per_roll)}; expected rolls {m.rolls}; "
            f"win {m.p_win}, lose {m.p_lose}, push {m.p_push}",
        )
    for flat in (Kind.PASS, Kind.DONT_PASS):
        per_flat, per_total = with_max_odds(flat, t)
        label = "3-4-5x odds" if flat is Kind.PASS else "6x lay odds"
        out[f"{flat.value}+max-odds"] = HouseEdge(
            edge=per_flat,
            exact=True,
            method=_METHOD,
            note=f"{flat.value} with {label} on every point, per unit of the flat bet",
        )
        out[f"{flat.value}+max-odds/total"] = HouseEdge(
            edge=per_total,
            exact=True,
            method=_METHOD,
            note=f"{flat.value} with {label} on every point, per unit of total amount wagered",
        )
    return out


__all__ = [
    "VARIANTS",
    "CrapsGame",
    "CrapsRules",
    "autoplay",
    "house_edge",
    "new_game",
    "simulate",
]

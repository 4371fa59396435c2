"""Vectorised Monte Carlo of the Caribbean Stud family bets (statistics only).

Each round deals eleven distinct cards from a fresh deck: the player's five, the
dealer's five (the first is the exposed card on tables that show one), and one
spare that is the bought card when the Oasis strategy draws. The player follows
:mod:`games.caribbean_stud.strategy`. Nets are per unit of ante (``ante``: ante,
call and any draw price together) and per unit of the jackpot stake (``jackpot``,
at the meter's reset value).

Oasis Poker's ante figure of :func:`games.caribbean_stud.house_edge` is a 10^7-round
run shipped in ``data/simulated.json`` (:func:`ante_run`; written by :func:`ship_entry`
through ``python bench/bench_shipped.py --write-data caribbean_stud``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from games.caribbean_stud.rules import StudRules
from games.caribbean_stud.strategy import flush_draw_batch, should_call_batch
from games.core.engine import Variant
from games.core.figures import SimulationResult, SimulationRun
from games.core.shipped import entry, shipped_run
from games.poker.batch import categories, rank_batch
from games.sim import deal_cards, simulate_batches

BATCH = 250_000

#: a call/fold rule over rows: (player cards, their dense ranks, up cards or None) -> call?
Decide = Callable[
    [npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64] | None],
    npt.NDArray[np.bool_],
]


def rules_of_thumb(
    player: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], up: npt.NDArray[np.int64] | None
) -> npt.NDArray[np.bool_]:
    """The default :data:`Decide`: :func:`games.caribbean_stud.strategy.should_call_batch`."""
    return should_call_batch(categories(ranks), player, up)


def ante_nets(
    rules: StudRules, cards: npt.NDArray[np.int64], decide: Decide = rules_of_thumb
) -> npt.NDArray[np.float64]:
    """Net per unit of ante for each row of eleven cards (player, dealer, spare).

    ``decide`` chooses call or fold (the Oasis draw rule is fixed: the flush draw).
    """
    player, dealer = cards[:, :5].copy(), cards[:, 5:10]
    up = dealer[:, 0] if rules.dealer_shows_card else None
    p = rank_batch(player, validate=False)
    cats = categories(p)
    call = decide(player, p, up)
    cost = np.zeros(len(cards))
    if 1 in rules.draw_costs:
        odd = flush_draw_batch(player)
        buy = ~call & (odd >= 0)
        rows = np.flatnonzero(buy)
        player[rows, odd[rows]] = cards[rows, 10]
        cost[rows] = rules.draw_costs[1]
        p = rank_batch(player, validate=False)
        cats = categories(p)
        call = decide(player, p, up)
    d = rank_batch(dealer, validate=False)
    pays = np.zeros(11)
    for cat, ratio in rules.call_pays.items():
        pays[cat] = ratio.num / ratio.den
    ante_win = rules.ante_pays.num / rules.ante_pays.den
    m = rules.call_multiple
    value = np.where(
        d < rules.qualifier,
        ante_win,
        np.where(p > d, ante_win + m * pays[cats], np.where(p < d, -1.0 - m, 0.0)),
    )
    return np.where(call, value, -1.0) - cost


def jackpot_nets(rules: StudRules, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Net per unit of jackpot stake on the first five cards, at the reset meter."""
    jp = rules.jackpot
    assert jp is not None
    award = np.array(jp.awards_per_stake(jp.reset))
    return award[categories(rank_batch(cards[:, :5], validate=False))] - 1.0


def simulate(
    variant: Variant[StudRules], rounds: int, seed: int, *, decide: Decide = rules_of_thumb
) -> SimulationResult:
    """Simulate ``rounds`` rounds of the ante (with call and draws) and the jackpot bet.

    ``decide`` is the call/fold rule (default: the documented rules of thumb;
    bench/bench_caribbean_exact.py passes the best play,
    :meth:`games.caribbean_stud.exact.CallTable.calls`).
    """
    rules = variant.rules

    def nets(rng: np.random.Generator, n: int) -> dict[str, npt.NDArray[np.float64]]:
        cards = deal_cards(rng, n, 11)
        out = {"ante": ante_nets(rules, cards, decide)}
        if rules.jackpot:
            out["jackpot"] = jackpot_nets(rules, cards)
        return out

    return simulate_batches(variant.id, rounds, seed, BATCH, nets)


# --- the shipped ante runs (games/caribbean_stud/data/simulated.json) -----------------

#: the package holding ``simulated.json``, and the seed and command of its runs
DATA = "games.caribbean_stud.data"
SHIP_SEED = 20261130
BUILT_BY = "python bench/bench_shipped.py --write-data caribbean_stud"
#: the player strategy the simulated ante figures assume
STRATEGY = (
    "call by the rules of thumb (games.caribbean_stud.strategy); otherwise with four to a "
    "flush buy one card (1x the ante) and call or fold by the same rules; otherwise fold"
)


def figure_rules(rules: StudRules) -> dict[str, Any]:
    """What the simulated ante figure depends on, as plain data (a shipped run's key)."""
    return {
        "ante_pays": str(rules.ante_pays),
        "call_multiple": rules.call_multiple,
        "qualifier": rules.qualifier,
        "call_pays": {c.name.lower(): str(r) for c, r in sorted(rules.call_pays.items())},
        "draw_costs": {str(n): cost for n, cost in sorted(rules.draw_costs.items())},
        "dealer_shows_card": rules.dealer_shows_card,
    }


def ante_run(variant: Variant[StudRules]) -> SimulationRun | None:
    """The shipped run of ``variant``'s ante, if it was made under today's rules."""
    return shipped_run(DATA, variant.id, figure_rules(variant.rules))


def ship_entry(variant: Variant[StudRules], rounds: int, seed: int = SHIP_SEED) -> Any:
    """The ``simulated.json`` entry of a ``rounds``-round run of ``variant``'s ante."""
    sim = simulate(variant, rounds, seed).bets["ante"]
    return entry(SimulationRun.of(sim, seed, BUILT_BY), figure_rules(variant.rules))

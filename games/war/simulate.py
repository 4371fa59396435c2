"""Vectorised Monte Carlo of Casino War bets (statistics only, never used for play).

Each round is dealt off the top of a full shoe: seven distinct card positions
(player, dealer, three burns, player's war card, dealer's war card), drawn
uniformly with rejection of repeated positions (:func:`games.sim.draw_positions`).
The burns are really drawn, so the simulation checks the exchangeability argument
the exact module relies on.
"""

from __future__ import annotations

import numpy as np

from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.sim import bet_statistics, draw_positions
from games.war.rules import WarRules

BATCH = 1 << 19


def tally(decks: int, burn: int, rounds: int, seed: int) -> dict[str, int]:
    """Counts of: win, lose, tie then war win / war tie / war lose, over ``rounds``."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rng = np.random.default_rng(seed)
    keys = ("win", "lose", "war_win", "war_tie", "war_lose")
    out = dict.fromkeys(keys, 0)
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        pos = draw_positions(rng, n, 4 + burn, 52 * decks)
        rank = (pos % 52) // 4  # 0 = deuce ... 12 = ace
        p, d = rank[0], rank[1]
        pw, dw = rank[2 + burn], rank[3 + burn]
        tie = p == d
        out["win"] += int(np.count_nonzero(p > d))
        out["lose"] += int(np.count_nonzero(p < d))
        out["war_win"] += int(np.count_nonzero(tie & (pw > dw)))
        out["war_tie"] += int(np.count_nonzero(tie & (pw == dw)))
        out["war_lose"] += int(np.count_nonzero(tie & (pw < dw)))
        done += n
    return out


def simulate(variant: Variant[WarRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` rounds: main (going to war), main-surrender and tie bets."""
    rules = variant.rules
    t = tally(rules.decks, rules.burn_cards, rounds, seed)
    even = rules.pays["main"].num / rules.pays["main"].den
    raise_pays = rules.pays["raise"].num / rules.pays["raise"].den
    bonus = rules.tie_after_war_bonus.num / rules.tie_after_war_bonus.den
    tie_pays = rules.pays["tie"].num / rules.pays["tie"].den
    ties = t["war_win"] + t["war_tie"] + t["war_lose"]
    bets = {
        "main": bet_statistics(
            rounds,
            [
                (even, t["win"]),
                (-1.0, t["lose"]),
                (raise_pays, t["war_win"]),
                (raise_pays + bonus, t["war_tie"]),
                (-2.0, t["war_lose"]),
            ],
        ),
        "main-surrender": bet_statistics(
            rounds, [(even, t["win"]), (-1.0, t["lose"]), (-0.5, ties)]
        ),
        "tie": bet_statistics(rounds, [(tie_pays, ties), (-1.0, rounds - ties)]),
    }
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)

"""Vectorised Monte Carlo of baccarat bets (statistics only, never used for play).

Each simulated coup is dealt off the top of a full shoe, like the exact
enumeration: six distinct card positions are drawn uniformly from the ``52 * decks``
cards (:func:`games.sim.draw_positions`). Only the first four to six cards matter, by
the same tableau as the engine.

Results are tallied as integer counts per outcome class; each bet's mean net
per unit and its 99.9% interval follow from the counts. Floats appear here only
as statistics (the :class:`~games.core.figures.BetSimulation` fields).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.baccarat.exact import BANKER_DRAWS
from games.baccarat.rules import BaccaratRules
from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.sim import bet_statistics, draw_positions

BATCH = 1 << 19

#: point value of each card index 0..51 (index = (rank - 2) * 4 + suit)
_POINTS = np.array([min(r, 10) % 10 for r in range(2, 15) for _ in range(4)], dtype=np.int8)
_POINTS[48:52] = 1  # aces


@dataclass(frozen=True, slots=True)
class Tally:
    """Integer counts of coups by outcome class."""

    rounds: int
    player: int  # player wins with anything but a three-card 8
    panda8: int  # player wins with a three-card 8
    banker: int  # banker wins with anything but a three-card 7
    dragon7: int  # banker wins with a three-card 7
    tie: int


def tally_batch(rng: np.random.Generator, n: int, decks: int) -> Tally:
    """Deal ``n`` coups off fresh ``decks``-deck shoes and count outcome classes."""
    pos = draw_positions(rng, n, 6, 52 * decks)
    v = _POINTS[pos % 52]
    p2 = (v[0] + v[2]) % 10
    b2 = (v[1] + v[3]) % 10
    natural = (p2 >= 8) | (b2 >= 8)
    p_draws = ~natural & (p2 <= 5)
    p_third = np.where(p_draws, v[4], 10)
    b_draws = ~natural & BANKER_DRAWS[b2, p_third]
    b_third = np.where(p_draws, v[5], v[4])
    p_final = np.where(p_draws, (p2 + v[4]) % 10, p2)
    b_final = np.where(b_draws, (b2 + b_third) % 10, b2)
    pw = p_final > b_final
    bw = b_final > p_final
    d7 = bw & b_draws & (b_final == 7)
    p8 = pw & p_draws & (p_final == 8)
    n_pw, n_bw = int(np.count_nonzero(pw)), int(np.count_nonzero(bw))
    n_d7, n_p8 = int(np.count_nonzero(d7)), int(np.count_nonzero(p8))
    return Tally(
        rounds=n,
        player=n_pw - n_p8,
        panda8=n_p8,
        banker=n_bw - n_d7,
        dragon7=n_d7,
        tie=n - n_pw - n_bw,
    )


def tally(decks: int, rounds: int, seed: int) -> Tally:
    """Count outcome classes over ``rounds`` coups from a NumPy generator seeded ``seed``."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rng = np.random.default_rng(seed)
    totals = [0, 0, 0, 0, 0]
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        t = tally_batch(rng, n, decks)
        for i, x in enumerate((t.player, t.panda8, t.banker, t.dragon7, t.tie)):
            totals[i] += x
        done += n
    return Tally(rounds, *totals)


def bet_nets(rules: BaccaratRules, t: Tally) -> dict[str, list[tuple[float, int]]]:
    """For each bet: (net result per unit, number of coups with that result) pairs."""
    win = {b: r.num / r.den for b, r in rules.pays.items()}
    lose = -1.0
    player_wins, banker_wins = t.player + t.panda8, t.banker + t.dragon7
    out: dict[str, list[tuple[float, int]]] = {}
    for bet in rules.bets:
        if bet == "player":
            out[bet] = [(win[bet], player_wins), (lose, banker_wins), (0.0, t.tie)]
        elif bet == "banker":
            paid = win[bet] * (1 - rules.banker_commission_bp / 10_000)
            seven = 0.0 if rules.banker_three_card_seven_pushes else paid
            out[bet] = [(paid, t.banker), (seven, t.dragon7), (lose, player_wins), (0.0, t.tie)]
        elif bet == "tie":
            out[bet] = [(win[bet], t.tie), (lose, t.rounds - t.tie)]
        elif bet == "dragon7":
            out[bet] = [(win[bet], t.dragon7), (lose, t.rounds - t.dragon7)]
        elif bet == "panda8":
            out[bet] = [(win[bet], t.panda8), (lose, t.rounds - t.panda8)]
    return out


def simulate(variant: Variant[BaccaratRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` coups; each bet's mean net per unit with a 99.9% interval."""
    rules = variant.rules
    t = tally(rules.decks, rounds, seed)
    bets = {bet: bet_statistics(rounds, nets) for bet, nets in bet_nets(rules, t).items()}
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)

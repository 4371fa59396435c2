"""Monte Carlo of the pai gow bets (statistics only, never used for play).

Each simulated game deals the player and the dealer seven cards each off a
freshly shuffled 53-card deck (NumPy: the first fourteen of a random
permutation per row), sets both by the house way, and compares them with
copies to the banker. The deal, the comparison, the side-bet classification
(:mod:`games.pai_gow.classify`) and the tallies are vectorised; the house way is
run once per distinct code (:func:`house_keys`: the rank pattern when no
straight or flush is possible, else the suits' rank sets up to renaming) and
memoised across batches. Results are counted in integers per outcome;
the means and 99.9% intervals are floats as statistics only.

The main bet's figure of :func:`games.pai_gow.house_edge` comes from 10^7-game
tallies (one per joker rule) shipped in ``data/simulated.json`` (:func:`main_tally`;
written by :func:`ship_entry` through ``python bench/bench_shipped.py --write-data
pai_gow``); each table's edge is then exact arithmetic on the counts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from games.core.cards import Card
from games.core.engine import Variant
from games.core.figures import BetSimulation, SimulationResult
from games.core.shipped import read_runs
from games.pai_gow.classify import KINDS, classify_rows, tables
from games.pai_gow.house_way import house_way_keys, pattern_keys
from games.pai_gow.rules import MAIN_BET, PaiGowRules, SideBet, main_commission
from games.poker.pai_gow_joker import JokerRule
from games.sim import bet_statistics

BATCH = 1 << 14
_CARDS = tuple(Card.from_index(i) for i in range(53))


def deal(rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
    """``n`` rows of fourteen distinct card indices 0..52: player 0-6, dealer 7-13."""
    return np.argsort(rng.random((n, 53)), axis=1)[:, :14].astype(np.int64)


def house_keys(
    rows: npt.NDArray[np.int64], joker: JokerRule, wheel_second: bool
) -> npt.NDArray[np.int64]:
    """``(N, 2)`` low and high keys of the house-way setting of each seven-card row.

    The keys depend only on the rank pattern when no straight or flush is possible (most
    hands), and otherwise only on the four suits' rank sets up to renaming the suits; each
    row is reduced to one of those two codes with NumPy and each distinct code is set once
    (memoised across batches).
    """
    five_t, _, _ = tables()
    n = len(rows)
    is_joker = rows == 52
    j = is_joker.any(axis=1).astype(np.int64)
    r = np.where(is_joker, 0, rows >> 2)
    suit = np.where(is_joker, -1, rows & 3)
    bits = np.where(is_joker, 0, np.int64(1) << r)
    masks = np.stack(
        [np.bitwise_or.reduce(np.where(suit == k, bits, 0), axis=1) for k in range(4)], axis=1
    )
    held = np.stack([(suit == k).sum(axis=1) for k in range(4)], axis=1)
    may = (five_t[np.bitwise_or.reduce(bits, axis=1)] >= 5 - j) | (held.max(axis=1) + j >= 5)
    counts = np.zeros(n, dtype=np.int64)
    for k in range(7):
        counts += np.where(is_joker[:, k], 0, np.int64(1) << (3 * r[:, k]))
    pattern = counts | (j << 39)
    sm = np.sort(masks, axis=1)
    canon = sm[:, 0] | (sm[:, 1] << 13) | (sm[:, 2] << 26) | (sm[:, 3] << 39) | (j << 52)
    code = np.where(may, canon | (np.int64(1) << 53), pattern)
    uniq, inverse = np.unique(code, return_inverse=True)
    values = np.array(
        [_code_keys(int(c), joker, wheel_second) for c in uniq.tolist()], dtype=np.int64
    ).reshape(-1, 2)
    out: npt.NDArray[np.int64] = values[inverse.reshape(-1)]
    return out


@functools.cache
def _code_keys(code: int, joker: JokerRule, wheel_second: bool) -> tuple[int, int]:
    if code >> 53 & 1:  # suits' rank sets: rebuild one hand with them
        cards = [
            _CARDS[rank * 4 + k]
            for k in range(4)
            for rank in range(13)
            if (code >> (13 * k + rank)) & 1
        ]
        if code >> 52 & 1:
            cards.append(_CARDS[52])
        return house_way_keys(cards, joker, wheel_second)
    real = tuple(rank + 2 for rank in range(13) for _ in range((code >> (3 * rank)) & 7))
    return pattern_keys(real, bool(code >> 39 & 1), joker, wheel_second)


@functools.cache
def tally(
    joker: JokerRule, wheel_second: bool, rounds: int, seed: int
) -> tuple[int, int, int, tuple[int, ...]]:
    """House way against house way: (player wins, pushes, banker wins, side-kind counts)."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rng = np.random.default_rng(seed)
    wins = pushes = 0
    kinds = np.zeros(len(KINDS), dtype=np.int64)
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        cards = deal(rng, n)
        player = house_keys(cards[:, :7], joker, wheel_second)
        dealer = house_keys(cards[:, 7:], joker, wheel_second)
        low_won = player[:, 0] > dealer[:, 0]
        high_won = player[:, 1] > dealer[:, 1]
        wins += int(np.count_nonzero(low_won & high_won))
        pushes += int(np.count_nonzero(low_won ^ high_won))
        kinds += np.bincount(classify_rows(cards[:, :7], joker), minlength=len(KINDS))
        done += n
    return wins, pushes, rounds - wins - pushes, tuple(int(k) for k in kinds)


def main_win_per_unit(rules: PaiGowRules, stake: int) -> Fraction:
    """What a winning main bet of ``stake`` cents nets per unit, after commission."""
    fee = main_commission(stake, rules)
    return Fraction(stake - fee, stake)


def side_nets(side: SideBet, stake: int, kinds: tuple[int, ...]) -> list[tuple[float, int]]:
    """(net per unit, games) for each kind of hand, at a stake of ``stake`` cents."""
    out: list[tuple[float, int]] = []
    for kind, n in zip(KINDS, kinds, strict=True):
        ratios = [side.pays[h] for h in kind.split("+") if h in side.pays]
        if not ratios:
            out.append((-1.0, n))
            continue
        win = max(Fraction(stake * r.num, r.den) for r in ratios)
        if side.payout_cap:
            win = min(win, Fraction(side.payout_cap))
        out.append((float(win / stake), n))
    return out


def simulate(variant: Variant[PaiGowRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` games; each bet's mean net per unit (minimum stake) with a
    99.9% interval. The main bet is house way against house way."""
    rules = variant.rules
    wins, pushes, losses, kinds = tally(rules.joker, rules.wheel_second, rounds, seed)
    stake = variant.limits[MAIN_BET].minimum
    win = float(main_win_per_unit(rules, stake))
    bets: dict[str, BetSimulation] = {
        MAIN_BET: bet_statistics(rounds, [(win, wins), (0.0, pushes), (-1.0, losses)])
    }
    if rules.side is not None:
        side_stake = variant.limits[rules.side.name].minimum
        bets[rules.side.name] = bet_statistics(rounds, side_nets(rules.side, side_stake, kinds))
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)


# --- the shipped main-bet tallies (games/pai_gow/data/simulated.json) ----------------

#: the package holding ``simulated.json``, and the seed and command of its runs
DATA = "games.pai_gow.data"
SHIP_SEED = 20261130
BUILT_BY = "python bench/bench_shipped.py --write-data pai_gow"
#: the player strategy the main bet's figure assumes
STRATEGY = "the player sets the house way (docs/house-way.md), as the dealer does"


@dataclass(frozen=True, slots=True)
class MainTally:
    """House way against house way over ``rounds`` games: who won, and the run's origin."""

    rounds: int
    seed: int
    wins: int
    pushes: int
    losses: int
    built_by: str = ""


def tally_rules(rules: PaiGowRules) -> dict[str, Any]:
    """What the house-way tally depends on, as plain data (a shipped run's key)."""
    return {"deck": 53, "joker": rules.joker.value, "wheel_second": rules.wheel_second}


def tally_key(rules: PaiGowRules) -> str:
    """The ``simulated.json`` key of the tally these rules play (one per joker rule)."""
    return f"joker-{rules.joker.value}"


def main_tally(rules: PaiGowRules) -> MainTally | None:
    """The shipped tally for these rules, if it was made under them."""
    item = read_runs(DATA).get(tally_key(rules))
    if item is None or item.get("rules") != tally_rules(rules):
        return None
    return MainTally(
        int(item["rounds"]),
        int(item["seed"]),
        int(item["wins"]),
        int(item["pushes"]),
        int(item["losses"]),
        str(item["built_by"]),
    )


def ship_entry(rules: PaiGowRules, rounds: int, seed: int = SHIP_SEED) -> dict[str, Any]:
    """The ``simulated.json`` entry of a ``rounds``-game house-way tally for ``rules``."""
    wins, pushes, losses, _ = tally(rules.joker, rules.wheel_second, rounds, seed)
    return {
        "rules": tally_rules(rules),
        "rounds": rounds,
        "seed": seed,
        "wins": wins,
        "pushes": pushes,
        "losses": losses,
        "built_by": BUILT_BY,
    }

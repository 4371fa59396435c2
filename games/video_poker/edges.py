"""The figures ``croupier games house-edge`` prints for each machine.

Draw poker: the exact return under best holds at the machine's maximum coins (the
analyser of :mod:`games.video_poker.exact`); Mystery Bonus Poker: the exact return
averaged over the reel, each stop with its own best holds (:mod:`games.video_poker.mystery`).
European Slot Poker: the long-run return depends on what was dealt before (the deck is
kept between hands), so its figure is the simulation of at least 10^7 hands shipped in
``data/simulated.json`` (:mod:`games.video_poker.simulate`); the exact figures are those of
a hand from a fresh deck, its bonuses' shares and the double-up
(:func:`games.video_poker.exact.slot_figures`).
"""

from __future__ import annotations

from fractions import Fraction

from games.core.engine import Variant
from games.core.figures import HouseEdge
from games.video_poker.autohold import paytable
from games.video_poker.exact import slot_figures, slot_house_edges, table_return
from games.video_poker.hands import fruit_line
from games.video_poker.mystery import mystery_return
from games.video_poker.rules import VideoPokerRules
from games.video_poker.simulate import long_run


def house_edge(variant: Variant[VideoPokerRules]) -> dict[str, HouseEdge]:
    """The house edges at the maximum coins (the fruit machine's: exact from a fresh deck,
    and ``main``, the simulated long run with the persistent deck)."""
    rules = variant.rules
    coins = rules.max_coins
    if rules.fruit is not None:
        out = slot_house_edges(slot_figures(rules.fruit, rules.table(), coins, fruit_line))
        run = long_run(variant, coins)
        if run is not None:  # the shipped run of today's rules (data/simulated.json)
            out["main"] = HouseEdge(
                edge=run.edge,
                exact=False,
                method="the long run of 2,000 machines x 5,000 hands, each with its "
                "persistent deck and the page's shuffle rules",
                note=f"{coins} coins; the Fruit and Cherry Bonuses included; every win "
                "collected; not exact: the persistent deck makes each hand depend on the "
                "hands before it",
                strategy="the best hold of each dealt hand's symbols on a full deck",
                simulation=run,
            )
        return out
    table = paytable(rules)
    strategy = "the machine's auto-hold: the exact best hold of every deal"
    if rules.mystery:
        ret = mystery_return(table, rules.mystery, coins).expected_return
        method = "every deal x 32 holds per reel stop, weighted by the stops' weights"
        strategy += " for the stop the reel shows"
    else:
        ret = table_return(table, coins)
        method = "every deal x 32 holds of a 52-card deck (suit classes, exact fractions)"
    return {
        "main": HouseEdge(
            edge=Fraction(1) - ret,
            exact=True,
            method=method,
            note=f"{coins} coins",
            strategy=strategy,
        )
    }


__all__ = ["house_edge"]

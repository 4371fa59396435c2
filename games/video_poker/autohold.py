"""The machine's auto-hold on the deal (page 001: "The game picks the best hand possible
based on the cards dealt and will hold them for you, unless you decide to change the
selection").

Draw poker: the exact best hold of :func:`games.video_poker.holds.best_hold` (every one of
the 32 holds valued over all draws; ~0.25 ms a hand once the subset counts are built) for
this hand's pay table: a Mystery stop's raised and adjusted lines included, so the hold
is re-optimised for the line the reel raised. The fruit machine's hold is exact over the
cards left (:func:`games.video_poker.fruit.best_hold`).

>>> from games.core.cards import parse_cards
>>> from games.video_poker.rules import load_packaged
>>> rules = load_packaged("jacks_or_better").rules
>>> draw_hold(parse_cards("Ah Kh Qh Jh 2c"), rules, None, 5)
(0, 1, 2, 3)
>>> draw_hold(parse_cards("Jc Jd 4s 7h 9c"), rules, None, 1)
(0, 1)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from games.core.cards import Card
from games.video_poker.holds import best_hold, held, warm
from games.video_poker.pays import PayLine, PayTable
from games.video_poker.rules import MysteryStop, VideoPokerRules


def paytable(rules: VideoPokerRules, stop: MysteryStop | None = None) -> PayTable:
    """The machine's lines (with ``stop``'s pays) as the exact analysis reads them."""
    table = rules.table(stop)
    lines = tuple(PayLine(line.hand, table[line.hand]) for line in rules.lines)
    return PayTable(name="machine", wild="none", lines=lines)


#: one builder of the subset counts at a time: a warm-up thread and a first deal that
#: overlap compute them once, not twice (the build is seconds of CPU, then cached)
_BUILDING = threading.Lock()


def warm_up(rules: VideoPokerRules) -> None:
    """Build the counts the first hold of ``rules`` would wait on (~3 s of CPU, once)."""
    if rules.fruit is None:
        with _BUILDING:
            warm(paytable(rules))


def draw_hold(
    cards: Sequence[Card], rules: VideoPokerRules, stop: MysteryStop | None, coins: int
) -> tuple[int, ...]:
    """Positions (0-based, dealt order) of the best hold of five dealt cards."""
    with _BUILDING:
        mask, _value = best_hold(cards, paytable(rules, stop), coins)
    return held(mask)


__all__ = ["draw_hold", "paytable", "warm_up"]

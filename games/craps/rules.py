"""The craps variant: the typed rules (the pay table read from ``paytables/*.toml``) and
the per-spot limits built from it.

>>> v = pinnacle_variant()
>>> v.rules.paytable.maximum, v.limits["horn"].increment
(50000, 400)
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.engine import BetLimit, Variant
from games.craps.bets import ODDS_OF, Kind, all_bet_names, parse_bet
from games.craps.paytable import CrapsPaytable, load_paytable


@dataclass(frozen=True, slots=True, kw_only=True)
class CrapsRules:
    """Everything a craps table needs beyond the page's fixed rules: its pay table."""

    paytable: CrapsPaytable


def limits_for(t: CrapsPaytable) -> dict[str, BetLimit]:
    """One limit per bet spot. Odds carry no $500 cap (the page exempts them); their
    real cap is a multiple of the flat bet, checked by the engine."""
    out: dict[str, BetLimit] = {}
    for name in all_bet_names():
        kind = parse_bet(name).kind
        if kind is Kind.HORN:
            out[name] = BetLimit(
                minimum=t.horn_increment, maximum=t.maximum, increment=t.horn_increment
            )
        elif kind is Kind.WORLD:
            out[name] = BetLimit(
                minimum=t.world_increment, maximum=t.maximum, increment=t.world_increment
            )
        elif kind in ODDS_OF:
            top = max(t.lay_max, *t.take_max.values()) * t.maximum
            out[name] = BetLimit(minimum=t.minimum, maximum=top, increment=t.increment)
        else:
            out[name] = BetLimit(minimum=t.minimum, maximum=t.maximum, increment=t.increment)
    return out


def pinnacle_variant() -> Variant[CrapsRules]:
    """The Pinnacle page's table (``paytables/pinnacle.toml``)."""
    table = load_paytable("pinnacle")
    return Variant(
        id="craps-pinnacle",
        family="craps",
        title="Craps",
        source=table.source,
        limits=limits_for(table),
        rules=CrapsRules(paytable=table),
        seats=1,
        notes=(
            "All pays, odds multiples (3-4-5x, lay 6x), commissions, the $500 maximum and "
            "the horn/world increments are the page's.",
            "Standard, not the page: $1 minimum in $1 steps (the page names no minimum).",
            "Reading: a don't pass / don't come 12 on its come-out is settled as a push "
            "(stake returned, bet leaves the table).",
            "Reading: horn and world are 4 and 5 unit bets priced as the propositions.",
        ),
    )

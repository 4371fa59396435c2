"""The rules of a Caribbean Stud table as one frozen dataclass.

Caribbean Stud Poker (page 001), the Pinnacle "Stud Poker" (page 000, contents
list only: README gap 4 makes it Caribbean Stud with the Oasis jackpot bet) and
Oasis Poker (page 000: bought draws; tables from README gap 3) differ only in
data: the draw prices, whether a dealer card is shown, and the jackpot.

The tables are data, ``paytables/*.toml``, loaded and validated here (:func:`loads`,
:func:`load_packaged`). Schema (``spec = 1``; every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                      # optional: what is the page, what is the standard
    [rules]
    dealer_shows_card = true
    call_multiple = 2
    seats = 1                            # 1..7
    jackpot_queue = 10                   # optional, with [jackpot]: chips a seat may queue (001)
    [bets.ante]    pays = "1:1"; minimum, maximum, increment (cents)
    [bets.call]    limits (must allow call_multiple x the largest ante)
    [bets.jackpot] optional, with [jackpot]; minimum = maximum = the fixed stake
    [call]                               # category name -> "n:d"; high_card = the ace/king
    [draw_costs]                         # optional (Oasis): "1".."5" -> price in antes
    auto_call_draws = [5]                # optional, with [draw_costs]
    [jackpot]                            # see games.core.progressive.parse_jackpot
    meter, stake, contribution, reset, always_contribute
    [jackpot.fixed]    category -> cents
    [jackpot.share_bp] category -> basis points of the meter

Bad data raises :class:`~games.core.errors.PaytableError` naming the file and key;
nothing is half-loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.core.cards import parse_cards
from games.core.engine import Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.poker_paytable import one_deck_variant, parse_pays, read_header, read_limits
from games.core.progressive import JackpotTable, parse_jackpot
from games.core.tomlread import TomlTable, packaged, parse_ratio, parse_toml
from games.poker.category import Category
from games.poker.rank5 import rank5

PACKAGED = ("caribbean-stud", "pinnacle-stud-poker", "oasis-poker")
FAMILY = "caribbean_stud"

#: the lowest qualifying dealer hand on every page: ace/king (A-K-4-3-2 of mixed suits)
ACE_KING = rank5(parse_cards("Ah Kd 4c 3s 2h"))


@dataclass(frozen=True, slots=True, kw_only=True)
class StudRules:
    """One Caribbean Stud family table."""

    dealer_shows_card: bool  # the dealer's first card is dealt face up
    call_multiple: int = 2  # the call (raise) bet is this many antes
    ante_pays: Ratio = field(default_factory=lambda: Ratio(1, 1))
    #: call bet pays by the player's category; HIGH_CARD is the winning ace/king
    call_pays: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: Oasis: cards replaced -> price in antes (empty: no draws)
    draw_costs: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    #: draw sizes that call automatically (Oasis: replacing all five)
    auto_call_draws: frozenset[int] = frozenset()
    jackpot: JackpotTable | None = None
    #: page 001's coin slit: the most $1 jackpot chips a seat may queue (0: no queue)
    queue_most: int = 0
    qualifier: int = ACE_KING

    @property
    def bets(self) -> tuple[str, ...]:
        """Bets placed before the deal (``call`` and ``draw`` come with decisions)."""
        return ("ante", "jackpot") if self.jackpot else ("ante",)


def parse_table(data: Mapping[str, Any], where: str) -> Variant[StudRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top, notes = read_header(data, where, {"rules", "bets", "call", "draw_costs", "jackpot"})
    r = TomlTable(
        top.get("rules", dict),
        f"{where}: [rules]",
        {"dealer_shows_card", "call_multiple", "seats", "auto_call_draws", "jackpot_queue"},
    )
    seats, multiple = r.get("seats", int), r.get("call_multiple", int)
    if not 1 <= seats <= 7:
        raise PaytableError(f"{where}: [rules] seats must be 1..7")
    if not 1 <= multiple <= 10:
        raise PaytableError(f"{where}: [rules] call_multiple must be 1..10")
    jackpot_data = top.get("jackpot", dict, default=None, required=False)
    jackpot = parse_jackpot(jackpot_data, f"{where}: [jackpot]") if jackpot_data else None
    queue_most = r.get("jackpot_queue", int, default=0, required=False)
    if not 0 <= queue_most <= 10 or (queue_most and jackpot is None):
        raise PaytableError(f"{where}: [rules] jackpot_queue must be 0..10, with a [jackpot]")
    bets = top.get("bets", dict)
    limits = read_limits(bets, {"ante", "call"} | ({"jackpot"} if jackpot else set()), where)
    ante_pays = parse_ratio(bets["ante"].get("pays"), f"{where}: [bets.ante]")
    for name in ("call", "jackpot"):
        if name in bets and "pays" in bets[name]:
            raise PaytableError(f"{where}: [bets.{name}] pays by its own table, not 'pays'")
    if limits["call"].maximum < multiple * limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.call] must allow {multiple} x the largest ante")
    if jackpot and not limits["jackpot"].minimum == limits["jackpot"].maximum == jackpot.stake:
        raise PaytableError(f"{where}: [bets.jackpot] must be exactly the jackpot stake")
    call = parse_pays(top.get("call", dict), f"{where}: [call]")
    missing = [c.label for c in Category if c <= Category.ROYAL_FLUSH and c not in call]
    if missing:
        raise PaytableError(f"{where}: [call] has no pay for {', '.join(missing)}")
    costs = _draw_costs(top.get("draw_costs", dict, default={}, required=False), where)
    auto = r.get("auto_call_draws", list, default=[], required=False)
    if any(a not in costs for a in auto):
        raise PaytableError(f"{where}: [rules] auto_call_draws must be sizes in [draw_costs]")
    rules = StudRules(
        dealer_shows_card=r.get("dealer_shows_card", bool),
        call_multiple=multiple,
        ante_pays=ante_pays,
        call_pays=MappingProxyType(call),
        draw_costs=MappingProxyType(costs),
        auto_call_draws=frozenset(auto),
        jackpot=jackpot,
        queue_most=queue_most,
    )
    return one_deck_variant(
        top, notes, family=FAMILY, limits=limits, rules=rules, seats=seats, jackpot=jackpot
    )


def _draw_costs(raw: Mapping[str, Any], where: str) -> dict[int, int]:
    costs: dict[int, int] = {}
    for k, v in raw.items():
        if k not in {"1", "2", "3", "4", "5"}:
            raise PaytableError(f"{where}: [draw_costs] keys are 1..5 cards, got {k!r}")
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10:
            raise PaytableError(f"{where}: [draw_costs] {k} must be 0..10 antes")
        costs[int(k)] = v
    return costs


def loads(text: str, where: str = "<string>") -> Variant[StudRules]:
    """Parse and validate a Caribbean Stud family pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[StudRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.caribbean_stud", name))

"""The rules of a house-banked hold'em table as one frozen dataclass.

Two games share the dealing (two hole cards each, five community cards, best
five of seven) and differ in data:

* ``casino``: Pinnacle Hold'em (page 000, Casino Hold'em; pay tables from
  README gap 2): ante, one call at ``call_multiple`` x the ante after the flop,
  dealer qualifies with a pair of 4s, the ante paid by its own table, the AA
  bonus on the first five cards (forfeited on a fold).
* ``ultimate``: Ultimate Texas Hold'em (page 004): ante = blind, one play bet of
  4x/3x before the flop, 2x on the flop or 1x on the river (else fold); dealer
  qualifies with a pair; blind and trips tables.

The tables are data, ``paytables/*.toml``, loaded and validated here (:func:`loads`,
:func:`load_packaged`). Schema (``spec = 1``)::

    spec = 1
    id, title, source = "..."; notes = ["..."]
    [rules]  style = "casino" | "ultimate"; seats = 1..7; call_multiple = 2 (casino)
    [bets.<name>]   limits in cents: casino ante, call, bonus; ultimate ante, blind, play, trips
    casino:   [ante_pays] every category -> "n:d"; [bonus] category -> "n:d";
              bonus_pair_of_aces = "n:d" (in [bonus_extra])
    ultimate: [blind] category -> "n:d" (straight and up); [trips] (three of a kind and up);
              optional [progressive] offered = false, wins_on = category, status = "..."

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from games.core.cards import parse_cards
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.player_dealer import PlayerDealerRules
from games.core.poker_paytable import one_deck_variant, parse_pays, read_header, read_limits
from games.core.progressive import category_named
from games.core.tomlread import TomlTable, packaged, parse_ratio, parse_toml
from games.poker.category import Category
from games.poker.rank5 import rank5

PACKAGED = ("pinnacle-holdem", "ultimate-texas-holdem")
BETS = {"casino": {"ante", "call", "bonus"}, "ultimate": {"ante", "blind", "play", "trips"}}

PAIR_OF_FOURS = rank5(parse_cards("4c 4d 5h 3s 2c"))
ANY_PAIR = rank5(parse_cards("2c 2d 5h 4s 3c"))
#: UTH play-bet sizes in antes by street
PLAY_MULTIPLES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"preflop": (4, 3), "flop": (2,), "river": (1,)}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Progressive:
    """A progressive jackpot the page names but the table does not offer (yet).

    Page 004: "UTH Progressive - Royal Flush wins the progressive. Coming Soon!" The
    page prints no stake, meter or pay table, so the progressive is data the table
    carries (what wins it, its status) and is configured off: no bet spot, and the
    engine refuses a bet on it with :meth:`refusal`.
    """

    offered: bool
    wins_on: Category
    status: str  # the page's word for it ("Coming Soon")

    def refusal(self, title: str) -> str:
        """The refusal of a bet on it."""
        return (
            f"the {title} progressive ({self.wins_on.label} wins it) is {self.status}: "
            "not offered at this table"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemRules:
    """One hold'em table."""

    style: str  # "casino" or "ultimate"
    qualifier: int
    call_multiple: int = 2  # casino: the call bet in antes
    #: casino: the ante's pay when the player wins (by category), or the dealer does not qualify
    ante_pays: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: casino: the AA bonus on the first five cards, and its pair-of-aces line
    bonus: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    bonus_pair_of_aces: Ratio | None = None
    #: ultimate: the blind (paid on a winning straight or better) and trips tables
    blind: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    trips: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: 004's rotating Player/Dealer position (None: the house banks every hand)
    player_dealer: PlayerDealerRules | None = None
    #: ultimate: the page's progressive, carried and configured off (None: none named)
    progressive: Progressive | None = None

    @property
    def bets(self) -> tuple[str, ...]:
        """Bets placed before the deal."""
        return ("ante", "bonus") if self.style == "casino" else ("ante", "blind", "trips")

    @property
    def matched(self) -> Mapping[str, str]:
        """Bets that always equal another (Ultimate: the blind is the ante's amount), so a
        page places and takes them down together instead of offering a bet it refuses."""
        return MappingProxyType({"blind": "ante"} if self.style == "ultimate" else {})


def parse_table(data: Mapping[str, Any], where: str) -> Variant[HoldemRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top, notes = read_header(
        data,
        where,
        {
            "rules",
            "bets",
            "ante_pays",
            "bonus",
            "bonus_extra",
            "blind",
            "trips",
            "player_dealer",
            "progressive",
        },
    )
    r = TomlTable(top.get("rules", dict), f"{where}: [rules]", {"style", "seats", "call_multiple"})
    style, seats = r.get("style", str), r.get("seats", int)
    if style not in BETS:
        raise PaytableError(f"{where}: [rules] style must be 'casino' or 'ultimate', got {style!r}")
    if not 1 <= seats <= 7:
        raise PaytableError(f"{where}: [rules] seats must be 1..7")
    bets = top.get("bets", dict)
    limits = read_limits(bets, BETS[style], where)
    if any("pays" in bets[b] for b in bets):
        raise PaytableError(f"{where}: bets pay by their own tables, not by a 'pays' key")
    reader = _casino if style == "casino" else _ultimate
    rules = reader(top, r, limits, where)
    pd = top.get("player_dealer", dict, default=None, required=False)
    if pd is not None:
        rules = replace(rules, player_dealer=PlayerDealerRules.parse(pd, where))
    return one_deck_variant(top, notes, family="holdem", limits=limits, rules=rules, seats=seats)


def _casino(
    top: TomlTable, r: TomlTable, limits: Mapping[str, BetLimit], where: str
) -> HoldemRules:
    if "progressive" in top.data:
        raise PaytableError(f"{where}: [progressive] is for the ultimate style")
    multiple = r.get("call_multiple", int)
    if not 1 <= multiple <= 10:
        raise PaytableError(f"{where}: [rules] call_multiple must be 1..10")
    if limits["call"].maximum < multiple * limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.call] must allow {multiple} x the largest ante")
    ante = parse_pays(top.get("ante_pays", dict), f"{where}: [ante_pays]")
    missing = [c.label for c in Category if c <= Category.ROYAL_FLUSH and c not in ante]
    if missing:
        raise PaytableError(f"{where}: [ante_pays] has no pay for {', '.join(missing)}")
    extra = TomlTable(
        top.get("bonus_extra", dict, default={}, required=False),
        f"{where}: [bonus_extra]",
        {"pair_of_aces"},
    )
    aces = extra.get("pair_of_aces", str, default=None, required=False)
    return HoldemRules(
        style="casino",
        qualifier=PAIR_OF_FOURS,
        call_multiple=multiple,
        ante_pays=MappingProxyType(ante),
        bonus=MappingProxyType(parse_pays(top.get("bonus", dict), f"{where}: [bonus]")),
        bonus_pair_of_aces=parse_ratio(aces, f"{where}: [bonus_extra]") if aces else None,
    )


def _ultimate(
    top: TomlTable, r: TomlTable, limits: Mapping[str, BetLimit], where: str
) -> HoldemRules:
    if limits["play"].maximum < 4 * limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.play] must allow 4 x the largest ante")
    blind = parse_pays(top.get("blind", dict), f"{where}: [blind]")
    trips = parse_pays(top.get("trips", dict), f"{where}: [trips]")
    if min(blind) < Category.STRAIGHT or min(trips) < Category.THREE_OF_A_KIND:
        raise PaytableError(f"{where}: [blind] pays from a straight, [trips] from trips")
    return HoldemRules(
        style="ultimate",
        qualifier=ANY_PAIR,
        blind=MappingProxyType(blind),
        trips=MappingProxyType(trips),
        progressive=_progressive(top, where),
    )


def _progressive(top: TomlTable, where: str) -> Progressive | None:
    """The optional ``[progressive]`` table: what wins it and its status, always off."""
    data = top.get("progressive", dict, default=None, required=False)
    if data is None:
        return None
    t = TomlTable(data, f"{where}: [progressive]", {"offered", "wins_on", "status"})
    if t.get("offered", bool):
        raise PaytableError(
            f"{where}: [progressive] offered must be false: the page prints no stake, meter "
            "or pay table for it"
        )
    return Progressive(
        offered=False,
        wins_on=category_named(t.get("wins_on", str), f"{where}: [progressive] wins_on"),
        status=t.get("status", str),
    )


def loads(text: str, where: str = "<string>") -> Variant[HoldemRules]:
    """Parse and validate a hold'em pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[HoldemRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.holdem", name))

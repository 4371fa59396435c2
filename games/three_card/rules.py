"""The rules of a three-card table as one frozen dataclass, and the hand facts they use.

Three Card Poker (California page 004) and Tri-Card Poker (online page 001)
differ only in data: whether one dealer card is shown before the decision,
whether Pair Plus may be bet alone, the ante bonus table (Tri-Card), the 6 Card
Bonus table and the progressive (004). The play bet (the page 001 "raise") always
equals the ante.

The tables are data, ``paytables/*.toml``, loaded and validated here (:func:`loads`,
:func:`load_packaged`). Schema (``spec = 1``; every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                     # optional
    [rules]
    dealer_shows_card = true            # one dealer card exposed before play/fold (004)
    pair_plus_alone = false             # Pair Plus without an ante (001)
    positions = 6; seats = 6
    [bets.ante] / [bets.play]           # pays = "1:1"; minimum, maximum, increment (cents)
    [bets.pair-plus]                    # limits only: it pays by [pair_plus]
    [bets.six-card-bonus]               # optional, with [six_card_bonus]
    [pair_plus]                         # Category3 name (lower case) -> "n:d"
    [ante_bonus]                        # optional, Category3 name -> "n:d"
    [six_card_bonus]                    # optional, Category name -> "n:d"
    [bets.progressive]                  # optional, with [progressive]: min = max = stake
    [progressive]                       # see games.core.progressive.parse_jackpot_of
    meter, stake, contribution, reset, always_contribute
    [progressive.fixed]                 # ProgressiveHand name -> cents
    [progressive.share_bp]              # ProgressiveHand name -> basis points of the meter
    [player_dealer]                     # optional (004): hands = 2, the rotating position

Bad data raises :class:`~games.core.errors.PaytableError` naming the file and key, and
nothing is half-loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from types import MappingProxyType
from typing import Any, TypeVar

from games.core.cards import parse_cards
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.player_dealer import PlayerDealerRules
from games.core.poker_paytable import one_deck_variant, read_header
from games.core.progressive import JackpotTable, parse_jackpot_of
from games.core.tomlread import TomlTable, packaged, parse_limit, parse_ratio, parse_toml
from games.poker.category import Category
from games.poker.three_card import Category3, rank3
from games.three_card.progressive import COUNTS, ProgressiveHand, hand_named

PACKAGED = ("three-card-poker", "tri-card-poker")
E = TypeVar("E", bound=IntEnum)

#: the lowest qualifying dealer hand on both pages: queen high (Q-3-2 of mixed suits)
QUEEN_HIGH = rank3(parse_cards("Qh 3d 2c"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeCardRules:
    """One three-card table."""

    dealer_shows_card: bool  # 004: the dealer's first card is exposed before play/fold
    pair_plus_alone: bool  # 001: Pair Plus may be bet without an ante
    qualifier: int = QUEEN_HIGH  # lowest qualifying dealer rank3
    positions: int = 6
    pays: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    pair_plus: Mapping[Category3, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    ante_bonus: Mapping[Category3, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    six_card_bonus: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: 004's progressive: the $1 bet on the player's three cards, feeding a meter
    progressive: JackpotTable[ProgressiveHand] | None = None
    #: 004's rotating Player/Dealer position (None: the house banks every hand)
    player_dealer: PlayerDealerRules | None = None

    @property
    def bets(self) -> tuple[str, ...]:
        """The bets a player places before the deal (``play`` comes with the decision)."""
        out = ["ante", "pair-plus"]
        if self.six_card_bonus:
            out.append("six-card-bonus")
        if self.progressive:
            out.append("progressive")
        return tuple(out)


def _pay_table(data: object, enum: type[E], where: str) -> dict[E, Ratio]:
    if not isinstance(data, dict):
        raise PaytableError(f"{where} must be a table")
    out: dict[E, Ratio] = {}
    for name, text in data.items():
        try:
            key = enum[name.upper()]
        except KeyError:
            known = ", ".join(m.name.lower() for m in enum)
            raise PaytableError(f"{where}: unknown hand {name!r} (hands: {known})") from None
        ratio = parse_ratio(text, f"{where} {name}")
        if ratio.num == 0:
            raise PaytableError(f"{where} {name}: pays nothing")
        out[key] = ratio
    return out


def parse_table(data: Mapping[str, Any], where: str) -> Variant[ThreeCardRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top, notes = read_header(
        data,
        where,
        {
            "rules",
            "bets",
            "pair_plus",
            "ante_bonus",
            "six_card_bonus",
            "progressive",
            "player_dealer",
        },
    )
    r = TomlTable(
        top.get("rules", dict),
        f"{where}: [rules]",
        {"dealer_shows_card", "pair_plus_alone", "positions", "seats"},
    )
    positions, seats = r.get("positions", int), r.get("seats", int)
    if not 1 <= seats <= positions <= 7:
        raise PaytableError(f"{where}: [rules] need 1 <= seats <= positions <= 7")
    bets = top.get("bets", dict)
    six = top.get("six_card_bonus", dict, default={}, required=False)
    jp_data = top.get("progressive", dict, default=None, required=False)
    jackpot = (
        parse_jackpot_of(jp_data, f"{where}: [progressive]", hand_named, COUNTS)
        if jp_data
        else None
    )
    pays, limits = _bets(bets, bool(six), where, jackpot)
    rules = ThreeCardRules(
        dealer_shows_card=r.get("dealer_shows_card", bool),
        pair_plus_alone=r.get("pair_plus_alone", bool),
        positions=positions,
        pays=MappingProxyType(pays),
        pair_plus=MappingProxyType(
            _pay_table(top.get("pair_plus", dict), Category3, f"{where}: [pair_plus]")
        ),
        ante_bonus=MappingProxyType(
            _pay_table(
                top.get("ante_bonus", dict, default={}, required=False),
                Category3,
                f"{where}: [ante_bonus]",
            )
        ),
        six_card_bonus=MappingProxyType(_pay_table(six, Category, f"{where}: [six_card_bonus]")),
        progressive=jackpot,
        player_dealer=_player_dealer(
            top.get("player_dealer", dict, default=None, required=False), where
        ),
    )
    if Category3.HIGH_CARD in rules.pair_plus:
        raise PaytableError(f"{where}: [pair_plus] cannot pay a high card")
    return one_deck_variant(
        top, notes, family="three_card", limits=limits, rules=rules, seats=seats, jackpot=jackpot
    )


def _player_dealer(data: object, where: str) -> PlayerDealerRules | None:
    return None if data is None else PlayerDealerRules.parse(data, where)


def _bets(
    bets: Mapping[str, Any], six: bool, where: str, jackpot: JackpotTable[Any] | None
) -> tuple[dict[str, Ratio], dict[str, BetLimit]]:
    """The ante's and play's pays and every bet's limits, from ``[bets.*]``."""
    wanted = {"ante", "play", "pair-plus"} | ({"six-card-bonus"} if six else set())
    wanted |= {"progressive"} if jackpot else set()
    if set(bets) != wanted:
        raise PaytableError(f"{where}: bets must be exactly {sorted(wanted)}, got {sorted(bets)}")
    pays: dict[str, Ratio] = {}
    limits: dict[str, BetLimit] = {}
    for name in sorted(wanted):
        spot = bets[name]
        if not isinstance(spot, dict):
            raise PaytableError(f"{where}: [bets.{name}] must be a table")
        if name in ("ante", "play"):
            pays[name] = parse_ratio(spot.get("pays"), f"{where}: [bets.{name}]")
        elif "pays" in spot:
            raise PaytableError(f"{where}: [bets.{name}] pays by its own table, not 'pays'")
        limits[name] = parse_limit(spot, f"{where}: [bets.{name}]")
    if limits["play"].maximum < limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.play] must allow the largest ante")
    if jackpot and not limits["progressive"].minimum == limits["progressive"].maximum == (
        jackpot.stake
    ):
        raise PaytableError(f"{where}: [bets.progressive] must be exactly the progressive stake")
    return pays, limits


def loads(text: str, where: str = "<string>") -> Variant[ThreeCardRules]:
    """Parse and validate a three-card pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[ThreeCardRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.three_card", name))

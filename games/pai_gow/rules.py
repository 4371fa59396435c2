"""Pai gow's typed rules, read from the TOML files in ``paytables/`` and validated.

Each file (``spec = 1``) names its source page and says where a standard fills a
gap. :func:`loads` builds a frozen :class:`PaiGowRules` and the
``Variant[PaiGowRules]`` on it, reading through :mod:`games.core.tomlread`; anything
malformed raises :class:`~games.core.errors.PaytableError` naming the file and key,
one line.

Schema (every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                       # optional
    [rules]
    joker = "ace-or-filler"               # or "wild" (games.poker.JokerRule)
    wheel_second = true                   # A-2-3-4-5 second-highest straight
    seats = 1                             # player seats at the table (1..6)
    surrender = false                     # optional: a seat may give up its wager unrevealed
    player_bank = false                   # optional: the page-002 bank rotation
                                          #   (games.pai_gow.bank); no side bet with it
    player_dealer_hands = 2               # optional (004, Fortune): the rotating Player/Dealer
    land_deal = false                     # optional: page 002's deal, seven hands to all
                                          #   seven positions from an RNG start position
                                          #   (games.pai_gow.land_deal); needs 6 seats
    dragon = false                        # optional: the unplayed first hand is offered
                                          #   as a dragon hand (games.pai_gow.dragon);
                                          #   needs land_deal
    foul = "reset"                        # optional: "reset" (refused, set again) or
                                          #   "loses" (played, the wager lost): Foul
    house_way_button = true               # optional: a player may ask for the house way
    extra_hands = "player"                # optional: "player" (a player sets every seat
                                          #   it holds) or "house-way" (only the first)
    [commission]
    bp = 500                              # basis points of a winning main bet
    rounding = "up"                       # games.core.money.Rounding value
    [bets.main]                           # minimum, maximum, increment (cents)
    [bets.bonus] / [bets.fortune]         # optional side bet: limits plus
    pays = { full-house = "5:1", ... }    #   hand -> ratio (BONUS_HANDS)
    payout_cap = 2500000                  #   optional: most a side bet pays, cents
    envy = { four-of-a-kind = 500, ... }  #   optional: cents paid per other seat's hand
    envy_minimum = 500                    #   side bet needed for envy, cents
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from games.core import collection
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Cents, Ratio, Rounding, commission
from games.core.player_dealer import PlayerDealerRules
from games.core.tomlread import TomlTable, packaged, parse_toml
from games.poker.pai_gow_joker import JokerRule

E = TypeVar("E", bound=StrEnum)

SPEC = 1
MAIN_BET = "main"
SIDE_BETS = ("bonus", "fortune")

#: the seven-card hands a bonus table may pay, best first (the order breaks no ties:
#: a hand is paid the largest entry it qualifies for)
BONUS_HANDS = (
    "seven-card-straight-flush",
    "royal-flush-deuces",
    "seven-card-straight-flush-joker",
    "five-aces",
    "five-of-a-kind",
    "royal-flush",
    "straight-flush",
    "four-of-a-kind",
    "full-house",
    "flush",
    "three-of-a-kind",
    "straight",
)


class Foul(StrEnum):
    """What a foul setting (the low hand ranked above the high hand) does on a table."""

    RESET = "reset"  # online (000, 001, 003): refused, and the player sets it again
    LOSES = "loses"  # land (002) and California (004): played, and its wager is lost


class ExtraHands(StrEnum):
    """Who sets the hands of a player's second and later seats."""

    PLAYER = "player"  # the player sets every seat it holds
    HOUSE_WAY = "house-way"  # page 004: only the first; the others play the house way


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBet:
    """A bonus bet on the player's seven cards (Bonus Pai Gow, Fortune)."""

    name: str
    pays: Mapping[str, Ratio]
    payout_cap: int = 0  # cents; 0 = no cap
    envy: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    envy_minimum: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class PaiGowRules:
    """One pai gow table's rules, as loaded from its pay table."""

    joker: JokerRule
    wheel_second: bool
    commission_bp: int
    commission_rounding: Rounding
    side: SideBet | None = None
    surrender: bool = False
    player_bank: bool = False  # page 002: players take the bank in turn (games.pai_gow.bank)
    land_deal: bool = False  # page 002: every position dealt from an RNG start position
    dragon: bool = False  # page 001 "Physical": a dragon hand is offered (games.pai_gow.dragon)
    foul: Foul = Foul.RESET
    house_way_button: bool = True  # page 001 online: "does not support asking the house"
    extra_hands: ExtraHands = ExtraHands.PLAYER
    #: page 004's rotating Player/Dealer (Fortune; games.pai_gow.player_dealer)
    player_dealer: PlayerDealerRules | None = None

    @property
    def bets(self) -> tuple[str, ...]:
        return (MAIN_BET,) if self.side is None else (MAIN_BET, self.side.name)


def main_commission(stake: int, rules: PaiGowRules) -> Cents:
    """The commission on a winning main bet of ``stake`` (the win equals the stake).

    ``Rounding.UP_TO_QUARTER`` (page 001): "5% ... rounded up to the next quarter": any
    amount not already a whole quarter goes up ($6 -> 30 cents -> 50 cents).

    >>> from games.core.money import Rounding
    >>> r = PaiGowRules(joker=JokerRule.ACE_OR_FILLER, wheel_second=True, commission_bp=500,
    ...                 commission_rounding=Rounding.UP_TO_QUARTER)
    >>> [main_commission(s, r) for s in (600, 1100, 2000, 500)]
    [50, 75, 100, 25]
    """
    return commission(Cents(stake), rules.commission_bp, rules.commission_rounding)


def positive_ratio(text: object, where: str) -> Ratio:
    """``"8:1"`` -> ``Ratio(8, 1)``; PaytableError on anything else (a pay of 0 included).

    >>> positive_ratio("8:1", "t.toml")
    Ratio(num=8, den=1)
    """
    if not isinstance(text, str) or text.count(":") != 1:
        raise PaytableError(f"{where}: pays must be a string like '8:1', got {text!r}")
    num_s, den_s = (p.strip() for p in text.split(":"))
    if not (num_s.isdigit() and den_s.isdigit()) or int(den_s) == 0 or int(num_s) == 0:
        raise PaytableError(f"{where}: pays must be two positive whole numbers, got {text!r}")
    return Ratio(int(num_s), int(den_s))


def table(data: object, where: str, allowed: set[str]) -> TomlTable:
    """``data`` read as a TOML table holding only ``allowed`` keys."""
    if not isinstance(data, dict):
        raise PaytableError(f"{where}: must be a table")
    return TomlTable(data, where, allowed)


def parse_limit(t: TomlTable) -> BetLimit:
    """A bet's ``minimum``/``maximum``/``increment`` (cents) as a BetLimit."""
    minimum, maximum = t.get("minimum", int), t.get("maximum", int)
    increment = t.get("increment", int)
    if increment <= 0 or minimum <= 0 or maximum < minimum:
        raise PaytableError(f"{t.where}: need 0 < minimum <= maximum and a positive increment")
    if minimum % increment or maximum % increment:
        raise PaytableError(f"{t.where}: minimum and maximum must be multiples of the increment")
    return BetLimit(minimum=minimum, maximum=maximum, increment=increment)


def parse_side(name: str, data: object, where: str) -> tuple[SideBet, BetLimit]:
    """A ``[bets.bonus]`` / ``[bets.fortune]`` table: its limits, pays, cap and Envy."""
    t = table(
        data,
        where,
        {"minimum", "maximum", "increment", "pays", "payout_cap", "envy", "envy_minimum"},
    )
    limit = parse_limit(t)
    raw = t.get("pays", dict)
    unknown = set(raw) - set(BONUS_HANDS)
    if unknown or not raw:
        raise PaytableError(f"{where}: pays needs hands from {BONUS_HANDS}, got {sorted(raw)}")
    pays = {h: positive_ratio(raw[h], f"{where}: pays.{h}") for h in BONUS_HANDS if h in raw}
    cap = t.get("payout_cap", int, default=0, required=False)
    if cap < 0:
        raise PaytableError(f"{where}: payout_cap must not be negative")
    envy_raw = t.get("envy", dict, default={}, required=False)
    envy: dict[str, int] = {}
    for hand, amount in envy_raw.items():
        if hand not in BONUS_HANDS or isinstance(amount, bool) or not isinstance(amount, int):
            raise PaytableError(f"{where}: envy.{hand} = {amount!r} is not valid")
        if amount <= 0:
            raise PaytableError(f"{where}: envy.{hand} must be positive cents")
        envy[hand] = amount
    envy_minimum = t.get("envy_minimum", int, default=0, required=False)
    if envy and envy_minimum <= 0:
        raise PaytableError(f"{where}: envy needs a positive envy_minimum")
    side = SideBet(
        name=name,
        pays=MappingProxyType(pays),
        payout_cap=cap,
        envy=MappingProxyType(envy),
        envy_minimum=envy_minimum,
    )
    return side, limit


def parse_bets(bets: Mapping[str, Any], where: str) -> tuple[dict[str, BetLimit], SideBet | None]:
    """The ``[bets]`` tables: the main bet's limits and at most one side bet."""
    unknown = set(bets) - {MAIN_BET, *SIDE_BETS}
    if unknown:
        raise PaytableError(f"{where}: unknown bets {sorted(unknown)}")
    if MAIN_BET not in bets:
        raise PaytableError(f"{where}: bet 'main' is missing")
    main = table(bets[MAIN_BET], f"{where}: [bets.main]", {"minimum", "maximum", "increment"})
    limits = {MAIN_BET: parse_limit(main)}
    sides = [s for s in SIDE_BETS if s in bets]
    if len(sides) > 1:
        raise PaytableError(f"{where}: at most one side bet per table, got {sides}")
    side: SideBet | None = None
    if sides:
        side, limits[sides[0]] = parse_side(sides[0], bets[sides[0]], f"{where}: [bets.{sides[0]}]")
    return limits, side


def parse_rules(top: TomlTable) -> tuple[PaiGowRules, int, dict[str, BetLimit]]:
    """The ``[rules]``, ``[commission]`` and ``[bets]`` tables: the rules, seats and limits."""
    where = top.where
    r = table(
        top.get("rules", dict),
        f"{where}: [rules]",
        {
            "joker",
            "wheel_second",
            "seats",
            "surrender",
            "player_bank",
            "foul",
            "house_way_button",
            "extra_hands",
            "land_deal",
            "dragon",
            "player_dealer_hands",
        },
    )
    try:
        joker = JokerRule(r.get("joker", str))
    except ValueError:
        raise PaytableError(f"{where}: [rules] joker must be 'ace-or-filler' or 'wild'") from None
    seats = r.get("seats", int)
    if not 1 <= seats <= 6:
        raise PaytableError(f"{where}: [rules] seats must be 1..6 (7 hands of 7 from 53 cards)")
    c = table(top.get("commission", dict), f"{where}: [commission]", {"bp", "rounding"})
    bp = c.get("bp", int)
    if not 0 <= bp < 10_000:
        raise PaytableError(f"{where}: [commission] bp must be 0..9999, got {bp}")
    try:
        rounding = Rounding(c.get("rounding", str))
    except ValueError:
        raise PaytableError(f"{where}: [commission] unknown rounding") from None
    limits, side = parse_bets(top.get("bets", dict), where)
    rules = PaiGowRules(
        joker=joker,
        wheel_second=r.get("wheel_second", bool),
        commission_bp=bp,
        commission_rounding=rounding,
        side=side,
        surrender=r.get("surrender", bool, default=False, required=False),
        player_bank=r.get("player_bank", bool, default=False, required=False),
        land_deal=r.get("land_deal", bool, default=False, required=False),
        dragon=r.get("dragon", bool, default=False, required=False),
        foul=_choice(Foul, r, "foul", Foul.RESET),
        house_way_button=r.get("house_way_button", bool, default=True, required=False),
        extra_hands=_choice(ExtraHands, r, "extra_hands", ExtraHands.PLAYER),
        player_dealer=_player_dealer(
            r.get("player_dealer_hands", int, default=None, required=False), where
        ),
    )
    if rules.player_bank and rules.player_dealer:
        raise PaytableError(
            f"{where}: [rules] player_bank (page 002) or the player/dealer, not both"
        )
    if rules.player_bank and side is not None:
        raise PaytableError(f"{where}: [rules] player_bank with a side bet is not supported")
    if rules.player_bank and seats < 2:
        raise PaytableError(f"{where}: [rules] player_bank needs at least 2 seats")
    if rules.land_deal and seats != 6:
        raise PaytableError(f"{where}: [rules] land_deal deals seven positions: needs 6 seats")
    if rules.dragon and not rules.land_deal:
        raise PaytableError(f"{where}: [rules] dragon hands need land_deal (the empty hands)")
    return rules, seats, limits


def _player_dealer(hands: int | None, where: str) -> PlayerDealerRules | None:
    return None if hands is None else PlayerDealerRules.parse({"hands": hands}, f"{where}: [rules]")


def _choice(kind: type[E], t: TomlTable, key: str, default: E) -> E:
    """An optional ``[rules]`` key naming one of ``kind``'s values."""
    text = t.get(key, str, default=str(default), required=False)
    try:
        return kind(text)
    except ValueError:
        allowed = ", ".join(repr(str(e)) for e in kind)
        raise PaytableError(f"{t.where}: {key} must be one of {allowed}, got {text!r}") from None


def parse_table(data: Mapping[str, Any], where: str) -> Variant[PaiGowRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top = table(
        data,
        where,
        {"spec", "id", "title", "source", "notes", "rules", "commission", "bets", "collection"},
    )
    top.require_spec(SPEC)
    vid, title, source = top.get("id", str), top.get("title", str), top.get("source", str)
    notes = top.notes()
    rules, seats, limits = parse_rules(top)
    return Variant(
        id=vid,
        family="pai_gow",
        title=title,
        source=source,
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=notes,
        decks=1,
        jokers=1,
        new_shoe_each_game=True,
        collection=collection.read(data, where),
    )


def loads(text: str, where: str = "<string>") -> Variant[PaiGowRules]:
    """Parse and validate a pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[PaiGowRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.pai_gow", name))

"""The rules of a fixed-limit poker room table as one frozen dataclass, read from TOML.

Page 001 gives the betting (fixed limit, four bets a round, no cap heads-up), the blinds,
the button, the bring-in and the deal of each game. What it leaves open a California
card room decides, and each such choice is data in ``paytables/*.toml`` with a note
saying it is the standard and not the page (README: "use the standard named below, put
it in the variant's data"). Schema (``spec = 1``)::

    spec = 1
    id, title, source = "..."; notes = ["..."]
    [rules]
    game = "holdem" | "omaha" | "stud"
    seats = 2..9 (stud 2..8)
    lower_limit = 200; higher_limit = 400      # cents: the $2/$4 structure
    chip = 100                                 # the smallest chip: stakes and the rake
    cap = 4                                    # bets a round (bet, raise, re-raise, cap)
    ante = 25; bring_in = 100                  # stud only (bring_in default: half the lower)
    min_buy_in = 2000; max_buy_in = 10000      # cents
    [collection]
    kind = "rake" | "seat-fee" | "none"
    percent_bp = 1000; cap = 400; min_pot = 0; no_flop_no_drop = true   # rake
    amount = 100                                                        # seat fee per hand
    [room]   # the card-room rules the page leaves open, each a named standard choice
    button = "moving" ; entry = "post-or-wait" ; missed_blinds = "post-both" ;
    misdeal = "..." ; odd_chip = "..." ; short_all_in = "full-bet" ; common_card = "..."

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.tomlread import TomlTable, packaged, parse_toml

SPEC = 1
GAMES = ("holdem", "omaha", "stud")
PACKAGED = ("holdem-2-4", "omaha-2-4", "stud-2-4")
#: the most seats a game deals to (stud: 8 x 7 cards; 9 would leave no common card)
MAX_SEATS = {"holdem": 9, "omaha": 9, "stud": 8}
#: the [room] keys, each a card-room rule the page leaves open (value: the chosen standard)
ROOM_KEYS = (
    "button",
    "entry",
    "missed_blinds",
    "misdeal",
    "odd_chip",
    "short_all_in",
    "common_card",
    "showdown",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Collection:
    """What the house takes (page 001 is silent; the room's choice, configurable).

    ``kind`` "rake": ``percent_bp`` basis points of each pot in whole chips, at most ``cap``
    cents a hand, the main pot first, taken from hands of at least ``min_pot`` and
    (``no_flop_no_drop``) only once a flop (stud: 4th street) is dealt; "seat-fee":
    ``amount`` cents from every seat dealt in, at the start of the hand; "none": nothing.
    """

    kind: str = "none"
    percent_bp: int = 0
    cap: int = 0
    min_pot: int = 0
    no_flop_no_drop: bool = True
    amount: int = 0

    def rake_of(self, pot: int, chip: int) -> int:
        """``percent_bp`` of one pot in whole chips, rounded down (10%: one $1 chip for
        every $10), before the cap."""
        return pot * self.percent_bp // 10_000 // chip * chip

    @property
    def seat_fee(self) -> int:
        """The fee every seat dealt in pays at the start of a hand."""
        return self.amount if self.kind == "seat-fee" else 0


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomRules:
    """One poker room table: the game, its stakes and the room's rules."""

    game: str  # "holdem", "omaha" or "stud"
    lower_limit: int  # cents
    higher_limit: int
    chip: int = 100
    cap: int = 4
    ante: int = 0  # stud
    bring_in: int = 0  # stud
    min_buy_in: int = 0
    max_buy_in: int = 0
    collection: Collection = field(default_factory=Collection)
    room: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def small_blind(self) -> int:
        """Half the lower limit rounded down to the dollar (page 001)."""
        return (self.lower_limit // 2) // 100 * 100

    @property
    def big_blind(self) -> int:
        """The lower limit (page 001)."""
        return self.lower_limit

    @property
    def hole_cards(self) -> int:
        """Hole cards dealt before the first round (hold'em 2, Omaha 4, stud 2 down + 1 up)."""
        return {"holdem": 2, "omaha": 4, "stud": 3}[self.game]

    @property
    def is_stud(self) -> bool:
        return self.game == "stud"

    def limit_of(self, street: int) -> int:
        """The bet of betting round ``street`` (0-based): lower for the first two."""
        return self.lower_limit if street < 2 else self.higher_limit


def _positive(t: TomlTable, key: str, default: int | None = None) -> int:
    value: int = t.get(key, int, default=default, required=default is None)
    if value < 0 or (default is None and value == 0):
        raise PaytableError(f"{t.where}: {key} must be positive, got {value}")
    return value


def _collection(data: Any, where: str) -> Collection:
    if data is None:
        return Collection()
    if not isinstance(data, dict):
        raise PaytableError(f"{where}: [collection] must be a table")
    keys = {"kind", "percent_bp", "cap", "min_pot", "no_flop_no_drop", "amount", "note"}
    t = TomlTable(data, f"{where} [collection]", keys)
    kind = t.get("kind", str)
    if kind not in ("rake", "seat-fee", "none"):
        raise PaytableError(f"{t.where}: kind must be rake, seat-fee or none, got {kind!r}")
    c = Collection(
        kind=kind,
        percent_bp=_positive(t, "percent_bp", 0),
        cap=_positive(t, "cap", 0),
        min_pot=_positive(t, "min_pot", 0),
        no_flop_no_drop=t.get("no_flop_no_drop", bool, default=True, required=False),
        amount=_positive(t, "amount", 0),
    )
    if kind == "rake" and not (0 < c.percent_bp <= 10_000 and c.cap > 0):
        raise PaytableError(f"{t.where}: a rake needs percent_bp 1..10000 and a positive cap")
    if kind == "seat-fee" and c.amount <= 0:
        raise PaytableError(f"{t.where}: a seat fee needs a positive amount")
    return c


def parse_rules(data: Mapping[str, Any], where: str) -> tuple[RoomRules, int]:
    """The ``[rules]``, ``[collection]`` and ``[room]`` tables as rules, and the seats."""
    raw = data.get("rules")
    if not isinstance(raw, dict):
        raise PaytableError(f"{where}: [rules] must be a table")
    keys = {"game", "seats", "lower_limit", "higher_limit", "chip", "cap", "ante", "bring_in"}
    t = TomlTable(raw, f"{where} [rules]", keys | {"min_buy_in", "max_buy_in"})
    game = t.get("game", str)
    if game not in GAMES:
        raise PaytableError(f"{t.where}: game must be one of {GAMES}, got {game!r}")
    seats = _positive(t, "seats")
    if not 2 <= seats <= MAX_SEATS[game]:
        raise PaytableError(f"{t.where}: seats must be 2..{MAX_SEATS[game]} for {game}")
    lower, higher = _positive(t, "lower_limit"), _positive(t, "higher_limit")
    if higher < lower:
        raise PaytableError(f"{t.where}: higher_limit must be at least lower_limit")
    chip = _positive(t, "chip", 100)
    ante = _positive(t, "ante", 0)
    bring_in = _positive(t, "bring_in", lower // 2 if game == "stud" else 0)
    if game != "stud" and (ante or bring_in):
        raise PaytableError(f"{t.where}: ante and bring_in are stud's")
    if game == "stud" and not 0 < bring_in <= lower:
        raise PaytableError(f"{t.where}: bring_in must be 1..lower_limit cents")
    rules = RoomRules(
        game=game,
        lower_limit=lower,
        higher_limit=higher,
        chip=chip,
        cap=_positive(t, "cap", 4),
        ante=ante,
        bring_in=bring_in,
        min_buy_in=_positive(t, "min_buy_in"),
        max_buy_in=_positive(t, "max_buy_in"),
        collection=_collection(data.get("collection"), where),
        room=_room(data.get("room"), where),
    )
    amounts = [lower, higher, rules.small_blind if game != "stud" else bring_in, ante]
    if any(a % chip for a in amounts) or rules.cap < 1:
        raise PaytableError(f"{t.where}: every stake must be a multiple of chip; cap >= 1")
    if game != "stud" and rules.small_blind == 0:
        raise PaytableError(f"{t.where}: the small blind (half the lower limit) rounds to $0")
    if rules.max_buy_in < rules.min_buy_in or rules.min_buy_in < higher:
        raise PaytableError(f"{t.where}: need higher_limit <= min_buy_in <= max_buy_in")
    return rules, seats


def _room(data: Any, where: str) -> Mapping[str, str]:
    if not isinstance(data, dict):
        raise PaytableError(f"{where}: [room] must be a table")
    t = TomlTable(data, f"{where} [room]", set(ROOM_KEYS))
    out = {k: t.get(k, str) for k in ROOM_KEYS}
    if out["button"] != "moving" or out["short_all_in"] != "full-bet":
        raise PaytableError(f"{t.where}: this engine runs button = moving, short_all_in = full-bet")
    if out["entry"] not in ("post-or-wait", "wait-for-big-blind"):
        raise PaytableError(f"{t.where}: entry must be post-or-wait or wait-for-big-blind")
    return MappingProxyType(out)


def loads(text: str, where: str) -> Variant[RoomRules]:
    """A poker room variant from TOML text."""
    data = parse_toml(text, where)
    top = TomlTable(
        data, where, {"spec", "id", "title", "source", "notes", "rules", "collection", "room"}
    )
    top.require_spec(SPEC)
    rules, seats = parse_rules(data, where)
    limits = {
        "lower": BetLimit(minimum=rules.lower_limit, maximum=rules.lower_limit, increment=1),
        "higher": BetLimit(minimum=rules.higher_limit, maximum=rules.higher_limit, increment=1),
    }
    return Variant(
        id=top.get("id", str),
        family="poker_room",
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=top.notes(),
        decks=1,
        new_shoe_each_game=True,
    )


def without_collection(variant: Variant[RoomRules]) -> Variant[RoomRules]:
    """The same table taking no collection (chips in = chips out: the peer comparison)."""
    return replace(variant, rules=replace(variant.rules, collection=Collection()))


def load_packaged(name: str) -> Variant[RoomRules]:
    """One of :data:`PACKAGED`."""
    text, where = packaged("games.poker_room", name)
    return loads(text, where)


__all__ = ["PACKAGED", "Collection", "RoomRules", "load_packaged", "loads", "without_collection"]

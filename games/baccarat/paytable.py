"""Baccarat tables as data: the TOML files in ``paytables/``, loaded and validated.

Each file (``spec = 1``) names its source page, and says so wherever the page is
silent and a standard fills the gap. :func:`parse_table` turns a file into a frozen
:class:`~games.baccarat.rules.BaccaratRules` plus the :class:`~games.core.engine.Variant`
built on it; anything malformed raises :class:`~games.core.errors.PaytableError` with
the file and key in a one-line message, and nothing is half-loaded.

Schema (every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                       # optional
    [rules]
    decks = 6                             # 1..8
    new_shoe_each_game = true
    banker_three_card_seven_pushes = false
    player_banked = false
    bank_rotation_hands = 0               # > 0 only when player_banked
    positions = 7                         # seats to choose from (view only)
    seats = 1                             # players at the table
    [commission]
    banker_bp = 500                       # basis points of a winning banker bet's win
    rounding = "up"                       # games.core.money.Rounding value
    [bets.<name>]                         # player, banker, tie, dragon7, panda8, bank
    pays = "8:1"                          # win:stake ("0:1" for bank, which pays by result)
    minimum = 100                         # cents
    maximum = 50000
    increment = 100
    [declared_rtp_bp]                     # optional: bet -> return to player, basis points
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.baccarat.rules import BANK_BET, KNOWN_BETS, MAIN_BETS, BaccaratRules
from games.core import collection
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio, Rounding
from games.core.tomlread import TomlTable, packaged, parse_limit, parse_ratio, parse_toml

SPEC = 1
MAX_DECKS = 8  # exact enumeration keeps counts in int64 up to 8 decks


_RULE_KEYS = {
    "decks",
    "new_shoe_each_game",
    "banker_three_card_seven_pushes",
    "player_banked",
    "bank_rotation_hands",
    "positions",
    "seats",
}


def _table_rules(r: TomlTable, where: str) -> tuple[int, bool, int, int, int]:
    """The [rules] numbers checked against each other: decks, player_banked, the bank's
    rotation in hands, positions and seats."""
    decks = r.get("decks", int)
    if not 1 <= decks <= MAX_DECKS:
        raise PaytableError(f"{where}: [rules] decks must be 1..{MAX_DECKS}, got {decks}")
    player_banked = r.get("player_banked", bool)
    rotation = r.get("bank_rotation_hands", int)
    if player_banked != (rotation > 0) or rotation < 0:
        raise PaytableError(
            f"{where}: [rules] bank_rotation_hands must be > 0 exactly when player_banked"
        )
    positions, seats = r.get("positions", int), r.get("seats", int)
    if positions < 1 or seats < 1 or seats > positions:
        raise PaytableError(f"{where}: [rules] need 1 <= seats <= positions")
    if player_banked and seats < 2:
        raise PaytableError(f"{where}: [rules] a player-banked table needs at least 2 seats")
    return decks, player_banked, rotation, positions, seats


def parse_table(
    data: Mapping[str, Any], where: str
) -> tuple[BaccaratRules, Variant[BaccaratRules]]:
    """Validate a parsed pay-table mapping and build its rules and variant."""
    top = TomlTable(
        data,
        where,
        {
            "spec",
            "id",
            "title",
            "source",
            "notes",
            "rules",
            "commission",
            "bets",
            "declared_rtp_bp",
            "collection",
        },
    )
    top.require_spec(SPEC)
    vid, title, source = top.get("id", str), top.get("title", str), top.get("source", str)
    notes = top.notes()

    r = TomlTable(top.get("rules", dict), f"{where}: [rules]", _RULE_KEYS)
    decks, player_banked, rotation, positions, seats = _table_rules(r, where)

    bp, rounding = _commission(top, where)
    pays, limits = _bets(top, where, player_banked)
    declared = top.declared_rtp_bp(pays)

    rules = BaccaratRules(
        decks=decks,
        new_shoe_each_game=r.get("new_shoe_each_game", bool),
        banker_commission_bp=bp,
        commission_rounding=rounding,
        banker_three_card_seven_pushes=r.get("banker_three_card_seven_pushes", bool),
        player_banked=player_banked,
        bank_rotation_hands=rotation,
        positions=positions,
        pays=MappingProxyType(pays),
        declared_rtp_bp=MappingProxyType(declared),
    )
    variant = Variant(
        id=vid,
        family="baccarat",
        title=title,
        source=source,
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=notes,
        decks=decks,
        new_shoe_each_game=rules.new_shoe_each_game,
        collection=collection.read(data, where),
    )
    return rules, variant


def loads(text: str, where: str = "<string>") -> Variant[BaccaratRules]:
    """Parse and validate a pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)[1]


def load_packaged(name: str) -> Variant[BaccaratRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.baccarat", name))


def _commission(top: TomlTable, where: str) -> tuple[int, Rounding]:
    """The ``[commission]`` table: the banker's commission (basis points) and its rounding."""
    c = TomlTable(top.get("commission", dict), f"{where}: [commission]", {"banker_bp", "rounding"})
    bp = c.get("banker_bp", int)
    if not 0 <= bp < 10_000:
        raise PaytableError(f"{where}: [commission] banker_bp must be 0..9999, got {bp}")
    rounding_s = c.get("rounding", str)
    try:
        rounding = Rounding(rounding_s)
    except ValueError:
        raise PaytableError(f"{where}: [commission] unknown rounding {rounding_s!r}") from None
    return bp, rounding


def _bets(
    top: TomlTable, where: str, player_banked: bool
) -> tuple[dict[str, Ratio], dict[str, BetLimit]]:
    """The ``[bets.<name>]`` tables: each bet's pay and limit (``bank`` on banked tables)."""
    bets = top.get("bets", dict)
    unknown = set(bets) - set(KNOWN_BETS)
    if unknown:
        raise PaytableError(f"{where}: unknown bets {sorted(unknown)}; known: {KNOWN_BETS}")
    for needed in MAIN_BETS:
        if needed not in bets:
            raise PaytableError(f"{where}: bet {needed!r} is missing")
    if (BANK_BET in bets) != player_banked:
        raise PaytableError(f"{where}: a 'bank' bet exists exactly when the table is player-banked")
    pays: dict[str, Ratio] = {}
    limits: dict[str, BetLimit] = {}
    for name in KNOWN_BETS:
        if name not in bets:
            continue
        spot = bets[name]
        if not isinstance(spot, dict):
            raise PaytableError(f"{where}: [bets.{name}] must be a table")
        pays[name] = parse_ratio(spot.get("pays"), f"{where}: [bets.{name}]")
        limits[name] = parse_limit(spot, f"{where}: [bets.{name}]")
        if name != BANK_BET and pays[name].num == 0:
            raise PaytableError(f"{where}: [bets.{name}] pays nothing on a win")
    return pays, limits

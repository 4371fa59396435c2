"""Blackjack table rules as data: the frozen :class:`BlackjackRules` and the loader checking them.

Each table is one TOML file in ``games/blackjack/paytables/`` (``spec = 1``) naming its rules
page, read through :mod:`games.core.tomlread`. :func:`parse_table` validates it into a
``Variant[BlackjackRules]``; any problem raises :class:`~games.core.errors.PaytableError` with
one line saying which key is wrong, so a bad file never yields a half-built table. (The
typed getter here quotes the key, ``'decks' must be an integer``: the wording the table
tests read, which :class:`~games.core.tomlread.TomlTable` words without the quotes.)

Rule knobs are the ones that differ between the pages (000: Pinnacle, 004: 21st Century):

* ``dealer_hits_soft_through``: the highest soft total the dealer still hits (16 = stands on
  soft 17, 17 = hits soft 17 and stands on soft 18+, 21 = hits every soft hand).
* ``insurance``: ``"half"`` (exactly half the bet) or ``"up-to-half"`` (any amount up to half).
* ``split``: ``"same-value"`` (10 and K may split) or ``"same-rank-or-faces"`` (a pair, or any
  two of J/Q/K).
* ``bust_push_totals``: a player's busted three-card total that pushes when the dealer busts
  higher (21st Century's 23/24/25 rule); empty for standard blackjack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.blackjack.strategy import chart_file
from games.core import collection
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.player_dealer import PlayerDealerRules
from games.core.tomlread import packaged, parse_toml

SPEC_VERSION = 1
INSURANCE_MODES = ("half", "up-to-half")
SPLIT_MODES = ("same-value", "same-rank-or-faces")


@dataclass(frozen=True, slots=True, kw_only=True)
class BusterPay:
    """Buster Bet odds for a dealer bust of ``cards`` cards (``Ratio`` win per unit staked)."""

    cards: int
    pays: Ratio


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackRules:
    """Everything the engine, the analysis and the simulator need to know about one table."""

    decks: int
    dealer_peeks: bool
    dealer_hits_soft_through: int
    natural_pays: Ratio
    natural_name: str  # "blackjack" or "natural", for messages
    insurance: str
    insurance_pays: Ratio
    even_money: bool
    double_after_split: bool
    double_for_less: bool
    max_hands: int
    split: str
    split_aces_one_card: bool
    surrender_min_total: int | None  # None: no surrender
    bust_push_totals: tuple[int, ...]
    buster: tuple[BusterPay, ...]  # empty: no Buster Bet
    buster_more_cards: str  # "highest": more cards than the table lists pay its top line
    strategy: str  # name of the scripted player's chart (paytables/strategies/<name>.toml)
    #: backline positions per seat: players who hold no seat betting on its hand (page 004,
    #: 21st Century Blackjack; games.blackjack.backline); 0: no backline bets
    backline_per_seat: int = 0
    #: 004's rotating Player/Dealer position (None: the house banks every hand)
    player_dealer: PlayerDealerRules | None = None

    def buster_pay(self, cards: int) -> Ratio | None:
        """Odds for a dealer bust of ``cards`` cards, or None if the table pays nothing."""
        best: BusterPay | None = None
        for line in self.buster:
            if line.cards == cards:
                return line.pays
            if best is None or line.cards > best.cards:
                best = line
        if best is not None and cards > best.cards and self.buster_more_cards == "highest":
            return best.pays
        return None


def _get(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise PaytableError(f"{where}: missing key {key!r}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PaytableError(f"{where}: {key!r} must be an integer, got {value!r}")
    if kind is not int and not isinstance(value, kind):
        raise PaytableError(f"{where}: {key!r} must be {kind.__name__}, got {value!r}")
    return value


def _ratio(table: Mapping[str, Any], key: str, where: str) -> Ratio:
    raw = _get(table, key, dict, where)
    num = _get(raw, "num", int, f"{where}.{key}")
    den = _get(raw, "den", int, f"{where}.{key}")
    if num <= 0 or den <= 0:
        raise PaytableError(f"{where}.{key}: pay must be positive, got {num}:{den}")
    return Ratio(num, den)


#: the keys of a table's ``[rules]``
RULE_KEYS = frozenset(
    {
        "decks",
        "dealer_peeks",
        "dealer_hits_soft_through",
        "natural_pays",
        "natural_name",
        "insurance",
        "insurance_pays",
        "even_money",
        "double_after_split",
        "double_for_less",
        "max_hands",
        "split",
        "split_aces_one_card",
        "surrender_min_total",
        "bust_push_totals",
        "buster",
        "buster_more_cards",
        "strategy",
        "backline_per_seat",
        "player_dealer_hands",
    }
)


def _buster_lines(raw: Any, where: str) -> tuple[BusterPay, ...]:
    """The Buster Bet pay table: one line per dealer bust card count, each count once."""
    if not isinstance(raw, list):
        raise PaytableError(f"{where}: buster must be a list of tables")
    buster: list[BusterPay] = []
    for i, line in enumerate(raw):
        lw = f"{where}.buster[{i}]"
        if not isinstance(line, dict):
            raise PaytableError(f"{lw}: must be a table")
        cards = _get(line, "cards", int, lw)
        if not 3 <= cards <= 12:
            raise PaytableError(f"{lw}: a dealer bust has 3..12 cards, got {cards}")
        if any(b.cards == cards for b in buster):
            raise PaytableError(f"{lw}: {cards} cards listed twice")
        buster.append(BusterPay(cards=cards, pays=_ratio(line, "pays", lw)))
    return tuple(sorted(buster, key=lambda b: b.cards))


def _rules(raw: Mapping[str, Any], where: str) -> BlackjackRules:
    unknown = sorted(set(raw) - RULE_KEYS)
    if unknown:
        raise PaytableError(f"{where}: unknown keys {unknown}")
    decks = _get(raw, "decks", int, where)
    if not 1 <= decks <= 8:
        raise PaytableError(f"{where}: decks must be 1..8, got {decks}")
    soft = _get(raw, "dealer_hits_soft_through", int, where)
    if not 16 <= soft <= 21:
        raise PaytableError(f"{where}: dealer_hits_soft_through must be 16..21, got {soft}")
    insurance = _get(raw, "insurance", str, where)
    if insurance not in INSURANCE_MODES:
        raise PaytableError(f"{where}: insurance must be one of {INSURANCE_MODES}")
    split = _get(raw, "split", str, where)
    if split not in SPLIT_MODES:
        raise PaytableError(f"{where}: split must be one of {SPLIT_MODES}")
    max_hands = _get(raw, "max_hands", int, where)
    if not 1 <= max_hands <= 4:
        raise PaytableError(f"{where}: max_hands must be 1..4, got {max_hands}")
    surrender = raw.get("surrender_min_total")
    if surrender is not None and (
        isinstance(surrender, bool) or not isinstance(surrender, int) or not 4 <= surrender <= 21
    ):
        raise PaytableError(f"{where}: surrender_min_total must be 4..21, got {surrender!r}")
    pushes = _get(raw, "bust_push_totals", list, where)
    if any(isinstance(t, bool) or not isinstance(t, int) or not 22 <= t <= 30 for t in pushes):
        raise PaytableError(f"{where}: bust_push_totals must be totals 22..30, got {pushes!r}")
    buster = _buster_lines(raw.get("buster", []), where)
    more = raw.get("buster_more_cards", "lose")
    if more not in ("highest", "lose"):
        raise PaytableError(f"{where}: buster_more_cards must be 'highest' or 'lose'")
    strategy = _get(raw, "strategy", str, where)
    if not chart_file(strategy).is_file():
        raise PaytableError(f"{where}: no strategy chart named {strategy!r}")
    backline = raw.get("backline_per_seat", 0)
    if isinstance(backline, bool) or not isinstance(backline, int) or not 0 <= backline <= 7:
        raise PaytableError(f"{where}: backline_per_seat must be 0..7, got {backline!r}")
    pd_hands = raw.get("player_dealer_hands")
    return BlackjackRules(
        player_dealer=None
        if pd_hands is None
        else PlayerDealerRules.parse({"hands": pd_hands}, where),
        backline_per_seat=backline,
        decks=decks,
        dealer_peeks=_get(raw, "dealer_peeks", bool, where),
        dealer_hits_soft_through=soft,
        natural_pays=_ratio(raw, "natural_pays", where),
        natural_name=_get(raw, "natural_name", str, where),
        insurance=insurance,
        insurance_pays=_ratio(raw, "insurance_pays", where),
        even_money=_get(raw, "even_money", bool, where),
        double_after_split=_get(raw, "double_after_split", bool, where),
        double_for_less=_get(raw, "double_for_less", bool, where),
        max_hands=max_hands,
        split=split,
        split_aces_one_card=_get(raw, "split_aces_one_card", bool, where),
        surrender_min_total=surrender,
        bust_push_totals=tuple(sorted(pushes)),
        buster=buster,
        buster_more_cards=more,
        strategy=strategy,
    )


def _limit(raw: Any, where: str) -> BetLimit:
    if not isinstance(raw, dict):
        raise PaytableError(f"{where}: must be a table")
    lo = _get(raw, "minimum", int, where)
    hi = _get(raw, "maximum", int, where)
    inc = _get(raw, "increment", int, where)
    if not 0 < lo <= hi or inc <= 0 or lo % inc:
        raise PaytableError(
            f"{where}: need 0 < minimum <= maximum, minimum a multiple of increment"
        )
    if inc % 2:
        raise PaytableError(f"{where}: increment must be even so half a bet is whole cents")
    return BetLimit(minimum=lo, maximum=hi, increment=inc)


def parse_table(data: Mapping[str, Any], where: str) -> Variant[BlackjackRules]:
    """Validate one parsed TOML table and build its :class:`Variant`."""
    spec = data.get("spec")
    if spec != SPEC_VERSION:
        raise PaytableError(f"{where}: spec must be {SPEC_VERSION}, got {spec!r}")
    ident = _get(data, "id", str, where)
    if not ident.startswith("blackjack-"):
        raise PaytableError(f"{where}: id must start with 'blackjack-', got {ident!r}")
    source = _get(data, "source", str, where)
    if not source.strip():
        raise PaytableError(f"{where}: source must name the rules page")
    rules = _rules(_get(data, "rules", dict, where), f"{where}: rules")
    limits_raw = _get(data, "limits", dict, where)
    limits = {name: _limit(v, f"{where}: limits.{name}") for name, v in limits_raw.items()}
    if "main" not in limits:
        raise PaytableError(f"{where}: limits.main is required")
    if rules.buster and "buster" not in limits:
        raise PaytableError(f"{where}: a Buster Bet table needs limits.buster")
    if not rules.buster and "buster" in limits:
        raise PaytableError(f"{where}: limits.buster given but no buster pay table")
    unexpected = sorted(set(limits) - {"main", "buster"})
    if unexpected:
        raise PaytableError(f"{where}: unknown bet spots {unexpected}")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise PaytableError(f"{where}: notes must be a list of strings")
    new_shoe = data.get("new_shoe_each_game", True)
    if not isinstance(new_shoe, bool):
        raise PaytableError(f"{where}: new_shoe_each_game must be true or false")
    if not new_shoe:
        raise PaytableError(
            f"{where}: only a new shoe per game is implemented (every page says so)"
        )
    if not rules.dealer_peeks:
        raise PaytableError(f"{where}: only peek tables are implemented (every page peeks)")
    seats = data.get("seats", 1)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 7:
        raise PaytableError(f"{where}: seats must be 1..7")
    return Variant(
        id=ident,
        family="blackjack",
        title=_get(data, "title", str, where),
        source=source,
        limits=limits,
        rules=rules,
        seats=seats,
        notes=tuple(notes),
        decks=rules.decks,
        new_shoe_each_game=True,
        collection=collection.read(data, where),
    )


def load_table(path: Path) -> Variant[BlackjackRules]:
    """Read and validate one table file; raise :class:`PaytableError` on any problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PaytableError(f"{path.name}: cannot read: {exc}") from None
    return parse_table(parse_toml(text, path.name), path.name)


#: the shipped tables (``paytables/<name>.toml``), in menu order
TABLES = ("pinnacle", "high_stakes", "twenty_first_century")


def load_packaged(name: str) -> Variant[BlackjackRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    text, where = packaged("games.blackjack", name)
    return parse_table(parse_toml(text, where), where)


def load_variants() -> tuple[Variant[BlackjackRules], ...]:
    """The shipped tables, in menu order."""
    return tuple(load_packaged(name) for name in TABLES)

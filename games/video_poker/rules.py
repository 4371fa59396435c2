"""The rules of a video poker machine as one frozen dataclass, read from its TOML.

Three machines share the family (page 001 and the rules README, "More readings"):

* ``draw``: draw poker from a 52-card deck shuffled fresh for every hand (Jacks or Better
  9/6, the README's base table);
* ``draw`` with a ``[mystery]`` reel (Mystery Bonus Poker): the same game, and a reel spun
  at each deal raises one pay line for that hand (others adjusted as the stop says);
* ``fruit`` (European Slot Poker): symbol hands dealt from the 141-card fruit deck, kept
  from hand to hand per player, credit value and coins bet, with the High-Low double-up
  and the Fruit and Cherry Bonuses.

Schema (``spec = 1``; every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                    # optional
    machine = "draw" | "fruit"
    max_coins = 5                      # coins per hand, 1..max_coins
    denominations = [25, 100, 500]     # credit values in cents
    [[lines]]                          # best first: the first line a hand makes pays
    hand = "royal-flush"; title = "Royal Flush"
    pays = [250, 500, 750, 1000, 4000] # credits paid for 1..max_coins coins (stake included)
    [mystery]                          # optional (draw only)
    [[mystery.stops]]                  # the reel strip, in order
    label = "..."; weight = 30
    raise = "flush"; pays = [...]      # the line raised for the hand
    adjust = { "full-house" = [...] }  # optional: other lines changed for the hand
    [fruit]                            # fruit only
    deck = { joker = 3, bell = 12, ... }   # the composition, 141 cards
    shuffle_at = 25                    # shuffle when this many cards or fewer are left
    double_up_wins = 5
    high = ["joker", ...]; low = [...]
    fruit_bonus = [...]                # credits per coins bet, when the collection is full
    fruit_collect = { plum = 4, watermelon = 4, bell = 4, cherry = 4 }
    cherry_hits = 10                   # two-cherry hands that fill the meter
    cherry_bonus = [...]               # credits per coins bet when it is full

Bad data raises :class:`~games.core.errors.PaytableError` naming the file and key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.tomlread import TomlTable, packaged, parse_toml

SPEC = 1
FAMILY = "video_poker"
PACKAGED = ("jacks_or_better", "mystery_bonus", "european_slot_poker")

#: draw poker's lines, best first (a table names a subset, in this order)
DRAW_HANDS = (
    "royal-flush",
    "straight-flush",
    "four-of-a-kind",
    "full-house",
    "flush",
    "straight",
    "three-of-a-kind",
    "two-pair",
    "jacks-or-better",
)
#: the fruit machine's lines (symbol hands, jokers wild), best first
FRUIT_HANDS = ("five-of-a-kind", "four-of-a-kind", "full-house", "three-of-a-kind", "two-pair")
#: the page's symbols (001), the joker first
SYMBOLS = ("joker", "bell", "watermelon", "plum", "lemon", "bar", "cherry", "diamond")


def bet_name(denomination: int) -> str:
    """The bet spot of a credit value: coins of 25 cents are bet on ``coin-25``.

    >>> bet_name(25), denomination_of("coin-500")
    ('coin-25', 500)
    """
    return f"coin-{denomination}"


def denomination_of(bet: str) -> int:
    """The credit value (cents) a bet spot names; ValueError for another name."""
    head, _, tail = bet.partition("-")
    if head != "coin" or not tail.isdigit():
        raise ValueError(f"not a video poker bet: {bet!r}")
    return int(tail)


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of the pay table: credits paid per coins bet (index 0 is one coin)."""

    hand: str
    title: str
    pays: tuple[int, ...]

    def pay(self, coins: int) -> int:
        return self.pays[coins - 1]


@dataclass(frozen=True, slots=True)
class MysteryStop:
    """One stop of the Mystery Bonus reel: the raised line and any other adjusted."""

    label: str
    weight: int
    raised: str
    lines: Mapping[str, tuple[int, ...]]  # the raised line's pays and any adjusted


@dataclass(frozen=True, slots=True, kw_only=True)
class FruitRules:
    """European Slot Poker's deck, double-up and bonuses (the project's own, 001 gap)."""

    deck: Mapping[str, int]
    shuffle_at: int
    double_up_wins: int
    high: frozenset[str]
    low: frozenset[str]
    fruit_collect: Mapping[str, int]
    fruit_bonus: tuple[int, ...]
    cherry_hits: int
    cherry_bonus: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.deck.values())

    def counts(self) -> tuple[int, ...]:
        """A full deck's counts in :data:`SYMBOLS` order."""
        return tuple(self.deck.get(s, 0) for s in SYMBOLS)


@dataclass(frozen=True, slots=True, kw_only=True)
class VideoPokerRules:
    """One machine."""

    machine: str  # "draw" or "fruit"
    max_coins: int
    denominations: tuple[int, ...]
    lines: tuple[PayLine, ...]
    mystery: tuple[MysteryStop, ...] = ()
    fruit: FruitRules | None = None

    def table(self, stop: MysteryStop | None = None) -> dict[str, tuple[int, ...]]:
        """hand -> pays per coins, with a Mystery stop's raise and adjustments applied."""
        out = {line.hand: line.pays for line in self.lines}
        if stop is not None:
            out.update(stop.lines)
        return out

    @property
    def reel_weight(self) -> int:
        return sum(s.weight for s in self.mystery)

    def stop_at(self, position: int) -> MysteryStop:
        """The reel stop a uniform position 1..reel_weight lands on (weights as data)."""
        left = position
        for stop in self.mystery:
            if left <= stop.weight:
                return stop
            left -= stop.weight
        raise ValueError(f"reel position {position} is past the strip ({self.reel_weight})")


# --- reading ---------------------------------------------------------------------------


def _pays(where: str, value: Any, coins: int) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != coins
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise PaytableError(f"{where}: pays must be {coins} whole numbers of credits")
    return tuple(value)


def _lines(where: str, data: Any, hands: Sequence[str], coins: int) -> tuple[PayLine, ...]:
    if not isinstance(data, list) or not data:
        raise PaytableError(f"{where}: [[lines]] must list the pay lines")
    out: list[PayLine] = []
    for i, raw in enumerate(data):
        t = TomlTable(raw, f"{where}: lines[{i}]", {"hand", "title", "pays"})
        hand = t.get("hand", str)
        if hand not in hands:
            raise PaytableError(f"{where}: lines[{i}] hand {hand!r} is not one of {list(hands)}")
        out.append(PayLine(hand, t.get("title", str), _pays(f"{t.where} pays", raw["pays"], coins)))
    order = [hands.index(line.hand) for line in out]
    if order != sorted(set(order)):
        raise PaytableError(f"{where}: lines must be distinct hands, best first")
    return tuple(out)


def _mystery(
    where: str, data: Any, rules_lines: tuple[PayLine, ...], coins: int
) -> tuple[MysteryStop, ...]:
    t = TomlTable(data, f"{where}: [mystery]", {"stops"})
    stops = t.get("stops", list)
    names = {line.hand for line in rules_lines}
    out: list[MysteryStop] = []
    for i, raw in enumerate(stops):
        s = TomlTable(
            raw, f"{where}: mystery.stops[{i}]", {"label", "weight", "raise", "pays", "adjust"}
        )
        weight, raised = s.get("weight", int), s.get("raise", str)
        if weight <= 0:
            raise PaytableError(f"{s.where}: weight must be positive")
        if raised not in names:
            raise PaytableError(f"{s.where}: raise {raised!r} is not a line of the table")
        lines = {raised: _pays(f"{s.where} pays", raw.get("pays"), coins)}
        for hand, pays in s.get("adjust", dict, default={}, required=False).items():
            if hand not in names or hand == raised:
                raise PaytableError(f"{s.where}: adjust names {hand!r}, not another line")
            lines[hand] = _pays(f"{s.where} adjust.{hand}", pays, coins)
        out.append(MysteryStop(s.get("label", str), weight, raised, MappingProxyType(lines)))
    if not out:
        raise PaytableError(f"{where}: [mystery] needs at least one stop")
    return tuple(out)


def _symbols(where: str, value: Any) -> frozenset[str]:
    if not isinstance(value, list) or not all(v in SYMBOLS for v in value):
        raise PaytableError(f"{where}: must list symbols of {list(SYMBOLS)}")
    return frozenset(value)


def _fruit(where: str, data: Any, coins: int) -> FruitRules:
    keys = {
        "deck",
        "shuffle_at",
        "double_up_wins",
        "high",
        "low",
        "fruit_collect",
        "fruit_bonus",
        "cherry_hits",
        "cherry_bonus",
    }
    t = TomlTable(data, f"{where}: [fruit]", keys)
    deck = t.get("deck", dict)
    if set(deck) != set(SYMBOLS) or not all(isinstance(n, int) and n > 0 for n in deck.values()):
        raise PaytableError(
            f"{t.where}: deck must give a positive count of each of {list(SYMBOLS)}"
        )
    high, low = (
        _symbols(f"{t.where} high", t.get("high", list)),
        _symbols(f"{t.where} low", t.get("low", list)),
    )
    if high | low != set(SYMBOLS):
        raise PaytableError(f"{t.where}: every symbol must be High or Low")
    collect = t.get("fruit_collect", dict)
    if not set(collect) <= set(SYMBOLS) or not all(
        isinstance(n, int) and n > 0 for n in collect.values()
    ):
        raise PaytableError(f"{t.where}: fruit_collect must give positive counts of symbols")
    rules = FruitRules(
        deck=MappingProxyType(dict(deck)),
        shuffle_at=t.get("shuffle_at", int),
        double_up_wins=t.get("double_up_wins", int),
        high=high,
        low=low,
        fruit_collect=MappingProxyType(dict(collect)),
        fruit_bonus=_pays(f"{t.where} fruit_bonus", t.get("fruit_bonus", list), coins),
        cherry_hits=t.get("cherry_hits", int),
        cherry_bonus=_pays(f"{t.where} cherry_bonus", t.get("cherry_bonus", list), coins),
    )
    if not 10 <= rules.shuffle_at < rules.size or rules.double_up_wins < 1 or rules.cherry_hits < 1:
        raise PaytableError(f"{t.where}: shuffle_at, double_up_wins or cherry_hits out of range")
    return rules


def loads(text: str, where: str) -> Variant[VideoPokerRules]:
    """Validate one machine's TOML and build its variant."""
    data = parse_toml(text, where)
    top = TomlTable(
        data,
        where,
        {
            "spec",
            "id",
            "title",
            "source",
            "notes",
            "machine",
            "max_coins",
            "denominations",
            "lines",
            "mystery",
            "fruit",
        },
    )
    top.require_spec(SPEC)
    machine = top.get("machine", str)
    if machine not in ("draw", "fruit"):
        raise PaytableError(f"{where}: machine must be 'draw' or 'fruit', got {machine!r}")
    coins = top.get("max_coins", int)
    if not 1 <= coins <= 100:
        raise PaytableError(f"{where}: max_coins must be 1..100")
    denoms = top.get("denominations", list)
    if not denoms or not all(
        isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in denoms
    ):
        raise PaytableError(f"{where}: denominations must be positive whole cents")
    if len(set(denoms)) != len(denoms):
        raise PaytableError(f"{where}: denominations repeat")
    hands = DRAW_HANDS if machine == "draw" else FRUIT_HANDS
    lines = _lines(where, top.get("lines", list), hands, coins)
    mystery: tuple[MysteryStop, ...] = ()
    if "mystery" in data:
        if machine != "draw":
            raise PaytableError(f"{where}: only a draw machine has a Mystery reel")
        mystery = _mystery(where, data["mystery"], lines, coins)
    fruit = None
    if machine == "fruit":
        fruit = _fruit(where, top.get("fruit", dict), coins)
    elif "fruit" in data:
        raise PaytableError(f"{where}: [fruit] belongs to a fruit machine")
    rules = VideoPokerRules(
        machine=machine,
        max_coins=coins,
        denominations=tuple(sorted(denoms)),
        lines=lines,
        mystery=mystery,
        fruit=fruit,
    )
    limits = {
        bet_name(d): BetLimit(minimum=d, maximum=d * coins, increment=d)
        for d in rules.denominations
    }
    return Variant(
        id=top.get("id", str),
        family=FAMILY,
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=1,
        notes=top.notes(),
        decks=1 if machine == "draw" else 0,
        new_shoe_each_game=True,
    )


def load_packaged(name: str) -> Variant[VideoPokerRules]:
    """A machine shipped in ``paytables/<name>.toml``."""
    text, where = packaged("games.video_poker", name)
    return loads(text, where)


__all__ = [
    "DRAW_HANDS",
    "FRUIT_HANDS",
    "SYMBOLS",
    "FruitRules",
    "MysteryStop",
    "PayLine",
    "VideoPokerRules",
    "bet_name",
    "denomination_of",
    "load_packaged",
    "loads",
]

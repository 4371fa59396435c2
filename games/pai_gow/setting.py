"""How a seat's seven cards become its two hands: a player's decision, or the house way.

Pure helpers of :class:`~games.pai_gow.engine.PaiGowRound`, each a rule of a page:

* :func:`decided_setting`: a ``set`` / ``house-way`` / ``surrender`` decision as the
  setting it makes, and the foul reason if the table plays a foul (``Foul.LOSES``, pages
  002 and 004) rather than asking for it again (``Foul.RESET``, pages 000, 001, 003);
  the house-way decision only where the table has the button (page 001 online has none);
* :func:`parse_seats` and :func:`extra_seats`: which seats are one player's (page 004,
  Fortune: "they may only set the first hand that is viewed. Their other hands will be
  played 'house way'"). The runtime says so with a logged
  ``Decide(seat=None, decision="same-player", arg="1 2")`` before the deal, so a replay
  of the log makes the same game.

>>> parse_seats("2 0", 4)
(0, 2)
>>> extra_seats([0, 1, 2, 3], [(1, 3), (0, 2)])
[2, 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.core.cards import Card
from games.core.errors import FoulHand, IllegalAction
from games.core.records import Decide
from games.pai_gow.hands import Setting, foul_reason, parse_setting
from games.pai_gow.house_way import house_way
from games.pai_gow.rules import Foul, PaiGowRules

SAME_PLAYER = "same-player"  # the runtime's word: these seats are one player's


def decided_setting(
    rules: PaiGowRules, cards: Sequence[Card], decision: str, arg: str, title: str
) -> tuple[Setting, str | None]:
    """The setting a seat's ``decision`` makes of its ``cards``, and its foul reason
    (None unless the table plays fouls: on a ``Foul.RESET`` table a foul is FoulHand).

    A setting that is not a split of the seven cards (wrong cards, wrong sizes) is
    always refused: it is no setting at all, foul or not.
    """
    if decision in ("house-way", "surrender"):
        if decision == "house-way" and not rules.house_way_button:
            raise IllegalAction(
                f"{title} has no house-way button (the online version does not support "
                "asking the house for help): set your hands"
            )
        return house_way(cards, rules.joker, rules.wheel_second), None
    if decision != "set":
        names = "'set', 'house-way'" if rules.house_way_button else "'set'"
        raise IllegalAction(f"unknown decision {decision!r}: use {names} or 'surrender'")
    setting = parse_setting(arg, cards)
    reason = foul_reason(setting, rules.joker, rules.wheel_second)
    if reason is not None and rules.foul is Foul.RESET:
        raise FoulHand(f"foul hand, set it again: {reason}")
    return setting, reason


def default_setting(rules: PaiGowRules, cards: Sequence[Card]) -> str:
    """The rules' default for a seat that does not set its hands: the house way, as the
    ``set`` argument (the table without a house-way button applies it as a plain set)."""
    return str(house_way(cards, rules.joker, rules.wheel_second))


EXTRA_HAND_TEXT = (
    "seat {seat} is its player's second or later hand: the dealer "
    "sets it by the house way (only the first hand is the player's to set)"
)


def extra_house_way(
    rules: PaiGowRules,
    order: Sequence[int],
    players: Iterable[Sequence[int]],
    hands: Mapping[int, Sequence[Card]],
) -> dict[int, Setting]:
    """Page 004 (Fortune): the house-way settings of every seat of a player after its
    first in dealing ``order``, by seat."""
    return {
        seat: house_way(hands[seat], rules.joker, rules.wheel_second)
        for seat in extra_seats(order, players)
    }


def players_records(groups: Iterable[Sequence[int]]) -> tuple[Decide, ...]:
    """One ``Decide(seat=None, decision="same-player", arg="0 2")`` per player holding
    two seats or more (``groups``: each player's seats), seats in order."""
    held = (sorted(g) for g in groups if len(g) > 1)
    return tuple(Decide(seat=None, decision=SAME_PLAYER, arg=" ".join(map(str, g))) for g in held)


def parse_seats(arg: str, seats: int) -> tuple[int, ...]:
    """``"1 3"`` -> (1, 3): two or more distinct seats of this table, in seat order."""
    try:
        found = [int(word) for word in arg.replace(",", " ").split()]
    except ValueError:
        raise IllegalAction(f"{SAME_PLAYER} takes seat numbers, got {arg!r}") from None
    if len(found) < 2 or len(set(found)) != len(found):
        raise IllegalAction(f"{SAME_PLAYER} needs two or more different seats, got {arg!r}")
    if any(not 0 <= s < seats for s in found):
        raise IllegalAction(f"{SAME_PLAYER}: this table has seats 0..{seats - 1}, got {arg!r}")
    return tuple(sorted(found))


def extra_seats(order: Sequence[int], groups: Iterable[Sequence[int]]) -> list[int]:
    """The seats dealt in (``order``, the dealing order) that are a player's second or
    later hand: every seat of a group but the first of it dealt."""
    out: list[int] = []
    for group in groups:
        dealt = [s for s in order if s in group]
        out.extend(dealt[1:])
    return sorted(out, key=order.index)


__all__ = [
    "SAME_PLAYER",
    "decided_setting",
    "default_setting",
    "extra_seats",
    "parse_seats",
]

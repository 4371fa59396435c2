"""What the player sees of a video poker hand (JSON-able TypedDicts).

Nothing hidden exists on this machine but the cards not yet drawn: the draw poker shoe
stays with the runtime, and the fruit deck's next card does not exist before it is drawn
(the view shows only how many cards are left, and per High/Low group in the double-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from games.core.records import JSON
from games.video_poker.double_up import DoubleUpCard

if TYPE_CHECKING:
    from games.video_poker.engine import VideoPokerRound


class PayRow(TypedDict):
    hand: str
    title: str
    pays: list[int]  # credits for 1..max coins, this hand's Mystery stop applied
    raised: bool  # the Mystery reel raised this line for the hand
    adjusted: bool  # the stop changed this line (not the raised one)


class MysteryView(TypedDict):
    stop: str | None  # the label of the stop the reel landed on (None before the spin)
    raised: str | None
    strip: list[str]  # every stop's label, in reel order


class DoubleUpView(TypedDict):
    at_risk: int
    banked: int
    wins: int
    max_wins: int
    high_left: int
    low_left: int
    cards_left: int
    cards: list[DoubleUpCard]


class FruitView(TypedDict):
    collected: list[str]
    collect: list[str]
    cherry: int
    cherry_hits: int
    fruit_bonus: list[int]
    cherry_bonus: list[int]


class MachineView(TypedDict):
    deck_left: int
    collected: list[str]
    cherry: int


class VideoPokerView(TypedDict):
    game: str
    machine: str
    phase: str
    denominations: list[int]
    max_coins: int
    denomination: int
    coins: int
    stake: int
    cards: list[str]
    dealt: list[str]
    auto_hold: list[int]  # 1-based positions the machine holds
    held: list[int] | None  # 1-based positions the player held, once drawn
    line: str | None
    win: int
    bonuses: dict[str, int]
    paytable: list[PayRow]
    mystery: MysteryView | None
    deck_left: int | None
    deck_size: int | None
    shuffled: list[str]
    double_up: DoubleUpView | None
    fruit: FruitView | None
    machines: dict[str, MachineView]  # the player's fruit machine states by "<value>x<coins>"
    settlements: list[JSON]


def build_view(r: VideoPokerRound) -> VideoPokerView:
    rules = r.rules
    stop = r.stop
    table = rules.table(stop)
    rows = [
        PayRow(
            hand=line.hand,
            title=line.title,
            pays=list(table[line.hand]),
            raised=stop is not None and stop.raised == line.hand,
            adjusted=stop is not None and line.hand in stop.lines and stop.raised != line.hand,
        )
        for line in rules.lines
    ]
    fr = r.fruit_rules
    mystery = (
        MysteryView(
            stop=stop.label if stop else None,
            raised=stop.raised if stop else None,
            strip=[s.label for s in rules.mystery],
        )
        if rules.mystery
        else None
    )
    double = None
    if fr is not None and r.double_up_left():
        double = DoubleUpView(
            at_risk=r.at_risk,
            banked=r.banked,
            wins=r.double_wins,
            max_wins=fr.double_up_wins,
            high_left=r.group_left("high"),
            low_left=r.group_left("low"),
            cards_left=r.double_up_left(),
            cards=list(r.double_cards),
        )
    fruit_view = None
    if fr is not None:
        m = r._machine_now() if r.coins else None
        fruit_view = FruitView(
            collected=list(m.collected) if m else [],
            collect=list(fr.fruit_collect),
            cherry=m.cherry if m else 0,
            cherry_hits=fr.cherry_hits,
            fruit_bonus=list(fr.fruit_bonus),
            cherry_bonus=list(fr.cherry_bonus),
        )
    return VideoPokerView(
        game=r.variant.id,
        machine=rules.machine,
        phase=str(r.phase),
        denominations=list(rules.denominations),
        max_coins=rules.max_coins,
        denomination=r.denomination,
        coins=r.coins,
        stake=r.stake,
        cards=list(r.cards),
        dealt=list(r.dealt),
        auto_hold=[i + 1 for i in r.auto],
        held=None if r.held is None else [i + 1 for i in r.held],
        line=r.line,
        win=r.win,
        bonuses=dict(r.bonuses),
        paytable=rows,
        mystery=mystery,
        deck_left=r.deck_left() if fr is not None and r.coins else None,
        deck_size=fr.size if fr is not None else None,
        shuffled=list(r.shuffled),
        double_up=double,
        fruit=fruit_view,
        machines={
            k: MachineView(deck_left=sum(m.deck), collected=list(m.collected), cherry=m.cherry)
            for k, m in sorted(r.machines.items())
        },
        settlements=[s.encode() for s in r.settlements],
    )


__all__ = [
    "DoubleUpView",
    "FruitView",
    "MachineView",
    "MysteryView",
    "PayRow",
    "VideoPokerView",
    "build_view",
]

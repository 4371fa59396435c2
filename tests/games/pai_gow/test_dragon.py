"""Dragon hands: the land table offers them, the online tables do not.

shared/rules/001_4697bf24ec253ef9.txt, "Pai Gow Poker Differences - Physical vs. Online":
"Physical: Players may play more than one hand when sitting at a Pai Gow table with fewer
players than hands. The extra hands are called "dragon" hands." / "Online: The player may
play only one hand; dragon hands are not supported."
"""

from __future__ import annotations

from typing import Any

import pytest

import games.pai_gow as pg
from games.core.cards import Card, parse_cards
from games.core.engine import GameContext, NeedKind
from games.core.errors import BetRefused, IllegalAction
from games.core.records import (
    BetPlaced,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    PlaceBet,
    StartPosition,
)
from games.pai_gow.engine import PaiGowRound, Phase

get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__
LAND = get_variant("pai-gow-land")
DECK = [Card.from_index(i) for i in range(53)]
MINE = "As Kd Qh Qc 7s 7d 2c"  # house way: queens behind, sevens in front: beats the dealer
DEALER = "Jh Jd 9s 6c 4h 3d Kc"  # house way: pair of jacks behind, K-9 in front
DRAGON = "Ah Ad 9h 9d 9c 5d 5h"  # full house behind, aces in front: beats the dealer


def deal(game: PaiGowRound, hands: dict[str, str], start: int = 2) -> list[Any]:
    """Answer the start position, deal ``hands`` (target -> cards) and the rest of the
    deck to the other targets."""
    given = {t: iter(parse_cards(c)) for t, c in hands.items()}
    used = {c for cards in hands.values() for c in parse_cards(cards)}
    spare = iter([c for c in DECK if c not in used])
    events: list[Any] = []
    while (need := game.needs()) is not None:
        if need.kind is NeedKind.POSITION:
            events += game.apply(StartPosition(position=start))
        else:
            events += game.apply(DealCard(card=next(given.get(need.target, spare))))
    return events


def land(bets: dict[int, int], **kw: Any) -> PaiGowRound:
    game = pg.new_game(LAND, 6, **kw)
    for seat, amount in bets.items():
        game.apply(PlaceBet(seat=seat, bet="main", amount=amount))
    game.apply(Deal(seat=min(bets)))
    return game


def test_a_player_plays_the_dragon_hand_as_a_second_hand() -> None:
    """001: "Physical: Players may play more than one hand when sitting at a Pai Gow table
    with fewer players than hands. The extra hands are called "dragon" hands": the first
    unplayed hand is offered; the player takes it with a wager, sees it alone, sets it,
    and it settles against the dealer like any hand."""
    game = land({0: 2000})
    events = deal(game, {"seat0": MINE, "dragon": DRAGON, "dealer": DEALER})
    assert game.phase is Phase.DRAGON and game.dragon_offered() == 0
    assert game.legal_actions(0) == {"dragon", "decline-dragon"}
    assert game.awaiting() == {0}
    shown = {str(e.card) for e in events if isinstance(e, CardShown)}
    assert not shown & set(DRAGON.split())  # dealt face down, nobody has seen it
    taken = game.apply(Decide(seat=0, decision="dragon"))  # no amount: its own wager
    assert BetPlaced(seat=0, bet="dragon", amount=2000) in taken
    assert [e.to for e in taken if isinstance(e, CardShown)] == ["0"] * 7
    mine, public = game.view(0)["dragon"], game.view(None)["dragon"]
    assert mine is not None and public is not None
    assert mine["cards"] == DRAGON.split() and public["cards"] == []
    assert "Ah" not in repr(game.view(None)) and "Ah" not in repr(game.view(3))
    assert game.phase is Phase.SETTING
    game.apply(Decide(seat=0, decision="house-way"))
    assert not game.is_over and game.legal_actions(0) >= {"set", "house-way"}
    with pytest.raises(IllegalAction, match="already set its hands"):
        game.apply(Decide(seat=0, decision="house-way"))
    end = list(game.apply(Decide(seat=0, decision="set", arg="Ah Ad|9h 9d 9c 5d 5h", hand=1)))
    assert game.is_over
    settled = {e.bet: e for e in end if isinstance(e, BetSettled)}
    assert (settled["main"].result, settled["main"].returned) == ("win", 4000)
    assert (settled["dragon"].result, settled["dragon"].returned) == ("win", 4000)
    assert settled["dragon"].note.startswith("dragon hand:")
    assert {e.hand for e in end if isinstance(e, CardShown)} >= {"dragon.low", "dragon.high"}
    assert game.view(3)["dragon"]["setting"] == "Ah Ad | 9h 9d 9c 5d 5h"  # type: ignore[index]


def test_the_offer_goes_round_in_dealing_order_and_unplayed_is_discarded_unseen() -> None:
    """The dragon is offered in turn, from the first player dealt to (the RNG's start)."""
    game = land({0: 1000, 2: 1000, 4: 1000})
    events = deal(game, {}, start=5)  # position 5 is seat 3: the deal goes 3, 4, 5, D, 0, ...
    assert game.dragon is not None and game.dragon.offers == [4, 0, 2]
    with pytest.raises(IllegalAction, match="offered to seat 4 now"):
        game.apply(Decide(seat=0, decision="dragon"))
    with pytest.raises(IllegalAction, match="hands are set after the deal"):
        game.apply(Decide(seat=4, decision="house-way"))
    for seat in (4, 0, 2):
        events += game.apply(Decide(seat=seat, decision="decline-dragon"))
    assert game.phase is Phase.SETTING and game.dragon_offered() is None
    for seat in (0, 2, 4):
        events += game.apply(Decide(seat=seat, decision="house-way"))
    assert game.is_over
    dragon_cards = {str(c) for c in game.dragon.cards}
    assert not {str(e.card) for e in events if isinstance(e, CardShown)} & dragon_cards
    assert all(e.bet == "main" for e in events if isinstance(e, BetSettled))


@pytest.mark.parametrize(
    ("arg", "why"),
    [("400", "at least the \\$5.00 minimum"), ("2500", "at most your own wager of \\$20.00"),
     ("1050", "steps of \\$1.00"), ("x", "in cents")],
)  # fmt: skip
def test_the_dragon_wager_is_at_most_the_player_s_own(arg: str, why: str) -> None:
    """The card room's rule (land.toml notes): a dragon wager of up to the player's own."""
    game = land({0: 2000})
    deal(game, {})
    with pytest.raises(BetRefused, match=why):
        game.apply(Decide(seat=0, decision="dragon", arg=arg))
    game.apply(Decide(seat=0, decision="dragon", arg="500"))
    assert game.bets[0] == {"main": 2000, "dragon": 500}


@pytest.mark.parametrize("vid", ["pai-gow-pinnacle", "pai-gow-online", "pai-gow-bonus"])
def test_the_online_tables_offer_no_dragon_hand(vid: str) -> None:
    """001: "Online: The player may play only one hand; dragon hands are not supported"."""
    variant = get_variant(vid)
    assert not variant.rules.dragon
    game = pg.new_game(variant, variant.seats)
    game.apply(PlaceBet(seat=0, bet="main", amount=variant.limits["main"].minimum))
    game.apply(Deal(seat=0))
    for card in DECK[:14]:
        game.apply(DealCard(card=card))
    assert game.phase is Phase.SETTING and "dragon" not in game.view(0)
    with pytest.raises(IllegalAction, match="no dragon hands"):
        game.apply(Decide(seat=0, decision="dragon"))


def test_a_full_table_has_no_dragon_hand() -> None:
    """ "... fewer players than hands": with every seat playing, no hand is left over."""
    game = land(dict.fromkeys(range(6), 500))
    deal(game, {})
    assert game.phase is Phase.SETTING and game.dragon is None
    assert game.view(0)["dragon"] is None


def test_an_absent_taker_s_dragon_is_set_by_the_house_way_and_may_be_surrendered() -> None:
    """The dragon is set "like any hand": the house way if its player asks or is away;
    on the land table its wager alone may be surrendered (page 002's surrender)."""
    game = land({1: 1000})
    deal(game, {"seat1": MINE, "dragon": DRAGON, "dealer": DEALER})
    game.apply(Decide(seat=1, decision="dragon"))
    assert game.default_action(1) == Decide(seat=1, decision="house-way")
    game.apply(Decide(seat=1, decision="house-way"))
    assert game.default_action(1) == Decide(seat=1, decision="house-way", hand=1)
    end = list(game.apply(Decide(seat=1, decision="surrender", hand=1)))
    dragon = next(e for e in end if isinstance(e, BetSettled) and e.bet == "dragon")
    assert (dragon.result, dragon.returned) == ("lose", 0)
    assert not {str(e.card) for e in end if isinstance(e, CardShown)} & set(DRAGON.split())
    assert game.view(None)["dragon"]["setting"] is None  # type: ignore[index]


def test_a_player_banker_is_not_offered_the_dragon_and_its_bank_must_cover_it() -> None:
    """The Banker plays no second hand; the dragon wager is one more wager the bank pays."""
    carry = {"queue": [0], "house_wagers": {"0": 0}}
    game = pg.new_game(LAND, 6, context=GameContext(carry=carry))
    game.apply(Decide(seat=0, decision="bank", arg="3000 0"))
    game.apply(PlaceBet(seat=1, bet="main", amount=2000))
    game.apply(Deal(seat=1))
    deal(game, {"seat0": DEALER, "seat1": MINE, "dragon": DRAGON})
    assert game.dragon is not None and game.dragon.offers == [1]
    with pytest.raises(BetRefused, match=r"bank can pay only \$10.00 more"):
        game.apply(Decide(seat=1, decision="dragon"))
    game.apply(Decide(seat=1, decision="dragon", arg="1000"))
    game.apply(Decide(seat=0, decision="house-way"))
    game.apply(Decide(seat=1, decision="house-way"))
    end = list(game.apply(Decide(seat=1, decision="house-way", hand=1)))
    s = {(e.seat, e.bet): e for e in end if isinstance(e, BetSettled)}
    assert s[1, "dragon"].returned == 2000 and s[1, "main"].returned == 4000
    assert s[0, "bank"].returned == 3000 - 2000 - 1000  # the bank pays both wins
    assert sum(e.net for e in s.values()) == 0  # chips only pass between the players


def test_a_foul_dragon_hand_loses_as_the_table_s_fouls_do() -> None:
    """002: "Any player's hand that is set incorrectly automatically loses": the dragon
    is set like any hand, so a foul dragon loses its wager (the player's own stands)."""
    game = land({0: 1000})
    deal(game, {"seat0": MINE, "dragon": "Ah Ad Ks 8c 6h 4s 2s", "dealer": DEALER})
    game.apply(Decide(seat=0, decision="dragon"))
    game.apply(Decide(seat=0, decision="house-way"))
    foul = "Ah Ad|Ks 8c 6h 4s 2s"  # aces in front of king high: foul
    end = list(game.apply(Decide(seat=0, decision="set", arg=foul, hand=1)))
    s = {e.bet: e for e in end if isinstance(e, BetSettled)}
    assert (s["dragon"].result, s["dragon"].returned) == ("lose", 0)
    assert "foul" in s["dragon"].note and s["main"].result == "win"

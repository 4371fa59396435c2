"""Seven-card stud as page 001 says: antes, two down and one up, the bring-in by the low
door card (spades, hearts, diamonds, clubs), the high board first, the open pair on 4th
street, five rounds, the last card down; the room's common card and odd chip rules."""

from __future__ import annotations

import pytest

from games.core.cards import DECK, parse_cards
from games.core.engine import Variant
from games.core.records import Decide
from games.poker_room.events import ChipsIn, HandShown, PotAwarded
from games.poker_room.rules import RoomRules
from games.poker_room.script import ScriptedHand

# street 0 deals down, down, up to seats 0, 1, 2 in turn; then a burn before each street
TIE = parse_cards(
    "As Ad 7c Ah Ac 8c Qs Qd 2h"  # seat 0 As Ah | Qs, seat 1 Ad Ac | Qd, seat 2 7c 8c | 2h
    " Jh Ks Kd 9c"  # 4th
    " Jd Kh Kc"  # 5th (seat 2 folded)
    " Js 3h 3d"  # 6th
    " Jc 5c 6c"  # 7th, down
)


def opts(h: ScriptedHand, seat: int) -> list[tuple[str, int]]:
    return [(o.name, o.to) for o in h.round.options(seat)]


def test_antes_then_the_low_door_card_brings_in(stud: Variant[RoomRules]) -> None:
    h = ScriptedHand(stud, {0: 2000, 1: 2000, 2: 2000}, deck=TIE)
    assert [(e.seat, e.amount, e.what) for e in h.of(ChipsIn)] == [
        (0, 25, "ante"),
        (1, 25, "ante"),
        (2, 25, "ante"),
    ]
    assert h.round.to_act == 2  # the 2h is the low card
    assert opts(h, 2) == [("bring-in", 100), ("complete", 200)]  # half the lower limit
    assert h.round.default_action(2) == Decide(seat=2, decision="bring-in")  # forced
    h.act(2, "bring-in")
    assert opts(h, 0) == [("fold", 0), ("call", 100), ("complete", 200)]
    h.act(0, "complete")
    assert opts(h, 1) == [("fold", 0), ("call", 200), ("raise", 400)]


@pytest.mark.parametrize(
    ("doors", "low"),
    [("5s 5c 5d", 1), ("5h 5d 5s", 1), ("2s 3c 4c", 0), ("Ac Kd Ks", 1)],
)
def test_the_low_card_by_suit_clubs_lowest_aces_high(
    stud: Variant[RoomRules], doors: str, low: int
) -> None:
    downs = parse_cards("7c 8c 9c Td Jd Qd")
    deck = [*downs, *parse_cards(doors)]
    h = ScriptedHand(stud, {0: 2000, 1: 2000, 2: 2000}, deck=deck)
    assert h.round.to_act == low


def test_high_board_first_ties_left_of_the_dealer_and_odd_chip_by_suit(
    stud: Variant[RoomRules],
) -> None:
    h = ScriptedHand(stud, {0: 2000, 1: 2000, 2: 2000}, deck=TIE)
    h.act(2, "bring-in")
    h.act(0, "call")
    h.act(1, "call")
    assert h.round.to_act == 0  # Qs Ks and Qd Kd tie: the first seat from the dealer's left
    assert opts(h, 0) == [("check", 0), ("bet", 200)]  # 4th street: the lower limit
    h.act(0, "bet")
    h.act(1, "call")
    h.act(2, "fold")
    assert opts(h, 0) == [("check", 0), ("bet", 400)]  # 5th: the higher limit
    for _ in range(3):
        h.act(0, "check")
        h.act(1, "check")
    assert h.round.is_over
    assert [e.hand for e in h.of(HandShown)] == ["two pair, aces and kings"] * 2
    # 75 antes + 300 + 400 = 775: 387 each, the odd cent to the As
    assert [(e.seat, e.amount) for e in h.of(PotAwarded)] == [(0, 388), (1, 387)]


def test_the_last_card_is_dealt_down(stud: Variant[RoomRules]) -> None:
    h = ScriptedHand(stud, {0: 2000, 1: 2000, 2: 2000}, deck=TIE)
    h.act(2, "bring-in")
    h.act(0, "call")
    h.act(1, "call")
    h.act(0, "bet")
    h.act(1, "call")
    h.act(2, "fold")
    for _ in range(2):
        h.act(0, "check")
        h.act(1, "check")
    assert h.round.street_no == 4  # seventh street: the fifth betting round
    assert "5c" in repr(h.round.view(0)) and "5c" not in repr(h.round.view(1))
    assert "5c" not in repr(h.round.view(None))
    assert h.round.view(1)["seats"][0]["hidden"] == 3


def open_pair_hand(stud: Variant[RoomRules]) -> ScriptedHand:
    """Seat 0 shows a pair of fives on 4th street."""
    deck = parse_cards(
        "2d 3d 4d 6d"  # downs: seat 0 2d 4d, seat 1 3d 6d
        " 5c Kd"  # doors: seat 0 5c brings in
        " 9s 5h 2s"  # burn 9s; 4th street 5h to seat 0, 2s to seat 1
        " 9h 7c 8c 9d Tc Jc 9c Qc Ks"
    )
    h = ScriptedHand(stud, {0: 5000, 1: 5000}, deck=deck)
    h.act(0, "bring-in")
    h.act(1, "call")
    return h


def test_open_pair_either_limit_then_all_raises_at_the_higher(stud: Variant[RoomRules]) -> None:
    h = open_pair_hand(stud)
    assert h.round.to_act == 0  # the pair on board is high
    assert opts(h, 0) == [("check", 0), ("bet", 200), ("bet", 400)]
    with pytest.raises(Exception, match="say the amount"):
        h.round.apply(Decide(seat=0, decision="bet"))
    h.act(0, "bet", 400)
    assert opts(h, 1) == [("fold", 0), ("call", 400), ("raise", 800)]


def test_open_pair_a_lower_bet_may_be_raised_by_either(stud: Variant[RoomRules]) -> None:
    h = open_pair_hand(stud)
    h.act(0, "bet", 200)
    assert opts(h, 1) == [("fold", 0), ("call", 200), ("raise", 400), ("raise", 600)]
    h.act(1, "raise", 600)  # a raise of the higher limit: the higher from now on
    assert opts(h, 0) == [("fold", 200), ("call", 600), ("raise", 1000)]


def test_no_open_pair_no_choice(stud: Variant[RoomRules]) -> None:
    h = ScriptedHand(stud, {0: 2000, 1: 2000, 2: 2000}, deck=TIE)
    h.act(2, "bring-in")
    h.act(0, "call")
    h.act(1, "call")
    assert opts(h, 0) == [("check", 0), ("bet", 200)]


def test_eight_players_to_the_river_share_one_common_card(stud: Variant[RoomRules]) -> None:
    h = ScriptedHand(stud, dict.fromkeys(range(8), 5000), deck=DECK)
    while not h.round.is_over:
        seat = h.round.to_act
        assert seat is not None
        names = {o.name for o in h.round.options(seat)}
        h.act(seat, next(n for n in ("check", "bring-in", "call") if n in names))
    assert h.round.dealt == 52 and len(h.round.board) == 1  # no burn: one card was left
    assert all(len(h.round.cards[s]) == 6 for s in range(8))
    common = str(h.round.board[0])
    assert h.round.view(None)["board"] == [common]  # face up, for everyone
    assert len(h.of(HandShown)) == 8

"""A seat's carried standing orders belong to its player (GameContext.new_players): a
new player at the seat does not inherit them, the others keep theirs; what is the
table's stays. Each family with a seat-keyed carry, through games.catalog.new_game with
the carry as logged (the replayer's path; the runtime's path, previous=, is
tests/kiosk_ui/test_new_players.py)."""

from __future__ import annotations

from games import catalog
from games.craps.engine import CrapsGame
from games.pai_gow.engine import PaiGowRound

STUD_CARRY = {"always_contribute": [0, 1], "jackpot_queue": {"0": 3, "1": 2}}


def test_stud_drops_a_new_players_button_and_chip_queue() -> None:
    kept = catalog.new_game("caribbean-stud", 2, carry=STUD_CARRY)
    assert (kept.always_contribute, dict(kept.jackpot_queue)) == ({0, 1}, {0: 3, 1: 2})
    new = catalog.new_game("caribbean-stud", 2, carry=STUD_CARRY, new_players=frozenset({1}))
    assert (new.always_contribute, dict(new.jackpot_queue)) == ({0}, {0: 3})


def test_craps_gives_a_new_player_the_default_come_out_options() -> None:
    default = CrapsGame(catalog.get_variant("craps-pinnacle"), 2).working(0)
    flipped = {k: not v for k, v in default.items()}
    carry = {"working": {"0": flipped, "1": flipped}}
    game = catalog.new_game("craps-pinnacle", 2, carry=carry, new_players=frozenset({0}))
    assert (game.working(0), game.working(1)) == (default, flipped)


def test_pai_gow_hands_a_new_player_no_part_of_the_last_players_rotation() -> None:
    """Page 002: "Each player who took part in the game when the dealer last held the
    bank is then, in turn, given the option of being the Banker"; "A player may not act as
    the Banker for two consecutive hands"; the house matches "the Player/Banker's last
    wager against the house": each is the player's, not the seat's."""
    carry = {"queue": [0, 1], "last_banker": 2, "house_wagers": {"0": 500, "1": 700}}
    same = catalog.new_game("pai-gow-land", 3, carry=carry)
    assert same.view(None)["bank_offered_to"] == 0
    new = catalog.new_game("pai-gow-land", 3, carry=carry, new_players=frozenset({0, 2}))
    assert new.view(None)["bank_offered_to"] == 1
    assert isinstance(new, PaiGowRound)
    start = new.carried_in
    assert (start.queue, start.last_banker, dict(start.house_wagers)) == ((1,), None, {1: 700})

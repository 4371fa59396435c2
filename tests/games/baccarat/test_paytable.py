"""Pay tables load into frozen data, and bad data fails with a clear PaytableError."""

from __future__ import annotations

import dataclasses
from importlib import resources

import pytest

import games.baccarat as bac
from games.baccarat.paytable import loads
from games.core.errors import PaytableError
from games.core.money import Ratio, Rounding

PLAYER = '[bets.player]\npays = "1:1"\n'
PINNACLE = (
    resources.files("games.baccarat").joinpath("paytables").joinpath("pinnacle.toml").read_text()
)


def test_packaged_tables_load_with_page_values() -> None:
    by_id = {v.id: v for v in bac.VARIANTS}
    pin = by_id["baccarat-pinnacle"]
    assert pin.rules.decks == pin.decks == 6 and pin.new_shoe_each_game
    assert pin.rules.pays["tie"] == Ratio(8, 1) and pin.rules.banker_commission_bp == 500
    assert pin.rules.commission_rounding is Rounding.UP
    assert {name: lim.maximum for name, lim in pin.limits.items()} == dict.fromkeys(
        ("player", "banker", "tie"), 50_000
    )
    ez = by_id["baccarat-ez"]
    assert ez.rules.decks == 8 and ez.rules.banker_commission_bp == 0
    assert ez.rules.banker_three_card_seven_pushes
    assert ez.rules.pays["dragon7"] == Ratio(40, 1) and ez.rules.pays["panda8"] == Ratio(25, 1)
    ca = by_id["baccarat-california"]
    assert ca.rules.player_banked and ca.rules.bank_rotation_hands == 2
    for v in bac.VARIANTS:
        assert "shared/rules/" in v.source
        assert any("Standard, not the page" in n for n in v.notes)


def test_rules_are_frozen() -> None:
    rules = bac.VARIANTS[0].rules
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.decks = 8
    with pytest.raises(TypeError):
        rules.pays["tie"] = Ratio(9, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 2", "spec 2 is not supported"),
        ("decks = 6", "decks = 0", "decks must be 1..8"),
        ("decks = 6", 'decks = "six"', "decks must be an integer"),
        ('pays = "8:1"', 'pays = "8 to 1"', "pays must be a string like '8:1'"),
        ('pays = "8:1"', 'pays = "8:0"', "zero denominator"),
        ('pays = "8:1"', 'pays = "0:1"', "pays nothing"),
        ("banker_bp = 500", "banker_bp = 10000", "banker_bp must be 0..9999"),
        ('rounding = "up"', 'rounding = "sideways"', "unknown rounding 'sideways'"),
        ("[bets.tie]", "[bets.tiee]", "unknown bets ['tiee']"),
        ("positions = 7", "positions = 7\ncolour = 'red'", "unknown keys ['colour']"),
        ("bank_rotation_hands = 0", "bank_rotation_hands = 2", "bank_rotation_hands"),
        ("seats = 1", "seats = 9", "seats <= positions"),
        (PLAYER + "minimum = 100", PLAYER + "minimum = 150", "multiples of the increment"),
        (PLAYER + "minimum = 100", PLAYER + "minimum = 0", "0 < minimum"),
        ("tie = 8556", "tie = 0", "declared_rtp_bp] tie must be 1..10000"),
        ("spec = 1", "spec = 1\nspec = 1", "not valid TOML"),
    ],
)  # fmt: skip
def test_bad_data_is_refused_with_a_clear_message(old: str, new: str, message: str) -> None:
    assert old in PINNACLE
    with pytest.raises(PaytableError) as info:
        loads(PINNACLE.replace(old, new, 1), "bad.toml")
    text = str(info.value)
    assert text.startswith("bad.toml") and message in text and "\n" not in text


def test_missing_main_bet_and_bank_mismatch_are_refused() -> None:
    without_tie = PINNACLE.replace("[bets.tie]", "[bets.dragon7]")
    with pytest.raises(PaytableError, match="bet 'tie' is missing"):
        loads(without_tie)
    with_bank = (
        PINNACLE + '\n[bets.bank]\npays = "0:1"\nminimum = 100\nmaximum = 500\nincrement = 100\n'
    )
    with pytest.raises(PaytableError, match="'bank' bet exists exactly when"):
        loads(with_bank.replace("[declared_rtp_bp]", "[declared_rtp_bp_x]", 0))


def test_the_unmodified_text_loads() -> None:
    assert loads(PINNACLE).id == "baccarat-pinnacle"

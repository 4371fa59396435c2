"""The pay tables load, say what the pages say, and bad files fail with one clear line."""

from __future__ import annotations

from fractions import Fraction

import pytest

import games.pai_gow as pg
from games.catalog import get_variant
from games.core.errors import PaytableError
from games.core.money import Rounding
from games.pai_gow.rules import load_packaged, loads
from games.poker.pai_gow_joker import JokerRule

GOOD = """
spec = 1
id = "x"
title = "X"
source = "test"
[rules]
joker = "ace-or-filler"
wheel_second = true
seats = 1
[commission]
bp = 500
rounding = "up"
[bets.main]
minimum = 100
maximum = 1000
increment = 100
"""


def test_catalog_lists_the_four_tables() -> None:
    assert get_variant("pai_gow").id == "pai-gow-pinnacle"
    assert [v.id for v in pg.VARIANTS] == [
        "pai-gow-pinnacle",
        "pai-gow-online",
        "pai-gow-bonus",
        "pai-gow-fortune",
        "pai-gow-land",
    ]
    for v in pg.VARIANTS:
        assert (v.decks, v.jokers, v.family) == (1, 1, "pai_gow")


def test_tables_match_their_pages() -> None:
    pin, online, bonus, fortune = (
        load_packaged(n) for n in ("pinnacle", "online", "bonus", "fortune")
    )
    assert pin.limits["main"].maximum == 250_000  # $2,500 table limit (000)
    assert pin.rules.commission_bp == 500
    assert online.rules.commission_rounding is Rounding.UP_TO_QUARTER  # 001
    side = bonus.rules.side
    assert side is not None and side.payout_cap == 2_500_000  # 25,000 credits of $1 (003)
    assert bonus.limits["bonus"].maximum == 2000  # 20 credits
    assert Fraction(side.pays["seven-card-straight-flush"].num) == 8000
    assert fortune.rules.joker is JokerRule.WILD  # 004
    fs = fortune.rules.side
    assert (
        fs is not None
        and fs.envy_minimum == 500
        and fs.envy["seven-card-straight-flush"] == 100_000
    )
    assert "three-of-a-kind" not in fs.pays


def test_a_minimal_table_loads() -> None:
    assert loads(GOOD).rules.side is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("spec = 1", "spec = 2"), "spec 2 is not supported"),
        (('joker = "ace-or-filler"', 'joker = "mostly"'), "joker must be"),
        (("seats = 1", "seats = 9"), "seats must be 1..6"),
        (('rounding = "up"', 'rounding = "sideways"'), "unknown rounding"),
        (("bp = 500", "bp = 10000"), "bp must be 0..9999"),
        (("minimum = 100", "minimum = 150"), "multiples of the increment"),
        (("[bets.main]", "[bets.mainn]"), "unknown bets"),
        (("wheel_second = true", 'wheel_second = "yes"'), "wheel_second must be bool"),
        (("spec = 1", "spec = 1\nextra = 3"), "unknown keys"),
    ],
)
def test_bad_tables_fail_with_one_line(change: tuple[str, str], message: str) -> None:
    with pytest.raises(PaytableError, match=message) as info:
        loads(GOOD.replace(*change), "t.toml")
    assert "\n" not in str(info.value) and "t.toml" in str(info.value)


def test_bad_side_bets_fail() -> None:
    side = "\n[bets.bonus]\nminimum = 100\nmaximum = 2000\nincrement = 100\n"
    with pytest.raises(PaytableError, match="pays needs hands"):
        loads(GOOD + side + "[bets.bonus.pays]\nsix-aces = '1:1'\n")
    with pytest.raises(PaytableError, match="positive whole numbers"):
        loads(GOOD + side + "[bets.bonus.pays]\nflush = '0:1'\n")
    with pytest.raises(PaytableError, match="envy_minimum"):
        loads(GOOD + side + "[bets.bonus.pays]\nflush = '3:1'\n[bets.bonus.envy]\nflush = 100\n")
    with pytest.raises(PaytableError, match="not valid TOML"):
        loads("spec = ")

"""The table files load into the rules the pages state, and bad files fail with one clear line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.blackjack import VARIANTS
from games.blackjack.rules import load_table
from games.blackjack.strategy import chart_file, load_chart
from games.catalog import get_variant
from games.core import PaytableError, Ratio
from games.core.tomlread import packaged

BY_ID = {v.id: v for v in VARIANTS}


def test_pinnacle_tables_are_the_page_rules() -> None:
    for vid, limit in (("blackjack-pinnacle", 50_000), ("blackjack-high-stakes", 500_000)):
        v = BY_ID[vid]
        r = v.rules
        assert v.limits["main"].maximum == limit  # "$500.00" / "$5,000.00"
        assert (r.decks, r.dealer_hits_soft_through, r.max_hands) == (6, 16, 2)
        assert r.natural_pays == Ratio(3, 2) and r.insurance_pays == Ratio(2, 1)
        assert r.even_money and r.double_after_split and r.split_aces_one_card
        assert r.surrender_min_total is None and r.insurance == "half"
        assert v.decks == 6 and v.new_shoe_each_game
        assert "000_f8fdc68712a94de9" in v.source


def test_21st_century_table_is_the_page_rules() -> None:
    v = BY_ID["blackjack-21st-century"]
    r = v.rules
    assert r.natural_pays == Ratio(6, 5) and not r.even_money
    assert r.bust_push_totals == (23, 24, 25) and r.surrender_min_total == 12
    assert r.max_hands == 4 and r.double_for_less and r.insurance == "up-to-half"
    pays = {n: r.buster_pay(n) for n in range(3, 10)}
    assert pays == {
        3: Ratio(2),
        4: Ratio(2),
        5: Ratio(4),
        6: Ratio(15),
        7: Ratio(50),
        8: Ratio(200),
        9: Ratio(200),
    }
    assert r.buster_pay(2) is None
    assert "004_20f479e9f2752085" in v.source


def test_catalog_finds_the_family() -> None:
    assert get_variant("blackjack") is VARIANTS[0]
    assert get_variant("blackjack-21st-century").family == "blackjack"


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "t.toml"
    p.write_text(text)
    return p


GOOD = packaged("games.blackjack", "twenty_first_century")[0]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 2", "spec must be 1"),
        ("decks = 6", "decks = 0", "decks must be 1..8"),
        ("dealer_hits_soft_through = 17", "dealer_hits_soft_through = 15", "16..21"),
        ('insurance = "up-to-half"', 'insurance = "all"', "insurance must be one of"),
        ("max_hands = 4", "max_hands = 9", "max_hands must be 1..4"),
        ("{ cards = 5, pays", "{ cards = 4, pays", "4 cards listed twice"),
        ("natural_pays = { num = 6, den = 5 }", "natural_pays = { num = 6, den = 0 }", "positive"),
        ('strategy = "h17-das-ls"', 'strategy = "nope"', "no strategy chart"),
        ("increment = 100\n\n[limits.buster]", "increment = 101\n\n[limits.buster]", "multiple"),
        ("[limits.buster]", "[limits.side]", "needs limits.buster"),
        ("decks = 6", 'decks = "6"', "'decks' must be an integer"),
        ("surrender_min_total = 12", "surrender_min_total = 12\nsurender = 1", "unknown keys"),
    ],
)
def test_bad_table_refused_with_reason(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(PaytableError, match=message) as info:
        load_table(path)
    assert "\n" not in str(info.value)


def test_not_toml_refused(tmp_path: Path) -> None:
    with pytest.raises(PaytableError, match="not valid TOML"):
        load_table(_write(tmp_path, "spec = = 1"))


def test_charts_are_complete() -> None:
    for name in ("s17-das", "h17-das-ls"):
        chart = load_chart(name)
        assert set(chart.hard) == set(range(4, 22)) and set(chart.soft) == set(range(12, 22))
        assert chart.pairs[8][0] == "P" and chart.pairs[10][0] == "S"
        assert tomllib.loads(chart_file(name).read_text())

"""The pay table file: the page's pays as data, refused with a clear error when broken."""

from __future__ import annotations

from importlib import resources

import pytest

from games.core import PaytableError, Ratio
from games.craps.paytable import load_paytable, load_paytable_text

TEXT = (
    resources.files("games.craps")
    .joinpath("paytables", "pinnacle.toml")
    .read_text(encoding="utf-8")
)


def test_page_pays() -> None:
    t = load_paytable()
    assert t.pay("hard", 4) == Ratio(15, 2)
    assert t.pay("hard", 8) == Ratio(19, 2)
    assert t.pay("place-lose", 4) == Ratio(5, 11)
    assert t.pay("field", 12) == Ratio(3, 1)
    assert t.pay("crap-12") == Ratio(33, 1)
    assert t.maximum == 50000
    assert (t.horn_increment, t.world_increment) == (400, 500)
    assert t.take_max == {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}
    assert t.lay_max == 6
    assert "000" in t.source


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 2", "spec must be 1"),
        ('4 = "15:2"', '4 = "15/2"', "pay must look like '7:6'"),
        ('2 = "30:1"', '2 = "31:1"', "disagrees with the proposition pay"),
        ('7 = "0:1"', '7 = "1:1"', "disagrees with the proposition pay"),
        ("lay_max_multiple = 6", "lay_max_multiple = 0", "positive integer"),
        ('rounding = "nearest"', 'rounding = "sideways"', "unknown rounding"),
        ("maximum = 50000", "maximum = 50000\nbonus = 1", "unknown keys ['bonus']"),
        ('any-7 = "4:1"\n', "", "missing ['any-7']"),
        ("[pays.field]", "[pays.fields]", "missing ['field']"),
        ("spec = 1", "spec = ", "not valid TOML"),
    ],
)
def test_broken_paytable_is_refused_with_a_clear_reason(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(PaytableError, match=message.replace("[", "\\[").replace("(", "\\(")) as exc:
        load_paytable_text(TEXT.replace(old, new, 1), "broken.toml")
    assert str(exc.value).startswith("broken.toml")
    assert "\n" not in str(exc.value)

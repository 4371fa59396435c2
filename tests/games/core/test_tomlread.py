"""games.core.tomlread: the pay-table TOML readers every family shares."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.engine import BetLimit
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.tomlread import (
    TomlTable,
    check_spec,
    exact_keys,
    parse_limit,
    parse_ratio,
    parse_toml,
    pay_ratio,
    read_int,
    read_limits,
)


def test_parse_toml_names_the_file_on_a_syntax_error() -> None:
    assert parse_toml("a = 1\n[b]\nc = 'x'", "t.toml") == {"a": 1, "b": {"c": "x"}}
    with pytest.raises(PaytableError, match=r"^t\.toml: not valid TOML: "):
        parse_toml("a = ", "t.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (8, "pays must be a string like '8:1', got 8"),
        ("8-1", "pays must be a string like"),
        ("8:x", "pays must be two whole numbers"),
        ("-8:1", "pays must be two whole numbers"),
        ("8:0", "pays has a zero denominator"),
    ],
)
def test_parse_ratio_refuses(text: object, message: str) -> None:
    with pytest.raises(PaytableError, match=f"^w: {message}"):
        parse_ratio(text, "w")


def test_parse_ratio_reads() -> None:
    assert parse_ratio(" 19 : 20 ", "w") == Ratio(19, 20)
    assert parse_ratio("0:1", "w") == Ratio(0, 1)


def test_toml_table_types_and_keys() -> None:
    t = TomlTable({"decks": 6, "live": True, "name": "x"}, "w", {"decks", "live", "name", "opt"})
    assert t.get("decks", int) == 6
    assert t.get("live", bool) is True
    assert t.get("opt", int, default=3, required=False) == 3
    with pytest.raises(PaytableError, match="w: live must be an integer, got True"):
        t.get("live", int)
    with pytest.raises(PaytableError, match="w: name must be bool, got 'x'"):
        t.get("name", bool)
    with pytest.raises(PaytableError, match="w: missing key 'opt'"):
        t.get("opt", int)
    with pytest.raises(PaytableError, match=r"w: unknown keys \['colour'\]"):
        TomlTable({"colour": 1}, "w", {"decks"})


def test_parse_limit() -> None:
    raw = {"pays": "1:1", "minimum": 500, "maximum": 50_000, "increment": 100}
    assert parse_limit(raw, "w") == BetLimit(minimum=500, maximum=50_000, increment=100)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"increment": 0}, "increment must be positive"),
        ({"minimum": 0}, "need 0 < minimum <= maximum"),
        ({"maximum": 400}, "need 0 < minimum <= maximum, got 500..400"),
        ({"minimum": 550}, "multiples of the increment"),
        ({"minimum": "5"}, "minimum must be an integer"),
        ({"colour": "red"}, "unknown keys"),
    ],
)
def test_parse_limit_refuses(change: dict[str, Any], message: str) -> None:
    raw: dict[str, Any] = {"minimum": 500, "maximum": 50_000, "increment": 100, **change}
    with pytest.raises(PaytableError, match=message):
        parse_limit(raw, "w")


def test_exact_keys() -> None:
    table = {"a": 1, "b": 2}
    assert exact_keys("w", table, {"a", "b"}) is table
    with pytest.raises(PaytableError, match="w: expected a table"):
        exact_keys("w", [1], {"a"})
    with pytest.raises(PaytableError, match=r"w: missing \['c'\]"):
        exact_keys("w", table, {"a", "b", "c"})
    with pytest.raises(PaytableError, match=r"w: unknown keys \['b'\]"):
        exact_keys("w", table, {"a"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (35, "pay must be a 'num:den' string, got 35"),
        ("35/1", "pay must look like '7:6', got '35/1'"),
        ("7:0", "w: "),
    ],
)
def test_pay_ratio_refuses(text: object, message: str) -> None:
    with pytest.raises(PaytableError, match=message):
        pay_ratio("w", text, "7:6")


def test_pay_ratio_reads() -> None:
    assert pay_ratio("w", "7:6") == Ratio(7, 6)


def test_read_int() -> None:
    assert read_int("w", 5) == 5
    assert read_int("w", 0, positive=False) == 0
    for bad in (0, -1, True, "5", 1.5):
        with pytest.raises(PaytableError, match="w: expected a positive integer"):
            read_int("w", bad)


def test_check_spec() -> None:
    check_spec("w", {"spec": 1, "game": "craps"}, 1, "craps")
    with pytest.raises(PaytableError, match="w: spec must be 1, got 2"):
        check_spec("w", {"spec": 2, "game": "craps"}, 1, "craps")
    with pytest.raises(PaytableError, match="w: game must be 'craps', got 'sicbo'"):
        check_spec("w", {"spec": 1, "game": "sicbo"}, 1, "craps")


def test_read_limits() -> None:
    raw = {"minimum": 100, "maximum": 500, "increment": 100, "horn": 400}
    assert read_limits("w", raw, frozenset({"horn"})) == raw
    with pytest.raises(PaytableError, match=r"w: unknown keys \['horn'\]"):
        read_limits("w", raw)
    with pytest.raises(PaytableError, match="w: minimum above maximum"):
        read_limits("w", {"minimum": 600, "maximum": 500, "increment": 100})
    with pytest.raises(PaytableError, match="w increment: expected a positive integer"):
        read_limits("w", {"minimum": 100, "maximum": 500, "increment": 0})


def test_toml_table_spec_notes_and_declared_rtp() -> None:
    top = TomlTable(
        {"spec": 1, "notes": ["a", "b"], "declared_rtp_bp": {"main": 9700}},
        "w",
        {"spec", "notes", "declared_rtp_bp"},
    )
    top.require_spec(1)
    assert top.notes() == ("a", "b")
    assert top.declared_rtp_bp({"main", "tie"}) == {"main": 9700}
    with pytest.raises(PaytableError, match=r"w: spec 1 is not supported \(expected 2\)"):
        top.require_spec(2)
    with pytest.raises(PaytableError, match=r"w: \[declared_rtp_bp\] main = 9700 is not valid"):
        top.declared_rtp_bp({"tie"})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"notes": ["a", 1]}, "w: notes must be strings"),
        ({"declared_rtp_bp": {"main": 0}}, r"main must be 1\.\.10000"),
        ({"declared_rtp_bp": {"main": 10_001}}, r"main must be 1\.\.10000"),
        ({"declared_rtp_bp": {"main": True}}, "main = True is not valid"),
    ],
)
def test_toml_table_notes_and_declared_rtp_refused(data: dict[str, Any], message: str) -> None:
    top = TomlTable(data, "w", {"notes", "declared_rtp_bp"})

    def read() -> None:
        top.notes()
        top.declared_rtp_bp({"main"})

    with pytest.raises(PaytableError, match=message):
        read()


def test_toml_table_optional_parts_default() -> None:
    top = TomlTable({}, "w", set())
    assert top.notes() == ()
    assert top.declared_rtp_bp({"main"}) == {}

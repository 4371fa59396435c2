"""``croupier games`` through the real dispatcher, on a fake family and on real ones."""

from __future__ import annotations

import json
import sys
import types
from fractions import Fraction

import pytest

from games import catalog
from games.core.engine import BetLimit, Variant
from games.core.figures import HouseEdge, SimulationResult
from games.sim import bet_statistics
from kiosk_ui.cli import main

FAKE = Variant(
    id="coin-fair",
    family="fakecoin",
    title="Coin Toss",
    source="a test double, not a rules page",
    limits={
        "heads": BetLimit(minimum=100, maximum=10_000),
        "edge": BetLimit(minimum=500, maximum=50_000, increment=500),
    },
    rules=None,
)


def _house_edge(variant: Variant) -> dict[str, HouseEdge]:
    return {
        "heads": HouseEdge(edge=Fraction(1, 37), exact=True, method="counting two faces"),
        "edge": HouseEdge(edge=Fraction(-1, 3), exact=False, method="guessed", note="odd"),
    }


def _simulate(variant: Variant, rounds: int, seed: int) -> SimulationResult:
    half = rounds // 2
    bets = {
        "heads": bet_statistics(rounds, [(1.0, half), (-1.0, rounds - half)]),
        "edge": bet_statistics(rounds, [(0.0, rounds)]),
    }
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)


@pytest.fixture
def fake_family(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("games.fakecoin")
    module.VARIANTS = (FAKE,)  # type: ignore[attr-defined]
    module.house_edge = _house_edge  # type: ignore[attr-defined]
    module.simulate = _simulate  # type: ignore[attr-defined]
    module.new_game = lambda variant, seats=1: None  # type: ignore[attr-defined]
    module.autoplay = lambda engine, seat: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.fakecoin", module)
    monkeypatch.setattr(catalog, "FAMILIES", (*catalog.FAMILIES, "fakecoin"))
    return module


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["games", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_names_the_fake_variant_with_limits(
    fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)["games"]}
    assert games["coin-fair"] == {
        "id": "coin-fair",
        "family": "fakecoin",
        "title": "Coin Toss",
        "source": "a test double, not a rules page",
        "limits": {
            "heads": {"min": 100, "max": 10_000, "increment": 100},
            "edge": {"min": 500, "max": 50_000, "increment": 500},
        },
    }


def test_list_human(fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "coin-fair" in out and "Coin Toss" in out
    assert "$5.00 - $500.00 in $5.00 steps" in out


def test_house_edge_json_by_family_name(
    fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "house-edge", "fakecoin", "--json")
    assert code == 0
    assert json.loads(out) == {
        "game": "coin-fair",
        "bets": {
            "heads": {
                "house_edge": "1/37",
                "house_edge_decimal": "0.0270270270270270",
                "exact": True,
                "kind": "exact",
                "method": "counting two faces",
                "note": "",
                "strategy": "",
                "simulation": None,
            },
            "edge": {
                "house_edge": "-1/3",
                "house_edge_decimal": "-0.333333333333333",
                "exact": False,
                "kind": "simulated",
                "method": "guessed",
                "note": "odd",
                "strategy": "",
                "simulation": None,
            },
        },
    }


def test_house_edge_one_bet_human(
    fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "house-edge", "coin-fair", "--bet", "heads")
    assert code == 0
    assert "2.7027%" in out and "exact" in out
    assert "edge " not in out.split("\n", 2)[2]  # only the chosen bet is listed


def test_simulate_json_reports_a_999_interval(
    fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "simulate", "coin-fair", "--rounds", "1000", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["game"], data["rounds"], data["seed"]) == ("coin-fair", 1000, 7)
    heads = data["bets"]["heads"]
    assert heads["mean_return"] == 0.0 and heads["confidence"] == "99.9%"
    assert heads["ci_low"] == pytest.approx(-3.2905267 * (1 / 1000) ** 0.5)
    assert heads["ci_high"] == -heads["ci_low"]


def test_simulate_check_exact_fails_when_outside(
    fake_family: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "simulate", "coin-fair", "--rounds", "100", "--check-exact")
    assert code == 1
    assert "inside" in out and "OUTSIDE" in out  # heads inside, edge (-1/3) far outside
    assert "edge" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("house-edge", "no-such-game"), "unknown game 'no-such-game'"),
        (("house-edge", "coin-fair", "--bet", "tails"), "coin-fair has no bet 'tails'"),
        (("simulate", "coin-fair", "--rounds", "0"), "--rounds must be at least 1"),
        (("simulate", "coin-fair", "--rounds", "5", "--seed", "-1"), "--seed must not be"),
    ],
)
def test_bad_input_is_one_line(
    fake_family: types.ModuleType,
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    message: str,
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("croupier: error: ") and message in err
    assert err.count("\n") == 1


def test_fake_family_is_gone_after_the_test(capsys: pytest.CaptureFixture[str]) -> None:
    assert "fakecoin" not in catalog.families()
    code, _, err = run(capsys, "house-edge", "coin-fair")
    assert code == 2 and "unknown game" in err


def test_real_family_war_house_edge_and_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "house-edge", "war-standard", "--json")
    assert code == 0
    bets = json.loads(out)["bets"]
    assert bets["main"]["exact"] is True
    assert Fraction(bets["main"]["house_edge"]) > 0  # the family's own tests pin the value
    code, out, _ = run(
        capsys, "simulate", "war", "--rounds", "20000", "--seed", "1", "--check-exact", "--json"
    )
    assert code == 0
    assert all(b["exact_in_interval"] for b in json.loads(out)["bets"].values())


def test_real_three_card_family_is_listed_with_its_bets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)["games"]}
    assert games["three-card-poker"]["family"] == "three_card"
    assert set(games["three-card-poker"]["limits"]) == {
        "ante",
        "play",
        "pair-plus",
        "six-card-bonus",
        "progressive",
    }
    assert "001_" in games["tri-card-poker"]["source"]


def test_a_listed_family_that_is_missing_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13 point 8: a family the catalog lists but the build lacks fails loudly."""
    monkeypatch.setattr(catalog, "FAMILIES", (*catalog.FAMILIES, "no_such_family"))
    with pytest.raises(catalog.FamilyMissing, match="'no_such_family'"):
        catalog.families()
    code, out, err = run(capsys, "list")
    assert code == 2 and out == ""
    assert err.startswith("croupier: error: game family 'no_such_family' is listed")
    assert err.count("\n") == 1


def test_a_listed_module_without_variants_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "games.hollow", types.ModuleType("games.hollow"))
    monkeypatch.setattr(catalog, "FAMILIES", (*catalog.FAMILIES, "hollow"))
    with pytest.raises(catalog.FamilyMissing, match=r"games\.hollow has no VARIANTS"):
        catalog.families()


def test_uth_house_edge_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 14 point 11: UTH's ante (best play) and Trips edges print as exact fractions,
    each saying the strategy it assumes."""
    code, out, _ = run(capsys, "house-edge", "ultimate-texas-holdem", "--json")
    assert code == 0
    bets = json.loads(out)["bets"]
    trips, ante = bets["trips"], bets["ante"]
    assert trips["house_edge"] == "233985/6689228" and trips["exact"] is True
    assert trips["method"] == "count over all 133,784,560 seven-card hands"
    assert trips["strategy"].startswith("never folds") and trips["simulation"] is None
    assert ante["exact"] is True and ante["kind"] == "exact" and ante["simulation"] is None
    assert ante["strategy"].startswith("best play")
    assert Fraction(ante["house_edge"]) == Fraction(50643648973, 2317817502000)

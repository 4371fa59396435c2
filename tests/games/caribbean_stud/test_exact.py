"""The exact Caribbean Stud ante edge (games/caribbean_stud/exact.py).

Expected values: the Wizard of Odds' total losses over all 19,933,230,517,200
deals for the best play and six fixed strategies
(tests/data/caribbean_stud/published.json, README there), and direct enumeration
of the 1,533,939 dealer hands for a few player hands.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import games.caribbean_stud as cs
from games.caribbean_stud import exact
from games.caribbean_stud.rules import ACE_KING, StudRules, load_packaged, loads
from games.caribbean_stud.simulate import Decide, rules_of_thumb
from games.core.cards import parse_cards
from games.poker.batch import combinations_array, rank_batch
from games.poker.rank5 import rank5
from tests.games.caribbean_stud.data import load

I64 = npt.NDArray[np.int64]
PUBLISHED = load("published.json")
LOSS: dict[str, int] = PUBLISHED["caribbean_total_loss"]
DEALS: int = PUBLISHED["caribbean_deals"]
PAYTABLE = Path(cs.__file__).parent / "paytables" / "caribbean-stud.toml"


def _rules() -> StudRules:
    return load_packaged("caribbean-stud").rules


def _no_upcard_variant() -> object:
    text = PAYTABLE.read_text(encoding="utf-8")
    return loads(text.replace("dealer_shows_card = true", "dealer_shows_card = false"))


def _percent_digits(x: Fraction) -> float:
    """Rounded to the published digits (three decimals of a percent)."""
    return round(float(x), 5)


def test_deal_count_is_the_published_count() -> None:
    assert exact.DEALS == DEALS == comb(52, 5) * 47 * comb(46, 4)


FEW = (
    "Ah Kd Jc 8s 3h",  # ace/king: the decision depends on the counts
    "Qc Qd 7h 4s 2c",  # a pair
    "7c 5d 4h 3s 2c",  # the worst hand: below the qualifier
    "9s 8s 7s 6s 5s",  # a straight flush: removes a whole suit run
)


def _indices(hand: str) -> list[int]:
    return sorted(c.index for c in parse_cards(hand))


@pytest.fixture(scope="module")
def few() -> exact.DealCounts:
    return exact.deal_counts(ACE_KING, players=np.array([_indices(h) for h in FEW]))


@pytest.mark.parametrize("hand", FEW)
def test_inclusion_exclusion_counts_equal_direct_enumeration(
    few: exact.DealCounts, hand: str
) -> None:
    (row,) = [i for i, p in enumerate(few.player.tolist()) if p == _indices(hand)]
    rest = np.setdiff1d(np.arange(52), _indices(hand))
    dealer = rest[combinations_array(47, 5).astype(np.int64)]  # all 1,533,939 dealer hands
    d = rank_batch(dealer, validate=False)
    p = rank5(parse_cards(hand))

    def per_up(cond: npt.NDArray[np.bool_]) -> I64:
        counts: I64 = np.bincount(dealer[cond].ravel(), minlength=52)[rest]
        return counts

    assert few.up[row].tolist() == rest.tolist()
    assert few.rank[row] == p and few.weight[row] == 1
    assert per_up(np.ones(len(d), dtype=bool)).tolist() == [comb(46, 4)] * 47
    assert few.below_qualifier[row].tolist() == per_up(d < ACE_KING).tolist()
    assert few.below[row].tolist() == per_up(d < p).tolist()
    assert few.at_most[row].tolist() == per_up(d <= p).tolist()


def test_house_edge_is_the_published_best_play_count() -> None:
    want = Fraction(LOSS["perfect"], DEALS)
    for name in ("caribbean-stud", "pinnacle-stud-poker"):
        ante = cs.house_edge(load_packaged(name))["ante"]
        assert ante.exact
        assert ante.edge == want
    assert _percent_digits(want) == PUBLISHED["caribbean_perfect_edge"]


def test_house_edge_without_the_up_card_is_exact_and_the_published_5_316() -> None:
    ante = cs.house_edge(_no_upcard_variant())["ante"]  # type: ignore[arg-type]
    assert ante.exact and "without" in ante.note
    assert _percent_digits(ante.edge) == PUBLISHED["caribbean_akj83_edge"]
    # the best no-up-card play can do no worse than the fixed A-K-J-8-3 rule
    assert ante.edge * DEALS <= LOSS["akj83"]
    # and cannot beat the player who sees the up card
    assert ante.edge * DEALS > LOSS["perfect"]


def test_oasis_and_unknown_rules_fall_back_to_simulation() -> None:
    assert not cs.house_edge(load_packaged("oasis-poker"))["ante"].exact
    text = PAYTABLE.read_text(encoding="utf-8").replace('flush = "5:1"', 'flush = "6:1"')
    odd = loads(text)
    assert exact.cached_edge(odd.rules) is None


def test_percent_rounds_half_up_without_floats() -> None:
    assert exact.percent(Fraction(1041372912372, DEALS)) == "5.224306"
    assert exact.percent(Fraction(1, 8), 1) == "12.5"
    assert exact.percent(Fraction(1, 16), 2) == "6.25"
    assert exact.percent(Fraction(1, 16), 1) == "6.3"


# -- the full count: every player class, every up card (one ~30 s count, one test) --


def _by_rank(low: int) -> Decide:
    def decide(p: I64, r: I64, u: I64 | None) -> npt.NDArray[np.bool_]:
        out: npt.NDArray[np.bool_] = r >= low
        return out

    return decide


def _matching_rank(p: I64, r: I64, u: I64 | None) -> npt.NDArray[np.bool_]:
    """Any pair or better; ace/king when one of the player's ranks matches the up card."""
    assert u is not None
    pair = r >= rank5(parse_cards("2h 2d 3c 4s 5h"))
    match = (p // 4 == (u // 4)[:, None]).any(axis=1)
    out: npt.NDArray[np.bool_] = pair | ((r >= ACE_KING) & match)
    return out


def _check_published_totals(counts: exact.DealCounts, rules: StudRules) -> None:
    assert len(counts.weight) == 134_459 and int(counts.weight.sum()) == comb(52, 5)
    assert exact.optimal_edge(counts, rules, True).loss == LOSS["perfect"]
    strategies: dict[str, Decide] = {
        "rules_of_thumb": rules_of_thumb,
        "akj83": _by_rank(rank5(parse_cards("Ah Kd Jc 8s 3h"))),
        "matching_rank": _matching_rank,
        "pair_or_better": _by_rank(rank5(parse_cards("2h 2d 3c 4s 5h"))),
        "ace_king_or_better": _by_rank(ACE_KING),
        "raise_everything": _by_rank(1),
    }
    for name, decide in strategies.items():
        got = exact.strategy_edge(counts, rules, exact.decisions_of(counts, decide)).loss
        assert got == LOSS[name], name
    no_up = exact.optimal_edge(counts, rules, False).loss
    assert LOSS["perfect"] < no_up <= LOSS["akj83"]


def _check_call_tables(counts: exact.DealCounts, rules: StudRules) -> None:
    for upcard in (True, False):
        table = exact.call_table(counts, rules, upcard)
        want = exact.optimal_decisions(counts, rules, upcard)
        assert (exact.decisions_of(counts, table.calls) == want).all()
        # small: only ace/king hands differ from "call with a pair or better"
        assert 0 < len(table.keys) < 200_000


@pytest.mark.slow
def test_full_count_matches_the_published_totals_and_the_shipped_figures() -> None:
    rules = _rules()
    counts = exact.deal_counts(ACE_KING)
    _check_published_totals(counts, rules)
    # data/exact.json (what house_edge reports) is what the count gives
    (entry,) = [e for e in exact.cached_figures() if e["rules"] == exact.rules_fingerprint(rules)]
    assert exact.figures_entry(counts, rules) == entry
    _check_call_tables(counts, rules)

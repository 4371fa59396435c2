"""The NumPy batch evaluator agrees with the scalar one and refuses bad arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import Card
from games.poker.batch import categories, combinations_array, rank_batch
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.rank5 import category
from games.poker.rank7 import rank_best


@given(
    st.integers(5, 7).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True),
            min_size=1,
            max_size=40,
        )
    )
)
@settings(max_examples=150, deadline=None)
def test_batch_equals_scalar(rows: list[list[int]]) -> None:
    arr = np.array(rows, dtype=np.int64)
    want = [rank_best([Card.from_index(i) for i in row]) for row in rows]
    assert rank_batch(arr).tolist() == want
    assert rank_batch(arr.astype(np.uint8), validate=False).tolist() == want
    assert categories(np.array(want)).tolist() == [category(r) for r in want]


def test_many_random_seven_card_hands() -> None:
    rng = np.random.default_rng(20261130)
    arr = np.argsort(rng.random((3000, 52)), axis=1)[:, :7]
    want = [rank_best([Card.from_index(i) for i in row]) for row in arr.tolist()]
    assert rank_batch(arr).tolist() == want


def test_combinations_array_is_lexicographic_and_complete() -> None:
    arr = combinations_array(7, 3)
    assert arr.shape == (35, 3)
    assert [tuple(r) for r in arr.tolist()] == sorted({tuple(r) for r in arr.tolist()})
    assert (np.diff(arr, axis=1) > 0).all()


@pytest.mark.parametrize(
    ("arr", "message"),
    [
        (np.zeros((3, 4), dtype=np.int64), "shape"),
        (np.zeros(5, dtype=np.int64), "shape"),
        (np.array([[0, 1, 2, 3, 52]]), "out of range"),
        (np.array([[0, 1, 2, 3, -1]]), "out of range"),
        (np.array([[0.0, 1, 2, 3, 4]]), "integers"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), "row 1 holds a card twice"),
    ],
)
def test_bad_arrays_refused(arr: np.ndarray, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        rank_batch(arr)


def test_flush_rows_use_the_flush_table() -> None:
    arr = np.array([[28, 24, 20, 16, 12, 0, 1], [51, 47, 43, 39, 35, 50, 49]])
    assert categories(rank_batch(arr)).tolist() == [Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH]

"""The canonical form is exactly sorted-key compact UTF-8 JSON, and refuses floats."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certification.log.canonical import canonical

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(values)
def test_matches_the_reference_definition(value: object) -> None:
    reference = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == reference.encode("utf-8")


@pytest.mark.parametrize("bad", [0.5, {"a": [1, 2.0]}, {1: "x"}, {"a": float("nan")}, 2**70])
def test_refuses_what_is_not_canonical(bad: object) -> None:
    with pytest.raises(TypeError):
        canonical(bad)

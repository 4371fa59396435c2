"""Video poker hand classes: what a final five-card hand is, for a pay table to pay.

A pay table pays *lines* ("jacks or better", "four aces", "wild royal flush"), and a
line is a set of fine *classes* computed here, once per hand, vectorised over any
``(N, 5)`` array of card indices (``(rank - 2) * 4 + suit``, :mod:`games.core.cards`):

* :data:`NATURAL` (no wild card, 34 classes): nothing, a pair of each rank, two pair,
  three of a kind, straight, flush, full house, four of a kind of each rank, straight
  flush, royal flush. Ranks are kept where pay tables tell them apart (jacks or better,
  tens or better, bonus poker's four aces).
* :data:`DEUCES` (the four deuces wild, 11 classes): the Deuces Wild ladder, natural
  royal down to three of a kind. A wild card makes the best hand of that ladder.

:data:`LINE_CLASSES` names every line a pay table may use and the classes it covers;
a hand takes the first line of its table that covers its class (tables list their
lines best first, so ``four_aces`` before ``four_of_a_kind``). Keys may be written with
hyphens, as the machine's TOML does (``royal-flush``).

>>> import numpy as np
>>> from games.core.cards import parse_cards
>>> def idx(s): return np.array([[c.index for c in parse_cards(s)]])
>>> NATURAL.names[int(classify(idx("As Ks Qs Js Ts"), "none")[0])]
'royal_flush'
>>> NATURAL.names[int(classify(idx("Jh Jd 4c 7s 9h"), "none")[0])]
'pair_J'
>>> DEUCES.names[int(classify(idx("2h 2d Kc Ks 9h"), "deuces")[0])]
'four_of_a_kind'
>>> DEUCES.names[int(classify(idx("2h Ts Js Qs Ks"), "deuces")[0])]
'wild_royal_flush'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

Wild = Literal["none", "deuces"]
I8 = npt.NDArray[np.int8]
RANKS = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class ClassSet:
    """The fine classes of one deck rule, by id (the index in ``names``)."""

    wild: Wild
    names: tuple[str, ...]

    def id(self, name: str) -> int:
        """The id of class ``name``."""
        return self.names.index(name)


NATURAL = ClassSet(
    "none",
    (
        "nothing",
        *(f"pair_{r}" for r in RANKS),
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        *(f"four_{r}" for r in RANKS),
        "straight_flush",
        "royal_flush",
    ),
)
DEUCES = ClassSet(
    "deuces",
    (
        "nothing",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "five_of_a_kind",
        "wild_royal_flush",
        "four_deuces",
        "natural_royal_flush",
    ),
)
CLASS_SETS: dict[str, ClassSet] = {"none": NATURAL, "deuces": DEUCES}


def _natural_lines() -> dict[str, frozenset[str]]:
    pairs = {r: f"pair_{r}" for r in RANKS}
    quads = {r: f"four_{r}" for r in RANKS}
    lines = {
        "royal_flush": {"royal_flush"},
        "straight_flush": {"straight_flush"},
        "four_of_a_kind": set(quads.values()),
        "four_aces": {"four_A"},
        "four_2_4": {"four_2", "four_3", "four_4"},
        "four_5_k": {quads[r] for r in "56789TJQK"},
        "full_house": {"full_house"},
        "flush": {"flush"},
        "straight": {"straight"},
        "three_of_a_kind": {"three_of_a_kind"},
        "two_pair": {"two_pair"},
        "jacks_or_better": {pairs[r] for r in "JQKA"},
        "tens_or_better": {pairs[r] for r in "TJQKA"},
        "pair": set(pairs.values()),
    }
    return {k: frozenset(v) for k, v in lines.items()}


#: every line key a pay table may name, per deck rule, and the classes it pays
LINE_CLASSES: dict[str, dict[str, frozenset[str]]] = {
    "none": _natural_lines(),
    "deuces": {n: frozenset({n}) for n in DEUCES.names if n != "nothing"},
}


def line_key(key: str) -> str:
    """A line key as :data:`LINE_CLASSES` spells it (the machine's TOML writes hyphens)."""
    return key.replace("-", "_")


def line_of_class(wild: Wild, lines: tuple[str, ...]) -> npt.NDArray[np.int64]:
    """For each class id, the index of the first of ``lines`` paying it (``len(lines)``: none).

    Raises ``ValueError`` naming a line key that the deck rule does not know.
    """
    known = LINE_CLASSES[wild]
    cs = CLASS_SETS[wild]
    out = np.full(len(cs.names), len(lines), dtype=np.int64)
    for i, key in enumerate(lines):
        if line_key(key) not in known:
            raise ValueError(f"unknown {wild!r} pay line {key!r}; known: {sorted(known)}")
        for name in known[line_key(key)]:
            cid = cs.id(name)
            if out[cid] == len(lines):
                out[cid] = i
    return out


def classify(hands: npt.NDArray[np.integer], wild: Wild) -> I8:
    """The class id of each row of ``hands`` (``(N, 5)`` distinct card indices 0..51)."""
    h = np.asarray(hands, dtype=np.int64)
    r = np.sort(h >> 2, axis=1)
    order = np.argsort(h >> 2, axis=1, kind="stable")
    s = np.take_along_axis(h & 3, order, axis=1)
    return _natural(r, s) if wild == "none" else _deuces(r, s)


def _shape(r: npt.NDArray[np.int64], wild_low: bool) -> tuple[npt.NDArray[np.int64], ...]:
    """Equal-neighbour counts of sorted ranks: (number of equal pairs, longest run + 1, runs).

    With ``wild_low`` the deuces (rank 0, sorted first) never count as equal.
    """
    eq = r[:, 1:] == r[:, :-1]
    if wild_low:
        eq &= r[:, :-1] != 0
    run2 = eq[:, :-1] & eq[:, 1:]
    run3 = run2[:, :-1] & eq[:, 2:]
    n_eq = eq.sum(axis=1)
    most = 1 + eq.any(axis=1) + run2.any(axis=1) + run3.any(axis=1)
    return n_eq, most.astype(np.int64), eq.astype(np.int64)


def _natural(r: npt.NDArray[np.int64], s: npt.NDArray[np.int64]) -> I8:
    n_eq, most, eq = _shape(r, wild_low=False)
    flush = (s == s[:, :1]).all(axis=1)
    wheel = (r == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = (n_eq == 0) & ((r[:, 4] - r[:, 0] == 4) | wheel)
    cs = NATURAL
    out = np.zeros(r.shape[0], dtype=np.int8)
    pair_rank = np.take_along_axis(r, eq.argmax(axis=1)[:, None], axis=1)[:, 0]
    out[n_eq == 1] = (cs.id("pair_2") + pair_rank)[n_eq == 1]
    out[(n_eq == 2) & (most == 2)] = cs.id("two_pair")
    out[(n_eq == 2) & (most == 3)] = cs.id("three_of_a_kind")
    out[straight & ~flush] = cs.id("straight")
    out[flush & ~straight] = cs.id("flush")
    out[(n_eq == 3) & (most == 3)] = cs.id("full_house")
    quads = most == 4
    out[quads] = (cs.id("four_2") + r[:, 1])[quads]
    out[straight & flush] = cs.id("straight_flush")
    out[straight & flush & (r[:, 0] == 8)] = cs.id("royal_flush")
    return out


def _deuces(r: npt.NDArray[np.int64], s: npt.NDArray[np.int64]) -> I8:
    d = (r == 0).sum(axis=1)
    n_eq, most, _ = _shape(r, wild_low=True)
    flush = ((s == s[:, 4:5]) | (r == 0)).all(axis=1)
    low = np.take_along_axis(r, np.minimum(d, 4)[:, None], axis=1)[:, 0]  # lowest natural
    distinct = n_eq == 0
    straight = distinct & ((r[:, 4] - low <= 4) | ((r[:, 4] == 12) & (r[:, 3] <= 3)))
    royal = distinct & flush & (low >= 8)
    cs = DEUCES
    out = np.zeros(r.shape[0], dtype=np.int8)
    # from the bottom of the ladder up, so the best class a hand makes is written last
    out[most + d >= 3] = cs.id("three_of_a_kind")
    out[straight] = cs.id("straight")
    out[flush] = cs.id("flush")
    out[((d == 0) & (n_eq == 3) & (most == 3)) | ((d == 1) & (n_eq == 2) & (most == 2))] = cs.id(
        "full_house"
    )
    out[most + d >= 4] = cs.id("four_of_a_kind")
    out[straight & flush] = cs.id("straight_flush")
    out[most + d >= 5] = cs.id("five_of_a_kind")
    out[royal & (d > 0)] = cs.id("wild_royal_flush")
    out[d == 4] = cs.id("four_deuces")
    out[royal & (d == 0)] = cs.id("natural_royal_flush")
    return out

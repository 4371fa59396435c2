"""The documented player strategies for the hold'em games, vectorised.

Every function takes rows of card indices (``(rank - 2) * 4 + suit``) and returns
a boolean per row; the scripted player calls them on one row, the simulation on
many, so both play exactly the same way.

Pinnacle Hold'em (casino), best play computed by exact enumeration
(:mod:`games.holdem.exact`, :mod:`games.holdem.calltable`): after the flop,

1. call with a hidden pair (a hole card pairs the flop, or a pocket pair), a
   four-flush, or a made straight or better (of 6,000 random situations best
   play folded just one of these, worth under 0.003% of the ante);
2. otherwise call when the exact expected net of calling, looked up by the
   situation's rank pattern and adjusted for its suit pattern, is at least -1
   ante (what a fold loses); fold when it is below.

Checked against the exact EV of 12,000 random situations
(bench/results/holdem_best.md): the same decision as best play in 99.5% of
them, 0.009% of the ante lost to best play, 82.3% of hands called.
The table is computed for the packaged ``pinnacle-holdem`` rules (the file
names them); a table loaded with other pays plays by the same rule, which is
then not necessarily best play for it.

Ultimate Texas Hold'em, after the Wizard of Odds basic strategy, simplified:

* preflop bet 4x with a pair of 3s or better, any ace, any suited king, K-5+,
  Q-6+ suited, Q-8+, J-8+ suited, J-T; otherwise check;
* flop bet 2x with a hidden pair (a hole card pairs the flop, or a pocket pair
  of 3s or better), a made straight or better, or four to a flush holding a
  ten or better of that suit; otherwise check;
* river bet 1x with a hidden pair (a hole card pairs the board, or a pocket
  pair), a hand the hole cards make better than the board alone, or fewer than
  21 dealer outs (of the 45 unseen cards, those that would beat the player as
  one of the dealer's cards, with the board); otherwise fold.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from games.holdem.calltable import COMPLETIONS, packaged_table
from games.poker.batch import categories, rank_batch
from games.poker.category import Category

Rows = npt.NDArray[np.int64]
#: UTH river: bet 1x with fewer dealer outs than this (Wizard of Odds basic strategy)
OUTS_LIMIT = 21
Bools = npt.NDArray[np.bool_]


def _ranks(cards: Rows) -> Rows:
    out: Rows = cards // 4 + 2
    return out


def four_flush(cards: Rows) -> Bools:
    suits = cards % 4
    out: Bools = np.zeros(len(cards), dtype=bool)
    for s in range(4):
        out |= (suits == s).sum(axis=1) == 4
    return out


def outright_call(hole: Rows, flop: Rows) -> Bools:
    """Rule 1: a hidden pair, a four-flush, or a made straight or better."""
    five = np.concatenate([hole, flop], axis=1)
    cats = categories(rank_batch(five, validate=False))
    out: Bools = _hidden_pair(hole, flop, 2) | four_flush(five) | (cats >= Category.STRAIGHT)
    return out


def casino_call(hole: Rows, flop: Rows) -> Bools:
    """Pinnacle Hold'em: call (True) or fold, by rules 1 and 2 of the module docstring."""
    out = outright_call(hole, flop)
    rest = np.flatnonzero(~out)
    if rest.size:
        estimate = packaged_table().estimate(hole[rest], flop[rest])
        out[rest] = estimate >= -COMPLETIONS
    return out


def _hidden_pair(hole: Rows, board: Rows, pocket_min: int) -> Bools:
    hr, br = _ranks(hole), _ranks(board)
    pairs_board = (hr[:, :, None] == br[:, None, :]).any(axis=(1, 2))
    pocket = (hr[:, 0] == hr[:, 1]) & (hr[:, 0] >= pocket_min)
    out: Bools = pairs_board | pocket
    return out


def uth_preflop(hole: Rows) -> Bools:
    r = _ranks(hole)
    hi, lo = r.max(axis=1), r.min(axis=1)
    suited = hole[:, 0] % 4 == hole[:, 1] % 4
    out: Bools = (
        ((hi == lo) & (hi >= 3))
        | (hi == 14)
        | ((hi == 13) & (suited | (lo >= 5)))
        | ((hi == 12) & ((suited & (lo >= 6)) | (lo >= 8)))
        | ((hi == 11) & ((suited & (lo >= 8)) | (lo >= 10)))
    )
    return out


def uth_flop(hole: Rows, flop: Rows) -> Bools:
    five = np.concatenate([hole, flop], axis=1)
    cats = categories(rank_batch(five, validate=False))
    suits = five % 4
    draw = np.zeros(len(hole), dtype=bool)
    for s in range(4):
        four = (suits == s).sum(axis=1) == 4
        high_hole = ((hole % 4 == s) & (_ranks(hole) >= 10)).any(axis=1)
        draw |= four & high_hole
    out: Bools = _hidden_pair(hole, flop, 3) | (cats >= Category.STRAIGHT) | draw
    return out


def dealer_outs(hole: Rows, board: Rows) -> Rows:
    """Per row: how many of the 45 unseen cards, with the board, beat the player's hand."""
    n = len(hole)
    seen = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(seen, np.concatenate([hole, board], axis=1), True, axis=1)
    unseen = np.nonzero(~seen)[1].reshape(n, 45)
    six = np.concatenate([np.repeat(board, 45, axis=0), unseen.reshape(-1, 1)], axis=1)
    theirs = rank_batch(six, validate=False).reshape(n, 45)
    mine = rank_batch(np.concatenate([hole, board], axis=1), validate=False)
    out: Rows = (theirs > mine[:, None]).sum(axis=1)
    return out


def uth_river(hole: Rows, board: Rows) -> Bools:
    seven = np.concatenate([hole, board], axis=1)
    mine = categories(rank_batch(seven, validate=False))
    table = categories(rank_batch(board, validate=False))
    out: Bools = _hidden_pair(hole, board, 2) | (mine > table)
    rest = np.flatnonzero(~out)
    if rest.size:
        out[rest] = dealer_outs(hole[rest], board[rest]) < OUTS_LIMIT
    return out

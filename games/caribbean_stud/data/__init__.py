"""Figures computed once by :mod:`games.caribbean_stud.exact` and shipped as data.

``exact.json`` holds, for each set of ante/call rules, the exact total ante loss
over all 19,933,230,517,200 deals with the best play, with and without the
dealer's up card. ``python bench/bench_caribbean_exact.py --write-data`` writes
it; the slow test ``tests/games/caribbean_stud/test_exact.py`` recomputes it.
"""

"""Data shipped with the hold'em games: ``casino_call.json`` (see :mod:`games.holdem.calltable`),
``uth_best.json`` (the exact UTH best-play sums, :mod:`games.holdem.uth_exact`) and
``simulated.json`` (the Pinnacle Hold'em run :func:`games.holdem.house_edge` ships,
:mod:`games.core.shipped`)."""

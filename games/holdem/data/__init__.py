"""Data shipped with the hold'em games: ``casino_call.json`` (see :mod:`games.holdem.calltable`)."""

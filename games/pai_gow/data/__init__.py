"""Shipped simulation runs of the pai gow main bet (``simulated.json``, games.core.shipped)."""

"""Shipped simulation runs of the blackjack tables (``simulated.json``, games.core.shipped)."""

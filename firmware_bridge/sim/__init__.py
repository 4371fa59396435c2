"""Simulated devices: the same bytes as the hardware, driven by a seeded :class:`SimWorld`."""

"""Computed figures shipped with the family (not pay tables): the long-run simulation."""

"""Craps pay tables (TOML data, loaded by games.craps.paytable); a package so they ship."""

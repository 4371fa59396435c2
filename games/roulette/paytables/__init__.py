"""Roulette pay tables (TOML data, loaded by games.roulette.paytable); a package so they ship."""

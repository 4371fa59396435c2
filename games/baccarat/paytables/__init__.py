"""Baccarat pay tables (TOML data, loaded by games.baccarat.paytable); a package so they ship."""

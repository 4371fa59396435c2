"""Pai gow pay tables (TOML data, loaded by games.pai_gow.paytable); a package so they ship."""

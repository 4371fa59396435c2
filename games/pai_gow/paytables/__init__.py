"""Pai gow pay tables (TOML data, loaded by games.pai_gow.rules); a package so they ship."""

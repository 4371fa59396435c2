"""Sic bo pay tables (TOML data, loaded by games.sicbo.paytable); a package so they ship."""

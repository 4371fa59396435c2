"""Casino War pay tables (TOML data, loaded by games.war.paytable); a package so they ship."""

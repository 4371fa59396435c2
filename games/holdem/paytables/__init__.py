"""Hold'em pay tables shipped as data (TOML)."""

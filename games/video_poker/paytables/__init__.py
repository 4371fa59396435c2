"""Video poker pay tables (TOML), read through games/core/tomlread.py."""

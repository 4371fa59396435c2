"""Caribbean Stud family pay tables shipped as data (TOML)."""

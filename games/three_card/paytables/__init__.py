"""Three-card pay tables shipped as data (TOML)."""
